package delivery

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ferry-dev/ferry/delivery/internal/jobtrace"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/delivery/webhook"
	"github.com/ferry-dev/ferry/internal/rowid"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
)

// Ingest limits (docs/contract.md#limits).
const (
	// MaxPayloadBytes bounds an event's data; the API answers 413 above it
	// and derives its messages from it (ferry.FormatBytes).
	MaxPayloadBytes      = 256 << 10
	maxIdempotencyKey    = 255
	idempotencyKeyWindow = 24 * time.Hour
)

// Event is an accepted event.
type Event struct {
	ID             uuid.UUID       `json:"id"`   // the event's id, sent as webhook-id
	Type           string          `json:"type"` // the event type, e.g. invoice.paid
	Data           json.RawMessage `json:"data"`
	IdempotencyKey *string         `json:"idempotency_key,omitempty"` // the idempotency key it was sent with; absent without one
	// Customer is the uid of the customer the event was sent for: only
	// that customer's endpoints (and the tenant's own) receive it.
	Customer  *string   `json:"customer,omitempty" gorm:"column:customer_uid"`
	CreatedAt time.Time `json:"created_at"` // when Ferry accepted the event
	// SchemaWarning says how data fails its type's schema in warn mode
	// (Config.Schemas); the API's answer carries it, nothing stores it.
	SchemaWarning string `json:"-"`
	// customerID is Ferry's id of Customer, for routing.
	customerID *uuid.UUID
	// request is the captured request of an event made by an inbound
	// source, for filters at fan-out; nil otherwise.
	request *routing.Request
	// trace is the span its jobs continue (invalid when untraced).
	trace trace.SpanContext
}

// MarshalJSON writes created_at in the envelope's format.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	return json.Marshal(struct {
		plain
		CreatedAt string `json:"created_at"`
	}{plain(e), e.CreatedAt.UTC().Format(webhook.TimeFormat)})
}

// EventInput is the body of POST /api/v1/events.
type EventInput struct {
	Type           string          `json:"type"`
	Data           json.RawMessage `json:"data"`
	IdempotencyKey string          `json:"idempotency_key"`
	// Customer, the uid of one of the tenant's customers, sends the event
	// to that customer's endpoints only (and the tenant's own).
	Customer string `json:"customer"`
}

func (in *EventInput) validate() error {
	if in.Type == "" {
		return ferry.Invalid("type", "type is required")
	}
	if err := CheckEventType("type", in.Type); err != nil {
		return err
	}
	if isOperationalType(in.Type) {
		return ferry.Invalid("type", "types starting with \"ferry.\" are reserved for Ferry's own events")
	}
	trimmed := bytes.TrimSpace(in.Data)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		return ferry.Invalid("data", "data is required")
	}
	if !utf8.Valid(trimmed) {
		return ferry.Invalid("data", "data must be valid JSON")
	}
	// Compact validates as it goes: one pass instead of Valid + Compact.
	var compact bytes.Buffer
	compact.Grow(len(trimmed))
	if err := json.Compact(&compact, trimmed); err != nil {
		return ferry.Invalid("data", "data must be valid JSON")
	}
	// Postgres json rejects \u0000; refuse it clearly rather than fail late.
	if bytes.Contains(compact.Bytes(), []byte(`\u0000`)) {
		return ferry.Invalid("data", "data must not contain \\u0000")
	}
	in.Data = compact.Bytes()
	in.Customer = strings.TrimSpace(in.Customer)
	in.IdempotencyKey = strings.TrimSpace(in.IdempotencyKey)
	if len(in.IdempotencyKey) > maxIdempotencyKey || !utf8.ValidString(in.IdempotencyKey) {
		return ferry.Invalid("idempotency_key", "idempotency_key must be at most %d bytes of valid UTF-8", maxIdempotencyKey)
	}
	return nil
}

