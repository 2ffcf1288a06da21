package queue

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/internal/pgval"
)

// sweepBatch bounds the leases one sweep takes back.
const sweepBatch = 1000

// Sweep takes back leases that ran out and nobody pulled again (each
// logged as a timeout attempt; the message is due at once, or exhausted
// when the retry window is over), and exhausts queued messages whose
// retry window ended unacked. Replicas may sweep at once: rows are taken
// with SKIP LOCKED. Errors: wrapped database errors.
func (s *Service) Sweep(ctx context.Context) error {
	now := s.now().UTC()
	window := s.cfg.Policy.Window()
	var rows []struct {
		ID             uuid.UUID
		TenantID       uuid.UUID
		EventID        uuid.UUID
		EndpointID     uuid.UUID
		Status         delivery.Status
		AttemptCount   int
		FirstAttemptAt *time.Time
		LeasedAt       time.Time
		LeaseUntil     time.Time
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Raw(`SELECT id, tenant_id, event_id, endpoint_id, status, attempt_count, first_attempt_at, leased_at, lease_until
			FROM deliveries WHERE lease_until <= ? AND status IN ('pending', 'retrying')
			ORDER BY lease_until LIMIT ? FOR UPDATE SKIP LOCKED`, now, sweepBatch).Scan(&rows).Error; err != nil {
			return fmt.Errorf("find expired leases: %w", err)
		}
		if len(rows) == 0 {
			return nil
		}
		n := len(rows)
		ids, statuses := make([]uuid.UUID, n), make([]string, n)
		nexts := make([]*time.Time, n)
		attempts := make([]attempt, n)
		var queues []uuid.UUID
		for i, r := range rows {
			first := r.LeasedAt
			if r.FirstAttemptAt != nil {
				first = *r.FirstAttemptAt
			}
			st, next := delivery.StatusRetrying, &now
			if now.After(first.Add(window)) {
				st, next = delivery.StatusExhausted, nil
			} else {
				queues = append(queues, r.EndpointID)
			}
			ids[i], statuses[i], nexts[i] = r.ID, string(st), next
			attempts[i] = attempt{tenantID: r.TenantID, deliveryID: r.ID, eventID: r.EventID, endpointID: r.EndpointID,
				number: r.AttemptCount, trigger: triggerOf(r.Status, r.AttemptCount), startedAt: r.LeasedAt, endedAt: r.LeaseUntil,
				outcome: delivery.OutcomeRetry, errorClass: classTimeout,
				errorMessage: "the lease ran out before the message was acked", next: next}
		}
		if err := tx.Exec(`UPDATE deliveries d SET status = v.status, next_attempt_at = v.next, lease_id = NULL,
				leased_at = NULL, lease_until = NULL, updated_at = ?
			FROM unnest(?::uuid[], ?::text[], ?::timestamptz[]) AS v(id, status, next) WHERE d.id = v.id`,
			now, pgval.Array(ids), pgval.Array(statuses), pgval.Array(nexts)).Error; err != nil {
			return fmt.Errorf("return expired leases: %w", err)
		}
		if err := insertAttempts(tx, attempts); err != nil {
			return err
		}
		if len(queues) > 0 {
			if err := tx.Exec(`SELECT pg_notify(?, e::text) FROM unnest(?::uuid[]) AS t(e)`,
				delivery.QueueChannel, pgval.Array(queues)).Error; err != nil {
				return fmt.Errorf("notify queues: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	// The window: a message nobody settled in time is exhausted, like a
	// push that kept failing. created_at before the cutoff is implied by
	// the window start before it, and lets the head index do the work.
	cutoff := now.Add(-window)
	if err := s.db.WithContext(ctx).Exec(`UPDATE deliveries d SET status = 'exhausted', next_attempt_at = NULL, updated_at = ?
		FROM endpoints e
		WHERE e.kind = 'queue' AND d.endpoint_id = e.id AND d.status IN ('pending', 'retrying') AND d.created_at < ?
			AND coalesce(d.first_attempt_at, d.updated_at) < ? AND d.lease_until IS NULL`, now, cutoff, cutoff).Error; err != nil {
		return fmt.Errorf("exhaust queued messages: %w", err)
	}
	return nil
}
