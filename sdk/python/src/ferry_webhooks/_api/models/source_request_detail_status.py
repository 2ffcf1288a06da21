from typing import Literal, cast

SourceRequestDetailStatus = Literal['duplicate', 'received', 'refused', 'rejected', 'verified']

SOURCE_REQUEST_DETAIL_STATUS_VALUES: set[SourceRequestDetailStatus] = { 'duplicate', 'received', 'refused', 'rejected', 'verified',  }

def check_source_request_detail_status(value: str) -> SourceRequestDetailStatus:
    if value in SOURCE_REQUEST_DETAIL_STATUS_VALUES:
        return cast(SourceRequestDetailStatus, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SOURCE_REQUEST_DETAIL_STATUS_VALUES!r}")
