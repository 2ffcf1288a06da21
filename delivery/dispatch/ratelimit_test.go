package dispatch

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/egress"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/telemetry"
	"github.com/ferry-dev/ferry/ratelimit"
)

// TestEndpointRateHoldsAcrossWorkers: two workers (two dispatchers with
// limiters of their own over one database's buckets, as two processes
// have) delivering to one endpoint limited to 5 a second send it 5 a
// second together, not 10; another tenant's unlimited endpoint on the
// same workers is not held back.
func TestEndpointRateHoldsAcrossWorkers(t *testing.T) {
	t.Parallel()
	b := setupDispatcher(t)
	var mu sync.Mutex
	arrivals := map[string][]time.Time{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrivals[r.URL.Path] = append(arrivals[r.URL.Path], time.Now())
		mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	const perSecond, events = 5, 20
	rate := perSecond
	if _, _, err := b.svc.CreateEndpoint(b.ctx, b.tenant, delivery.EndpointInput{URL: srv.URL + "/limited", RateLimitPerSecond: &rate}); err != nil {
		t.Fatal(err)
	}
	bystander := uuid.New()
	if err := b.db.Exec(`INSERT INTO tenants (id, name) VALUES (?, 'bystander')`, bystander).Error; err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.svc.CreateEndpoint(b.ctx, bystander, delivery.EndpointInput{URL: srv.URL + "/free"}); err != nil {
		t.Fatal(err)
	}
	for range events {
		for _, tenant := range []uuid.UUID{b.tenant, bystander} {
			if _, _, err := b.svc.Ingest(b.ctx, tenant, delivery.EventInput{Type: "x", Data: []byte(`{}`)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	jobs := b.enq.all()
	if len(jobs) != 2*events {
		t.Fatalf("%d jobs, want %d", len(jobs), 2*events)
	}

	attempts := startAttemptLog(t, b.db)
	buckets := ratelimit.New(b.db)
	var workers []*Dispatcher
	for range 2 {
		d := NewDispatcher(b.db, b.cipher, egress.NewSender(egress.AddressPolicy{AllowPrivate: true}, nil), &fakePublisher{}, attempts,
			telemetry.NewMetrics(prometheus.NewRegistry()), Config{Policy: RetryPolicy{Scale: 0.001},
				Rate: ratelimit.NewLimiter(buckets, "endpoint", deliverytest.Logger())}, deliverytest.Logger(), nil)
		runDispatcher(t, b.ctx, d)
		workers = append(workers, d)
	}
	// Each endpoint's jobs alternate between the two workers.
	var wg sync.WaitGroup
	next := map[uuid.UUID]int{}
	for _, job := range jobs {
		wg.Add(1)
		next[job.EndpointID]++
		if err := workers[next[job.EndpointID]%2].Submit(b.ctx, job, wg.Done); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("jobs not done within 30 s")
	}

	mu.Lock()
	limited, free := slices.Clone(arrivals["/limited"]), slices.Clone(arrivals["/free"])
	mu.Unlock()
	if len(limited) != events || len(free) != events {
		t.Fatalf("%d deliveries to the limited endpoint and %d to the free one, want %d each", len(limited), len(free), events)
	}
	slices.SortFunc(limited, time.Time.Compare)
	slices.SortFunc(free, time.Time.Compare)
	// A full bucket of 5, then 5 a second: the last of 20 at least 3 s
	// after the first (each worker on its own bucket would take 1 s).
	if took := limited[events-1].Sub(limited[0]); took < 2500*time.Millisecond {
		t.Errorf("the limited endpoint got %d deliveries in %s: over %d a second for two workers together", events, took, perSecond)
	}
	if took := free[events-1].Sub(free[0]); took > 2*time.Second {
		t.Errorf("the other tenant's unlimited endpoint got its %d deliveries over %s: held back by the limit", events, took)
	}
}
