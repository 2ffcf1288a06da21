package queue

import (
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/internal/pgval"
)

// Error classes of queue attempts that did not succeed.
const (
	classTimeout  = "timeout"  // the lease ran out
	classNack     = "nack"     // the consumer asked for a retry
	classRejected = "rejected" // the consumer rejected the message
)

// attempt is one ended lease, as the attempt log stores it.
type attempt struct {
	tenantID, deliveryID, eventID, endpointID uuid.UUID
	number                                    int
	trigger                                   delivery.Trigger
	startedAt, endedAt                        time.Time
	outcome                                   delivery.Outcome
	errorClass, errorMessage                  string
	next                                      *time.Time
}

// triggerOf says why lease number n of a delivery in status was made:
// the first is initial, one after a failure a retry, and one of a
// delivery set back to pending after earlier attempts a replay.
func triggerOf(status delivery.Status, n int) delivery.Trigger {
	switch {
	case n <= 1:
		return delivery.TriggerInitial
	case status == delivery.StatusRetrying:
		return delivery.TriggerRetry
	default:
		return delivery.TriggerReplay
	}
}

// insertAttempts logs ended leases in tx, with the row changes they go
// with. A multi-row INSERT rather than the attempt log's batched COPY:
// the attempt must commit or roll back with the settle.
func insertAttempts(tx *gorm.DB, as []attempt) error {
	if len(as) == 0 {
		return nil
	}
	n := len(as)
	ids, tenants, deliveries, events, endpoints := make([]uuid.UUID, n), make([]uuid.UUID, n), make([]uuid.UUID, n), make([]uuid.UUID, n), make([]uuid.UUID, n)
	numbers, durations := make([]int32, n), make([]int32, n)
	triggers, outcomes, classes, messages := make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	starts := make([]time.Time, n)
	nexts := make([]*time.Time, n)
	for i, a := range as {
		ids[i], tenants[i], deliveries[i], events[i], endpoints[i] = uuid.New(), a.tenantID, a.deliveryID, a.eventID, a.endpointID
		numbers[i], durations[i] = int32(a.number), int32(max(0, a.endedAt.Sub(a.startedAt).Milliseconds()))
		triggers[i], outcomes[i], classes[i], messages[i] = string(a.trigger), string(a.outcome), a.errorClass, a.errorMessage
		starts[i], nexts[i] = a.startedAt, a.next
	}
	err := tx.Exec(`INSERT INTO attempts (id, tenant_id, delivery_id, event_id, endpoint_id, attempt_number, trigger,
			started_at, duration_ms, request_headers, error_class, error_message, outcome, next_attempt_at)
		SELECT i, t, d, e, p, n, tr, s, du, '{}'::jsonb, c, m, o, nx
		FROM unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::uuid[], ?::uuid[], ?::int[], ?::text[], ?::timestamptz[], ?::int[],
			?::text[], ?::text[], ?::text[], ?::timestamptz[]) AS v(i, t, d, e, p, n, tr, s, du, c, m, o, nx)`,
		pgval.Array(ids), pgval.Array(tenants), pgval.Array(deliveries), pgval.Array(events), pgval.Array(endpoints),
		pgval.Array(numbers), pgval.Array(triggers), pgval.Array(starts), pgval.Array(durations),
		pgval.Array(classes), pgval.Array(messages), pgval.Array(outcomes), pgval.Array(nexts)).Error
	if err != nil {
		return fmt.Errorf("insert queue attempts: %w", err)
	}
	return nil
}
