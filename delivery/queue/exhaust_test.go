package queue

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery/model"
)

// exhaustedEvent is the ferry.delivery.exhausted event the tenant got for
// deliveryID's attempt n, as stored; found is false when there is none.
func (b testBundle) exhaustedEvent(t *testing.T, deliveryID uuid.UUID, n int) (data model.DeliveryExhaustedData, found bool) {
	t.Helper()
	var rows []struct {
		Type string
		Data string
	}
	key := fmt.Sprintf("%s:%s:%d", model.OpDeliveryExhausted, deliveryID, n)
	if err := b.db.Raw(`SELECT type, data::text AS data FROM events WHERE tenant_id = ? AND idempotency_key = ?`,
		b.seed.TenantID, key).Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		return data, false
	}
	if rows[0].Type != model.OpDeliveryExhausted {
		t.Fatalf("event with key %s has type %s", key, rows[0].Type)
	}
	if err := json.Unmarshal([]byte(rows[0].Data), &data); err != nil {
		t.Fatal(err)
	}
	return data, true
}

// exhaustedEvents counts the tenant's ferry.delivery.exhausted events.
func (b testBundle) exhaustedEvents(t *testing.T) int64 {
	t.Helper()
	var n int64
	if err := b.db.Raw(`SELECT count(*) FROM events WHERE tenant_id = ? AND type = ?`, b.seed.TenantID,
		model.OpDeliveryExhausted).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// TestSweepExhaustsUnpulledLikeAPush: a message nobody pulled in its
// window is exhausted as a push that kept failing is: a failed attempt
// (retry, timeout) in the attempt log, counted in the endpoint stats and
// health, and one ferry.delivery.exhausted (docs/queues.md).
func TestSweepExhaustsUnpulledLikeAPush(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	end := b.t0.Add(72*time.Hour + time.Minute)
	b.clock.Set(end)
	if err := b.svc.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	var row struct {
		Status        string
		AttemptCount  int
		LastAttemptAt *time.Time
	}
	if err := b.db.Raw(`SELECT status, attempt_count, last_attempt_at FROM deliveries WHERE id = ?`, b.seed.DeliveryID).
		Scan(&row).Error; err != nil {
		t.Fatal(err)
	}
	if row.Status != "exhausted" || row.AttemptCount != 1 || row.LastAttemptAt == nil || !row.LastAttemptAt.Equal(end) {
		t.Fatalf("delivery: %+v, want exhausted after attempt 1 at %s", row, end)
	}
	var attempts []struct {
		AttemptNumber int
		Trigger       string
		Outcome       string
		ErrorClass    string
		ErrorMessage  string
		StartedAt     time.Time
	}
	if err := b.db.Raw(`SELECT attempt_number, trigger, outcome, error_class, error_message, started_at FROM attempts
		WHERE delivery_id = ?`, b.seed.DeliveryID).Scan(&attempts).Error; err != nil {
		t.Fatal(err)
	}
	if len(attempts) != 1 {
		t.Fatalf("%d attempts logged, want 1", len(attempts))
	}
	a := attempts[0]
	if a.AttemptNumber != 1 || a.Trigger != string(model.TriggerInitial) || a.Outcome != string(model.OutcomeRetry) ||
		a.ErrorClass != classTimeout || a.ErrorMessage != windowEndedMessage || !a.StartedAt.Equal(end) {
		t.Errorf("attempt: %+v, want 1, initial, retry, timeout, %q at %s", a, windowEndedMessage, end)
	}
	data, ok := b.exhaustedEvent(t, b.seed.DeliveryID, 1)
	if !ok {
		t.Fatal("no ferry.delivery.exhausted for the exhausted message")
	}
	want := model.DeliveryExhaustedData{DeliveryID: b.seed.DeliveryID, EventID: b.seed.EventID, EventType: "seed.created",
		EndpointID: b.seed.EndpointID, AttemptCount: 1, LastAttemptAt: end}
	if data != want {
		t.Errorf("ferry.delivery.exhausted data: %+v, want %+v", data, want)
	}
	var stats struct {
		Attempts         int64
		AttemptsFailed   int64
		DeliveriesFailed int64
		ByErrorClass     string
	}
	if err := b.db.Raw(`SELECT coalesce(sum(attempts), 0) AS attempts, coalesce(sum(attempts_failed), 0) AS attempts_failed,
			coalesce(sum(deliveries_failed), 0) AS deliveries_failed, coalesce(max(by_error_class::text), '') AS by_error_class
		FROM endpoint_stats_hourly WHERE endpoint_id = ?`, b.seed.EndpointID).Scan(&stats).Error; err != nil {
		t.Fatal(err)
	}
	if stats.Attempts != 1 || stats.AttemptsFailed != 1 || stats.DeliveriesFailed != 1 || stats.ByErrorClass != `{"timeout": 1}` {
		t.Errorf("endpoint stats: %+v, want one failed attempt (timeout) and one failed delivery", stats)
	}
	var failingSince *time.Time
	if err := b.db.Raw(`SELECT failing_since FROM endpoints WHERE id = ?`, b.seed.EndpointID).Scan(&failingSince).Error; err != nil {
		t.Fatal(err)
	}
	if failingSince == nil || !failingSince.Equal(end) {
		t.Errorf("failing_since %v, want %s: the exhaustion is a failure of the endpoint, as for a push", failingSince, end)
	}

	// A second sweep finds nothing more to do.
	if err := b.svc.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if n := b.exhaustedEvents(t); n != 1 {
		t.Errorf("%d ferry.delivery.exhausted events after two sweeps, want 1", n)
	}
}

// TestSweepExhaustsInBoundedBatches: more unpulled messages than one
// batch holds are all exhausted in one sweep, each with its attempt.
func TestSweepExhaustsInBoundedBatches(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	const extra = 2*exhaustBatch + 17
	if err := b.db.Exec(`INSERT INTO deliveries (id, tenant_id, event_id, endpoint_id, created_at)
		SELECT gen_random_uuid(), ?, ?, ?, ? FROM generate_series(1, ?)`,
		b.seed.TenantID, b.seed.EventID, b.seed.EndpointID, b.t0, extra).Error; err != nil {
		t.Fatal(err)
	}
	b.clock.Set(b.t0.Add(72*time.Hour + time.Minute))
	if err := b.svc.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	var counts struct {
		Exhausted int64
		Open      int64
		Attempts  int64
	}
	if err := b.db.Raw(`SELECT count(*) FILTER (WHERE status = 'exhausted') AS exhausted,
			count(*) FILTER (WHERE status IN ('pending', 'retrying')) AS open,
			(SELECT count(*) FROM attempts WHERE endpoint_id = ?) AS attempts
		FROM deliveries WHERE endpoint_id = ?`, b.seed.EndpointID, b.seed.EndpointID).Scan(&counts).Error; err != nil {
		t.Fatal(err)
	}
	if counts.Exhausted != extra+1 || counts.Open != 0 || counts.Attempts != extra+1 {
		t.Fatalf("after one sweep: %+v, want %d exhausted, none open, %d attempts", counts, extra+1, extra+1)
	}
	if n := b.exhaustedEvents(t); n != extra+1 {
		t.Errorf("%d ferry.delivery.exhausted events, want %d", n, extra+1)
	}
}

// TestExhaustionBySettleAndExpiryEmitsTheEvent: a nack whose next try
// falls beyond the window and a lease that runs out after the window
// end the delivery as exhausted with ferry.delivery.exhausted, keyed by
// the attempt that exhausted it, as a push exhaustion is.
func TestExhaustionBySettleAndExpiryEmitsTheEvent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	t.Run("nack", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		b.pullOne(t, 30) // starts the window; the sweep takes it back
		last := b.t0.Add(72*time.Hour - time.Minute)
		b.clock.Set(last)
		if err := b.svc.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		m := b.pullOne(t, 30)
		delay := 3600
		if _, err := b.svc.Nack(ctx, b.seed.TenantID, b.seed.EndpointID, NackInput{Receipts: []string{m.Receipt}, DelaySeconds: &delay}); err != nil {
			t.Fatal(err)
		}
		if st, _ := b.status(t); st != "exhausted" {
			t.Fatalf("status %s, want exhausted", st)
		}
		data, ok := b.exhaustedEvent(t, b.seed.DeliveryID, 2)
		if !ok || data.AttemptCount != 2 || !data.LastAttemptAt.Equal(last) || data.EventType != "seed.created" {
			t.Fatalf("ferry.delivery.exhausted: %+v (found %v), want attempt 2 started at %s", data, ok, last)
		}
	})
	t.Run("expiry", func(t *testing.T) {
		t.Parallel()
		b := setup(t)
		b.clock.Set(b.t0.Add(72*time.Hour - time.Minute))
		b.pullOne(t, 3600) // the first pull starts the window
		b.clock.Set(b.t0.Add(144*time.Hour + time.Minute))
		if err := b.svc.Sweep(ctx); err != nil {
			t.Fatal(err)
		}
		if st, _ := b.status(t); st != "exhausted" {
			t.Fatalf("status %s, want exhausted", st)
		}
		data, ok := b.exhaustedEvent(t, b.seed.DeliveryID, 1)
		if !ok || data.AttemptCount != 1 {
			t.Fatalf("ferry.delivery.exhausted: %+v (found %v), want attempt 1", data, ok)
		}
		if n := b.exhaustedEvents(t); n != 1 {
			t.Errorf("%d ferry.delivery.exhausted events, want 1", n)
		}
	})
}

