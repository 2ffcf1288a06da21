"""A Flask webhook receiver built on ferry_webhooks (used by Ferry's end-to-end test).

    FERRY_WEBHOOK_SECRET=whsec_... python examples/receiver.py

Listens on 127.0.0.1:$RECEIVER_PORT (0: any free port), prints
"listening http://..." and then "processed <id> <type>" per processed event.
With RECEIVER_FAIL_FIRST=1 the first event's handler fails once.
"""

from __future__ import annotations

import os
import signal
import sys
import threading

from flask import Flask
from werkzeug.serving import make_server

import ferry_webhooks
from ferry_webhooks.flask import webhook_view

failed = threading.Event()


def handle(event: ferry_webhooks.Envelope) -> None:
    if os.environ.get("RECEIVER_FAIL_FIRST") == "1" and not failed.is_set():
        failed.set()
        raise RuntimeError("simulated failure on the first delivery")
    print(f"processed {event.id} {event.type}", flush=True)


def main() -> None:
    app = Flask(__name__)
    dedupe = ferry_webhooks.Deduper(ferry_webhooks.MemoryStore())
    view = webhook_view(os.environ.get("FERRY_WEBHOOK_SECRET", ""), handle, deduper=dedupe)
    app.add_url_rule("/", view_func=view, methods=["POST"])
    app.add_url_rule("/<path:_p>", endpoint="any_path", view_func=lambda _p: view(), methods=["POST"])
    server = make_server("127.0.0.1", int(os.environ.get("RECEIVER_PORT", "0")), app, threaded=True)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"listening http://127.0.0.1:{server.server_port}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
