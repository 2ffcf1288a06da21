"""Signature and timestamp verification (standard library only)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Callable, Iterable, Protocol, Tuple, Union

from .errors import (
    InvalidEnvelopeError,
    InvalidSecretError,
    InvalidSignatureError,
    MissingHeaderError,
    TimestampOutOfWindowError,
)

#: How old webhook-timestamp may be. Ferry's timestamp is the event's
#: created_at, identical on every retry and replay: retries run for 72 hours,
#: replays come later still, so the window is 72 h plus four days.
DEFAULT_TOLERANCE = timedelta(days=7)
#: How far in the future webhook-timestamp may be (clock skew).
DEFAULT_FUTURE_TOLERANCE = timedelta(minutes=5)

HEADER_ID = "webhook-id"
HEADER_TIMESTAMP = "webhook-timestamp"
HEADER_SIGNATURE = "webhook-signature"



class Headers(Protocol):
    """Request headers: a dict, or a framework's header object (Flask, Starlette)."""

    def get(self, key: str, /) -> Any: ...

    def items(self) -> Iterable[Tuple[str, Any]]: ...

Body = Union[bytes, bytearray, memoryview, str]


@dataclass(frozen=True)
class Envelope:
    """The JSON body Ferry posts for an event."""

    #: The event id (a lower-case UUID), equal to webhook-id.
    id: str
    #: The event type, e.g. ``invoice.paid``.
    type: str
    #: When Ferry accepted the event (UTC, millisecond precision); order by it.
    created_at: datetime
    #: The event's payload.
    data: Any


@dataclass(frozen=True)
class Message:
    """What a verified request says about itself, whatever its body format."""

    #: webhook-id: the event id, the same on every attempt and replay.
    id: str
    #: webhook-timestamp: the event's created_at, to the second.
    timestamp: datetime


def _header(headers: Headers, name: str) -> str:
    value = headers.get(name)
    if value is None:
        for k, v in headers.items():
            if k.lower() == name:
                value = v
                break
    if isinstance(value, (list, tuple)):
        value = value[0] if value else None
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    return value or ""


def _key(secret: str) -> bytes:
    if not isinstance(secret, str) or not secret:
        raise InvalidSecretError("signing secret is empty")
    raw = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
    try:
        key = base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError) as e:
        raise InvalidSecretError("signing secret is not base64 after whsec_") from e
    if not 24 <= len(key) <= 64:
        raise InvalidSecretError(f"signing secret holds {len(key)} bytes, want 24 to 64")
    return key


def _bytes(body: Body) -> bytes:
    if isinstance(body, str):
        return body.encode("utf-8")
    return bytes(body)


def _now(now: Union[datetime, float, None]) -> float:
    if now is None:
        return time.time()
    if isinstance(now, datetime):
        return now.timestamp()
    return float(now)


def verify_signature(
    secret: str,
    headers: Headers,
    body: Body,
    *,
    tolerance: timedelta = DEFAULT_TOLERANCE,
    future_tolerance: timedelta = DEFAULT_FUTURE_TOLERANCE,
    now: Union[datetime, float, None] = None,
) -> Message:
    """Verify a request without parsing its body (raw-format endpoints).

    Raises InvalidSecretError, MissingHeaderError, InvalidSignatureError or
    TimestampOutOfWindowError.
    """
    return _verify_key(_key(secret), headers, body, tolerance, future_tolerance, _now(now))


def _verify_key(
    key: bytes, headers: Headers, body: Body, tolerance: timedelta, future_tolerance: timedelta, current: float
) -> Message:
    msg_id = _header(headers, HEADER_ID)
    ts = _header(headers, HEADER_TIMESTAMP)
    sigs = _header(headers, HEADER_SIGNATURE)
    missing = [n for n, v in ((HEADER_ID, msg_id), (HEADER_TIMESTAMP, ts), (HEADER_SIGNATURE, sigs)) if not v]
    if missing:
        raise MissingHeaderError("missing " + ", ".join(missing))
    if not (ts.isascii() and ts.isdigit()):
        raise InvalidSignatureError(f"webhook-timestamp {ts!r} is not unix seconds")
    raw = _bytes(body)
    want = hmac.new(key, msg_id.encode("utf-8") + b"." + ts.encode("ascii") + b"." + raw, hashlib.sha256).digest()
    matched = False
    for sig in sigs.split():
        version, _, b64 = sig.partition(",")
        if version != "v1":
            continue
        try:
            got = base64.b64decode(b64, validate=True)
        except (binascii.Error, ValueError):
            continue
        if hmac.compare_digest(got, want):
            matched = True
    if not matched:
        raise InvalidSignatureError("no v1 signature matches")
    sent = int(ts)
    if current - sent > tolerance.total_seconds():
        raise TimestampOutOfWindowError(f"timestamp {sent} is {int(current - sent)} s old")
    if sent - current > future_tolerance.total_seconds():
        raise TimestampOutOfWindowError(f"timestamp {sent} is {int(sent - current)} s in the future")
    return Message(id=msg_id, timestamp=datetime.fromtimestamp(sent, tz=timezone.utc))


