package ferrywebhooks

import "errors"

// Verification errors. Every error returned by Verify and VerifySignature
// wraps exactly one of them; use errors.Is to tell them apart.
var (
	// ErrMissingHeader: webhook-id, webhook-timestamp or
	// webhook-signature is absent or empty. Not a Ferry request.
	ErrMissingHeader = errors.New("missing webhook header")
	// ErrInvalidSignature: no v1 signature in webhook-signature matches
	// (tampered body, wrong secret, altered id or timestamp).
	ErrInvalidSignature = errors.New("invalid webhook signature")
	// ErrInvalidSecret: the secret is not a whsec_ secret of 24 to 64
	// base64-encoded bytes. A configuration error of the receiver.
	ErrInvalidSecret = errors.New("malformed signing secret")
	// ErrTimestampOutOfWindow: the signature is valid, but
	// webhook-timestamp is older than the tolerance or too far in the
	// future.
	ErrTimestampOutOfWindow = errors.New("webhook timestamp outside the accepted window")
	// ErrInvalidEnvelope: the signature is valid, but the body is not a
	// Ferry envelope (e.g. a raw-format delivery: use VerifySignature), or
	// its id differs from webhook-id.
	ErrInvalidEnvelope = errors.New("body is not a Ferry envelope")
)
