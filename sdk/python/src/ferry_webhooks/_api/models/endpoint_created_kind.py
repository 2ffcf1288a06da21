from typing import Literal, cast

EndpointCreatedKind = Literal['http', 'queue']

ENDPOINT_CREATED_KIND_VALUES: set[EndpointCreatedKind] = { 'http', 'queue',  }

def check_endpoint_created_kind(value: str) -> EndpointCreatedKind:
    if value in ENDPOINT_CREATED_KIND_VALUES:
        return cast(EndpointCreatedKind, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ENDPOINT_CREATED_KIND_VALUES!r}")
