package attemptlog

import (
	"bytes"
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/internal/seal"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/insight"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/clock"
)

// enqueuer is a fake delivery.Enqueuer.
type enqueuer struct {
	EnqueueFunc func(jobs []model.Job)
}

var _ delivery.Enqueuer = (*enqueuer)(nil)

func (e *enqueuer) Enqueue(jobs []model.Job) {
	if e.EnqueueFunc != nil {
		e.EnqueueFunc(jobs)
	}
}

// statsBundle is a database with a running attempt log and a delivery
// service reading the rollups it keeps, both on a fixed clock.
type statsBundle struct {
	db  *gorm.DB
	log *Log
	svc *delivery.Service
	// stats reads what the log wrote.
	stats *insight.Service
	now   time.Time
}

func setupStats(t *testing.T) statsBundle {
	t.Helper()
	db := deliverytest.DB(t)
	now := time.Now().UTC().Truncate(time.Hour).Add(30 * time.Minute)
	fixed := func() time.Time { return now }
	if err := NewPartitions(db, PartitionConfig{}, deliverytest.Logger(), clock.NewManual(fixed())).Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The history goes 40 h back: early in a UTC day that is two days
	// before yesterday, where the job (which starts at yesterday) makes
	// no partition.
	back := func() time.Time { return now.Add(-48 * time.Hour) }
	if err := NewPartitions(db, PartitionConfig{Ahead: 1}, deliverytest.Logger(), clock.NewManual(back())).Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	cipher, err := seal.New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := delivery.NewService(db, cipher, &enqueuer{}, nil, delivery.Config{}, deliverytest.Logger(), fixed)
	if err != nil {
		t.Fatal(err)
	}
	return statsBundle{db: db, log: startAttemptLog(t, db, Config{}, clock.NewManual(now)), svc: svc, stats: insight.New(db, svc, func() time.Time { return now }), now: now}
}

// addDelivery adds a delivery of s's event to endpoint, created at.
func (b statsBundle) addDelivery(t *testing.T, s deliverytest.Seeded, endpoint uuid.UUID, at time.Time) uuid.UUID {
	t.Helper()
	id := uuid.New()
	if err := b.db.Exec(`INSERT INTO deliveries (id, tenant_id, event_id, endpoint_id, created_at) VALUES (?, ?, ?, ?, ?)`,
		id, s.TenantID, s.EventID, endpoint, at).Error; err != nil {
		t.Fatal(err)
	}
	return id
}

// attempt is one attempt of the known history.
type attempt struct {
	delivery uuid.UUID
	endpoint uuid.UUID
	n        int
	at       time.Time
	status   int    // HTTP status; 0: no answer
	class    string // error class of an attempt without answer
	ms       int
	result   model.Status // the delivery's status after it
}

