from typing import Literal, cast

SourceVerificationInputEncoding = Literal['base64', 'hex']

SOURCE_VERIFICATION_INPUT_ENCODING_VALUES: set[SourceVerificationInputEncoding] = { 'base64', 'hex',  }

def check_source_verification_input_encoding(value: str) -> SourceVerificationInputEncoding:
    if value in SOURCE_VERIFICATION_INPUT_ENCODING_VALUES:
        return cast(SourceVerificationInputEncoding, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SOURCE_VERIFICATION_INPUT_ENCODING_VALUES!r}")
