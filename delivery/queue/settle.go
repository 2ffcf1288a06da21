package queue

import (
	"context"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/internal/pgval"
)

// Receipt statuses in settle answers.
const (
	ReceiptAcked    = "acked"
	ReceiptNacked   = "nacked"
	ReceiptRejected = "rejected"
	// ReceiptExpired: the lease ran out or was settled already; the
	// message is (or was) back in the queue.
	ReceiptExpired = "expired"
)

// AckInput is the body of an ack.
type AckInput struct {
	Receipts []string `json:"receipts"`
}

// NackInput is the body of a nack.
type NackInput struct {
	Receipts []string `json:"receipts"`
	// DelaySeconds is when the message returns (0-43200); absent: the
	// retry schedule for its attempt number.
	DelaySeconds *int `json:"delay_seconds"`
}

// RejectInput is the body of a reject.
type RejectInput struct {
	Receipts []string `json:"receipts"`
	// Reason is kept as the attempt's error message.
	Reason string `json:"reason"`
}

// ReceiptResult says what became of one receipt.
type ReceiptResult struct {
	Receipt string `json:"receipt"`
	Status  string `json:"status"`
}

// Ack settles leases as delivered: their deliveries succeed. Errors:
// EINVALID (no receipts, or one this queue never issued), ENOTFOUND.
func (s *Service) Ack(ctx context.Context, tenantID, endpointID uuid.UUID, in AckInput) ([]ReceiptResult, error) {
	return s.settle(ctx, tenantID, endpointID, in.Receipts, ReceiptAcked, func(r lockedRow, now time.Time) settlement {
		return settlement{status: delivery.StatusSucceeded, outcome: delivery.OutcomeSuccess}
	})
}

// Nack settles leases as failed: the messages return after the delay,
// or the retry schedule's, unless that falls beyond the retry window
// (then they are exhausted). Errors: EINVALID, ENOTFOUND.
func (s *Service) Nack(ctx context.Context, tenantID, endpointID uuid.UUID, in NackInput) ([]ReceiptResult, error) {
	if in.DelaySeconds != nil && (*in.DelaySeconds < 0 || *in.DelaySeconds > MaxDelaySeconds) {
		return nil, ferry.Invalid("delay_seconds", "delay_seconds must be between 0 and %d", MaxDelaySeconds)
	}
	return s.settle(ctx, tenantID, endpointID, in.Receipts, ReceiptNacked, func(r lockedRow, now time.Time) settlement {
		first := now
		if r.FirstAttemptAt != nil {
			first = *r.FirstAttemptAt
		}
		var due time.Time
		var exhausted bool
		if in.DelaySeconds != nil {
			due = now.Add(time.Duration(*in.DelaySeconds) * time.Second)
			exhausted = due.After(first.Add(s.cfg.Policy.Window()))
		} else {
			due, exhausted = s.cfg.Policy.Next(r.AttemptCount, first, now, 0)
		}
		if exhausted {
			return settlement{status: delivery.StatusExhausted, outcome: delivery.OutcomeRetry, class: classNack,
				message: "nacked; the next attempt would fall beyond the retry window"}
		}
		return settlement{status: delivery.StatusRetrying, outcome: delivery.OutcomeRetry, class: classNack,
			message: "nacked by the consumer", next: &due}
	})
}

// Reject settles leases as refused: their deliveries are dropped (dead,
// replayable). Errors: EINVALID, ENOTFOUND.
func (s *Service) Reject(ctx context.Context, tenantID, endpointID uuid.UUID, in RejectInput) ([]ReceiptResult, error) {
	if !utf8.ValidString(in.Reason) || len(in.Reason) > maxReasonBytes {
		return nil, ferry.Invalid("reason", "reason must be at most %d bytes of valid UTF-8", maxReasonBytes)
	}
	reason := in.Reason
	if reason == "" {
		reason = "rejected by the consumer"
	}
	return s.settle(ctx, tenantID, endpointID, in.Receipts, ReceiptRejected, func(r lockedRow, now time.Time) settlement {
		return settlement{status: delivery.StatusDropped, outcome: delivery.OutcomeDropped, class: classRejected, message: reason}
	})
}

// lockedRow is a delivery whose live lease a receipt names, locked.
type lockedRow struct {
	ID             uuid.UUID
	EventID        uuid.UUID
	Status         delivery.Status
	AttemptCount   int
	FirstAttemptAt *time.Time
	LeasedAt       time.Time
}

