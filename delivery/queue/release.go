package queue

import (
	"context"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/internal/pgval"
)

// release hands back leases whose consumer is gone before it got the
// messages (its long-poll or stream ended while they were being leased,
// or building them failed): each row returns to what it was before the
// lease, as if it had never been leased, and is visible at once. No
// attempt is logged, since nothing reached a consumer. Only rows still
// holding their lease are touched. A NOTIFY wakes the queue's waiters on
// every replica. A failure is only logged: the lease then runs out as
// any other.
func (s *Service) release(ctx context.Context, tenantID, endpointID uuid.UUID, rows []leasedRow) {
	if len(rows) == 0 {
		return
	}
	now := s.clock.Now().UTC()
	n := len(rows)
	ids, leases := make([]uuid.UUID, n), make([]uuid.UUID, n)
	statuses := make([]string, n)
	firsts, lasts, nexts := make([]*time.Time, n), make([]*time.Time, n), make([]*time.Time, n)
	for i, r := range rows {
		ids[i], leases[i], statuses[i] = r.ID, r.LeaseID, string(r.OldStatus)
		firsts[i], lasts[i], nexts[i] = r.OldFirst, r.OldLast, r.OldNext
		if r.OldLeaseUntil != nil {
			// The lease took over one that had run out (its timeout is
			// logged): the message stays a due retry.
			statuses[i], nexts[i] = string(delivery.StatusRetrying), &now
		}
	}
	// Hand-written: one statement updates the rows and notifies when any
	// row was still leased.
	err := s.db.WithContext(ctx).Exec(`WITH u AS (
			UPDATE deliveries d SET lease_id = NULL, leased_at = NULL, lease_until = NULL, attempt_count = d.attempt_count - 1,
				status = v.status, first_attempt_at = v.first, last_attempt_at = v.last, next_attempt_at = v.next, updated_at = ?
			FROM unnest(?::uuid[], ?::uuid[], ?::text[], ?::timestamptz[], ?::timestamptz[], ?::timestamptz[])
				AS v(id, lease, status, first, last, next)
			WHERE d.id = v.id AND d.lease_id = v.lease AND d.tenant_id = ? AND d.endpoint_id = ?
			RETURNING d.id)
		SELECT pg_notify(?, ?::text) FROM (SELECT 1 FROM u LIMIT 1) AS any_released`,
		now, pgval.Array(ids), pgval.Array(leases), pgval.Array(statuses), pgval.Array(firsts), pgval.Array(lasts),
		pgval.Array(nexts), tenantID, endpointID, delivery.QueueChannel, endpointID.String()).Error
	if err != nil {
		s.log.WarnContext(ctx, "queue: could not release leases of a vanished consumer; they run out instead",
			"tenant_id", tenantID, "endpoint_id", endpointID, "messages", n, "err", err)
		return
	}
	s.log.DebugContext(ctx, "queue: released leases of a vanished consumer", "tenant_id", tenantID, "endpoint_id", endpointID, "messages", n)
}
