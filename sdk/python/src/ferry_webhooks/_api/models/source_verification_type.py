from typing import Literal, cast

SourceVerificationType = Literal['basic_auth', 'github', 'hmac_sha256', 'none', 'shopify', 'slack', 'standard_webhooks', 'stripe']

SOURCE_VERIFICATION_TYPE_VALUES: set[SourceVerificationType] = { 'basic_auth', 'github', 'hmac_sha256', 'none', 'shopify', 'slack', 'standard_webhooks', 'stripe',  }

def check_source_verification_type(value: str) -> SourceVerificationType:
    if value in SOURCE_VERIFICATION_TYPE_VALUES:
        return cast(SourceVerificationType, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {SOURCE_VERIFICATION_TYPE_VALUES!r}")
