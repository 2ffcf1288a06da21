"""Retries of the sender client, as an httpx transport."""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import httpx

_IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


@dataclass(frozen=True)
class RetryPolicy:
    """Bounds on the retries of one call.

    max_attempts counts the first; max_elapsed (seconds) runs from the first
    attempt to the start of the last, and a Retry-After beyond it is not
    waited for. Without Retry-After the wait is drawn uniformly below
    base_delay doubled per attempt, capped at max_delay (full jitter), so
    that many clients do not retry in step.
    """

    max_attempts: int = 4
    max_elapsed: float = 30.0
    base_delay: float = 0.25
    max_delay: float = 5.0


def retry_after(value: str | None, now: float) -> float | None:
    """Reads Retry-After (delay-seconds or an HTTP date) as seconds."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        at = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(at.timestamp() - now, 0.0)


def _repeatable(request: httpx.Request) -> bool:
    return request.method in _IDEMPOTENT or "Idempotency-Key" in request.headers


class _Attempts:
    """The attempts of one call under a policy: after each failure or
    answer, how long to wait before the next, or None for no next."""

    def __init__(self, request: httpx.Request, policy: RetryPolicy, clock: Callable[[], float],
                 rand: Callable[[], float]) -> None:
        self._request, self._policy, self._clock, self._rand = request, policy, clock, rand
        self._start = clock()
        self._attempt = 1

    def _jittered(self) -> float:
        p = self._policy
        return self._rand() * min(p.base_delay * 2.0 ** (self._attempt - 1), p.max_delay)

    def _next(self, wait: float) -> float | None:
        p = self._policy
        if self._attempt >= p.max_attempts or self._clock() + wait - self._start > p.max_elapsed:
            return None
        self._attempt += 1
        return wait

    def after_error(self) -> float | None:
        """After a network failure: a wait when the request is repeatable."""
        if not _repeatable(self._request):
            return None
        return self._next(self._jittered())

    def after(self, response: httpx.Response) -> float | None:
        """After an answer: a wait for 429 (a refused request wrote nothing),
        or for 503 when the request is repeatable."""
        if response.status_code != 429 and not (response.status_code == 503 and _repeatable(self._request)):
            return None
        wait = retry_after(response.headers.get("Retry-After"), self._clock())
        return self._next(self._jittered() if wait is None else wait)


class RetryTransport(httpx.BaseTransport):
    """Sends a request again when Ferry answers 429 (after Retry-After: a
    refused request wrote nothing), or 503 or the network fails and the
    request is repeatable (GET, PUT, DELETE, or a POST with an
    Idempotency-Key), within the policy."""

    def __init__(
        self,
        inner: httpx.BaseTransport | None = None,
        policy: RetryPolicy | None = None,
        *,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], None] = time.sleep,
        rand: Callable[[], float] = random.random,
    ) -> None:
        self._inner = inner if inner is not None else httpx.HTTPTransport()
        self._policy = policy or RetryPolicy()
        self._clock, self._sleep, self._rand = clock, sleep, rand

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.read()  # the body is sent again on a retry
        attempts = _Attempts(request, self._policy, self._clock, self._rand)
        while True:
            try:
                response = self._inner.handle_request(request)
            except httpx.TransportError:
                wait = attempts.after_error()
                if wait is None:
                    raise
                self._sleep(wait)
                continue
            wait = attempts.after(response)
            if wait is None:
                return response
            response.read()
            response.close()
            self._sleep(wait)

    def close(self) -> None:
        self._inner.close()


class AsyncRetryTransport(httpx.AsyncBaseTransport):
    """RetryTransport for asyncio (AsyncFerry): the same retries, waiting
    with asyncio.sleep."""

    def __init__(
        self,
        inner: httpx.AsyncBaseTransport | None = None,
        policy: RetryPolicy | None = None,
        *,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rand: Callable[[], float] = random.random,
    ) -> None:
        self._inner = inner if inner is not None else httpx.AsyncHTTPTransport()
        self._policy = policy or RetryPolicy()
        self._clock, self._sleep, self._rand = clock, sleep, rand

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()  # the body is sent again on a retry
        attempts = _Attempts(request, self._policy, self._clock, self._rand)
        while True:
            try:
                response = await self._inner.handle_async_request(request)
            except httpx.TransportError:
                wait = attempts.after_error()
                if wait is None:
                    raise
                await self._sleep(wait)
                continue
            wait = attempts.after(response)
            if wait is None:
                return response
            await response.aread()
            await response.aclose()
            await self._sleep(wait)

    async def aclose(self) -> None:
        await self._inner.aclose()
