package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// The delivery state machine (docs/contract.md#delivery-status). A
// delivery is created pending. Attempts move it: a failure that leaves
// time in its retry window to retrying, a 2xx to succeeded, a status or
// transformation that rules out retrying to dropped, the end of the
// window (or a disabled or deleted endpoint) to exhausted. Only a replay
// moves a finished delivery, back to pending. A pull-queue lease taken
// over from one that ran out counts as a failed attempt: pending or
// retrying becomes retrying.
//
// Concurrent writers cannot undo one another because of the guards in
// the statements below: an attempt's state lands only on a delivery
// that does not record a later attempt (attempt_count <), a lease ends
// only while it is the delivery's lease (lease_id =), and an unattempted
// delivery is exhausted only while it is unfinished.
var follows = map[model.Status][]model.Status{
	model.StatusPending:   {model.StatusPending, model.StatusRetrying, model.StatusSucceeded, model.StatusDropped, model.StatusExhausted},
	model.StatusRetrying:  {model.StatusRetrying, model.StatusSucceeded, model.StatusDropped, model.StatusExhausted, model.StatusPending},
	model.StatusSucceeded: {model.StatusPending},
	model.StatusDropped:   {model.StatusPending},
	model.StatusExhausted: {model.StatusPending},
}

// CanFollow reports whether a delivery in status from may move to to.
func CanFollow(from, to model.Status) bool {
	for _, s := range follows[from] {
		if s == to {
			return true
		}
	}
	return false
}

// attempted reports whether an attempt may leave its delivery in s: it
// finishes it or schedules a retry.
func attempted(s model.Status) bool { return s == model.StatusRetrying || s.Finished() }

// Change is what one logged attempt does to its delivery.
type Change struct {
	DeliveryID uuid.UUID
	// Status is the delivery's status after the attempt.
	Status model.Status
	// Attempt is the attempt's number: the delivery's attempt_count after it.
	Attempt        int
	FirstAttemptAt time.Time
	StartedAt      time.Time
	NextAttemptAt  *time.Time
}

// Transition applies the changes of logged attempts in tx. A delivery
// that already records a later attempt keeps its state: a late write of
// an older attempt must not undo a newer one. Errors: a Change whose
// Status no attempt leads to; wrapped database errors.
func Transition(ctx context.Context, tx Tx, now time.Time, changes []Change) error {
	if len(changes) == 0 {
		return nil
	}
	n := len(changes)
	ids, statuses, numbers := make([][16]byte, n), make([]string, n), make([]int32, n)
	firsts, starts, nexts := make([]time.Time, n), make([]time.Time, n), make([]*time.Time, n)
	for i, c := range changes {
		if !attempted(c.Status) {
			return fmt.Errorf("delivery %s: an attempt cannot leave a delivery %s", c.DeliveryID, c.Status)
		}
		ids[i], statuses[i], numbers[i] = c.DeliveryID, string(c.Status), int32(c.Attempt)
		firsts[i], starts[i], nexts[i] = c.FirstAttemptAt, c.StartedAt, c.NextAttemptAt
	}
	// Replanned: a plan kept from while deliveries was small seq-scanned
	// the whole table for every batch (docs/benchmarks.md, 2026-11-27 01:10).
	if _, err := tx.Exec(ctx, `UPDATE deliveries d SET status = v.status, attempt_count = v.n,
			first_attempt_at = coalesce(d.first_attempt_at, v.first), last_attempt_at = v.started,
			next_attempt_at = v.next, updated_at = $7
		FROM unnest($1::uuid[], $2::text[], $3::int[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[])
			AS v(id, status, n, first, started, next)
		WHERE d.id = v.id AND d.attempt_count < v.n`,
		pgval.Replan, ids, statuses, numbers, firsts, starts, nexts, now); err != nil {
		return fmt.Errorf("update deliveries: %w", err)
	}
	return nil
}