// Ingest accepts an event: it returns only after the event, its deliveries
// and their outbox rows are committed (docs/contract.md#durability-on-ingest), then hands the jobs to
// the relay. created is false when an idempotency key within 24 h matched
// an earlier event, which is returned instead. Data is checked against
// its type's schema (Config.Schemas) before any transaction, for both
// the batched and the single path. Errors: EINVALID, EQUOTA,
// ERATELIMIT, and wrapped database errors.
func (s *Service) Ingest(ctx context.Context, tenantID uuid.UUID, in EventInput) (ev Event, created bool, err error) {
	ctx, span := jobtrace.StartChild(ctx, s.tracer, "ingest event")
	defer func() { endIngestSpan(span, tenantID, ev, err) }()
	if err := in.validate(); err != nil {
		return Event{}, false, err
	}
	var warning string
	if s.cfg.Schemas != nil {
		if warning, err = s.cfg.Schemas.Check(ctx, tenantID, in.Type, in.Data); err != nil {
			return Event{}, false, err
		}
	}
	// To the microsecond, as PostgreSQL keeps it: an event's time orders
	// its deliveries in a queue (created_at, then a random id), so two
	// events sent one after the other must not share it, as they could
	// within a millisecond.
	now := s.now().UTC().Truncate(time.Microsecond)
	ev = Event{ID: rowid.New(), Type: in.Type, Data: in.Data, CreatedAt: now, trace: span.SpanContext()}
	if in.Customer != "" {
		if ev.customerID, err = s.resolveCustomer(ctx, tenantID, "customer", in.Customer); err != nil {
			return Event{}, false, err
		}
		ev.Customer = &in.Customer
	}
	if in.IdempotencyKey != "" {
		key := in.IdempotencyKey
		ev.IdempotencyKey = &key
	}
	// Every event shares transactions with concurrent requests (group
	// commit, ingestbatch.go).
	ev, created, err = s.ingestBatched(ctx, tenantID, in, ev)
	if err == nil {
		ev.SchemaWarning = warning
	}
	return ev, created, err
}

// errTransformFirst ends an ingest transaction that routed its event to
// endpoints whose transformations are still to run: they run outside any
// transaction, and the event is committed afterwards with their results.
var errTransformFirst = errors.New("transformations to run first")

// ingestOne accepts r's validated event in its own transaction: the
// group commit's fallback, which gives each event of a failed batch its
// own answer, and a test event's way in. Routing reads in the
// transaction, before any lock; if the event goes to endpoints with
// transformations not yet run, the transaction ends (nothing written)
// and, when inline, they run (in the sandbox, with only this request
// waiting) and the transaction is made again with the results; when not
// inline (a committer, which others wait on), it returns
// errTransformFirst for the caller to run them elsewhere.
func (s *Service) ingestOne(ctx context.Context, r *ingestRequest, inline bool) (_ Event, created bool, err error) {
	tenantID, in, ev := r.tenantID, r.in, r.ev
	now := ev.CreatedAt
	var key *string
	if in.IdempotencyKey != "" {
		key = &in.IdempotencyKey
		ev.IdempotencyKey = key
	}
	var jobs []model.Job
	var queues []uuid.UUID
	for {
		err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			if key != nil {
				prior, found, err := claimIdempotencyKey(tx, tenantID, *key, now)
				if err != nil {
					return err
				}
				if found {
					if !sameRequest(prior, in) {
						return errKeyReused()
					}
					ev, created = prior, false
					return nil
				}
			}
			if err := s.route(tx, []*ingestRequest{r}); err != nil {
				return err
			}
			if r.pendingTransforms() {
				return errTransformFirst
			}
			if s.limits != nil {
				if err := s.limits.Meter(dbtx.Wrap(tx)).ConsumeEvents(ctx, tenantID, 1); err != nil {
					return err
				}
			}
			rows := fanOutRows{FanOut: store.FanOut{Sender: s.queueSender()}}
			rows.add(tenantID, ev, r.matches)
			inserted, err := store.InsertEventsFanOut(ctx, store.Gorm(tx), []store.Event{{ID: ev.ID, TenantID: tenantID, Type: ev.Type,
				Data: string(ev.Data), IdempotencyKey: key, CustomerID: ev.customerID, CustomerUID: ev.Customer, CreatedAt: now}}, rows.FanOut)
			if err != nil {
				return err
			}
			if inserted == 0 {
				if key == nil {
					// This very event committed already: a group-commit batch
					// whose commit reported an error after succeeding.
					created = true
					return nil
				}
				// A concurrent request with the same key committed first.
				return errIdempotencyRace
			}
			created = true
			jobs, queues = rows.Jobs, rows.Queues // nothing deferred on this path
			return nil
		})
		if !errors.Is(err, errTransformFirst) || !inline {
			break
		}
		if err := s.transformMatches(ctx, tenantID, r.ev, r.matches); err != nil {
			return Event{}, false, err
		}
	}
	if err == errIdempotencyRace {
		return s.Ingest(ctx, tenantID, in)
	}
	if err != nil {
		return Event{}, false, err
	}
	if created {
		s.accepted(tenantID)
	}
	s.wakeQueues(queues)
	if len(jobs) > 0 {
		s.relay.Enqueue(jobs)
	}
	return ev, created, nil
}

