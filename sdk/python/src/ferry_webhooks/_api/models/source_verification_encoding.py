from typing import Literal, cast

SourceVerificationEncoding = Literal['base64', 'hex']

SOURCE_VERIFICATION_ENCODING_VALUES: set[SourceVerificationEncoding] = { 'base64', 'hex',  }

def check_source_verification_encoding(value: str) -> SourceVerificationEncoding:
    if value in SOURCE_VERIFICATION_ENCODING_VALUES:
        return cast(SourceVerificationEncoding, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SOURCE_VERIFICATION_ENCODING_VALUES!r}")
