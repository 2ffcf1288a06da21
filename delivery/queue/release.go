package queue

import (
	"context"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/store"
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
	rs := make([]store.Release, len(rows))
	for i, r := range rows {
		rs[i] = store.Release{DeliveryID: r.ID, LeaseID: r.LeaseID, Status: r.OldStatus, First: r.OldFirst, Last: r.OldLast, Next: r.OldNext}
		if r.OldLeaseUntil != nil {
			// The lease took over one that had run out (its timeout is
			// logged): the message stays a due retry.
			rs[i].Status, rs[i].Next = model.StatusRetrying, &now
		}
	}
	err := store.ReleaseLeases(ctx, store.Gorm(s.db), tenantID, endpointID, now, rs)
	if err != nil {
		s.log.WarnContext(ctx, "queue: could not release leases of a vanished consumer; they run out instead",
			"tenant_id", tenantID, "endpoint_id", endpointID, "messages", len(rows), "err", err)
		return
	}
	s.log.DebugContext(ctx, "queue: released leases of a vanished consumer", "tenant_id", tenantID, "endpoint_id", endpointID, "messages", len(rows))
}
