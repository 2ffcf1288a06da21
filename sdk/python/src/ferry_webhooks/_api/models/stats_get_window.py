from typing import Literal, cast

StatsGetWindow = Literal['1h', '24h', '7d']

STATS_GET_WINDOW_VALUES: set[StatsGetWindow] = { '1h', '24h', '7d',  }

def check_stats_get_window(value: str) -> StatsGetWindow:
    if value in STATS_GET_WINDOW_VALUES:
        return cast(StatsGetWindow, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {STATS_GET_WINDOW_VALUES!r}")
