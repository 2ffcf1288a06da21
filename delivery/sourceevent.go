package delivery

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/trace"

	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/internal/pgval"
	"github.com/ferry-dev/ferry/internal/rowid"
)

// SourceEventInput is an event made from a request an inbound source
// captured (docs/contract.md#inbound-sources).
type SourceEventInput struct {
	// ID is the event's id when the source chose it already (it stored
	// it with its capture); zero: a new one.
	ID   uuid.UUID
	Type string
	// Data is the JSON body, or {"raw_base64": …} for other bodies.
	Data json.RawMessage
	// Body and ContentType are what raw endpoints receive.
	Body        []byte
	ContentType string
	// Request is what endpoint filters see as `request`.
	Request routing.Request
	// Trace is the span of the capture the event is made from; its
	// deliveries continue that trace (invalid: untraced).
	Trace trace.SpanContext
}

// eventID is the id of the event it makes: the one chosen, or a new one.
func (in SourceEventInput) eventID() uuid.UUID {
	if in.ID != uuid.Nil {
		return in.ID
	}
	return rowid.New()
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
// to the relay (uncalled, the outbox sweeper publishes them later). The
// endpoints' transformations do not run in tx, which the event maker
// shares among tenants: their deliveries are stored pending, and after
// runs them on a goroutine of its own (FinishTransforms; uncalled, the
// opevents.Sweeper does).
// Errors: EINVALID, EQUOTA, ERATELIMIT, EPAYMENT, wrapped database errors.
func (s *Service) IngestInTx(ctx context.Context, tx dbtx.Tx, tenantID uuid.UUID, in SourceEventInput) (_ Event, after func(), err error) {
	ein := EventInput{Type: in.Type, Data: in.Data}
	if err := ein.validate(); err != nil {
		return Event{}, nil, err
	}
	req := in.Request
	ev := Event{ID: in.eventID(), Type: ein.Type, Data: ein.Data, CreatedAt: s.now().UTC().Truncate(time.Microsecond), request: &req,
		trace: in.Trace}
	db := tx.DB(ctx)
	// Routing first, before billing's counters are locked, as in Ingest.
	r := &ingestRequest{tenantID: tenantID, in: ein, ev: ev}
	if err := s.route(db, []*ingestRequest{r}); err != nil {
		return Event{}, nil, err
	}
	deferTransforms([]*ingestRequest{r})
	if s.limits != nil {
		if err := s.limits.Meter(tx).ConsumeEvents(ctx, tenantID, 1); err != nil {
			return Event{}, nil, err
		}
	}
	rows := fanOutRows{FanOut: store.FanOut{Sender: s.queueSender()}}
	rows.add(tenantID, ev, r.matches)
	inserted, err := store.InsertEventsFanOut(ctx, store.Gorm(db), []store.Event{{ID: ev.ID, TenantID: tenantID, Type: ev.Type,
		Data: string(ev.Data), CreatedAt: ev.CreatedAt}}, rows.FanOut)
	if err != nil {
		return Event{}, nil, err
	}
	if inserted != 1 {
		return Event{}, nil, fmt.Errorf("insert event %s: its id is taken", ev.ID)
	}
	body := in.Body
	if body == nil {
		body = []byte{}
	}
	if err := db.Exec(`INSERT INTO event_raw_bodies (event_id, tenant_id, content_type, body) VALUES (?, ?, ?, ?)`,
		ev.ID, tenantID, in.ContentType, body).Error; err != nil {
		return Event{}, nil, fmt.Errorf("insert raw body: %w", err)
	}
	jobs, queues, pending := rows.Jobs, rows.Queues, rows.pending
	return ev, func() {
		s.accepted(tenantID)
		s.wakeQueues(queues)
		if len(jobs) > 0 {
			s.relay.Enqueue(jobs)
		}
		s.finishLater(ctx, pending)
	}, nil
}

// SourceEventItem is one event of a source batch: its tenant and input.
type SourceEventItem struct {
	TenantID uuid.UUID
	Input    SourceEventInput
}

// IngestBatchInTx is IngestInTx for many events in one statement per
// table (the group commit of ingestbatch.go, in the caller's
// transaction): ids[i] is the id of items[i]'s event. Any error fails the
// whole batch (the caller retries its items one by one to give each its
// own answer). Errors: as IngestInTx.
func (s *Service) IngestBatchInTx(ctx context.Context, tx dbtx.Tx, items []SourceEventItem) (ids []uuid.UUID, after func(), err error) {
	now := s.now().UTC().Truncate(time.Microsecond)
	batch := make([]*ingestRequest, len(items))
	ids = make([]uuid.UUID, len(items))
	tenants := make([]uuid.UUID, len(items))
	types, bodies := make([]string, len(items)), make([][]byte, len(items))
	for i, it := range items {
		ein := EventInput{Type: it.Input.Type, Data: it.Input.Data}
		if err := ein.validate(); err != nil {
			return nil, nil, err
		}
		req := it.Input.Request
		ev := Event{ID: it.Input.eventID(), Type: ein.Type, Data: ein.Data, CreatedAt: now, request: &req, trace: it.Input.Trace}
		batch[i] = &ingestRequest{tenantID: it.TenantID, in: ein, ev: ev}
		ids[i], tenants[i], types[i], bodies[i] = ev.ID, it.TenantID, it.Input.ContentType, it.Input.Body
		if bodies[i] == nil {
			bodies[i] = []byte{}
		}
	}
	db := tx.DB(ctx)
	if err := s.route(db, batch); err != nil {
		return nil, nil, err
	}
	deferTransforms(batch)
	jobs, queues, pending, err := s.insertBatch(ctx, db, batch)
	if err != nil {
		return nil, nil, err
	}
	if err := db.Exec(`INSERT INTO event_raw_bodies (event_id, tenant_id, content_type, body)
		SELECT * FROM unnest(?::uuid[], ?::uuid[], ?::text[], ?::bytea[])`,
		pgval.Array(ids), pgval.Array(tenants), pgval.Array(types), pgval.Array(bodies)).Error; err != nil {
		return nil, nil, fmt.Errorf("insert raw bodies: %w", err)
	}
	return ids, func() {
		for _, t := range tenants {
			s.accepted(t)
		}
		s.wakeQueues(queues)
		if len(jobs) > 0 {
			s.relay.Enqueue(jobs)
		}
		s.finishLater(ctx, pending)
		s.cfg.IngestBatch.Observe(float64(len(items)))
	}, nil
}
