import os

from flask import Flask

from ferry_webhooks import Deduper, Envelope, MemoryStore
from ferry_webhooks.flask import webhook_view


def handle(event: Envelope) -> None:  # raise to answer 500: Ferry retries
    print(event.id, event.type, event.created_at, event.data)


app = Flask(__name__)
view = webhook_view(os.environ["FERRY_WEBHOOK_SECRET"], handle, deduper=Deduper(MemoryStore()))
app.add_url_rule("/webhooks", view_func=view, methods=["POST"])
