"""Retries of the sender client, as an httpx transport."""

from __future__ import annotations

import email.utils
import random
import time
from collections.abc import Callable
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
        p = self._policy
        request.read()  # the body is sent again on a retry
        start = self._clock()
        attempt = 1
        while True:
            jittered = self._rand() * min(p.base_delay * 2 ** (attempt - 1), p.max_delay)
            try:
                response = self._inner.handle_request(request)
            except httpx.TransportError:
                if not _repeatable(request) or self._last(attempt, start, jittered):
                    raise
                self._sleep(jittered)
                attempt += 1
                continue
            if response.status_code != 429 and not (response.status_code == 503 and _repeatable(request)):
                return response
            wait = retry_after(response.headers.get("Retry-After"), self._clock())
            wait = jittered if wait is None else wait
            if self._last(attempt, start, wait):
                return response
            response.read()
            response.close()
            self._sleep(wait)
            attempt += 1

    def _last(self, attempt: int, start: float, wait: float) -> bool:
        return attempt >= self._policy.max_attempts or self._clock() + wait - start > self._policy.max_elapsed

    def close(self) -> None:
        self._inner.close()
