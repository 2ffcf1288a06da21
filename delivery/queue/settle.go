package queue

import (
	"context"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/pgval"
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
	Receipts []string `json:"receipts"` // receipts of leased messages (1-100)
}

// NackInput is the body of a nack.
type NackInput struct {
	Receipts []string `json:"receipts"` // receipts of leased messages (1-100)
	// DelaySeconds is when the message returns (0-43200); absent: the
	// retry schedule for its attempt number.
	DelaySeconds *int `json:"delay_seconds"`
}

// RejectInput is the body of a reject.
type RejectInput struct {
	Receipts []string `json:"receipts"` // receipts of leased messages (1-100)
	// Reason is kept as the attempt's error message.
	Reason string `json:"reason"`
}

// ReceiptResult says what became of one receipt.
type ReceiptResult struct {
	Receipt string `json:"receipt"` // the receipt sent
	Status  string `json:"status"`  // acked, nacked, rejected, or expired when the lease had run out
}

// Ack settles leases as delivered: their deliveries succeed. Errors:
// EINVALID (no receipts, or one this queue never issued), ENOTFOUND.
func (s *Service) Ack(ctx context.Context, tenantID, endpointID uuid.UUID, in AckInput) ([]ReceiptResult, error) {
	return s.settle(ctx, tenantID, endpointID, in.Receipts, ReceiptAcked, func(r lockedRow, now time.Time) settlement {
		return settlement{status: model.StatusSucceeded, outcome: model.OutcomeSuccess}
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
			return settlement{status: model.StatusExhausted, outcome: model.OutcomeRetry, class: classNack,
				message: "nacked; the next attempt would fall beyond the retry window"}
		}
		return settlement{status: model.StatusRetrying, outcome: model.OutcomeRetry, class: classNack,
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
		return settlement{status: model.StatusDropped, outcome: model.OutcomeDropped, class: classRejected, message: reason}
	})
}

// lockedRow is a delivery whose live lease a receipt names, locked.
type lockedRow struct {
	ID             uuid.UUID
	EventID        uuid.UUID
	Status         model.Status
	AttemptCount   int
	FirstAttemptAt *time.Time
	LeasedAt       time.Time
}

// settlement is what settling one lease does.
type settlement struct {
	status         model.Status
	outcome        model.Outcome
	class, message string
	next           *time.Time
}

func (s *Service) settle(ctx context.Context, tenantID, endpointID uuid.UUID, receipts []string, done string,
	decide func(lockedRow, time.Time) settlement) ([]ReceiptResult, error) {
	if len(receipts) == 0 || len(receipts) > maxReceipts {
		return nil, ferry.Invalid("receipts", "receipts must hold 1 to %d receipts", maxReceipts)
	}
	ep, err := s.queueEndpoint(ctx, tenantID, endpointID)
	if err != nil {
		return nil, err
	}
	type parsed struct{ delivery, lease uuid.UUID }
	leases := make([]parsed, len(receipts))
	ids := make([]uuid.UUID, 0, len(receipts))
	leaseIDs := make([]uuid.UUID, 0, len(receipts))
	for i, r := range receipts {
		d, l, ok := decodeReceipt(r)
		if !ok {
			return nil, ferry.Invalid("receipts", "receipt %d is not a receipt of this queue", i)
		}
		leases[i] = parsed{d, l}
		ids, leaseIDs = append(ids, d), append(leaseIDs, l)
	}
	results := make([]ReceiptResult, len(receipts))
	now := s.clock.Now().UTC()
	var after func(context.Context)
	var due bool // a settled message is due at once (nack without delay)
	err = pgval.WithConn(ctx, s.db, func(pc *pgx.Conn) error {
		return pgx.BeginFunc(ctx, pc, func(tx pgx.Tx) error {
			// One statement: which receipts name a delivery of this queue
			// at all, and whose lease is live; rows are locked in id
			// order, so concurrent settles of the same messages queue up
			// instead of deadlocking.
			rows, err := tx.Query(ctx, `SELECT d.id, d.lease_id = r.lease AND d.lease_until > $4 AND d.status IN `+model.SQLUnfinished+`,
					d.event_id, d.status, d.attempt_count, d.first_attempt_at, d.leased_at
				FROM deliveries d JOIN unnest($1::uuid[], $2::uuid[]) AS r(id, lease) ON d.id = r.id
				WHERE d.tenant_id = $3 AND d.endpoint_id = $5
				ORDER BY d.id
				FOR UPDATE OF d`, pgval.Array(ids), pgval.Array(leaseIDs), tenantID, now, endpointID)
			if err != nil {
				return fmt.Errorf("lock leases: %w", err)
			}
			known := make(map[uuid.UUID]bool, len(ids))
			var locked []lockedRow
			for rows.Next() {
				var r lockedRow
				var live *bool
				var leasedAt *time.Time
				if err := rows.Scan(&r.ID, &live, &r.EventID, &r.Status, &r.AttemptCount, &r.FirstAttemptAt, &leasedAt); err != nil {
					rows.Close()
					return fmt.Errorf("lock leases: %w", err)
				}
				known[r.ID] = true
				if live != nil && *live && leasedAt != nil && !slices.ContainsFunc(locked, func(l lockedRow) bool { return l.ID == r.ID }) {
					r.LeasedAt = *leasedAt
					locked = append(locked, r)
				}
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("lock leases: %w", err)
			}
			for i, l := range leases {
				if !known[l.delivery] {
					return ferry.Invalid("receipts", "receipt %d is not a receipt of this queue", i)
				}
			}
			live := make(map[uuid.UUID]bool, len(locked))
			n := len(locked)
			attempts := make([]attempt, n)
			for i, r := range locked {
				live[r.ID] = true
				st := decide(r, now)
				due = due || (st.next != nil && !st.next.After(now))
				attempts[i] = attempt{tenantID: tenantID, deliveryID: r.ID, eventID: r.EventID, endpointID: endpointID,
					number: r.AttemptCount, trigger: triggerOf(r.Status, r.AttemptCount), startedAt: r.LeasedAt, endedAt: now,
					outcome: st.outcome, status: st.status, firstAttemptAt: r.FirstAttemptAt,
					errorClass: st.class, errorMessage: st.message, next: st.next}
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
			// An ordered queue's next message, or a message nacked
			// without delay, can be pulled now: wake the other replicas.
			if ep.MaxInFlight == 1 || due {
				if _, err := tx.Exec(ctx, `SELECT pg_notify($1, $2::text)`, model.QueueChannel, endpointID.String()); err != nil {
					return fmt.Errorf("notify queue: %w", err)
				}
			}
			after, err = s.endLeases(ctx, tx, now, attempts)
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	if after != nil {
		after(ctx)
	}
	return results, nil
}
