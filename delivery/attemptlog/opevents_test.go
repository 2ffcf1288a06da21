package attemptlog

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/opevents"
	"github.com/ferry-dev/ferry/internal/clock"
)

// TestHealthEventsOncePerTransition drives endpoint health with an
// injected clock and checks the operational events: failing once the
// endpoint has failed for FailingAfter (once per failing period),
// recovered when a success ends a reported period, disabled at
// DisableAfter; each delivered to the tenant's ferry.* subscriber but
// never to the endpoint it is about, and handed to the relay.
func TestHealthEventsOncePerTransition(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	t0 := time.Now().UTC().Truncate(time.Hour)
	clk := clock.NewManual(t0)
	if err := NewPartitions(db, PartitionConfig{}, deliverytest.Logger(), clk).Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var enqueued []model.Job
	relay := &enqueuer{EnqueueFunc: func(jobs []model.Job) {
		mu.Lock()
		enqueued = append(enqueued, jobs...)
		mu.Unlock()
	}}
	l := startAttemptLog(t, db, Config{FailingAfter: 15 * time.Minute, DisableAfter: 2 * time.Hour,
		Events: opevents.NewEmitter(db, nil, relay, nil, deliverytest.Logger(), clk)}, clk)
	s := deliverytest.Seed(t, db, t0)
	// The endpoint under watch subscribes to ferry.* itself: the events
	// about it must not come back to it.
	subscriber := uuid.New()
	if err := db.Exec(`UPDATE endpoints SET event_types = '["ferry.*"]' WHERE id = ?`, s.EndpointID).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`INSERT INTO endpoints (id, tenant_id, url, event_types) VALUES (?, ?, 'http://127.0.0.1:1/ops',
		'["ferry.endpoint.failing", "ferry.endpoint.recovered", "ferry.endpoint.disabled"]')`, subscriber, s.TenantID).Error; err != nil {
		t.Fatal(err)
	}
	n := 0
	at := func(d time.Duration, ok bool) {
		t.Helper()
		n++
		clk.Set(t0.Add(d))
		rec := failedAttempt(s, n, t0.Add(d))
		if ok {
			rec.Outcome, rec.Status, rec.NextAttemptAt = model.OutcomeSuccess, model.StatusSucceeded, nil
		}
		if err := l.Record(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
	}
	events := func() []string {
		t.Helper()
		var types []string
		if err := db.Raw(`SELECT type FROM events WHERE tenant_id = ? AND type LIKE 'ferry.%' ORDER BY created_at, type`, s.TenantID).
			Scan(&types).Error; err != nil {
			t.Fatal(err)
		}
		return types
	}
	expect := func(step string, want ...string) {
		t.Helper()
		got := events()
		if len(got) != len(want) {
			t.Fatalf("%s: operational events %v, want %v", step, got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%s: operational events %v, want %v", step, got, want)
			}
		}
	}
	at(0, false)
	at(10*time.Minute, false)
	expect("failing 10 minutes")
	at(16*time.Minute, false)
	at(20*time.Minute, false)
	expect("failing 20 minutes", model.OpEndpointFailing)
	at(30*time.Minute, true)
	expect("recovered", model.OpEndpointFailing, model.OpEndpointRecovered)
	at(31*time.Minute, false)
	at(40*time.Minute, true) // a short failure, never reported: no recovery either
	expect("short failure", model.OpEndpointFailing, model.OpEndpointRecovered)
	at(41*time.Minute, false)
	at(60*time.Minute, false)
	at(2*time.Hour+42*time.Minute, false)
	expect("disabled", model.OpEndpointFailing, model.OpEndpointRecovered, model.OpEndpointFailing, model.OpEndpointDisabled)

	var wrong int64
	if err := db.Raw(`SELECT count(*) FROM deliveries d JOIN events e ON e.id = d.event_id
		WHERE e.type LIKE 'ferry.%' AND d.endpoint_id <> ?`, subscriber).Scan(&wrong).Error; err != nil || wrong != 0 {
		t.Errorf("%d operational deliveries to other endpoints than the subscriber (%v)", wrong, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(enqueued) != 4 {
		t.Errorf("%d jobs handed to the relay, want 4 (one per event, to the subscriber)", len(enqueued))
	}
	for _, j := range enqueued {
		if j.EndpointID != subscriber || j.TenantID != s.TenantID || j.Attempt != 1 {
			t.Errorf("job %+v", j)
		}
	}
}
