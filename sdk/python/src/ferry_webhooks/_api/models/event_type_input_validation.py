from typing import Literal, cast

EventTypeInputValidation = Literal['off', 'reject', 'warn']

EVENT_TYPE_INPUT_VALIDATION_VALUES: set[EventTypeInputValidation] = { 'off', 'reject', 'warn',  }

def check_event_type_input_validation(value: str) -> EventTypeInputValidation:
    if value in EVENT_TYPE_INPUT_VALIDATION_VALUES:
        return cast(EventTypeInputValidation, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EVENT_TYPE_INPUT_VALIDATION_VALUES!r}")
