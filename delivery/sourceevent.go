package delivery

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/delivery/routing"
)

// SourceEventInput is an event made from a request an inbound source
// captured (docs/contract.md#inbound-sources).
type SourceEventInput struct {
	Type string
	// Data is the JSON body, or {"raw_base64": …} for other bodies.
	Data json.RawMessage
	// Body and ContentType are what raw endpoints receive.
	Body        []byte
	ContentType string
	// Request is what endpoint filters see as `request`.
	Request routing.Request
}

// ValidEventType reports whether t may be an event's type (not one of
// Ferry's own ferry.* types).
func ValidEventType(t string) bool {
	return eventTypePattern.MatchString(t) && !isOperationalType(t)
}

// IngestInTx accepts an event from an inbound source in tx, the caller's
// open transaction (which also holds the capture): it meters the event,
// stores it with its raw body, and fans it out, filters seeing the
// request. The caller commits tx, then calls after, which hands the jobs
// to the relay (uncalled, the outbox sweeper publishes them later).
// Errors: EINVALID, EQUOTA, ERATELIMIT, EPAYMENT, wrapped database errors.
func (s *Service) IngestInTx(ctx context.Context, tx dbtx.Tx, tenantID uuid.UUID, in SourceEventInput) (_ Event, after func(), err error) {
	ein := EventInput{Type: in.Type, Data: in.Data}
	if err := ein.validate(); err != nil {
		return Event{}, nil, err
	}
	req := in.Request
	ev := Event{ID: uuid.New(), Type: ein.Type, Data: ein.Data, CreatedAt: s.now().UTC().Truncate(time.Millisecond), request: &req}
	db := tx.DB(ctx)
	if s.limits != nil {
		if err := s.limits.Meter(tx).ConsumeEvents(ctx, tenantID, 1); err != nil {
			return Event{}, nil, err
		}
	}
	if err := db.Exec(`INSERT INTO events (id, tenant_id, type, data, created_at) VALUES (?, ?, ?, ?, ?)`,
		ev.ID, tenantID, ev.Type, string(ev.Data), ev.CreatedAt).Error; err != nil {
		return Event{}, nil, fmt.Errorf("insert event: %w", err)
	}
	body := in.Body
	if body == nil {
		body = []byte{}
	}
	if err := db.Exec(`INSERT INTO event_raw_bodies (event_id, tenant_id, content_type, body) VALUES (?, ?, ?, ?)`,
		ev.ID, tenantID, in.ContentType, body).Error; err != nil {
		return Event{}, nil, fmt.Errorf("insert raw body: %w", err)
	}
	jobs, err := s.fanOut(db, tenantID, ev)
	if err != nil {
		return Event{}, nil, err
	}
	return ev, func() {
		s.accepted(tenantID)
		if len(jobs) > 0 {
			s.relay.Enqueue(jobs)
		}
	}, nil
}