// ExhaustUnattempted finishes an unfinished delivery as exhausted without
// an attempt (its endpoint was disabled or deleted); it stays replayable.
func ExhaustUnattempted(ctx context.Context, tx Tx, deliveryID uuid.UUID, now time.Time) error {
	if _, err := tx.Exec(ctx, `UPDATE deliveries SET status = `+model.SQLExhausted+`, next_attempt_at = NULL, updated_at = $1
		WHERE id = $2 AND status IN `+model.SQLUnfinished+``, now, [16]byte(deliveryID)); err != nil {
		return fmt.Errorf("exhaust delivery %s: %w", deliveryID, err)
	}
	return nil
}

// Reset is a delivery a replay set back to pending.
type Reset struct {
	ID, EventID, EndpointID uuid.UUID
	AttemptCount            int
	// EndpointKind is the endpoint's kind ("http" or "queue").
	EndpointKind string
}

// ResetForReplay sets the tenant's deliveries ids back to pending, with no
// lease and a new retry window; attempt_count keeps counting, so earlier
// attempts stay in the log. It returns the deliveries it reset.
func ResetForReplay(ctx context.Context, tx Tx, tenantID uuid.UUID, ids []uuid.UUID, now time.Time) ([]Reset, error) {
	rows, err := tx.Query(ctx, `UPDATE deliveries d SET status = `+model.SQLPending+`, next_attempt_at = NULL, first_attempt_at = NULL, updated_at = $1,
			lease_id = NULL, leased_at = NULL, lease_until = NULL
		FROM endpoints e WHERE e.id = d.endpoint_id AND d.tenant_id = $2 AND d.id = ANY($3::uuid[])
		RETURNING d.id, d.event_id, d.endpoint_id, d.attempt_count, e.kind`, now, [16]byte(tenantID), pgval.Array(ids))
	if err != nil {
		return nil, fmt.Errorf("reset deliveries: %w", err)
	}
	out, err := collect(rows, func(r pgx.Rows) (Reset, error) {
		var x Reset
		return x, r.Scan(&x.ID, &x.EventID, &x.EndpointID, &x.AttemptCount, &x.EndpointKind)
	})
	if err != nil {
		return nil, fmt.Errorf("reset deliveries: %w", err)
	}
	return out, nil
}

// Leased is a queue message as a lease returns it: the new lease, the
// event, the endpoint's signing fingerprint, and the columns the lease
// overwrote (to take it back if the consumer has gone, and to log a
// timed-out lease it took over).
type Leased struct {
	ID           uuid.UUID
	LeaseID      uuid.UUID
	AttemptCount int
	CreatedAt    time.Time

	EventID        uuid.UUID
	EventType      string
	EventData      json.RawMessage
	EventCreatedAt time.Time

	Fingerprint string
	// TraceParent is the trace of the request that made the delivery
	// (empty when it was untraced).
	TraceParent string

	OldStatus     model.Status
	OldFirst      *time.Time
	OldLast       *time.Time
	OldNext       *time.Time
	OldLeasedAt   *time.Time
	OldLeaseUntil *time.Time
}