def parse_envelope(webhook_id: str, body: Body) -> Envelope:
    """Parse body as the envelope of event webhook_id, or raise InvalidEnvelopeError."""
    try:
        doc = json.loads(_bytes(body))
    except (ValueError, UnicodeDecodeError) as e:
        raise InvalidEnvelopeError(f"body is not JSON: {e}") from e
    if not isinstance(doc, dict) or not all(k in doc for k in ("id", "type", "created_at", "data")):
        raise InvalidEnvelopeError("id, type, created_at or data missing")
    if doc["id"] != webhook_id:
        raise InvalidEnvelopeError(f"envelope id {doc['id']!r} is not webhook-id {webhook_id!r}")
    created = doc["created_at"]
    try:
        if not isinstance(created, str):
            raise ValueError("not a string")
        at = datetime.fromisoformat(created.replace("Z", "+00:00")).astimezone(timezone.utc)
    except ValueError as e:
        raise InvalidEnvelopeError(f"created_at {created!r}: {e}") from e
    if not isinstance(doc["type"], str):
        raise InvalidEnvelopeError("type is not a string")
    return Envelope(id=doc["id"], type=doc["type"], created_at=at, data=doc["data"])


def verify(
    secret: str,
    headers: Headers,
    body: Body,
    *,
    tolerance: timedelta = DEFAULT_TOLERANCE,
    future_tolerance: timedelta = DEFAULT_FUTURE_TOLERANCE,
    now: Union[datetime, float, None] = None,
) -> Envelope:
    """Verify a Ferry webhook and return its envelope.

    ``secret`` is the endpoint's ``whsec_…`` secret, ``headers`` the request
    headers (any mapping; names are matched case-insensitively) and ``body``
    the raw body exactly as received. Raises a WebhookVerificationError
    subclass: InvalidSecretError, MissingHeaderError, InvalidSignatureError,
    TimestampOutOfWindowError or InvalidEnvelopeError.
    """
    m = verify_signature(secret, headers, body, tolerance=tolerance, future_tolerance=future_tolerance, now=now)
    return parse_envelope(m.id, body)


class Webhook:
    """Verifies requests signed with one endpoint secret.

    The shape of the Standard Webhooks and Svix libraries, for code moving
    from them: ``Webhook(secret).verify(payload, headers)``. The secret is
    decoded once (InvalidSecretError if malformed); ``verify`` applies the
    same checks as :func:`verify` and returns the :class:`Envelope`.
    ``clock`` returns the current unix time (``time.time`` by default), so
    tests can fix it.
    """

    def __init__(
        self,
        secret: str,
        *,
        tolerance: timedelta = DEFAULT_TOLERANCE,
        future_tolerance: timedelta = DEFAULT_FUTURE_TOLERANCE,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._key = _key(secret)
        self._tolerance = tolerance
        self._future_tolerance = future_tolerance
        self._clock = clock

    def verify(self, payload: Body, headers: Headers) -> Envelope:
        """Verify payload (the raw body) against headers and return the envelope.

        Raises MissingHeaderError, InvalidSignatureError,
        TimestampOutOfWindowError or InvalidEnvelopeError.
        """
        m = self.verify_signature(payload, headers)
        return parse_envelope(m.id, payload)

    def verify_signature(self, payload: Body, headers: Headers) -> Message:
        """``verify`` without parsing the body, for raw-format endpoints."""
        return _verify_key(self._key, headers, payload, self._tolerance, self._future_tolerance, self._clock())


__all__ = [
    "Webhook",
    "DEFAULT_FUTURE_TOLERANCE",
    "DEFAULT_TOLERANCE",
    "Envelope",
    "Message",
    "parse_envelope",
    "verify",
    "verify_signature",
]

