"""The sender client against a fake Ferry (an httpx.MockTransport):
retries, idempotency keys, pagination and errors."""

from __future__ import annotations

import email.utils
import json
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from ferry_webhooks.client import Ferry, FerryError, RetryPolicy
from ferry_webhooks._retry import RetryTransport, retry_after

ACCEPTED = {"id": "0190f1d2-8d3e-7c6a-9b1e-2f4a5c6d7e8f", "type": "invoice.paid", "created_at": "2026-01-02T03:04:05.000Z"}
Handler = Callable[[httpx.Request], httpx.Response]


def answer(status: int, body: Any, **headers: str) -> Handler:
    def handle(_: httpx.Request) -> httpx.Response:
        content = body.encode() if isinstance(body, str) else json.dumps(body).encode()
        return httpx.Response(status, content=content, headers={"content-type": "application/json", **headers})
    return handle


def hang_up(request: httpx.Request) -> httpx.Response:
    raise httpx.ConnectError("connection reset", request=request)


LIMITED = answer(429, {"error": {"code": "rate_limited", "message": "slow down"}}, **{"Retry-After": "2", "X-Request-Id": "req-1"})


class Fake:
    """Answers with each handler in turn (the last repeats); time passes only in sleep."""

    def __init__(self, handlers: list[Handler], policy: RetryPolicy | None = None) -> None:
        self.handlers, self.got, self.slept, self.now = handlers, [], [], 1000.0
        self.got: list[httpx.Request]
        self.slept: list[float]
        self.ferry = Ferry("fry_test", base_url="http://ferry.test", retry=policy)
        # Swap in a transport on the fake whose clock and sleep the test owns.
        transport = RetryTransport(httpx.MockTransport(self.handle), policy, clock=lambda: self.now, sleep=self.sleep, rand=lambda: 0.5)
        self.ferry.api.set_httpx_client(httpx.Client(base_url="http://ferry.test/api/v1", transport=transport,
                                                     headers={"Authorization": "Bearer fry_test"}))

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.got.append(request)
        return self.handlers[min(len(self.got) - 1, len(self.handlers) - 1)](request)

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def assert_one_create(got: list[httpx.Request], body: Any) -> None:
    """Every attempt of one create carried the same generated key and body."""
    key = got[0].headers["Idempotency-Key"]
    assert key.startswith("fry-sdk-")
    for r in got:
        assert r.headers["Idempotency-Key"] == key
        assert json.loads(r.content) == body


def test_create_retries_after_retry_after_and_network_errors_with_one_key() -> None:
    fake = Fake([LIMITED, hang_up, answer(202, ACCEPTED)])
    ev = fake.ferry.events.create(type="invoice.paid", data={"n": 1})
    assert str(ev.id) == ACCEPTED["id"]
    assert len(fake.got) == 3
    assert_one_create(fake.got, {"type": "invoice.paid", "data": {"n": 1}})
    assert all(r.headers["Authorization"] == "Bearer fry_test" for r in fake.got)
    # Retry-After, then half (rand 0.5) of attempt 2's 0.5 s ceiling.
    assert fake.slept == [2.0, 0.25]

    own = Fake([answer(202, ACCEPTED)])
    own.ferry.events.create(type="a", data=1, idempotency_key="order-42")
    assert own.got[0].headers["Idempotency-Key"] == "order-42"


@pytest.mark.parametrize(("policy", "handler", "want"), [
    (RetryPolicy(max_attempts=3), LIMITED, 3),
    (RetryPolicy(max_elapsed=1.5), LIMITED, 1),
    (RetryPolicy(), answer(429, {"error": {"code": "quota_exceeded", "message": "month"}}, **{"Retry-After": "3600"}), 1),
])
def test_retries_are_bounded(policy: RetryPolicy, handler: Handler, want: int) -> None:
    fake = Fake([handler], policy)
    with pytest.raises(FerryError) as exc:
        fake.ferry.endpoints.list()
    assert exc.value.status == 429 and exc.value.retry_after
    assert len(fake.got) == want


def test_unavailable_and_network_errors_retry_only_when_repeatable() -> None:
    from ferry_webhooks._api.api.replays import replays_preview
    from ferry_webhooks._api.models import BulkReplayInput

    unavailable = answer(503, {"error": {"code": "unavailable", "message": "database unreachable"}})
    preview = answer(200, {"matched": 3, "until": "2026-01-02T03:04:05Z"})
    fake = Fake([unavailable, preview])
    r = replays_preview.sync_detailed(client=fake.ferry.api, body=BulkReplayInput())
    assert r.status_code == 503 and len(fake.got) == 1

    fake = Fake([hang_up, preview])
    with pytest.raises(httpx.ConnectError):
        replays_preview.sync_detailed(client=fake.ferry.api, body=BulkReplayInput())
    assert len(fake.got) == 1

    fake = Fake([unavailable, hang_up, answer(200, {"data": [], "next_cursor": None})])
    page = fake.ferry.events.list()
    assert page == [] and page.next_cursor is None and len(fake.got) == 3


def test_errors_carry_ferrys_shape() -> None:
    fake = Fake([answer(422, {"error": {"code": "invalid", "message": "type is required", "field": "type"}}, **{"X-Request-Id": "req-abc"})])
    with pytest.raises(FerryError) as exc:
        fake.ferry.events.create(type="", data=1)
    e = exc.value
    assert (e.status, e.code, e.message, e.field, e.request_id) == (422, "invalid", "type is required", "type", "req-abc")
    assert str(e) == "ferry: 422 invalid (field type): type is required [request req-abc]"
    assert len(fake.got) == 1

    fake = Fake([answer(502, "<html>bad gateway</html>")])
    with pytest.raises(FerryError) as exc:
        fake.ferry.events.get(ACCEPTED["id"])
    assert (exc.value.status, exc.value.code) == (502, "http_502")


def test_all_follows_next_cursor() -> None:
    def ev(n: int) -> dict[str, Any]:
        return {**ACCEPTED, "id": f"00000000-0000-0000-0000-00000000000{n}", "data": {}, "deliveries": []}
    fake = Fake([answer(200, {"data": [ev(1), ev(2)], "next_cursor": "c1"}), answer(200, {"data": [ev(3)], "next_cursor": None})])
    ids = [str(e.id)[-1] for e in fake.ferry.events.all(type="t", limit=2)]
    assert ids == ["1", "2", "3"]
    assert "cursor" not in fake.got[0].url.params and fake.got[0].url.params["type"] == "t"
    assert fake.got[1].url.params["cursor"] == "c1" and fake.got[1].url.params["limit"] == "2"


def test_retry_after() -> None:
    now = 1_767_323_045.0
    assert retry_after("7", now) == 7.0
    assert retry_after(email.utils.formatdate(now + 90, usegmt=True), now) == 90.0
    assert retry_after(email.utils.formatdate(now - 60, usegmt=True), now) == 0.0
    assert retry_after(None, now) is None
    assert retry_after("soon", now) is None