func (b statsBundle) record(t *testing.T, s deliverytest.Seeded, attempts ...attempt) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make([]error, len(attempts))
	for i, a := range attempts {
		rec := Record{TenantID: s.TenantID, Status: a.result, FirstAttemptAt: a.at, Attempt: model.Attempt{
			ID: uuid.New(), DeliveryID: a.delivery, EventID: s.EventID, EndpointID: a.endpoint, AttemptNumber: a.n,
			Trigger: model.TriggerInitial, StartedAt: a.at, DurationMs: a.ms, RequestHeaders: http.Header{},
			ErrorClass: a.class, Outcome: model.OutcomeRetry,
		}}
		if a.status != 0 {
			st := a.status
			rec.ResponseStatus = &st
		}
		switch a.result {
		case model.StatusSucceeded:
			rec.Outcome = model.OutcomeSuccess
		case model.StatusDropped:
			rec.Outcome = model.OutcomeDropped
		case model.StatusRetrying:
			next := b.now.Add(10 * time.Minute)
			rec.NextAttemptAt = &next
		}
		// Concurrent: attempts may share a batch and its rollup rows.
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = b.log.Record(context.Background(), rec)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestStatsFromRollupsMatchKnownHistory logs a known attempt history
// through the attempt log and checks every field of the endpoint and
// tenant stats over each window against values worked out by hand.
func TestStatsFromRollupsMatchKnownHistory(t *testing.T) {
	t.Parallel()
	b := setupStats(t)
	ctx := context.Background()
	h0 := b.now.Truncate(time.Hour) // now is h0 + 30m
	h1 := h0.Add(-time.Hour)
	s := deliverytest.Seed(t, b.db, h0.Add(-40*time.Hour))
	a := s.EndpointID
	other := uuid.New() // a second endpoint of the same tenant
	if err := b.db.Exec(`INSERT INTO endpoints (id, tenant_id, url) VALUES (?, ?, 'http://127.0.0.1:1/b')`, other, s.TenantID).Error; err != nil {
		t.Fatal(err)
	}
	stranger := deliverytest.Seed(t, b.db, h0.Add(-time.Hour)) // another tenant

	d1 := b.addDelivery(t, s, a, h1)
	d2 := b.addDelivery(t, s, a, h1)
	d3 := b.addDelivery(t, s, a, h0)
	d4 := b.addDelivery(t, s, a, h0.Add(-5*time.Hour))
	d5 := b.addDelivery(t, s, a, h0.Add(-30*time.Hour))
	b.addDelivery(t, s, a, h0.Add(-2*time.Hour)) // d6: pending, never attempted
	d7 := b.addDelivery(t, s, a, h0.Add(9*time.Minute))
	d8 := b.addDelivery(t, s, other, h0)
	// The seeded delivery of each tenant stays pending; a's counts below
	// include it: it was created 40 h ago.

	b.record(t, s, attempt{d5, a, 1, h0.Add(-30 * time.Hour), 200, "", 1, model.StatusSucceeded})
	b.record(t, s, attempt{d4, a, 1, h0.Add(-5 * time.Hour), 200, "", 2, model.StatusSucceeded})
	b.record(t, s,
		attempt{d1, a, 1, h1.Add(10 * time.Minute), 500, "", 30, model.StatusRetrying},
		attempt{d2, a, 1, h1.Add(20 * time.Minute), 0, "timeout", 10000, model.StatusRetrying})
	b.record(t, s, attempt{d2, a, 2, h1.Add(40 * time.Minute), 503, "", 7, model.StatusExhausted})
	b.record(t, s,
		attempt{d1, a, 2, h0.Add(5 * time.Minute), 200, "", 120, model.StatusSucceeded},
		attempt{d3, a, 1, h0.Add(1 * time.Minute), 400, "", 0, model.StatusDropped},
		attempt{d7, a, 1, h0.Add(10 * time.Minute), 500, "", 15, model.StatusRetrying},
		attempt{d8, other, 1, h0.Add(2 * time.Minute), 200, "", 50, model.StatusSucceeded})
	b.record(t, stranger, attempt{stranger.DeliveryID, stranger.EndpointID, 1, h0, 200, "", 3, model.StatusSucceeded})

	// Backlog of a: the seeded delivery (40 h old) and d6 pending, d7
	// retrying (next attempt at now + 10m).
	backlog := insight.Backlog{Pending: 2, Retrying: 1, OldestAgeSeconds: int64((40*time.Hour + 30*time.Minute).Seconds()),
		NextRetryAt: ptr(b.now.Add(10 * time.Minute))}
	series := func(from time.Time, marks map[time.Time][2]int64) []insight.StatsPoint {
		var out []insight.StatsPoint
		for h := from; !h.After(b.now); h = h.Add(time.Hour) {
			out = append(out, insight.StatsPoint{Hour: h, Succeeded: marks[h][0], Failed: marks[h][1]})
		}
		return out
	}
	lastSuccess := ptr(h0.Add(5 * time.Minute))
	cases := []struct {
		window string
		want   insight.Stats
	}{
		{"1h", insight.Stats{Window: "1h", From: h1, Attempts: 6, AttemptsFailed: 5, Succeeded: 1, Failed: 2, SuccessRate: ptr(1.0 / 3),
			// answered: 0, 7, 15, 30, 120 ms
			ByErrorClass: map[string]int64{"http_500": 2, "timeout": 1, "http_503": 1, "http_400": 1},
			ResponseMs:   insight.ResponseMs{P50: ptr(20), P95: ptr(200), P99: ptr(200)},
			Backlog:      backlog, LastSuccessAt: lastSuccess,
			Series: series(h1, map[time.Time][2]int64{h1: {0, 1}, h0: {1, 1}})}},
		{"24h", insight.Stats{Window: "24h", From: h0.Add(-24 * time.Hour), Attempts: 7, AttemptsFailed: 5, Succeeded: 2, Failed: 2, SuccessRate: ptr(0.5),
			// answered: 0, 2, 7, 15, 30, 120 ms
			ByErrorClass: map[string]int64{"http_500": 2, "timeout": 1, "http_503": 1, "http_400": 1},
			ResponseMs:   insight.ResponseMs{P50: ptr(10), P95: ptr(200), P99: ptr(200)},
			Backlog:      backlog, LastSuccessAt: lastSuccess,
			Series: series(h0.Add(-24*time.Hour), map[time.Time][2]int64{h1: {0, 1}, h0: {1, 1}, h0.Add(-5 * time.Hour): {1, 0}})}},
		{"7d", insight.Stats{Window: "7d", From: h0.Add(-7 * 24 * time.Hour), Attempts: 8, AttemptsFailed: 5, Succeeded: 3, Failed: 2, SuccessRate: ptr(0.6),
			// answered: 0, 1, 2, 7, 15, 30, 120 ms
			ByErrorClass: map[string]int64{"http_500": 2, "timeout": 1, "http_503": 1, "http_400": 1},
			ResponseMs:   insight.ResponseMs{P50: ptr(10), P95: ptr(200), P99: ptr(200)},
			Backlog:      backlog, LastSuccessAt: lastSuccess,
			Series: series(h0.Add(-7*24*time.Hour), map[time.Time][2]int64{h1: {0, 1}, h0: {1, 1}, h0.Add(-5 * time.Hour): {1, 0},
				h0.Add(-30 * time.Hour): {1, 0}})}},
	}
	for _, tc := range cases {
		got, err := b.stats.EndpointStats(ctx, s.TenantID, a, tc.window)
		if err != nil {
			t.Fatalf("%s: %v", tc.window, err)
		}
		compareStats(t, tc.window, got, tc.want)
	}

	// Tenant-wide over 1h adds the other endpoint's success (50 ms) and
	// its backlog (none); the other tenant's attempt counts nowhere.
	ts, err := b.stats.TenantStats(ctx, s.TenantID, "1h")
	if err != nil {
		t.Fatal(err)
	}
	want := cases[0].want
	want.Attempts, want.Succeeded, want.SuccessRate = 7, 2, ptr(0.5)
	// answered: 0, 7, 15, 30, 50, 120 ms
	want.ResponseMs = insight.ResponseMs{P50: ptr(20), P95: ptr(200), P99: ptr(200)}
	want.Series = series(h1, map[time.Time][2]int64{h1: {0, 1}, h0: {2, 1}})
	compareStats(t, "tenant 1h", ts.Stats, want)
	if len(ts.Endpoints) != 2 {
		t.Fatalf("tenant stats has %d endpoint lines, want 2: %+v", len(ts.Endpoints), ts.Endpoints)
	}
	for _, l := range ts.Endpoints {
		switch l.EndpointID {
		case a:
			if l.Attempts != 6 || l.Succeeded != 1 || l.Failed != 2 || *l.SuccessRate != 1.0/3 || l.Pending != 2 || l.Retrying != 1 ||
				!l.LastSuccessAt.Equal(*lastSuccess) || !l.NextRetryAt.Equal(b.now.Add(10*time.Minute)) {
				t.Errorf("endpoint a line %+v", l)
			}
		case other:
			if l.Attempts != 1 || l.Succeeded != 1 || l.Failed != 0 || *l.SuccessRate != 1 || l.Pending != 0 || l.Retrying != 0 ||
				!l.LastSuccessAt.Equal(h0.Add(2*time.Minute)) || l.NextRetryAt != nil {
				t.Errorf("endpoint other line %+v", l)
			}
		default:
			t.Errorf("line of an unknown endpoint %s", l.EndpointID)
		}
	}

	// Errors: a bad window, and another tenant's endpoint.
	if _, err := b.stats.EndpointStats(ctx, s.TenantID, a, "2h"); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("window 2h: %v, want invalid", err)
	}
	if _, err := b.stats.TenantStats(ctx, s.TenantID, ""); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("empty window: %v, want invalid", err)
	}
	if _, err := b.stats.EndpointStats(ctx, stranger.TenantID, a, "1h"); ferry.ErrorCode(err) != ferry.ENOTFOUND {
		t.Errorf("another tenant's endpoint: %v, want not found", err)
	}

	// The exhausted delivery emitted ferry.delivery.exhausted, once.
	var exhausted int
	if err := b.db.Raw(`SELECT count(*) FROM events WHERE tenant_id = ? AND type = 'ferry.delivery.exhausted'
		AND data->>'delivery_id' = ?`, s.TenantID, d2.String()).Scan(&exhausted).Error; err != nil || exhausted != 1 {
		t.Errorf("%d ferry.delivery.exhausted events for d2 (%v), want 1", exhausted, err)
	}
}

