package ferrywebhooks

import (
	"encoding/json"
	"fmt"
	"time"
)

// Envelope is the JSON body Ferry posts for an event.
type Envelope struct {
	// ID is the event id (a lower-case UUID), equal to webhook-id.
	ID string `json:"id"`
	// Type is the event type, e.g. "invoice.paid".
	Type string `json:"type"`
	// CreatedAt is when Ferry accepted the event (millisecond precision,
	// UTC). Order events by it, not by arrival.
	CreatedAt time.Time `json:"created_at"`
	// Data is the event's payload, as sent by the tenant.
	Data json.RawMessage `json:"data"`
}

// DecodeData unmarshals the payload into v.
func (e Envelope) DecodeData(v any) error {
	if err := json.Unmarshal(e.Data, v); err != nil {
		return fmt.Errorf("decode data of event %s: %w", e.ID, err)
	}
	return nil
}

// Message is what a verified request says about itself, whatever its
// body format.
type Message struct {
	// ID is webhook-id: the event id, the same on every attempt and
	// replay. Deduplicate on it.
	ID string
	// Timestamp is webhook-timestamp: the event's created_at, to the
	// second.
	Timestamp time.Time
}

// parseEnvelope decodes body and checks it is the envelope of event id.
func parseEnvelope(id string, body []byte) (Envelope, error) {
	var raw struct {
		ID        *string         `json:"id"`
		Type      *string         `json:"type"`
		CreatedAt *string         `json:"created_at"`
		Data      json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return Envelope{}, fmt.Errorf("%w: %w", ErrInvalidEnvelope, err)
	}
	if raw.ID == nil || raw.Type == nil || raw.CreatedAt == nil || raw.Data == nil {
		return Envelope{}, fmt.Errorf("%w: id, type, created_at or data missing", ErrInvalidEnvelope)
	}
	if *raw.ID != id {
		return Envelope{}, fmt.Errorf("%w: envelope id %q is not webhook-id %q", ErrInvalidEnvelope, *raw.ID, id)
	}
	at, err := time.Parse(time.RFC3339Nano, *raw.CreatedAt)
	if err != nil {
		return Envelope{}, fmt.Errorf("%w: created_at: %w", ErrInvalidEnvelope, err)
	}
	return Envelope{ID: *raw.ID, Type: *raw.Type, CreatedAt: at.UTC(), Data: raw.Data}, nil
}