// errKeyReused answers an idempotency key used within the window for a
// different event.
func errKeyReused() error {
	return &ferry.Error{Code: ferry.EKEYREUSED, Field: "idempotency_key",
		Message: "this idempotency key was used in the last 24 hours for a different event; send a new key"}
}

// endIngestSpan names the event on span and ends it; the attributes are
// built only for a recording span.
func endIngestSpan(span trace.Span, tenantID uuid.UUID, ev Event, err error) {
	if span.IsRecording() {
		span.SetAttributes(jobtrace.TenantID.String(tenantID.String()))
		if ev.ID != uuid.Nil {
			span.SetAttributes(jobtrace.EventID.String(ev.ID.String()))
		}
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, "ingest failed")
		}
	}
	span.End()
}

var errIdempotencyRace = ferry.Errorf(ferry.ECONFLICT, "idempotency key race")

// claimIdempotencyKey returns the event already holding key within the
// window. A key older than the window is released for reuse.
// sameRequest reports whether in asks for the event prior was made from
// (its type, data and customer): a key used again for a different one is
// a mistake of the caller, answered rather than hidden.
func sameRequest(prior Event, in EventInput) bool {
	customer := ""
	if prior.Customer != nil {
		customer = *prior.Customer
	}
	return prior.Type == in.Type && customer == in.Customer && bytes.Equal(bytes.TrimSpace(prior.Data), in.Data)
}

func claimIdempotencyKey(tx *gorm.DB, tenantID uuid.UUID, key string, now time.Time) (Event, bool, error) {
	var prior Event
	res := tx.Raw(`SELECT id, type, data, idempotency_key, customer_uid, created_at FROM events
		WHERE tenant_id = ? AND idempotency_key = ?`, tenantID, key).Scan(&prior)
	if res.Error != nil {
		return Event{}, false, fmt.Errorf("look up idempotency key: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return Event{}, false, nil
	}
	if now.Sub(prior.CreatedAt) < idempotencyKeyWindow {
		return prior, true, nil
	}
	if err := tx.Exec(`UPDATE events SET idempotency_key = NULL WHERE id = ?`, prior.ID).Error; err != nil {
		return Event{}, false, fmt.Errorf("release idempotency key: %w", err)
	}
	return Event{}, false, nil
}

// fanOutRows are the rows one fan-out (of one event or a batch) writes,
// and the transformations it leaves to run after its commit.
type fanOutRows struct {
	store.FanOut
	pending PendingTransforms
}

// add adds the deliveries of tenantID's event ev to its matches: queue
// endpoints' wait for their consumers (no job), a deferred
// transformation's get a pending mark and no outbox row until it has
// run, the others a job and, when transformed, the result.
func (r *fanOutRows) add(tenantID uuid.UUID, ev Event, matches []batchMatch) {
	for k := range matches {
		m := &matches[k]
		id := rowid.New()
		r.Deliveries = append(r.Deliveries, store.Delivery{ID: id, TenantID: tenantID, EventID: ev.ID, EndpointID: m.EndpointID,
			CreatedAt: ev.CreatedAt})
		switch {
		case m.Kind == KindQueue:
			r.Queues = append(r.Queues, m.EndpointID)
			if ev.trace.IsValid() {
				r.Deliveries[len(r.Deliveries)-1].TraceParent = jobtrace.TraceParent(ev.trace)
			}
		case m.deferred:
			r.pending = append(r.pending, m.pending(id, tenantID, ev))
			r.Transforms = append(r.Transforms, store.Transform{DeliveryID: id, TenantID: tenantID, Pending: true, CreatedAt: ev.CreatedAt})
		default:
			job := model.Job{DeliveryID: id, EventID: ev.ID, EndpointID: m.EndpointID, TenantID: tenantID,
				Attempt: 1, Trigger: model.TriggerInitial, AcceptedAt: ev.CreatedAt, OutboxAt: ev.CreatedAt}
			jobtrace.SetSpanContext(&job, ev.trace)
			r.Jobs = append(r.Jobs, job)
			if m.Transformed != nil {
				r.Transforms = append(r.Transforms, newTransformRow(id, tenantID, m.Transformed, ev.CreatedAt))
			}
		}
	}
}
