from typing import Literal, cast

SourceRequestStatus = Literal['duplicate', 'received', 'refused', 'rejected', 'verified']

SOURCE_REQUEST_STATUS_VALUES: set[SourceRequestStatus] = { 'duplicate', 'received', 'refused', 'rejected', 'verified',  }

def check_source_request_status(value: str) -> SourceRequestStatus:
    if value in SOURCE_REQUEST_STATUS_VALUES:
        return cast(SourceRequestStatus, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SOURCE_REQUEST_STATUS_VALUES!r}")
