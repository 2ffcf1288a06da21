"""A webhook receiver that verifies every request with the official
libraries, unchanged: `standardwebhooks` and `svix` from PyPI, with their
default timestamp tolerance (5 minutes). The same protocol as
receiver.cjs (tests/strict_mode_test.go drives both); run with the
interpreter scripts/verifiers.sh installs them into."""

import http.server
import json
import sys
import threading

from standardwebhooks.webhooks import Webhook as StandardWebhook
from svix.webhooks import Webhook as SvixWebhook

secrets: dict[str, str] = {}
seen: set[str] = set()
results: list[dict] = []
lock = threading.Lock()


def check(verify) -> str:
    try:
        verify()
        return "ok"
    except Exception as err:  # each library raises its own error types
        return str(err) or type(err).__name__


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status: int, body: bytes = b"", content_type: str = "text/plain") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path == "/_results":
            with lock:
                self.answer(200, json.dumps(results).encode(), "application/json")
        else:
            self.answer(404)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        parts = self.path.split("/")
        kind, name = (parts[1], parts[2]) if len(parts) > 2 else ("", "")
        if kind == "_secret":
            with lock:
                secrets[name] = body.decode()
            self.answer(204)
            return
        with lock:
            secret = secrets.get(name)
        if kind != "hook" or secret is None:
            self.answer(404)
            return
        headers = {k.lower(): v for k, v in self.headers.items()}
        result = {
            "name": name,
            "id": headers.get("webhook-id"),
            "timestamp": headers.get("webhook-timestamp"),
            "standardwebhooks": check(lambda: StandardWebhook(secret).verify(body.decode(), headers)),
            "svix": check(lambda: SvixWebhook(secret).verify(body.decode(), headers)),
        }
        key = name + "/" + str(result["id"])
        with lock:
            results.append(result)
            first = key not in seen
            seen.add(key)
        if first:
            self.answer(503, b"first attempt refused on purpose")
        elif result["standardwebhooks"] == "ok" and result["svix"] == "ok":
            self.answer(204)
        else:
            self.answer(401, (result["standardwebhooks"] + " / " + result["svix"]).encode())


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
sys.stdout.write("listening %d\n" % server.server_address[1])
sys.stdout.flush()
server.serve_forever()
