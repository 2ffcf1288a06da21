from typing import Literal, cast

ReplayJobState = Literal['cancelled', 'completed', 'failed', 'queued', 'running']

REPLAY_JOB_STATE_VALUES: set[ReplayJobState] = { 'cancelled', 'completed', 'failed', 'queued', 'running',  }

def check_replay_job_state(value: str) -> ReplayJobState:
    if value in REPLAY_JOB_STATE_VALUES:
        return cast(ReplayJobState, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REPLAY_JOB_STATE_VALUES!r}")
