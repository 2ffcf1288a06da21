from typing import Literal, cast

EndpointFormat = Literal['envelope', 'raw']

ENDPOINT_FORMAT_VALUES: set[EndpointFormat] = { 'envelope', 'raw',  }

def check_endpoint_format(value: str) -> EndpointFormat:
    if value in ENDPOINT_FORMAT_VALUES:
        return cast(EndpointFormat, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ENDPOINT_FORMAT_VALUES!r}")
