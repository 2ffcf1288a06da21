"""Framework-independent request handling shared by the Flask and FastAPI adapters."""

from __future__ import annotations

import inspect
import logging
from datetime import timedelta
from typing import Any, Callable, Dict, Optional, Tuple

from ._verify import (
    DEFAULT_FUTURE_TOLERANCE,
    DEFAULT_TOLERANCE,
    HEADER_ID,
    Headers,
    _header,
    _key,
    parse_envelope,
    verify_signature,
)
from .dedupe import Deduper, Outcome, StoreError
from .errors import (
    InvalidEnvelopeError,
    InvalidSecretError,
    MissingHeaderError,
    TimestampOutOfWindowError,
    WebhookVerificationError,
)

#: (status code, JSON body) of an answer.
Reply = Tuple[int, Dict[str, str]]

_log = logging.getLogger("ferry_webhooks")


def _rejection(err: WebhookVerificationError) -> Reply:
    if isinstance(err, InvalidSecretError):
        return 500, {"status": "invalid_secret"}  # the receiver's config: let Ferry retry
    if isinstance(err, InvalidEnvelopeError):
        return 400, {"status": "invalid_envelope"}
    if isinstance(err, (MissingHeaderError, TimestampOutOfWindowError)):
        return 401, {"status": err.code}
    return 401, {"status": "invalid_signature"}


class WebhookProcessor:
    """Verifies a request, dedupes it, and calls the handler.

    Answers: 200 processed or duplicate; 401 missing headers, bad signature or
    timestamp outside the window; 400 not an envelope; 409 being processed by
    another request; 500 handler failed or secret malformed; 503 store down.

    ``handler(envelope)`` (or ``handler(message, body)`` with ``raw=True``)
    may be a function or a coroutine function. Return once the event is
    processed or deliberately ignored; raise to get a 500 and a retry.
    """

    def __init__(
        self,
        secret: str,
        handler: Callable[..., Any],
        *,
        deduper: Optional[Deduper] = None,
        raw: bool = False,
        tolerance: timedelta = DEFAULT_TOLERANCE,
        future_tolerance: timedelta = DEFAULT_FUTURE_TOLERANCE,
        logger: Optional[logging.Logger] = None,
    ) -> None:
        _key(secret)  # raises InvalidSecretError at start-up, not per request
        self.secret = secret
        self.handler = handler
        self.deduper = deduper
        self.raw = raw
        self.tolerance = tolerance
        self.future_tolerance = future_tolerance
        self.log = logger or _log

    def _verify(self, headers: Headers, body: bytes) -> Tuple[Optional[Reply], str, Tuple[Any, ...]]:
        try:
            m = verify_signature(
                self.secret, headers, body, tolerance=self.tolerance, future_tolerance=self.future_tolerance
            )
            args: Tuple[Any, ...] = (m, body) if self.raw else (parse_envelope(m.id, body),)
        except WebhookVerificationError as e:
            self.log.warning("webhook rejected: %s (webhook-id %s)", e, _header(headers, HEADER_ID))
            return _rejection(e), "", ()
        return None, m.id, args

    def _reply(self, outcome: Outcome, webhook_id: str) -> Reply:
        if outcome is Outcome.DUPLICATE:
            return 200, {"status": "duplicate"}
        if outcome is Outcome.IN_PROGRESS:
            return 409, {"status": "in_progress"}
        if outcome is Outcome.NOT_RECORDED:
            self.log.error("webhook %s processed but not recorded as done", webhook_id)
        return 200, {"status": "processed"}

    def handle(self, headers: Headers, body: bytes) -> Reply:
        """Process one request with a synchronous handler."""
        rejected, webhook_id, args = self._verify(headers, body)
        if rejected is not None:
            return rejected
        try:
            if self.deduper is None:
                self.handler(*args)
                outcome = Outcome.PROCESSED
            else:
                outcome = self.deduper.run(webhook_id, lambda: self.handler(*args))
        except StoreError:
            self.log.exception("webhook dedupe store failed (webhook-id %s)", webhook_id)
            return 503, {"status": "store_unavailable"}
        except Exception:
            self.log.exception("webhook handler failed (webhook-id %s)", webhook_id)
            return 500, {"status": "handler_failed"}
        return self._reply(outcome, webhook_id)

    async def ahandle(self, headers: Headers, body: bytes) -> Reply:
        """Process one request; the handler may be sync (run in a thread) or async."""
        import anyio.to_thread

        rejected, webhook_id, args = self._verify(headers, body)
        if rejected is not None:
            return rejected

        async def call() -> None:
            if inspect.iscoroutinefunction(self.handler):
                await self.handler(*args)
            else:
                await anyio.to_thread.run_sync(lambda: self.handler(*args))

        try:
            if self.deduper is None:
                await call()
                outcome = Outcome.PROCESSED
            else:
                outcome = await self.deduper.arun(webhook_id, call)
        except StoreError:
            self.log.exception("webhook dedupe store failed (webhook-id %s)", webhook_id)
            return 503, {"status": "store_unavailable"}
        except Exception:
            self.log.exception("webhook handler failed (webhook-id %s)", webhook_id)
            return 500, {"status": "handler_failed"}
        return self._reply(outcome, webhook_id)
