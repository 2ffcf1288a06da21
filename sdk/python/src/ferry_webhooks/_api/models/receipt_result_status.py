from typing import Literal, cast

ReceiptResultStatus = Literal['acked', 'expired', 'nacked', 'rejected']

RECEIPT_RESULT_STATUS_VALUES: set[ReceiptResultStatus] = { 'acked', 'expired', 'nacked', 'rejected',  }

def check_receipt_result_status(value: str) -> ReceiptResultStatus:
    if value in RECEIPT_RESULT_STATUS_VALUES:
        return cast(ReceiptResultStatus, value)
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RECEIPT_RESULT_STATUS_VALUES!r}")
