from typing import Literal, cast

EventTypePatchValidationType3Type1 = Literal['off', 'reject', 'warn']

EVENT_TYPE_PATCH_VALIDATION_TYPE_3_TYPE_1_VALUES: set[EventTypePatchValidationType3Type1] = { 'off', 'reject', 'warn',  }

def check_event_type_patch_validation_type_3_type_1(value: str) -> EventTypePatchValidationType3Type1:
    if value in EVENT_TYPE_PATCH_VALIDATION_TYPE_3_TYPE_1_VALUES:
        return cast(EventTypePatchValidationType3Type1, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EVENT_TYPE_PATCH_VALIDATION_TYPE_3_TYPE_1_VALUES!r}")
