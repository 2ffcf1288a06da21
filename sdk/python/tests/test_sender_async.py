"""AsyncFerry against a fake Ferry (an httpx.MockTransport): the same
retries, idempotency keys, pagination and errors as the sync client."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from ferry_webhooks._retry import AsyncRetryTransport
from ferry_webhooks.client import AsyncFerry, FerryError, RetryPolicy
from test_sender import ACCEPTED, LIMITED, Handler, answer, assert_one_create, hang_up


class AsyncFake:
    """Answers with each handler in turn (the last repeats); time passes only in sleep."""

    def __init__(self, handlers: list[Handler], policy: RetryPolicy | None = None) -> None:
        self.handlers, self.now = handlers, 1000.0
        self.got: list[httpx.Request] = []
        self.slept: list[float] = []
        self.ferry = AsyncFerry("fry_test", base_url="http://ferry.test", retry=policy)
        transport = AsyncRetryTransport(httpx.MockTransport(self.handle), policy, clock=lambda: self.now, sleep=self.sleep,
                                        rand=lambda: 0.5)
        self.ferry.api.set_async_httpx_client(httpx.AsyncClient(base_url="http://ferry.test/api/v1", transport=transport,
                                                                headers={"Authorization": "Bearer fry_test"}))

    def handle(self, request: httpx.Request) -> httpx.Response:
        self.got.append(request)
        return self.handlers[min(len(self.got) - 1, len(self.handlers) - 1)](request)

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_async_create_retries_with_one_key() -> None:
    fake = AsyncFake([LIMITED, hang_up, answer(202, ACCEPTED)])
    ev = asyncio.run(fake.ferry.events.create(type="invoice.paid", data={"n": 1}))
    assert str(ev.id) == ACCEPTED["id"]
    assert len(fake.got) == 3
    assert_one_create(fake.got, {"type": "invoice.paid", "data": {"n": 1}})
    assert fake.slept == [2.0, 0.25]


def test_async_retries_are_bounded_and_errors_raise() -> None:
    fake = AsyncFake([LIMITED], RetryPolicy(max_attempts=3))
    with pytest.raises(FerryError) as exc:
        asyncio.run(fake.ferry.endpoints.list())
    assert exc.value.status == 429 and exc.value.retry_after == 2.0 and len(fake.got) == 3

    fake = AsyncFake([answer(422, {"error": {"code": "invalid", "message": "type is required", "field": "type"}})])
    with pytest.raises(FerryError) as exc:
        asyncio.run(fake.ferry.events.create(type="", data=1))
    assert (exc.value.code, exc.value.field) == ("invalid", "type") and len(fake.got) == 1

    # A POST without an Idempotency-Key is not sent again after a 503.
    from ferry_webhooks._api.api.replays import replays_preview
    from ferry_webhooks._api.models import BulkReplayInput
    fake = AsyncFake([answer(503, {"error": {"code": "unavailable", "message": "down"}}), answer(200, {"matched": 1, "until": ACCEPTED["created_at"]})])
    r = asyncio.run(replays_preview.asyncio_detailed(client=fake.ferry.api, body=BulkReplayInput()))
    assert r.status_code == 503 and len(fake.got) == 1


def test_async_all_follows_next_cursor() -> None:
    def ev(n: int) -> dict[str, Any]:
        return {**ACCEPTED, "id": f"00000000-0000-0000-0000-00000000000{n}", "data": {}, "deliveries": []}
    fake = AsyncFake([answer(200, {"data": [ev(1), ev(2)], "next_cursor": "c1"}), answer(200, {"data": [ev(3)], "next_cursor": None})])

    async def ids() -> list[str]:
        return [str(e.id)[-1] async for e in fake.ferry.events.all(type="t", limit=2)]

    assert asyncio.run(ids()) == ["1", "2", "3"]
    assert fake.got[1].url.params["cursor"] == "c1" and fake.got[1].url.params["type"] == "t"


def test_async_client_closes() -> None:
    async def use() -> None:
        async with AsyncFerry("fry_test", base_url="http://ferry.test") as ferry:
            client = ferry.api.get_async_httpx_client()
        assert client.is_closed

    asyncio.run(use())
    with pytest.raises(ValueError):
        AsyncFerry("", base_url="http://ferry.test")
