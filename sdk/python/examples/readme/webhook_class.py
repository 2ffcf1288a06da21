# As with the Standard Webhooks or Svix libraries, here in a Flask view.
import os

from flask import Flask, request

from ferry_webhooks import Webhook, WebhookVerificationError

app = Flask(__name__)
wh = Webhook(os.environ["FERRY_WEBHOOK_SECRET"])


@app.post("/webhooks")
def webhooks() -> tuple[dict[str, str], int]:
    try:
        event = wh.verify(request.get_data(), request.headers)  # the raw body, before JSON parsing
    except WebhookVerificationError as e:
        return {"status": e.code}, 401
    print(event.id, event.type, event.data)
    return {"status": "processed"}, 200
