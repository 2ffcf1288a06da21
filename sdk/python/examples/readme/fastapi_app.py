import os

from fastapi import FastAPI

from ferry_webhooks import Deduper, Envelope, MemoryStore
from ferry_webhooks.fastapi import webhook_endpoint


async def handle(event: Envelope) -> None:  # raise to answer 500: Ferry retries
    print(event.id, event.type, event.created_at, event.data)


app = FastAPI()
endpoint = webhook_endpoint(os.environ["FERRY_WEBHOOK_SECRET"], handle, deduper=Deduper(MemoryStore()))
app.add_api_route("/webhooks", endpoint, methods=["POST"])
