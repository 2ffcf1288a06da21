from typing import Literal, cast

BulkReplayInputStatus = Literal['dropped', 'exhausted', 'pending', 'retrying', 'succeeded']

BULK_REPLAY_INPUT_STATUS_VALUES: set[BulkReplayInputStatus] = { 'dropped', 'exhausted', 'pending', 'retrying', 'succeeded',  }

def check_bulk_replay_input_status(value: str) -> BulkReplayInputStatus:
    if value in BULK_REPLAY_INPUT_STATUS_VALUES:
        return cast(BulkReplayInputStatus, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {BULK_REPLAY_INPUT_STATUS_VALUES!r}")
