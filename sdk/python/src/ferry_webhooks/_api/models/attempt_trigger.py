from typing import Literal, cast

AttemptTrigger = Literal['initial', 'replay', 'retry']

ATTEMPT_TRIGGER_VALUES: set[AttemptTrigger] = { 'initial', 'replay', 'retry',  }

def check_attempt_trigger(value: str) -> AttemptTrigger:
    if value in ATTEMPT_TRIGGER_VALUES:
        return cast(AttemptTrigger, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ATTEMPT_TRIGGER_VALUES!r}")
