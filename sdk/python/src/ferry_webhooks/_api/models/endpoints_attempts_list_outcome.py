from typing import Literal, cast

EndpointsAttemptsListOutcome = Literal['dropped', 'retry', 'success']

ENDPOINTS_ATTEMPTS_LIST_OUTCOME_VALUES: set[EndpointsAttemptsListOutcome] = { 'dropped', 'retry', 'success',  }

def check_endpoints_attempts_list_outcome(value: str) -> EndpointsAttemptsListOutcome:
    if value in ENDPOINTS_ATTEMPTS_LIST_OUTCOME_VALUES:
        return cast(EndpointsAttemptsListOutcome, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ENDPOINTS_ATTEMPTS_LIST_OUTCOME_VALUES!r}")
