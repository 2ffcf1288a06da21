from typing import Literal, cast

SourcesRequestsListStatus = Literal['duplicate', 'received', 'refused', 'rejected', 'verified']

SOURCES_REQUESTS_LIST_STATUS_VALUES: set[SourcesRequestsListStatus] = { 'duplicate', 'received', 'refused', 'rejected', 'verified',  }

def check_sources_requests_list_status(value: str) -> SourcesRequestsListStatus:
    if value in SOURCES_REQUESTS_LIST_STATUS_VALUES:
        return cast(SourcesRequestsListStatus, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SOURCES_REQUESTS_LIST_STATUS_VALUES!r}")