// leaseSQL leases up to $5 due messages of queue $2 in one statement
// (hand-written: the hot path, through deliveries_queue_head_idx). It
// also returns each message's event and the endpoint's signing
// fingerprint (ep is MATERIALIZED so that it is read once, not per row),
// and leases nothing once the endpoint is disabled or deleted. %s says
// which leased rows may be taken: none on the fast path (expired leases
// are the sweeper's), or expired ones too on an ordered queue, whose
// oldest message must go out first, unless its retry window ($6: the
// earliest first attempt still inside it) is over: that one the sweeper
// exhausts, as it would on any queue. A lease taken back makes the
// delivery retrying.
const leaseSQL = `WITH ep AS MATERIALIZED (
		SELECT e.updated_at::text || '/' || (SELECT count(*)::text || '/' || coalesce(max(s.created_at)::text, '')
			FROM endpoint_secrets s WHERE s.endpoint_id = e.id AND (s.expires_at IS NULL OR s.expires_at > $3)) AS fingerprint
		FROM endpoints e WHERE e.id = $2 AND e.tenant_id = $1 AND e.enabled AND e.deleted_at IS NULL),
	c AS (
		SELECT d.id, d.status AS old_status, d.first_attempt_at AS old_first, d.last_attempt_at AS old_last,
			d.next_attempt_at AS old_next, d.leased_at AS old_leased_at, d.lease_until AS old_lease_until
		FROM deliveries d
		WHERE d.tenant_id = $1 AND d.endpoint_id = $2 AND d.status IN ` + model.SQLUnfinished + `
			AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= $3) AND %s
		ORDER BY d.created_at, d.id LIMIT $5
		FOR UPDATE OF d SKIP LOCKED)
	UPDATE deliveries d SET lease_id = gen_random_uuid(), leased_at = $3, lease_until = $4, next_attempt_at = $4,
		status = CASE WHEN c.old_lease_until IS NOT NULL THEN ` + model.SQLRetrying + ` ELSE d.status END,
		attempt_count = d.attempt_count + 1, first_attempt_at = coalesce(d.first_attempt_at, $3),
		last_attempt_at = $3, updated_at = $3
	FROM c, ep, events ev
	WHERE d.id = c.id AND ev.id = d.event_id AND ev.tenant_id = $1
	RETURNING d.id, d.lease_id, d.attempt_count, d.created_at, ev.id, ev.type, ev.data::text, ev.created_at, ep.fingerprint,
		coalesce(d.traceparent, ''), c.old_status, c.old_first, c.old_last, c.old_next, c.old_leased_at, c.old_lease_until`

var (
	leaseFastSQL    = fmt.Sprintf(leaseSQL, "d.lease_until IS NULL")
	leaseOrderedSQL = fmt.Sprintf(leaseSQL, "(d.lease_until IS NULL OR (d.lease_until <= $3 AND d.first_attempt_at >= $6))")
)

// Querier runs one query: a connection (the statement is its own
// transaction) or a transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Lease leases up to limit due messages of a queue endpoint whose
// deliveries are not leased, until until; each lease counts as an attempt.
func Lease(ctx context.Context, q Querier, tenantID, endpointID uuid.UUID, now, until time.Time, limit int) ([]Leased, error) {
	return lease(ctx, q, leaseFastSQL, tenantID, endpointID, now, until, limit)
}

// LeaseOrdered leases the oldest due message of an ordered queue, taking
// it back from a lease that ran out unless its retry window, which began
// at windowStart at the earliest, is over. Run it in a transaction that
// holds the queue's lock and has seen no live lease.
func LeaseOrdered(ctx context.Context, q Querier, tenantID, endpointID uuid.UUID, now, until, windowStart time.Time) ([]Leased, error) {
	return lease(ctx, q, leaseOrderedSQL, tenantID, endpointID, now, until, 1, windowStart)
}

func lease(ctx context.Context, q Querier, sql string, tenantID, endpointID uuid.UUID, now, until time.Time, limit int,
	extra ...any) ([]Leased, error) {
	rows, err := q.Query(ctx, sql, append([]any{tenantID, endpointID, now, until, limit}, extra...)...)
	if err != nil {
		return nil, fmt.Errorf("lease messages: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Leased, error) {
		var l Leased
		var data string
		err := r.Scan(&l.ID, &l.LeaseID, &l.AttemptCount, &l.CreatedAt, &l.EventID, &l.EventType, &data, &l.EventCreatedAt,
			&l.Fingerprint, &l.TraceParent, &l.OldStatus, &l.OldFirst, &l.OldLast, &l.OldNext, &l.OldLeasedAt, &l.OldLeaseUntil)
		l.EventData = json.RawMessage(data)
		l.EventCreatedAt = l.EventCreatedAt.UTC()
		return l, err
	})
	if err != nil {
		return nil, fmt.Errorf("lease messages: %w", err)
	}
	return out, nil
}

// LeaseEnd is how a lease ended: the delivery's status and next attempt
// time after it.
type LeaseEnd struct {
	DeliveryID uuid.UUID
	Status     model.Status
	Next       *time.Time
}