// TestOrderedPullLeavesAnExpiredLeasePastItsWindowToTheSweeper: an
// ordered queue's pull takes its oldest message back from an expired
// lease, but not once the message's window is over: the sweeper
// exhausts it (with ferry.delivery.exhausted) instead of the pull
// leasing it once more.
func TestOrderedPullLeavesAnExpiredLeasePastItsWindowToTheSweeper(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	if err := b.db.Exec(`UPDATE endpoints SET max_in_flight = 1 WHERE id = ?`, b.seed.EndpointID).Error; err != nil {
		t.Fatal(err)
	}
	b.pullOne(t, 30) // starts the window at t0
	// Within the window, the pull takes the expired lease back itself.
	b.clock.Set(b.t0.Add(72*time.Hour - time.Hour))
	if m := b.pullOne(t, 7200); m.Attempt != 2 {
		t.Fatalf("pulled as attempt %d, want 2", m.Attempt)
	}
	// That lease ends after the window: the next pull leaves it alone.
	b.clock.Set(b.t0.Add(72*time.Hour + 2*time.Hour))
	msgs, err := b.svc.Pull(ctx, b.seed.TenantID, b.seed.EndpointID, PullInput{})
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 0 {
		t.Fatalf("pulled attempt %d of a message past its window", msgs[0].Attempt)
	}
	if err := b.svc.Sweep(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := b.status(t); st != "exhausted" {
		t.Fatalf("status %s, want exhausted", st)
	}
	if _, ok := b.exhaustedEvent(t, b.seed.DeliveryID, 2); !ok {
		t.Error("no ferry.delivery.exhausted for attempt 2")
	}
}