// settlement is what settling one lease does.
type settlement struct {
	status         delivery.Status
	outcome        delivery.Outcome
	class, message string
	next           *time.Time
}

func (s *Service) settle(ctx context.Context, tenantID, endpointID uuid.UUID, receipts []string, done string,
	decide func(lockedRow, time.Time) settlement) ([]ReceiptResult, error) {
	if len(receipts) == 0 || len(receipts) > maxReceipts {
		return nil, ferry.Invalid("receipts", "receipts must hold 1 to %d receipts", maxReceipts)
	}
	if _, err := s.queueEndpoint(ctx, tenantID, endpointID); err != nil {
		return nil, err
	}
	type parsed struct{ delivery, lease uuid.UUID }
	leases := make([]parsed, len(receipts))
	ids := make([]uuid.UUID, 0, len(receipts))
	for i, r := range receipts {
		d, l, ok := decodeReceipt(r)
		if !ok {
			return nil, ferry.Invalid("receipts", "receipt %d is not a receipt of this queue", i)
		}
		leases[i] = parsed{d, l}
		ids = append(ids, d)
	}
	results := make([]ReceiptResult, len(receipts))
	now := s.now().UTC()
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var known []uuid.UUID
		if err := tx.Raw(`SELECT id FROM deliveries WHERE tenant_id = ? AND endpoint_id = ? AND id = ANY(?::uuid[])`,
			tenantID, endpointID, pgval.Array(ids)).Scan(&known).Error; err != nil {
			return fmt.Errorf("check receipts: %w", err)
		}
		isKnown := make(map[uuid.UUID]bool, len(known))
		for _, id := range known {
			isKnown[id] = true
		}
		leaseIDs := make([]uuid.UUID, len(leases))
		for i, l := range leases {
			if !isKnown[l.delivery] {
				return ferry.Invalid("receipts", "receipt %d is not a receipt of this queue", i)
			}
			leaseIDs[i] = l.lease
		}
		var rows []lockedRow
		if err := tx.Raw(`SELECT d.id, d.event_id, d.status, d.attempt_count, d.first_attempt_at, d.leased_at
			FROM deliveries d JOIN unnest(?::uuid[], ?::uuid[]) AS r(id, lease) ON d.id = r.id AND d.lease_id = r.lease
			WHERE d.tenant_id = ? AND d.endpoint_id = ? AND d.lease_until > ? AND d.status IN ('pending', 'retrying')
			FOR UPDATE OF d`, pgval.Array(ids), pgval.Array(leaseIDs), tenantID, endpointID, now).Scan(&rows).Error; err != nil {
			return fmt.Errorf("lock leases: %w", err)
		}
		live := make(map[uuid.UUID]bool, len(rows))
		n := len(rows)
		upIDs, statuses := make([]uuid.UUID, n), make([]string, n)
		nexts := make([]*time.Time, n)
		attempts := make([]attempt, n)
		for i, r := range rows {
			live[r.ID] = true
			st := decide(r, now)
			upIDs[i], statuses[i], nexts[i] = r.ID, string(st.status), st.next
			attempts[i] = attempt{tenantID: tenantID, deliveryID: r.ID, eventID: r.EventID, endpointID: endpointID,
				number: r.AttemptCount, trigger: triggerOf(r.Status, r.AttemptCount), startedAt: r.LeasedAt, endedAt: now,
				outcome: st.outcome, errorClass: st.class, errorMessage: st.message, next: st.next}
		}
		for i, l := range leases {
			results[i] = ReceiptResult{Receipt: receipts[i], Status: ReceiptExpired}
			if live[l.delivery] {
				results[i].Status = done
				live[l.delivery] = false // a receipt repeated in one request settles once
			}
		}
		if n == 0 {
			return nil
		}
		if err := tx.Exec(`UPDATE deliveries d SET status = v.status, next_attempt_at = v.next, lease_id = NULL,
				leased_at = NULL, lease_until = NULL, updated_at = ?
			FROM unnest(?::uuid[], ?::text[], ?::timestamptz[]) AS v(id, status, next) WHERE d.id = v.id`,
			now, pgval.Array(upIDs), pgval.Array(statuses), pgval.Array(nexts)).Error; err != nil {
			return fmt.Errorf("settle leases: %w", err)
		}
		return insertAttempts(tx, attempts)
	})
	if err != nil {
		return nil, err
	}
	return results, nil
}
