"""Flask and FastAPI integrations: retry after a failure, duplicates, rejections."""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, List

import pytest

import ferry_webhooks as fw
from conftest import SECRET, signed


def _scenario(post: Callable[[dict, bytes], tuple]) -> None:
    headers, body = signed({"n": 7}, created=time.time() - 50 * 3600)  # a late retry
    assert post(headers, body) == (500, {"status": "handler_failed"})
    assert post(headers, body) == (200, {"status": "processed"})
    assert post(headers, body) == (200, {"status": "duplicate"})
    bad = dict(headers, **{"webhook-signature": "v1,AAAA"})
    assert post(bad, body) == (401, {"status": "invalid_signature"})
    missing = {k: v for k, v in headers.items() if k != "webhook-id"}
    assert post(missing, body) == (401, {"status": "missing_header"})
    old_headers, old_body = signed({}, created=time.time() - 8 * 24 * 3600)
    assert post(old_headers, old_body) == (401, {"status": "timestamp_out_of_window"})


def _handler(seen: List[Any]) -> Callable[[fw.Envelope], None]:
    def handle(e: fw.Envelope) -> None:
        seen.append(e)
        if len(seen) == 1:
            raise RuntimeError("database down")
        assert e.data == {"n": 7} and e.type == "order.created"

    return handle


def test_flask() -> None:
    from flask import Flask

    from ferry_webhooks.flask import webhook_view

    seen: List[Any] = []
    app = Flask(__name__)
    app.add_url_rule("/hook", view_func=webhook_view(SECRET, _handler(seen), deduper=fw.Deduper(fw.MemoryStore())), methods=["POST"])
    client = app.test_client()

    def post(headers: dict, body: bytes) -> tuple:
        r = client.post("/hook", data=body, headers=headers)
        return r.status_code, r.get_json()

    _scenario(post)
    assert len(seen) == 2  # the failed attempt and the retry; the duplicate never reached it


def test_fastapi_async_handler() -> None:
    from fastapi import FastAPI
    from fastapi.testclient import TestClient

    from ferry_webhooks.fastapi import webhook_endpoint

    seen: List[Any] = []
    sync = _handler(seen)

    async def handle(e: fw.Envelope) -> None:
        sync(e)

    app = FastAPI()
    app.add_api_route("/hook", webhook_endpoint(SECRET, handle, deduper=fw.Deduper(fw.MemoryStore())), methods=["POST"])
    with TestClient(app) as client:

        def post(headers: dict, body: bytes) -> tuple:
            r = client.post("/hook", content=body, headers=headers)
            return r.status_code, r.json()

        _scenario(post)
    assert len(seen) == 2


def test_in_progress_answers_409() -> None:
    entered, release = threading.Event(), threading.Event()

    def slow(e: fw.Envelope) -> None:
        entered.set()
        release.wait(5)

    p = fw.WebhookProcessor(SECRET, slow, deduper=fw.Deduper(fw.MemoryStore()))
    headers, body = signed({})
    results: List[tuple] = []
    t = threading.Thread(target=lambda: results.append(p.handle(headers, body)))
    t.start()
    assert entered.wait(5)
    assert p.handle(headers, body) == (409, {"status": "in_progress"})
    release.set()
    t.join()
    assert results == [(200, {"status": "processed"})]


def test_raw_format() -> None:
    got: List[tuple] = []
    p = fw.WebhookProcessor(SECRET, lambda m, body: got.append((m.id, body)), raw=True)
    headers, body = signed({"x": 1})
    assert p.handle(headers, body)[0] == 200
    assert got and got[0][1] == body


def test_malformed_secret_fails_at_start_up() -> None:
    with pytest.raises(fw.InvalidSecretError):
        fw.WebhookProcessor("whsec_short", lambda e: None)
