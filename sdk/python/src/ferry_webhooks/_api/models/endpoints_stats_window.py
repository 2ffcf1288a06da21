from typing import Literal, cast

EndpointsStatsWindow = Literal['1h', '24h', '7d']

ENDPOINTS_STATS_WINDOW_VALUES: set[EndpointsStatsWindow] = { '1h', '24h', '7d',  }

def check_endpoints_stats_window(value: str) -> EndpointsStatsWindow:
    if value in ENDPOINTS_STATS_WINDOW_VALUES:
        return cast(EndpointsStatsWindow, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ENDPOINTS_STATS_WINDOW_VALUES!r}")
