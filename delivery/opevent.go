package delivery

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// Notifier hears of operational events once they are committed, to tell
// people about them (email). It must not block for long: it runs on the
// goroutine that committed the event. app wires the mailer when there is
// one; NopNotifier is the default.
type Notifier interface {
	OperationalEvent(ctx context.Context, ev model.OperationalEvent)
}

// NopNotifier tells nobody.
type NopNotifier struct{}

// OperationalEvent does nothing.
func (NopNotifier) OperationalEvent(context.Context, model.OperationalEvent) {}

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
// Endpoints' filters apply as to any event, through router (nil: every
// subscribed endpoint, untransformed). Their transformations do not run
// here: tx is shared by other tenants' work (the attempt log's), and no
// transaction waits on a transformation. A delivery to an endpoint with
// one is stored with a pending result and no outbox row, and returned in
// pending: once tx has committed, the caller hands pending to
// FinishTransforms (on a goroutine of its own), which runs them and
// makes their outbox rows; what a crash leaves pending,
// FinishPendingTransforms finds. Errors: wrapped database errors.
func EmitOperational(ctx context.Context, tx PgxTx, router *Router, evs []model.OperationalEvent, now time.Time) (_ []model.OperationalEvent, _ []model.Job, pending PendingTransforms, _ error) {
	now = now.UTC().Truncate(time.Millisecond)
	var emitted []model.OperationalEvent
	var jobs []model.Job
	for _, op := range evs {
		data, err := json.Marshal(op.Data)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("encode %s: %w", op.Type, err)
		}
		id := uuid.New()
		// Hand-written: runs inside the attempt log's pgx transaction.
		tag, err := tx.Exec(ctx, `INSERT INTO events (id, tenant_id, type, data, idempotency_key, created_at)
			VALUES ($1, $2, $3, $4::json, $5, $6)
			ON CONFLICT (tenant_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING`,
			[16]byte(id), [16]byte(op.TenantID), op.Type, string(data), op.Key, now)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("insert %s: %w", op.Type, err)
		}
		if tag.RowsAffected() == 0 {
			continue // emitted before
		}
		emitted = append(emitted, op)
		ev := Event{ID: id, Type: op.Type, Data: data, CreatedAt: now}
		evJobs, evPending, err := fanOutOperational(ctx, tx, router, op, ev)
		if err != nil {
			return nil, nil, nil, err
		}
		jobs = append(jobs, evJobs...)
		pending = append(pending, evPending...)
	}
	return emitted, jobs, pending, nil
}

// opTarget is an endpoint an operational event is routed to.
type opTarget struct {
	ID             uuid.UUID
	Kind           Kind
	Filter         string
	Transformation string
	Headers        []byte // JSON, only when there is a transformation
}

