from typing import Literal, cast

EndpointPatchFormatType3Type1 = Literal['envelope', 'raw']

ENDPOINT_PATCH_FORMAT_TYPE_3_TYPE_1_VALUES: set[EndpointPatchFormatType3Type1] = { 'envelope', 'raw',  }

def check_endpoint_patch_format_type_3_type_1(value: str) -> EndpointPatchFormatType3Type1:
    if value in ENDPOINT_PATCH_FORMAT_TYPE_3_TYPE_1_VALUES:
        return cast(EndpointPatchFormatType3Type1, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ENDPOINT_PATCH_FORMAT_TYPE_3_TYPE_1_VALUES!r}")
