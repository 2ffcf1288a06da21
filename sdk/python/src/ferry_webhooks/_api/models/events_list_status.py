from typing import Literal, cast

EventsListStatus = Literal['dropped', 'exhausted', 'pending', 'retrying', 'succeeded']

EVENTS_LIST_STATUS_VALUES: set[EventsListStatus] = { 'dropped', 'exhausted', 'pending', 'retrying', 'succeeded',  }

def check_events_list_status(value: str) -> EventsListStatus:
    if value in EVENTS_LIST_STATUS_VALUES:
        return cast(EventsListStatus, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {EVENTS_LIST_STATUS_VALUES!r}")
