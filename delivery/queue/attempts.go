package queue

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/internal/rowid"
)

// Error classes of queue attempts that did not succeed.
const (
	classTimeout  = "timeout"  // the lease ran out
	classNack     = "nack"     // the consumer asked for a retry
	classRejected = "rejected" // the consumer rejected the message
)

// timeoutMessage is the error message of an expired lease's attempt.
const timeoutMessage = "the lease ran out before the message was acked"

// AttemptLog logs ended leases inside the transaction that settles them,
// with everything a push attempt leads to: the endpoint stats rollups,
// endpoint health and operational events. attemptlog.Log satisfies it.
type AttemptLog interface {
	// RecordTx logs recs in tx; the caller runs after once tx has
	// committed. Errors: wrapped database errors.
	RecordTx(ctx context.Context, tx pgx.Tx, recs []attemptlog.Record) (after func(context.Context), err error)
}

// attempt is one ended lease, as the attempt log stores it.
type attempt struct {
	tenantID, deliveryID, eventID, endpointID uuid.UUID
	number                                    int
	trigger                                   model.Trigger
	startedAt, endedAt                        time.Time
	outcome                                   model.Outcome
	// status is the delivery's status after this attempt.
	status model.Status
	// firstAttemptAt is the delivery's first lease (nil: this one).
	firstAttemptAt           *time.Time
	errorClass, errorMessage string
	next                     *time.Time
}

func (a attempt) record() attemptlog.Record {
	first := a.startedAt
	if a.firstAttemptAt != nil {
		first = *a.firstAttemptAt
	}
	return attemptlog.Record{TenantID: a.tenantID, Status: a.status, FirstAttemptAt: first, Attempt: model.Attempt{
		ID: rowid.New(), DeliveryID: a.deliveryID, EventID: a.eventID, EndpointID: a.endpointID, AttemptNumber: a.number,
		Trigger: a.trigger, StartedAt: a.startedAt, DurationMs: int(max(0, a.endedAt.Sub(a.startedAt).Milliseconds())),
		RequestHeaders: http.Header{}, ErrorClass: a.errorClass, ErrorMessage: a.errorMessage, Outcome: a.outcome,
		NextAttemptAt: a.next}}
}

// triggerOf says why lease number n of a delivery in status was made:
// the first is initial, one after a failure a retry, and one of a
// delivery set back to pending after earlier attempts a replay.
func triggerOf(status model.Status, n int) model.Trigger {
	switch {
	case n <= 1:
		return model.TriggerInitial
	case status == model.StatusRetrying:
		return model.TriggerRetry
	default:
		return model.TriggerReplay
	}
}

// endLeases ends the leases of as in tx: each delivery takes its
// attempt's status and next attempt time, and the attempts are logged
// (recordAttempts). Settling and the expiry sweep both end leases here.
func (s *Service) endLeases(ctx context.Context, tx pgx.Tx, now time.Time, as []attempt) (after func(context.Context), err error) {
	ends := make([]store.LeaseEnd, len(as))
	for i, a := range as {
		ends[i] = store.LeaseEnd{DeliveryID: a.deliveryID, Status: a.status, Next: a.next}
	}
	if err := store.EndLeases(ctx, tx, now, ends); err != nil {
		return nil, err
	}
	return s.recordAttempts(ctx, tx, as)
}

// recordAttempts logs ended leases in tx, with the row changes they go
// with: the attempt must commit or roll back with the settle. The caller
// runs after once tx has committed.
func (s *Service) recordAttempts(ctx context.Context, tx pgx.Tx, as []attempt) (after func(context.Context), err error) {
	if len(as) == 0 {
		return func(context.Context) {}, nil
	}
	recs := make([]attemptlog.Record, len(as))
	for i, a := range as {
		recs[i] = a.record()
	}
	after, err = s.cfg.Attempts.RecordTx(ctx, tx, recs)
	if err != nil {
		return nil, fmt.Errorf("log queue attempts: %w", err)
	}
	return after, nil
}
