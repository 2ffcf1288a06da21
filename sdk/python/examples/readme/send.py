import os

from ferry_webhooks.client import Ferry, FerryError

ferry = Ferry(os.environ["FERRY_API_KEY"], base_url="https://ferry.example.com")
try:
    ev = ferry.events.create(type="invoice.paid", data={"amount": 4200})
    for e in ferry.events.all(type="invoice.paid"):
        print(e.id, e.id == ev.id)
except FerryError as err:
    print(err.code, err.field, err.request_id)
