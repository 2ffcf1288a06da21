"""The sender client against a running Ferry (FERRY_URL, FERRY_API_KEY,
FERRY_RECEIVER_URL); tests/sdk_senders_test.go runs it against an
in-process Ferry with a low API rate limit."""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from ferry_webhooks._api.api.events import events_get
from ferry_webhooks._api.models import EventDetail
from ferry_webhooks.client import AsyncFerry, Ferry, FerryError


class Losing:
    """Counts 429s; for a marked key, lets the first POST /events reach
    Ferry but loses its answer, as a network would."""

    def __init__(self) -> None:
        self.limited = 0
        self.lose_first: set[str] = set()

    def loses(self, request: httpx.Request, response: httpx.Response) -> bool:
        """Counts response; True when its answer is to be lost."""
        if response.status_code == 429:
            self.limited += 1
        key = request.headers.get("Idempotency-Key", "")
        if request.method == "POST" and request.url.path.endswith("/events") and key in self.lose_first:
            self.lose_first.discard(key)
            return True
        return False


def _lost(request: httpx.Request) -> httpx.ReadError:
    return httpx.ReadError("connection reset (simulated after Ferry answered)", request=request)


class Observing(Losing, httpx.BaseTransport):
    def __init__(self) -> None:
        super().__init__()
        self.inner = httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if self.loses(request, response):
            response.read()
            response.close()
            raise _lost(request)
        return response


def live_ferry() -> tuple[str, str, str]:
    """Ferry's URL, an API key and the receiver's URL, from the live suite's environment."""
    base, key, receiver = os.environ.get("FERRY_URL"), os.environ.get("FERRY_API_KEY"), os.environ.get("FERRY_RECEIVER_URL")
    assert base and key and receiver, "FERRY_URL, FERRY_API_KEY and FERRY_RECEIVER_URL are required"
    return base, key, receiver


def test_sender_client_against_live_ferry() -> None:
    base, key, receiver = live_ferry()
    observing = Observing()
    ferry = Ferry(key, base_url=base, transport=observing)
    run = secrets.token_hex(6)

    # A customer upserted twice: created (201), then updated (200).
    for name in ("Py Corp", "Py Corp Ltd"):
        cu = ferry.customers.upsert(f"py-{run}", name=name)
        assert (cu.uid, cu.name) == (f"py-{run}", name)

    ep = ferry.endpoints.create(url=f"{receiver}/python", description="python sender SDK")
    assert ep.secret.startswith("whsec_")
    assert ferry.endpoints.get(str(ep.id)).url == f"{receiver}/python"

    # The customer's own endpoint shows in its health, in one and in the list.
    ferry.endpoints.create(url=f"{receiver}/python-customer", customer=f"py-{run}")
    health = ferry.customers.get(f"py-{run}").endpoints
    assert (health.total, health.failing, health.disabled) == (1, 0, 0)
    assert ferry.customers.update(f"py-{run}", name="Py Corp Ltd").endpoints.total == 1
    listed = {c.uid: c.endpoints.total for c in ferry.customers.all()}
    assert listed[f"py-{run}"] == 1

    typ = f"python.{run}.paid"
    observing.lose_first.add(f"python-{run}")
    ev = ferry.events.create(type=typ, data={"amount": 4200}, idempotency_key=f"python-{run}")
    assert not observing.lose_first, "the answer was not lost: the retry path was not taken"
    assert [e.id for e in ferry.events.list(type=typ)] == [ev.id], "a retried create made more than one event"

    deadline = time.monotonic() + 60
    attempts = ferry.events.attempts(str(ev.id))
    while not attempts:
        assert time.monotonic() < deadline, "no attempt logged within 60 s"
        time.sleep(0.2)
        attempts = ferry.events.attempts(str(ev.id))
    assert attempts[0].endpoint_id == ep.id

    many = f"python.{run}.many"
    want = {ferry.events.create(type=many, data={"i": i}).id for i in range(5)}
    assert {e.id for e in ferry.events.all(type=many, limit=2)} == want

    with pytest.raises(FerryError) as exc:
        ferry.events.create(type="", data={})
    assert (exc.value.status, exc.value.code, exc.value.field) == (422, "invalid", "type")
    assert exc.value.request_id

    with ThreadPoolExecutor(max_workers=40) as pool:
        pages = list(pool.map(lambda _: ferry.endpoints.list(), range(40)))
    assert len(pages) == 40
    assert observing.limited > 0, "the burst saw no 429: the rate limit was not reached, nothing was retried"


class AsyncObserving(Losing, httpx.AsyncBaseTransport):
    def __init__(self) -> None:
        super().__init__()
        self.inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        if self.loses(request, response):
            await response.aread()
            await response.aclose()
            raise _lost(request)
        return response


def test_async_sender_client_against_live_ferry() -> None:
    base, key, receiver = live_ferry()
    observing = AsyncObserving()
    run = secrets.token_hex(6)

    async def scenario() -> None:
        async with AsyncFerry(key, base_url=base, transport=observing) as ferry:
            await ferry.customers.upsert(f"apy-{run}", name="Async Py Corp")
            await ferry.endpoints.create(url=f"{receiver}/async-python", customer=f"apy-{run}")
            health = (await ferry.customers.get(f"apy-{run}")).endpoints
            assert (health.total, health.failing, health.disabled) == (1, 0, 0)

            typ = f"apython.{run}.paid"
            observing.lose_first.add(f"apython-{run}")
            ev = await ferry.events.create(type=typ, data={"amount": 4200}, customer=f"apy-{run}",
                                           idempotency_key=f"apython-{run}")
            assert not observing.lose_first, "the answer was not lost: the retry path was not taken"
            assert [e.id async for e in ferry.events.all(type=typ, limit=1)] == [ev.id], "a retried create made more than one event"
            # The generated client serves its blocking functions too.
            got = events_get.sync(ev.id, client=ferry.api)
            assert isinstance(got, EventDetail) and got.id == ev.id

            with pytest.raises(FerryError) as exc:
                await ferry.events.create(type="", data={})
            assert (exc.value.status, exc.value.code, exc.value.field) == (422, "invalid", "type")

            # Concurrent calls past the rate limit are retried after Retry-After.
            pages = await asyncio.gather(*(ferry.endpoints.list() for _ in range(40)))
            assert len(pages) == 40
            assert observing.limited > 0, "the burst saw no 429: the rate limit was not reached, nothing was retried"

    asyncio.run(scenario())
