from typing import Literal, cast

DeliveryStatus = Literal['dropped', 'exhausted', 'pending', 'retrying', 'succeeded']

DELIVERY_STATUS_VALUES: set[DeliveryStatus] = { 'dropped', 'exhausted', 'pending', 'retrying', 'succeeded',  }

def check_delivery_status(value: str) -> DeliveryStatus:
    if value in DELIVERY_STATUS_VALUES:
        return cast(DeliveryStatus, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DELIVERY_STATUS_VALUES!r}")
