from typing import Literal, cast

EndpointCreatedFormat = Literal['envelope', 'raw']

ENDPOINT_CREATED_FORMAT_VALUES: set[EndpointCreatedFormat] = { 'envelope', 'raw',  }

def check_endpoint_created_format(value: str) -> EndpointCreatedFormat:
    if value in ENDPOINT_CREATED_FORMAT_VALUES:
        return cast(EndpointCreatedFormat, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ENDPOINT_CREATED_FORMAT_VALUES!r}")
