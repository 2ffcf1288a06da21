package delivery

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/internal/rowid"
)

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
func EmitOperational(ctx context.Context, tx store.Tx, router *Router, evs []model.OperationalEvent, now time.Time) (_ []model.OperationalEvent, _ []model.Job, pending PendingTransforms, _ error) {
	now = now.UTC().Truncate(time.Microsecond)
	var emitted []model.OperationalEvent
	var jobs []model.Job
	for _, op := range evs {
		data, err := json.Marshal(op.Data)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("encode %s: %w", op.Type, err)
		}
		id := rowid.New()
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
// the tenant's own enabled endpoints (never a customer's: the events are
// about the tenant's account) that name its type or ferry.*, except
// the endpoint it is about, and whose filter accepts it. A delivery to an
// http endpoint with a transformation gets a pending result and no
// outbox row (returned in pending, see EmitOperational); other http
// endpoints' deliveries get their outbox row and job. "All events" (an
// empty list) means all of the tenant's own events, not Ferry's. Queue
// endpoints' deliveries get no outbox row (their consumers pull; a
// notification wakes them at commit).
func fanOutOperational(ctx context.Context, tx store.Tx, router *Router, op model.OperationalEvent, ev Event) ([]model.Job, PendingTransforms, error) {
	rows, err := tx.Query(ctx, `SELECT id, kind, filter, transformation,
			CASE WHEN transformation <> '' THEN convert_to(headers::text, 'UTF8') END
		FROM endpoints WHERE tenant_id = $1 AND enabled AND deleted_at IS NULL AND customer_id IS NULL
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
			pending = append(pending, pendingTransform{DeliveryID: rowid.New(), TenantID: op.TenantID, EndpointID: t.ID,
				src: t.Transformation, headers: headers, ev: ev})
		default:
			endpointIDs = append(endpointIDs, t.ID)
		}
	}
	now := ev.CreatedAt
	f := store.FanOut{Queues: queueIDs}
	for _, id := range queueIDs {
		f.Deliveries = append(f.Deliveries, store.Delivery{ID: rowid.New(), TenantID: op.TenantID, EventID: ev.ID, EndpointID: id, CreatedAt: now})
	}
	for _, p := range pending {
		f.Deliveries = append(f.Deliveries, store.Delivery{ID: p.DeliveryID, TenantID: op.TenantID, EventID: ev.ID, EndpointID: p.EndpointID,
			CreatedAt: now})
		f.Transforms = append(f.Transforms, store.Transform{DeliveryID: p.DeliveryID, TenantID: op.TenantID, Pending: true, CreatedAt: now})
	}
	for _, epID := range endpointIDs {
		job := model.Job{DeliveryID: rowid.New(), EventID: ev.ID, EndpointID: epID, TenantID: op.TenantID,
			Attempt: 1, Trigger: model.TriggerInitial, AcceptedAt: now, OutboxAt: now}
		f.Jobs = append(f.Jobs, job)
		f.Deliveries = append(f.Deliveries, store.Delivery{ID: job.DeliveryID, TenantID: op.TenantID, EventID: ev.ID, EndpointID: epID,
			CreatedAt: now})
	}
	if err := store.InsertFanOut(ctx, tx, f); err != nil {
		return nil, nil, fmt.Errorf("fan out %s: %w", op.Type, err)
	}
	return f.Jobs, pending, nil
}

// isOperationalType reports whether typ is reserved for Ferry's own
// events (operational events and the test event).
func isOperationalType(typ string) bool {
	return strings.HasPrefix(typ, model.OpPrefix)
}
