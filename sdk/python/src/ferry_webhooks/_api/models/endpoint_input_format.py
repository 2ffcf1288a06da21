from typing import Literal, cast

EndpointInputFormat = Literal['envelope', 'raw']

ENDPOINT_INPUT_FORMAT_VALUES: set[EndpointInputFormat] = { 'envelope', 'raw',  }

def check_endpoint_input_format(value: str) -> EndpointInputFormat:
    if value in ENDPOINT_INPUT_FORMAT_VALUES:
        return cast(EndpointInputFormat, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ENDPOINT_INPUT_FORMAT_VALUES!r}")
