package queue

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// sweepBatch bounds the leases one sweep takes back.
const sweepBatch = 1000

// Sweep takes back leases that ran out and nobody pulled again (each
// logged as a timeout attempt; the message is due at once, or exhausted
// when the retry window is over), and exhausts queued messages whose
// retry window ended unacked (each with a failed attempt, as a push
// exhaustion has). Replicas may sweep at once: rows are taken with SKIP
// LOCKED. Errors: wrapped database errors.
func (s *Service) Sweep(ctx context.Context) error {
	now := s.clock.Now().UTC()
	window := s.cfg.Policy.Window()
	// Pulls of an unordered queue leave expired leases to the sweeper, so
	// it goes on while it finds full batches: a consumer that crashed
	// holding many messages gets them back at once, not a batch a tick.
	// Unpulled messages past their window may be millions at once, so
	// they too go a batch per transaction.
	if err := whileFull(ctx, sweepBatch, func() (int, error) { return s.sweepLeases(ctx, now, window) }); err != nil {
		return err
	}
	return whileFull(ctx, exhaustBatch, func() (int, error) { return s.exhaustUnpulledBatch(ctx, now, window) })
}

// whileFull runs step until it handles fewer than batch rows, fails, or
// ctx ends.
func whileFull(ctx context.Context, batch int, step func() (int, error)) error {
	for {
		n, err := step()
		if err != nil {
			return err
		}
		if n < batch || ctx.Err() != nil {
			return nil
		}
	}
}

// sweepLeases returns up to sweepBatch expired leases and says how many.
func (s *Service) sweepLeases(ctx context.Context, now time.Time, window time.Duration) (int, error) {
	var after func(context.Context)
	var queues []uuid.UUID
	var swept int
	err := pgval.WithConn(ctx, s.db, func(pc *pgx.Conn) error {
		return pgx.BeginFunc(ctx, pc, func(tx pgx.Tx) error {
			rows, err := tx.Query(ctx, `SELECT id, tenant_id, event_id, endpoint_id, status, attempt_count, first_attempt_at, leased_at, lease_until
				FROM deliveries WHERE lease_until <= $1 AND status IN `+model.SQLUnfinished+`
				ORDER BY lease_until LIMIT $2 FOR UPDATE SKIP LOCKED`, now, sweepBatch)
			if err != nil {
				return fmt.Errorf("find expired leases: %w", err)
			}
			var attempts []attempt
			for rows.Next() {
				var a attempt
				var status model.Status
				if err := rows.Scan(&a.deliveryID, &a.tenantID, &a.eventID, &a.endpointID, &status, &a.number, &a.firstAttemptAt,
					&a.startedAt, &a.endedAt); err != nil {
					rows.Close()
					return fmt.Errorf("find expired leases: %w", err)
				}
				first := a.startedAt
				if a.firstAttemptAt != nil {
					first = *a.firstAttemptAt
				}
				a.status, a.next = model.StatusRetrying, &now
				if now.After(first.Add(window)) {
					a.status, a.next = model.StatusExhausted, nil
				} else {
					queues = append(queues, a.endpointID)
				}
				a.trigger, a.outcome = triggerOf(status, a.number), model.OutcomeRetry
				a.errorClass, a.errorMessage = classTimeout, timeoutMessage
				attempts = append(attempts, a)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("find expired leases: %w", err)
			}
			if swept = len(attempts); swept == 0 {
				return nil
			}
			if after, err = s.endLeases(ctx, tx, now, attempts); err != nil {
				return err
			}
			if len(queues) > 0 {
				if _, err := tx.Exec(ctx, `SELECT pg_notify($1, e::text) FROM unnest($2::uuid[]) AS t(e)`,
					model.QueueChannel, pgval.Array(queues)); err != nil {
					return fmt.Errorf("notify queues: %w", err)
				}
			}
			return nil
		})
	})
	if err != nil {
		return 0, err
	}
	if after != nil {
		after(ctx)
	}
	return swept, nil
}

// exhaustBatch bounds the messages one transaction of
// exhaustUnpulledBatch exhausts.
const exhaustBatch = 1000

// windowEndedMessage is the error message of the attempt that exhausts
// a message nobody pulled (or pulled again) before its window ended.
const windowEndedMessage = "the retry window ended before the message was pulled and acked"

// exhaustUnpulledBatch exhausts up to exhaustBatch messages whose window
// ended unleased, as a push that kept failing is: each gets a failed
// attempt (outcome retry, error class timeout: the window ran out) logged
// through the attempt log, which counts it in the endpoint stats and
// health and emits ferry.delivery.exhausted, in the transaction that
// exhausts the row. created_at before the cutoff is implied by the window
// start before it, and lets the head index do the work. Replicas skip
// each other's rows (SKIP LOCKED). It says how many it exhausted.
func (s *Service) exhaustUnpulledBatch(ctx context.Context, now time.Time, window time.Duration) (int, error) {
	cutoff := now.Add(-window)
	var after func(context.Context)
	var n int
	err := pgval.WithConn(ctx, s.db, func(pc *pgx.Conn) error {
		return pgx.BeginFunc(ctx, pc, func(tx pgx.Tx) error {
			rows, err := tx.Query(ctx, `SELECT d.id, d.tenant_id, d.event_id, d.endpoint_id, d.status, d.attempt_count, d.first_attempt_at
				FROM deliveries d JOIN endpoints e ON e.id = d.endpoint_id
				WHERE e.kind = 'queue' AND d.status IN `+model.SQLUnfinished+` AND d.created_at < $1
					AND coalesce(d.first_attempt_at, d.updated_at) < $1 AND d.lease_until IS NULL
				LIMIT $2 FOR UPDATE OF d SKIP LOCKED`, cutoff, exhaustBatch)
			if err != nil {
				return fmt.Errorf("find messages past their window: %w", err)
			}
			var attempts []attempt
			var ids []uuid.UUID
			for rows.Next() {
				var a attempt
				var status model.Status
				if err := rows.Scan(&a.deliveryID, &a.tenantID, &a.eventID, &a.endpointID, &status, &a.number, &a.firstAttemptAt); err != nil {
					rows.Close()
					return fmt.Errorf("find messages past their window: %w", err)
				}
				a.number++ // the window's end is one more (failed) attempt
				a.trigger, a.startedAt, a.endedAt = triggerOf(status, a.number), now, now
				a.outcome, a.status = model.OutcomeRetry, model.StatusExhausted
				a.errorClass, a.errorMessage = classTimeout, windowEndedMessage
				attempts, ids = append(attempts, a), append(ids, a.deliveryID)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("find messages past their window: %w", err)
			}
			if n = len(attempts); n == 0 {
				return nil
			}
			// The rows are locked: attempt_count + 1 is the number logged.
			if err := store.ExhaustPastWindow(ctx, tx, now, ids); err != nil {
				return err
			}
			after, err = s.recordAttempts(ctx, tx, attempts)
			return err
		})
	})
	if err != nil {
		return 0, err
	}
	if after != nil {
		after(ctx)
	}
	return n, nil
}
