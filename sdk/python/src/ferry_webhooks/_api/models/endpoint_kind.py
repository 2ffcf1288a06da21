from typing import Literal, cast

EndpointKind = Literal['http', 'queue']

ENDPOINT_KIND_VALUES: set[EndpointKind] = { 'http', 'queue',  }

def check_endpoint_kind(value: str) -> EndpointKind:
    if value in ENDPOINT_KIND_VALUES:
        return cast(EndpointKind, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ENDPOINT_KIND_VALUES!r}")
