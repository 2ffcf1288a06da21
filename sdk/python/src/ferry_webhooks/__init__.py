"""Receive webhooks sent by Ferry: verify, deduplicate, handle.

``verify(secret, headers, body)`` (or ``Webhook(secret).verify(body, headers)``)
checks the Standard Webhooks signature and returns the typed :class:`Envelope`. Ferry's webhook-timestamp is the event's
created_at, the same on every retry and replay, so the accepted window is
seven days (the 72 h retry window plus replays), not five minutes.
"""

from ._handler import WebhookProcessor
from ._verify import (
    DEFAULT_FUTURE_TOLERANCE,
    DEFAULT_TOLERANCE,
    Envelope,
    Message,
    Webhook,
    parse_envelope,
    verify,
    verify_signature,
)
from .dedupe import DEFAULT_LEASE, DEFAULT_TTL, MIN_TTL, Claim, Deduper, MemoryStore, Outcome, Store, StoreError
from .portal import FerryAPIError, PortalSession, portal_session
from .errors import (
    InvalidEnvelopeError,
    InvalidSecretError,
    InvalidSignatureError,
    MissingHeaderError,
    TimestampOutOfWindowError,
    WebhookVerificationError,
)

__all__ = [
    "FerryAPIError",
    "PortalSession",
    "portal_session",
    "DEFAULT_FUTURE_TOLERANCE",
    "DEFAULT_LEASE",
    "DEFAULT_TOLERANCE",
    "DEFAULT_TTL",
    "MIN_TTL",
    "Claim",
    "Deduper",
    "Envelope",
    "InvalidEnvelopeError",
    "InvalidSecretError",
    "InvalidSignatureError",
    "MemoryStore",
    "Message",
    "MissingHeaderError",
    "Outcome",
    "Store",
    "StoreError",
    "TimestampOutOfWindowError",
    "Webhook",
    "WebhookProcessor",
    "WebhookVerificationError",
    "parse_envelope",
    "verify",
    "verify_signature",
]
