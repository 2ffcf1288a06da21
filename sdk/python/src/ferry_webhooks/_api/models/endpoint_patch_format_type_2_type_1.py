from typing import Literal, cast

EndpointPatchFormatType2Type1 = Literal['envelope', 'raw']

ENDPOINT_PATCH_FORMAT_TYPE_2_TYPE_1_VALUES: set[EndpointPatchFormatType2Type1] = { 'envelope', 'raw',  }

def check_endpoint_patch_format_type_2_type_1(value: str) -> EndpointPatchFormatType2Type1:
    if value in ENDPOINT_PATCH_FORMAT_TYPE_2_TYPE_1_VALUES:
        return cast(EndpointPatchFormatType2Type1, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ENDPOINT_PATCH_FORMAT_TYPE_2_TYPE_1_VALUES!r}")