func compareStats(t *testing.T, name string, got, want insight.Stats) {
	t.Helper()
	eqPtr := func(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	if got.Window != want.Window || !got.From.Equal(want.From) || got.Attempts != want.Attempts || got.AttemptsFailed != want.AttemptsFailed ||
		got.Succeeded != want.Succeeded || got.Failed != want.Failed {
		t.Errorf("%s: counts %+v, want %+v", name, got, want)
	}
	if (got.SuccessRate == nil) != (want.SuccessRate == nil) || (got.SuccessRate != nil && *got.SuccessRate != *want.SuccessRate) {
		t.Errorf("%s: success_rate %v, want %v", name, deref(got.SuccessRate), deref(want.SuccessRate))
	}
	if len(got.ByErrorClass) != len(want.ByErrorClass) {
		t.Errorf("%s: by_error_class %v, want %v", name, got.ByErrorClass, want.ByErrorClass)
	}
	for k, v := range want.ByErrorClass {
		if got.ByErrorClass[k] != v {
			t.Errorf("%s: by_error_class %v, want %v", name, got.ByErrorClass, want.ByErrorClass)
		}
	}
	if !eqPtr(got.ResponseMs.P50, want.ResponseMs.P50) || !eqPtr(got.ResponseMs.P95, want.ResponseMs.P95) || !eqPtr(got.ResponseMs.P99, want.ResponseMs.P99) {
		t.Errorf("%s: response_ms %v/%v/%v, want %v/%v/%v", name, deref(got.ResponseMs.P50), deref(got.ResponseMs.P95), deref(got.ResponseMs.P99),
			deref(want.ResponseMs.P50), deref(want.ResponseMs.P95), deref(want.ResponseMs.P99))
	}
	gb, wb := got.Backlog, want.Backlog
	if gb.Pending != wb.Pending || gb.Retrying != wb.Retrying || gb.OldestAgeSeconds != wb.OldestAgeSeconds ||
		(gb.NextRetryAt == nil) != (wb.NextRetryAt == nil) || (gb.NextRetryAt != nil && !gb.NextRetryAt.Equal(*wb.NextRetryAt)) {
		t.Errorf("%s: backlog %+v, want %+v", name, gb, wb)
	}
	if (got.LastSuccessAt == nil) != (want.LastSuccessAt == nil) || (got.LastSuccessAt != nil && !got.LastSuccessAt.Equal(*want.LastSuccessAt)) {
		t.Errorf("%s: last_success_at %v, want %v", name, got.LastSuccessAt, want.LastSuccessAt)
	}
	if len(got.Series) != len(want.Series) {
		t.Fatalf("%s: %d series points, want %d", name, len(got.Series), len(want.Series))
	}
	for i := range want.Series {
		g, w := got.Series[i], want.Series[i]
		if !g.Hour.Equal(w.Hour) || g.Succeeded != w.Succeeded || g.Failed != w.Failed {
			t.Errorf("%s: series[%d] = %+v, want %+v", name, i, g, w)
		}
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestRollupsPrunedAfterEightDays: the partition job deletes hourly
// rollups older than the longest stats window and a day.
func TestRollupsPrunedAfterEightDays(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	now := time.Now().UTC().Truncate(time.Hour)
	s := deliverytest.Seed(t, db, now)
	for _, age := range []time.Duration{9 * 24 * time.Hour, 7 * 24 * time.Hour} {
		if err := db.Exec(`INSERT INTO endpoint_stats_hourly (endpoint_id, hour, tenant_id, attempts, response_buckets)
			VALUES (?, ?, ?, 1, '{}')`, s.EndpointID, now.Add(-age), s.TenantID).Error; err != nil {
			t.Fatal(err)
		}
	}
	if err := NewPartitions(db, PartitionConfig{}, deliverytest.Logger(), clock.NewManual(now)).Maintain(context.Background()); err != nil {
		t.Fatal(err)
	}
	var hours []time.Time
	if err := db.Raw(`SELECT hour FROM endpoint_stats_hourly`).Scan(&hours).Error; err != nil {
		t.Fatal(err)
	}
	if len(hours) != 1 || !hours[0].Equal(now.Add(-7*24*time.Hour)) {
		t.Errorf("rollups left %v, want only the one 7 days old", hours)
	}
}
