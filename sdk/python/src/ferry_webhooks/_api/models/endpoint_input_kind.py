from typing import Literal, cast

EndpointInputKind = Literal['http', 'queue']

ENDPOINT_INPUT_KIND_VALUES: set[EndpointInputKind] = { 'http', 'queue',  }

def check_endpoint_input_kind(value: str) -> EndpointInputKind:
    if value in ENDPOINT_INPUT_KIND_VALUES:
        return cast(EndpointInputKind, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ENDPOINT_INPUT_KIND_VALUES!r}")
