package ferrywebhooks

import (
	"fmt"
	"net/http"
)

// Webhook verifies requests signed with one endpoint secret, in the shape
// of the Standard Webhooks and Svix libraries
// (NewWebhook(secret) then wh.Verify(payload, headers)), so code moving
// from them keeps its structure. It decodes the secret once; Verify and
// VerifySignature apply the same checks as the package's functions. A
// Webhook is safe for concurrent use.
type Webhook struct {
	key      []byte
	verifier Verifier
}

// NewWebhook returns a Webhook for secret (a "whsec_…" secret; the prefix
// is optional) with the default window and the system clock. The error
// wraps ErrInvalidSecret.
func NewWebhook(secret string) (*Webhook, error) {
	return Verifier{}.NewWebhook(secret)
}

// NewWebhook returns a Webhook for secret with v's window and clock.
func (v Verifier) NewWebhook(secret string) (*Webhook, error) {
	key, err := decodeSecret(secret)
	if err != nil {
		return nil, fmt.Errorf("ferrywebhooks: %w", err)
	}
	return &Webhook{key: key, verifier: v}, nil
}

// Verify checks payload, the raw request body, against headers and
// returns the parsed envelope. Errors wrap ErrMissingHeader,
// ErrInvalidSignature, ErrTimestampOutOfWindow or ErrInvalidEnvelope.
func (w *Webhook) Verify(payload []byte, headers http.Header) (Envelope, error) {
	m, err := w.verifier.verifyKey(w.key, headers, payload)
	if err != nil {
		return Envelope{}, err
	}
	return parseEnvelope(m.ID, payload)
}

// VerifySignature is Verify without parsing the body, for endpoints with
// the raw format.
func (w *Webhook) VerifySignature(payload []byte, headers http.Header) (Message, error) {
	return w.verifier.verifyKey(w.key, headers, payload)
}
