from typing import Literal, cast

ErrorDetailCode = Literal['bad_request', 'conflict', 'forbidden', 'idempotency_key_reused', 'internal', 'invalid', 'not_found', 'payload_too_large', 'payment_required', 'plan_limit', 'quota_exceeded', 'rate_limited', 'replay_limit', 'request_timeout', 'unauthorized', 'unavailable']

ERROR_DETAIL_CODE_VALUES: set[ErrorDetailCode] = { 'bad_request', 'conflict', 'forbidden', 'idempotency_key_reused', 'internal', 'invalid', 'not_found', 'payload_too_large', 'payment_required', 'plan_limit', 'quota_exceeded', 'rate_limited', 'replay_limit', 'request_timeout', 'unauthorized', 'unavailable',  }

def check_error_detail_code(value: str) -> ErrorDetailCode:
    if value in ERROR_DETAIL_CODE_VALUES:
        return cast(ErrorDetailCode, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ERROR_DETAIL_CODE_VALUES!r}")
