package queue

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// dueSQL returns which of the queues ($1 tenants, $2 endpoints, pairwise)
// have a message a lease would take at $3: an unleased pending or
// retrying one that is due, on an enabled endpoint, and for an ordered
// queue no live lease. Hand-written: one read for every queue with
// waiters in the process. Each EXISTS reads the queue's open rows through
// an index on endpoint_id, as an empty lease statement does (it stops at
// the first due row), but takes no locks and writes nothing.
const dueSQL = `SELECT q.endpoint_id FROM unnest($1::uuid[], $2::uuid[]) AS q(tenant_id, endpoint_id)
	JOIN endpoints e ON e.id = q.endpoint_id AND e.tenant_id = q.tenant_id AND e.enabled AND e.deleted_at IS NULL
	WHERE EXISTS (SELECT 1 FROM deliveries d WHERE d.tenant_id = q.tenant_id AND d.endpoint_id = q.endpoint_id
			AND d.status IN ` + model.SQLUnfinished + ` AND d.lease_until IS NULL
			AND (d.next_attempt_at IS NULL OR d.next_attempt_at <= $3))
		AND (e.max_in_flight <> 1 OR NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.tenant_id = q.tenant_id
			AND d.endpoint_id = q.endpoint_id AND d.status IN ` + model.SQLUnfinished + ` AND d.lease_until > $3))`

// recheck looks, in one statement, for messages that no notification
// announced on the queues that have waiters in this process (a nack's
// delay ended, or notifications were missed while the listener
// reconnected), and wakes one waiter of each queue that has some. It
// runs every PollInterval and whenever the listener (re)connects; a
// queue without waiters costs nothing, and one with many costs what one
// with a single waiter does. Errors: wrapped database errors.
func (s *Service) recheck(ctx context.Context) error {
	qs := s.listener.queues()
	if len(qs) == 0 {
		return nil
	}
	s.cfg.Metrics.Rechecks.Inc()
	tenantIDs, endpointIDs := make([]uuid.UUID, len(qs)), make([]uuid.UUID, len(qs))
	for i, q := range qs {
		tenantIDs[i], endpointIDs[i] = q.tenantID, q.endpointID
	}
	var due []uuid.UUID
	err := pgval.WithConn(ctx, s.db, func(pc *pgx.Conn) error {
		rows, err := pc.Query(ctx, dueSQL, pgval.Array(tenantIDs), pgval.Array(endpointIDs), s.clock.Now().UTC())
		if err != nil {
			return err
		}
		due, err = pgx.CollectRows(rows, pgx.RowTo[uuid.UUID])
		return err
	})
	if err != nil {
		return fmt.Errorf("re-check queues with waiters: %w", err)
	}
	for _, id := range due {
		s.listener.wake(id)
	}
	return nil
}
