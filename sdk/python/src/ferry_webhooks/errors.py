"""Errors raised by verification, one class per failure."""

from __future__ import annotations


class WebhookVerificationError(Exception):
    """Base class of every verification failure; ``code`` names it."""

    code = "verification_failed"


class MissingHeaderError(WebhookVerificationError):
    """webhook-id, webhook-timestamp or webhook-signature is absent or empty."""

    code = "missing_header"


class InvalidSignatureError(WebhookVerificationError):
    """No v1 signature matches: tampered body, wrong secret, altered id or timestamp."""

    code = "invalid_signature"


class InvalidSecretError(WebhookVerificationError):
    """The secret is not a whsec_ secret of 24 to 64 base64-encoded bytes."""

    code = "invalid_secret"


class TimestampOutOfWindowError(WebhookVerificationError):
    """The signature is valid but webhook-timestamp is too old or too far ahead."""

    code = "timestamp_out_of_window"


class InvalidEnvelopeError(WebhookVerificationError):
    """The signature is valid but the body is not a Ferry envelope for webhook-id."""

    code = "invalid_envelope"
