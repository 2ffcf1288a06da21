# views.py; then in urls.py: path("webhooks", views.webhooks)
import os

from ferry_webhooks import Deduper, Envelope, MemoryStore
from ferry_webhooks.django import ferry_webhook


@ferry_webhook(os.environ["FERRY_WEBHOOK_SECRET"], deduper=Deduper(MemoryStore()))
def webhooks(event: Envelope) -> None:  # raise to answer 500: Ferry retries
    print(event.id, event.type, event.created_at, event.data)
