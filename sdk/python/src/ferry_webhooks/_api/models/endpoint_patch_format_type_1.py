from typing import Literal, cast

EndpointPatchFormatType1 = Literal['envelope', 'raw']

ENDPOINT_PATCH_FORMAT_TYPE_1_VALUES: set[EndpointPatchFormatType1] = { 'envelope', 'raw',  }

def check_endpoint_patch_format_type_1(value: str) -> EndpointPatchFormatType1:
    if value in ENDPOINT_PATCH_FORMAT_TYPE_1_VALUES:
        return cast(EndpointPatchFormatType1, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ENDPOINT_PATCH_FORMAT_TYPE_1_VALUES!r}")
