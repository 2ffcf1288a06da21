package delivery

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/ferry-dev/ferry/delivery/internal/pgval"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// Operational events: Ferry tells a tenant about its own account by
// emitting events of the tenant itself, delivered (signed and retried like
// any event) to the tenant's endpoints that subscribe to them by name or
// with "ferry.*". They are not metered: they count against neither the
// monthly quota nor the events/s limit. Tenants may not send events whose
// type starts with "ferry." (but ferry.test, the portal's test event).
//
// Loop rule: an operational event about an endpoint is never delivered to
// that endpoint, and a delivery of an operational event that is exhausted
// emits no ferry.delivery.exhausted. So an endpoint that receives only
// ferry.* events and fails causes at most one failing, disabled and
// recovered event per transition of its health, each delivered to the
// other subscribers only, never an endless chain.
const (
	OpEndpointFailing   = "ferry.endpoint.failing"
	OpEndpointDisabled  = "ferry.endpoint.disabled"
	OpEndpointRecovered = "ferry.endpoint.recovered"
	OpDeliveryExhausted = "ferry.delivery.exhausted"
	OpQuotaWarning      = "ferry.quota.warning"

	// OpPrefix starts the type of every operational event; tenants may
	// not use it.
	OpPrefix = "ferry."
	// OpWildcard in an endpoint's event_types subscribes it to every
	// operational event.
	OpWildcard = "ferry.*"
)

// OperationalEvent is one event Ferry emits about a tenant's account.
type OperationalEvent struct {
	TenantID uuid.UUID
	Type     string
	// Data is the event's data, encoded as JSON.
	Data any
	// Key is the idempotency key that makes the event happen once per
	// transition, e.g. "ferry.endpoint.failing:<endpoint>:<since>".
	Key string
	// About is the endpoint the event is about, which never receives it
	// (the loop rule); uuid.Nil when the event is about no endpoint.
	About uuid.UUID
}

// EndpointHealthData is the data of ferry.endpoint.failing, .disabled and
// .recovered.
type EndpointHealthData struct {
	EndpointID   uuid.UUID  `json:"endpoint_id"`
	URL          string     `json:"url"`
	FailingSince time.Time  `json:"failing_since"`
	Reason       string     `json:"reason,omitempty"`
	RecoveredAt  *time.Time `json:"recovered_at,omitempty"`
}

// DeliveryExhaustedData is the data of ferry.delivery.exhausted.
type DeliveryExhaustedData struct {
	DeliveryID    uuid.UUID `json:"delivery_id"`
	EventID       uuid.UUID `json:"event_id"`
	EventType     string    `json:"event_type"`
	EndpointID    uuid.UUID `json:"endpoint_id"`
	AttemptCount  int       `json:"attempt_count"`
	LastAttemptAt time.Time `json:"last_attempt_at"`
}

// QuotaWarningData is the data of ferry.quota.warning.
type QuotaWarningData struct {
	// Period is the month, "2026-11".
	Period string `json:"period"`
	// Percent is the threshold crossed: 80 or 100.
	Percent int   `json:"percent"`
	Used    int64 `json:"used"`
	Limit   int64 `json:"limit"`
}

// Notifier hears of operational events once they are committed, to tell
// people about them (email). It must not block for long: it runs on the
// goroutine that committed the event. app wires the mailer when there is
// one; NopNotifier is the default.
type Notifier interface {
	OperationalEvent(ctx context.Context, ev OperationalEvent)
}

// NopNotifier tells nobody.
type NopNotifier struct{}

// OperationalEvent does nothing.
func (NopNotifier) OperationalEvent(context.Context, OperationalEvent) {}

// PgxTx is what emitting needs of an open transaction; pgx.Tx satisfies
// it.
type PgxTx interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// EmitOperational stores evs as events of their tenants in tx with their
// deliveries and outbox rows, and returns the emitted events and the jobs
// to hand to the relay once tx commits. An event whose idempotency key the
// tenant already holds was emitted before and is skipped. Not metered.
// Errors: wrapped database errors.
func EmitOperational(ctx context.Context, tx PgxTx, evs []OperationalEvent, now time.Time) ([]OperationalEvent, []Job, error) {
	now = now.UTC().Truncate(time.Millisecond)
	var emitted []OperationalEvent
	var jobs []Job
	for _, op := range evs {
		data, err := json.Marshal(op.Data)
		if err != nil {
			return nil, nil, fmt.Errorf("encode %s: %w", op.Type, err)
		}
		id := uuid.New()
		// Hand-written: runs inside the attempt log's pgx transaction.
		tag, err := tx.Exec(ctx, `INSERT INTO events (id, tenant_id, type, data, idempotency_key, created_at)
			VALUES ($1, $2, $3, $4::json, $5, $6)
			ON CONFLICT (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING`,
			[16]byte(id), [16]byte(op.TenantID), op.Type, string(data), op.Key, now)
		if err != nil {
			return nil, nil, fmt.Errorf("insert %s: %w", op.Type, err)
		}
		if tag.RowsAffected() == 0 {
			continue // emitted before
		}
		emitted = append(emitted, op)
		evJobs, err := fanOutOperational(ctx, tx, op, id, now)
		if err != nil {
			return nil, nil, err
		}
		jobs = append(jobs, evJobs...)
	}
	return emitted, jobs, nil
}

