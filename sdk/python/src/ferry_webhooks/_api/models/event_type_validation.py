from typing import Literal, cast

EventTypeValidation = Literal['off', 'reject', 'warn']

EVENT_TYPE_VALIDATION_VALUES: set[EventTypeValidation] = { 'off', 'reject', 'warn',  }

def check_event_type_validation(value: str) -> EventTypeValidation:
    if value in EVENT_TYPE_VALIDATION_VALUES:
        return cast(EventTypeValidation, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EVENT_TYPE_VALIDATION_VALUES!r}")
