from typing import Literal, cast

EventTypePatchValidationType1 = Literal['off', 'reject', 'warn']

EVENT_TYPE_PATCH_VALIDATION_TYPE_1_VALUES: set[EventTypePatchValidationType1] = { 'off', 'reject', 'warn',  }

def check_event_type_patch_validation_type_1(value: str) -> EventTypePatchValidationType1:
    if value in EVENT_TYPE_PATCH_VALIDATION_TYPE_1_VALUES:
        return cast(EventTypePatchValidationType1, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EVENT_TYPE_PATCH_VALIDATION_TYPE_1_VALUES!r}")
