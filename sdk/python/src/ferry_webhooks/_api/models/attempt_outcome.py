from typing import Literal, cast

AttemptOutcome = Literal['dropped', 'retry', 'success']

ATTEMPT_OUTCOME_VALUES: set[AttemptOutcome] = { 'dropped', 'retry', 'success',  }

def check_attempt_outcome(value: str) -> AttemptOutcome:
    if value in ATTEMPT_OUTCOME_VALUES:
        return cast(AttemptOutcome, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ATTEMPT_OUTCOME_VALUES!r}")
