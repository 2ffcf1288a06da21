"""Dedupe by webhook-id: a store interface, an in-memory store, and Deduper.

The PostgreSQL and Redis stores live in ``ferry_webhooks.postgres`` and
``ferry_webhooks.redis``.
"""

from __future__ import annotations

import enum
import threading
import time
from datetime import timedelta
from typing import Awaitable, Callable, Dict, Optional, Protocol, Tuple, TypeVar

from ._verify import DEFAULT_TOLERANCE

#: How long processed ids are kept: longer than the verification window, so
#: every request that still verifies is recognised as a duplicate.
DEFAULT_TTL = DEFAULT_TOLERANCE + timedelta(days=1)
#: The shortest TTL Deduper accepts: Ferry retries for 72 h, keys outlive that.
MIN_TTL = timedelta(days=4)
#: How long a claim holds while the handler runs; frees itself if the
#: process dies mid-handler.
DEFAULT_LEASE = timedelta(minutes=2)

T = TypeVar("T")


class Claim(enum.Enum):
    """State of a key found by Store.claim."""

    CLAIMED = "claimed"  #: the key was free; the caller holds it for the lease
    IN_PROGRESS = "in_progress"  #: another request holds a live claim
    DONE = "done"  #: already processed, remembered until the TTL ends


class Outcome(enum.Enum):
    """What Deduper.run did."""

    PROCESSED = "processed"  #: the handler ran and succeeded
    DUPLICATE = "duplicate"  #: already processed; answer 2xx
    IN_PROGRESS = "in_progress"  #: being processed elsewhere; answer 409 (retried)
    NOT_RECORDED = "not_recorded"  #: processed, but the store failed to record it


class StoreError(Exception):
    """The dedupe store could not be asked before running the handler."""


class Store(Protocol):
    """Keeps dedupe keys; claim must be atomic across all processes sharing it."""

    def claim(self, key: str, lease: timedelta) -> Claim:
        """Record key as in progress for lease unless held or done; say which."""
        ...

    def complete(self, key: str, ttl: timedelta) -> None:
        """Mark key done and keep it for ttl."""
        ...

    def release(self, key: str) -> None:
        """Remove an in-progress claim (never a completed key)."""
        ...


class MemoryStore:
    """A Store in this process's memory, with expiry. For one process, or tests."""

    def __init__(self, clock: Optional[Callable[[], float]] = None) -> None:
        self._clock = clock or time.monotonic
        self._lock = threading.Lock()
        self._entries: Dict[str, Tuple[bool, float]] = {}
        self._ops = 0

    def claim(self, key: str, lease: timedelta) -> Claim:
        with self._lock:
            now = self._clock()
            self._sweep(now)
            entry = self._entries.get(key)
            if entry is not None and now < entry[1]:
                return Claim.DONE if entry[0] else Claim.IN_PROGRESS
            self._entries[key] = (False, now + lease.total_seconds())
            return Claim.CLAIMED

    def complete(self, key: str, ttl: timedelta) -> None:
        with self._lock:
            self._entries[key] = (True, self._clock() + ttl.total_seconds())

    def release(self, key: str) -> None:
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and not entry[0]:
                del self._entries[key]

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)

    def _sweep(self, now: float) -> None:
        self._ops += 1
        if self._ops % 1024:
            return
        for k in [k for k, (_, exp) in self._entries.items() if exp <= now]:
            del self._entries[k]


class Deduper:
    """Runs a handler at most once per webhook-id.

    When the handler raises, the claim is released so Ferry's retry runs it
    again; when it returns, the id is kept for ``ttl``.
    """

    def __init__(
        self,
        store: Store,
        *,
        ttl: timedelta = DEFAULT_TTL,
        lease: timedelta = DEFAULT_LEASE,
        prefix: str = "ferry:",
    ) -> None:
        if ttl < MIN_TTL:
            raise ValueError(f"dedupe ttl {ttl} is below the minimum {MIN_TTL}")
        if lease <= timedelta(0) or lease > ttl:
            raise ValueError("dedupe lease must be positive and below the ttl")
        self.store = store
        self.ttl = ttl
        self.lease = lease
        self.prefix = prefix

    def _claim(self, key: str) -> Optional[Outcome]:
        try:
            c = self.store.claim(key, self.lease)
        except Exception as e:
            raise StoreError(f"claim {key}: {e}") from e
        if c is Claim.DONE:
            return Outcome.DUPLICATE
        if c is Claim.IN_PROGRESS:
            return Outcome.IN_PROGRESS
        return None

    def run(self, webhook_id: str, fn: Callable[[], object]) -> Outcome:
        """Run fn unless webhook_id was processed or is being processed.

        Re-raises fn's exception after releasing the claim; raises StoreError
        when the store cannot be asked.
        """
        key = self.prefix + webhook_id
        early = self._claim(key)
        if early is not None:
            return early
        try:
            fn()
        except BaseException:
            self.store.release(key)
            raise
        try:
            self.store.complete(key, self.ttl)
        except Exception:
            return Outcome.NOT_RECORDED
        return Outcome.PROCESSED

    async def arun(self, webhook_id: str, fn: Callable[[], Awaitable[object]]) -> Outcome:
        """run for async handlers; store calls run in a worker thread."""
        import anyio.to_thread  # anyio comes with Starlette/FastAPI

        key = self.prefix + webhook_id
        early = await anyio.to_thread.run_sync(self._claim, key)
        if early is not None:
            return early
        try:
            await fn()
        except BaseException:
            await anyio.to_thread.run_sync(self.store.release, key)
            raise
        try:
            await anyio.to_thread.run_sync(self.store.complete, key, self.ttl)
        except Exception:
            return Outcome.NOT_RECORDED
        return Outcome.PROCESSED