// subscribedEndpoint is an endpoint an operational event goes to.
type subscribedEndpoint struct {
	ID   uuid.UUID
	Kind Kind
}

// fanOutOperational creates the deliveries of one operational event: to
// the tenant's enabled endpoints that name its type or ferry.*, except
// the endpoint it is about. "All events" (an empty list) means all of the
// tenant's own events, not Ferry's. Queue endpoints' deliveries get no
// outbox row (their consumers pull; a notification wakes them at commit).
func fanOutOperational(ctx context.Context, tx PgxTx, op OperationalEvent, eventID uuid.UUID, now time.Time) ([]Job, error) {
	rows, err := tx.Query(ctx, `SELECT id, kind FROM endpoints WHERE tenant_id = $1 AND enabled AND deleted_at IS NULL
		AND id <> $2 AND (event_types @> jsonb_build_array($3::text) OR event_types @> jsonb_build_array($4::text))
		ORDER BY created_at, id`, [16]byte(op.TenantID), [16]byte(op.About), op.Type, OpWildcard)
	if err != nil {
		return nil, fmt.Errorf("select endpoints for %s: %w", op.Type, err)
	}
	targets, err := pgx.CollectRows(rows, pgx.RowToStructByPos[subscribedEndpoint])
	if err != nil {
		return nil, fmt.Errorf("select endpoints for %s: %w", op.Type, err)
	}
	var endpointIDs, queueIDs []uuid.UUID
	for _, t := range targets {
		if t.Kind == KindQueue {
			queueIDs = append(queueIDs, t.ID)
		} else {
			endpointIDs = append(endpointIDs, t.ID)
		}
	}
	if len(queueIDs) > 0 {
		ids := make([]uuid.UUID, len(queueIDs))
		for i := range ids {
			ids[i] = uuid.New()
		}
		if _, err := tx.Exec(ctx, `INSERT INTO deliveries (id, tenant_id, event_id, endpoint_id, created_at)
			SELECT d, $1, $2, e, $3 FROM unnest($4::uuid[], $5::uuid[]) AS t(d, e)`,
			[16]byte(op.TenantID), [16]byte(eventID), now, pgval.Array(ids), pgval.Array(queueIDs)); err != nil {
			return nil, fmt.Errorf("insert queued deliveries of %s: %w", op.Type, err)
		}
		if _, err := tx.Exec(ctx, `SELECT pg_notify($1, e::text) FROM unnest($2::uuid[]) AS t(e)`,
			QueueChannel, pgval.Array(queueIDs)); err != nil {
			return nil, fmt.Errorf("notify queues: %w", err)
		}
	}
	if len(endpointIDs) == 0 {
		return nil, nil
	}
	jobs := make([]Job, len(endpointIDs))
	deliveryIDs := make([]uuid.UUID, len(endpointIDs))
	payloads := make([]string, len(endpointIDs))
	for i, epID := range endpointIDs {
		jobs[i] = Job{DeliveryID: uuid.New(), EventID: eventID, EndpointID: epID, TenantID: op.TenantID,
			Attempt: 1, Trigger: TriggerInitial, AcceptedAt: now, OutboxAt: now}
		b, err := json.Marshal(jobs[i])
		if err != nil {
			return nil, fmt.Errorf("encode job: %w", err)
		}
		deliveryIDs[i], payloads[i] = jobs[i].DeliveryID, string(b)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO deliveries (id, tenant_id, event_id, endpoint_id, created_at)
		SELECT d, $1, $2, e, $3 FROM unnest($4::uuid[], $5::uuid[]) AS t(d, e)`,
		[16]byte(op.TenantID), [16]byte(eventID), now, pgval.Array(deliveryIDs), pgval.Array(endpointIDs)); err != nil {
		return nil, fmt.Errorf("insert deliveries of %s: %w", op.Type, err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO outbox (delivery_id, job, created_at)
		SELECT d, j::jsonb, $1 FROM unnest($2::uuid[], $3::text[]) AS t(d, j)`,
		now, pgval.Array(deliveryIDs), pgval.Array(payloads)); err != nil {
		return nil, fmt.Errorf("insert outbox of %s: %w", op.Type, err)
	}
	return jobs, nil
}

// TestEventType is the type of the portal's "Send test event": the one
// ferry.* type a tenant may send.
const TestEventType = "ferry.test"

// isOperationalType reports whether typ is reserved for Ferry's
// operational events.
func isOperationalType(typ string) bool {
	return strings.HasPrefix(typ, OpPrefix) && typ != TestEventType
}