// EndLeases ends leases in tx (a consumer's answer, or the lease's
// expiry): each delivery takes its attempt's status and next attempt
// time. The caller holds the rows (it read them FOR UPDATE or by lease).
func EndLeases(ctx context.Context, tx Tx, now time.Time, ends []LeaseEnd) error {
	ids, statuses, nexts := make([]uuid.UUID, len(ends)), make([]string, len(ends)), make([]*time.Time, len(ends))
	for i, e := range ends {
		if !attempted(e.Status) {
			return fmt.Errorf("delivery %s: an attempt cannot leave a delivery %s", e.DeliveryID, e.Status)
		}
		ids[i], statuses[i], nexts[i] = e.DeliveryID, string(e.Status), e.Next
	}
	if _, err := tx.Exec(ctx, `UPDATE deliveries d SET status = v.status, next_attempt_at = v.next, lease_id = NULL,
			leased_at = NULL, lease_until = NULL, updated_at = $1
		FROM unnest($2::uuid[], $3::text[], $4::timestamptz[]) AS v(id, status, next) WHERE d.id = v.id`,
		now, pgval.Array(ids), pgval.Array(statuses), pgval.Array(nexts)); err != nil {
		return fmt.Errorf("end leases: %w", err)
	}
	return nil
}

// ExhaustPastWindow exhausts queue deliveries whose retry window is over,
// counting the window's end as one more (failed) attempt. The caller
// holds the rows (read FOR UPDATE), so attempt_count + 1 is the number
// it logs.
func ExhaustPastWindow(ctx context.Context, tx Tx, now time.Time, ids []uuid.UUID) error {
	if _, err := tx.Exec(ctx, `UPDATE deliveries SET status = `+model.SQLExhausted+`, next_attempt_at = NULL,
			attempt_count = attempt_count + 1, first_attempt_at = coalesce(first_attempt_at, $1), last_attempt_at = $1, updated_at = $1
		WHERE id = ANY($2)`, now, pgval.Array(ids)); err != nil {
		return fmt.Errorf("exhaust messages past their window: %w", err)
	}
	return nil
}

// Release takes back one lease a consumer that vanished never answered:
// the delivery gets back the columns the lease overwrote.
type Release struct {
	DeliveryID, LeaseID uuid.UUID
	Status              model.Status
	First, Last, Next   *time.Time
}

// ReleaseLeases takes back leases of one queue endpoint that are still
// the deliveries' leases, and notifies the queue when any was, in one
// statement.
func ReleaseLeases(ctx context.Context, tx Tx, tenantID, endpointID uuid.UUID, now time.Time, rs []Release) error {
	n := len(rs)
	ids, leases, statuses := make([]uuid.UUID, n), make([]uuid.UUID, n), make([]string, n)
	firsts, lasts, nexts := make([]*time.Time, n), make([]*time.Time, n), make([]*time.Time, n)
	for i, r := range rs {
		ids[i], leases[i], statuses[i] = r.DeliveryID, r.LeaseID, string(r.Status)
		firsts[i], lasts[i], nexts[i] = r.First, r.Last, r.Next
	}
	if _, err := tx.Exec(ctx, `WITH u AS (
			UPDATE deliveries d SET lease_id = NULL, leased_at = NULL, lease_until = NULL, attempt_count = d.attempt_count - 1,
				status = v.status, first_attempt_at = v.first, last_attempt_at = v.last, next_attempt_at = v.next, updated_at = $1
			FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[])
				AS v(id, lease, status, first, last, next)
			WHERE d.id = v.id AND d.lease_id = v.lease AND d.tenant_id = $8 AND d.endpoint_id = $9
			RETURNING d.id)
		SELECT pg_notify($10, $11::text) FROM (SELECT 1 FROM u LIMIT 1) AS any_released`,
		now, pgval.Array(ids), pgval.Array(leases), pgval.Array(statuses), pgval.Array(firsts), pgval.Array(lasts),
		pgval.Array(nexts), [16]byte(tenantID), [16]byte(endpointID), model.QueueChannel, endpointID.String()); err != nil {
		return fmt.Errorf("release leases: %w", err)
	}
	return nil
}