// fanOutOperational creates the deliveries of one operational event: to
// the tenant's enabled endpoints that name its type or ferry.*, except
// the endpoint it is about, and whose filter accepts it. A delivery to an
// http endpoint with a transformation gets a pending result and no
// outbox row (returned in pending, see EmitOperational); other http
// endpoints' deliveries get their outbox row and job. "All events" (an
// empty list) means all of the tenant's own events, not Ferry's. Queue
// endpoints' deliveries get no outbox row (their consumers pull; a
// notification wakes them at commit).
func fanOutOperational(ctx context.Context, tx PgxTx, router *Router, op model.OperationalEvent, ev Event) ([]model.Job, PendingTransforms, error) {
	rows, err := tx.Query(ctx, `SELECT id, kind, filter, transformation,
			CASE WHEN transformation <> '' THEN convert_to(headers::text, 'UTF8') END
		FROM endpoints WHERE tenant_id = $1 AND enabled AND deleted_at IS NULL
		AND id <> $2 AND (event_types @> jsonb_build_array($3::text) OR event_types @> jsonb_build_array($4::text))
		ORDER BY created_at, id`, [16]byte(op.TenantID), [16]byte(op.About), op.Type, model.OpWildcard)
	if err != nil {
		return nil, nil, fmt.Errorf("select endpoints for %s: %w", op.Type, err)
	}
	targets, err := pgx.CollectRows(rows, pgx.RowToStructByPos[opTarget])
	if err != nil {
		return nil, nil, fmt.Errorf("select endpoints for %s: %w", op.Type, err)
	}
	var endpointIDs, queueIDs []uuid.UUID
	var pending PendingTransforms
	var in *routing.Input // decoded on first use
	for _, t := range targets {
		if router != nil && t.Filter != "" {
			if in == nil {
				in = routing.Prepare(routingEvent(ev))
			}
			if !router.accepts(op.TenantID, ev, in, t.ID, t.Filter) {
				continue
			}
		}
		switch {
		case t.Kind == KindQueue:
			queueIDs = append(queueIDs, t.ID)
		case router != nil && t.Transformation != "":
			var headers map[string]string
			if err := json.Unmarshal(t.Headers, &headers); err != nil {
				return nil, nil, fmt.Errorf("endpoint %s headers: %w", t.ID, err)
			}
			pending = append(pending, pendingTransform{DeliveryID: uuid.New(), TenantID: op.TenantID, EndpointID: t.ID,
				src: t.Transformation, headers: headers, ev: ev})
		default:
			endpointIDs = append(endpointIDs, t.ID)
		}
	}
	now := ev.CreatedAt
	if len(queueIDs) > 0 {
		ids := make([]uuid.UUID, len(queueIDs))
		for i := range ids {
			ids[i] = uuid.New()
		}
		if _, err := tx.Exec(ctx, `INSERT INTO deliveries (id, tenant_id, event_id, endpoint_id, created_at)
			SELECT d, $1, $2, e, $3 FROM unnest($4::uuid[], $5::uuid[]) AS t(d, e)`,
			[16]byte(op.TenantID), [16]byte(ev.ID), now, pgval.Array(ids), pgval.Array(queueIDs)); err != nil {
			return nil, nil, fmt.Errorf("insert queued deliveries of %s: %w", op.Type, err)
		}
		if _, err := tx.Exec(ctx, `SELECT pg_notify($1, e::text) FROM unnest($2::uuid[]) AS t(e)`,
			model.QueueChannel, pgval.Array(queueIDs)); err != nil {
			return nil, nil, fmt.Errorf("notify queues: %w", err)
		}
	}
	if len(pending) > 0 {
		ids, eps := make([]uuid.UUID, len(pending)), make([]uuid.UUID, len(pending))
		rows := make([]deliveryTransformRow, len(pending))
		for i, p := range pending {
			ids[i], eps[i] = p.DeliveryID, p.EndpointID
			rows[i] = deliveryTransformRow{DeliveryID: p.DeliveryID, TenantID: op.TenantID, Pending: true, CreatedAt: now}
		}
		if _, err := tx.Exec(ctx, `INSERT INTO deliveries (id, tenant_id, event_id, endpoint_id, created_at)
			SELECT d, $1, $2, e, $3 FROM unnest($4::uuid[], $5::uuid[]) AS t(d, e)`,
			[16]byte(op.TenantID), [16]byte(ev.ID), now, pgval.Array(ids), pgval.Array(eps)); err != nil {
			return nil, nil, fmt.Errorf("insert deliveries of %s: %w", op.Type, err)
		}
		if err := insertTransformsPgx(ctx, tx, rows); err != nil {
			return nil, nil, err
		}
	}
	if len(endpointIDs) == 0 {
		return nil, pending, nil
	}
	jobs := make([]model.Job, len(endpointIDs))
	deliveryIDs := make([]uuid.UUID, len(endpointIDs))
	payloads := make([]string, len(endpointIDs))
	for i, epID := range endpointIDs {
		jobs[i] = model.Job{DeliveryID: uuid.New(), EventID: ev.ID, EndpointID: epID, TenantID: op.TenantID,
			Attempt: 1, Trigger: model.TriggerInitial, AcceptedAt: now, OutboxAt: now}
		b, err := json.Marshal(jobs[i])
		if err != nil {
			return nil, nil, fmt.Errorf("encode job: %w", err)
		}
		deliveryIDs[i], payloads[i] = jobs[i].DeliveryID, string(b)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO deliveries (id, tenant_id, event_id, endpoint_id, created_at)
		SELECT d, $1, $2, e, $3 FROM unnest($4::uuid[], $5::uuid[]) AS t(d, e)`,
		[16]byte(op.TenantID), [16]byte(ev.ID), now, pgval.Array(deliveryIDs), pgval.Array(endpointIDs)); err != nil {
		return nil, nil, fmt.Errorf("insert deliveries of %s: %w", op.Type, err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO outbox (delivery_id, job, created_at)
		SELECT d, j::jsonb, $1 FROM unnest($2::uuid[], $3::text[]) AS t(d, j)`,
		now, pgval.Array(deliveryIDs), pgval.Array(payloads)); err != nil {
		return nil, nil, fmt.Errorf("insert outbox of %s: %w", op.Type, err)
	}
	return jobs, pending, nil
}

// insertTransformsPgx is insertTransforms for a pgx transaction.
func insertTransformsPgx(ctx context.Context, tx PgxTx, rows []deliveryTransformRow) error {
	if len(rows) == 0 {
		return nil
	}
	n := len(rows)
	ids, tenants := make([]uuid.UUID, n), make([]uuid.UUID, n)
	cancelled, pending, errs := make([]bool, n), make([]bool, n), make([]*string, n)
	bodies, headers := make([][]byte, n), make([]*string, n)
	ats := make([]time.Time, n)
	for i, r := range rows {
		ids[i], tenants[i], cancelled[i], pending[i], errs[i], bodies[i], ats[i] = r.DeliveryID, r.TenantID, r.Cancelled, r.Pending,
			r.Error, r.Body, r.CreatedAt
		if r.Headers != nil {
			b, err := json.Marshal(r.Headers.V)
			if err != nil {
				return fmt.Errorf("encode transformed headers: %w", err)
			}
			h := string(b)
			headers[i] = &h
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO delivery_transforms (delivery_id, tenant_id, cancelled, pending, error, body, headers, created_at)
		SELECT d, t, c, p, e, b, h::jsonb, a
		FROM unnest($1::uuid[], $2::uuid[], $3::bool[], $4::bool[], $5::text[], $6::bytea[], $7::text[], $8::timestamptz[])
			AS v(d, t, c, p, e, b, h, a)`,
		pgval.Array(ids), pgval.Array(tenants), pgval.Array(cancelled), pgval.Array(pending), pgval.Array(errs),
		pgval.Array(bodies), pgval.Array(headers), pgval.Array(ats)); err != nil {
		return fmt.Errorf("insert delivery transforms: %w", err)
	}
	return nil
}

// isOperationalType reports whether typ is reserved for Ferry's own
// events (operational events and the test event).
func isOperationalType(typ string) bool {
	return strings.HasPrefix(typ, model.OpPrefix)
}
