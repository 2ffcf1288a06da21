"""portal_session: the request Ferry receives and both kinds of answer."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, Dict, Iterator

import pytest

from ferry_webhooks.portal import FerryAPIError, portal_session


@pytest.fixture()
def ferry() -> Iterator[tuple]:
    got: Dict[str, Any] = {}

    class H(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802
            body = self.rfile.read(int(self.headers["content-length"]))
            got.update(path=self.path, auth=self.headers["authorization"], body=json.loads(body))
            if "/nobody/" in self.path:
                out, status = {"error": {"code": "not_found", "message": "customer not found"}}, 404
            else:
                out, status = {"session_id": "s1", "url": "https://ferry.example/embed/s1#code=abc", "expires_at": "2026-11-26T10:00:00Z"}, 201
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(json.dumps(out).encode())

        def log_message(self, *args: Any) -> None:
            pass

    srv = HTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/", got
    srv.shutdown()


def test_portal_session(ferry: tuple) -> None:
    base, got = ferry
    s = portal_session(base, "fry_live_x", "acme co", external_user_id="u_1", external_user_email="u@acme.example",
                       capabilities=["manage_endpoints"], ttl_seconds=1800)
    assert s.url == "https://ferry.example/embed/s1#code=abc"
    assert s.session_id == "s1"
    assert s.expires_at.isoformat() == "2026-11-26T10:00:00+00:00"
    assert got["path"] == "/api/v1/customers/acme%20co/portal-sessions"
    assert got["auth"] == "Bearer fry_live_x"
    assert got["body"] == {"external_user": {"id": "u_1", "email": "u@acme.example"}, "capabilities": ["manage_endpoints"], "ttl_seconds": 1800}
    with pytest.raises(FerryAPIError) as e:
        portal_session(base, "fry_live_x", "nobody", external_user_id="u")
    assert e.value.status == 404 and e.value.code == "not_found"
