from typing import Literal, cast

EventTypePatchValidationType2Type1 = Literal['off', 'reject', 'warn']

EVENT_TYPE_PATCH_VALIDATION_TYPE_2_TYPE_1_VALUES: set[EventTypePatchValidationType2Type1] = { 'off', 'reject', 'warn',  }

def check_event_type_patch_validation_type_2_type_1(value: str) -> EventTypePatchValidationType2Type1:
    if value in EVENT_TYPE_PATCH_VALIDATION_TYPE_2_TYPE_1_VALUES:
        return cast(EventTypePatchValidationType2Type1, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EVENT_TYPE_PATCH_VALIDATION_TYPE_2_TYPE_1_VALUES!r}")
