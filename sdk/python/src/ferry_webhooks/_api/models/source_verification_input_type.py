from typing import Literal, cast

SourceVerificationInputType = Literal['basic_auth', 'github', 'hmac_sha256', 'none', 'shopify', 'slack', 'standard_webhooks', 'stripe']

SOURCE_VERIFICATION_INPUT_TYPE_VALUES: set[SourceVerificationInputType] = { 'basic_auth', 'github', 'hmac_sha256', 'none', 'shopify', 'slack', 'standard_webhooks', 'stripe',  }

def check_source_verification_input_type(value: str) -> SourceVerificationInputType:
    if value in SOURCE_VERIFICATION_INPUT_TYPE_VALUES:
        return cast(SourceVerificationInputType, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SOURCE_VERIFICATION_INPUT_TYPE_VALUES!r}")
