package dispatch

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/egress"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/telemetry"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// fakePublisher records what would go to Kafka.
type fakePublisher struct {
	mu   sync.Mutex
	msgs []model.Message
}

var _ model.Publisher = (*fakePublisher)(nil)

func (p *fakePublisher) Publish(_ context.Context, msgs []model.Message) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.msgs = append(p.msgs, msgs...)
	return nil
}

func (p *fakePublisher) topics() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := map[string]int{}
	for _, m := range p.msgs {
		out[m.Topic]++
	}
	return out
}

// TestLaneCapParksOverflowWithoutBlockingOthers fills one hanging
// endpoint's lane far beyond its cap and checks the overflow is parked in
// Postgres (unattempted, committable at once) instead of taking the
// dispatcher's global room or blocking Submit, so a healthy endpoint's
// jobs submitted afterwards are still delivered within 2 s; and that once
// the endpoint answers, the parked jobs come back in acceptance order
// without waiting for a retry delay.
func TestLaneCapParksOverflowWithoutBlockingOthers(t *testing.T) {
	t.Parallel()
	b := setupDispatcher(t)
	db, ctx, svc, tenant, enq := b.db, b.ctx, b.svc, b.tenant, b.enq
	stop := make(chan struct{})
	var healthy atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hang" {
			select {
			case <-r.Context().Done():
			case <-stop:
			}
			return
		}
		healthy.Add(1)
	}))
	var stopOnce sync.Once
	t.Cleanup(func() { stopOnce.Do(func() { close(stop) }); srv.CloseClientConnections(); srv.Close() })

	one, timeout := 1, 10
	slow, _, err := svc.CreateEndpoint(ctx, tenant, delivery.EndpointInput{URL: srv.URL + "/hang", EventTypes: []string{"slow"}, MaxInFlight: &one, TimeoutSeconds: &timeout})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.CreateEndpoint(ctx, tenant, delivery.EndpointInput{URL: srv.URL + "/ok", EventTypes: []string{"fast"}}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40; i++ {
		if _, _, err := svc.Ingest(ctx, tenant, delivery.EventInput{Type: "slow", Data: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 5; i++ {
		if _, _, err := svc.Ingest(ctx, tenant, delivery.EventInput{Type: "fast", Data: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}

	pub := &fakePublisher{}
	attempts := startAttemptLog(t, db)
	d := NewDispatcher(db, b.cipher, egress.NewSender(egress.AddressPolicy{AllowPrivate: true}, nil), pub, attempts,
		telemetry.NewMetrics(prometheus.NewRegistry()), Config{Policy: RetryPolicy{Scale: 0.001}, MaxQueued: 20, MaxQueuedPerEndpoint: 5},
		deliverytest.Logger(), nil)
	runDispatcher(t, ctx, d)

	var done atomic.Int32
	submitted := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(submitted)
		for _, j := range enq.jobs {
			if err := d.Submit(ctx, j, func() { done.Add(1) }); err != nil {
				return
			}
		}
	}()
	select {
	case <-submitted:
	case <-time.After(5 * time.Second):
		t.Fatal("Submit blocked: the hanging endpoint's backlog took every slot")
	}
	deadline := start.Add(2 * time.Second)
	testenv.Eventually(t, time.Until(deadline), func() bool { return healthy.Load() >= 5 },
		"healthy endpoint got fewer than 5 deliveries within 2s of the start")
	if n := healthy.Load(); n != 5 {
		t.Fatalf("healthy endpoint got %d of 5 deliveries", n)
	}
	// The hanging lane holds its cap of 5; the other 35 are parked in
	// Postgres, unattempted, and done (committable) once parked.
	testenv.Eventually(t, time.Until(deadline.Add(3*time.Second)), func() bool { return done.Load() >= 35+5 },
		"jobs done (parked or delivered) fewer than 40")
	var parked int64
	if err := db.Raw(`SELECT count(*) FROM parked_jobs WHERE endpoint_id = ?`, slow.ID).Scan(&parked).Error; err != nil {
		t.Fatal(err)
	}
	if parked != 35 {
		t.Errorf("%d jobs parked, want 35", parked)
	}
	if got := done.Load(); got < 35+5 {
		t.Errorf("%d jobs done, want at least the 35 parked and 5 healthy", got)
	}
	if n := pub.topics()["retry-30s"]; n != 0 {
		t.Errorf("%d jobs went to a retry tier; parking must not delay them by a retry", n)
	}

	// Once the endpoint answers, the parked jobs come back without any
	// retry delay: every slow job gets exactly one attempt, in order.
	stopOnce.Do(func() { close(stop) })
	var logged, left int64
	testenv.Eventually(t, time.Until(start.Add(20*time.Second)), func() bool {
		_ = db.Raw(`SELECT count(*) FROM attempts WHERE endpoint_id = ?`, slow.ID).Scan(&logged).Error
		_ = db.Raw(`SELECT count(*) FROM parked_jobs`).Scan(&left).Error
		return logged == 40 && left == 0
	}, "want 40 attempts to the slow endpoint and no parked row left")
	if got := done.Load(); got != 45 {
		t.Errorf("%d done calls, want one per submitted job (45)", got)
	}
	var order []time.Time
	_ = db.Raw(`SELECT e.created_at FROM attempts a JOIN events e ON e.id = a.event_id
		WHERE a.endpoint_id = ? ORDER BY a.started_at`, slow.ID).Scan(&order).Error
	for i := 1; i < len(order); i++ {
		if order[i].Before(order[i-1]) {
			t.Fatalf("attempt %d is for an event accepted before the previous one's: parking broke acceptance order", i)
		}
	}
}

// TestDeadWorkersParkedJobsRepublished: jobs parked by a worker whose
// heartbeat went stale (a crash) are republished to the deliveries topic
// by a live worker and their rows deleted; a live worker's are left alone.
func TestDeadWorkersParkedJobsRepublished(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	dead, alive := uuid.New(), uuid.New()
	now := time.Now().UTC()
	if err := db.Exec(`INSERT INTO dispatch_workers (id, heartbeat_at) VALUES (?, ?), (?, ?)`,
		dead, now.Add(-time.Minute), alive, now).Error; err != nil {
		t.Fatal(err)
	}
	var want []uuid.UUID
	for _, owner := range []uuid.UUID{dead, dead, alive, dead} {
		job := model.Job{DeliveryID: uuid.New(), EndpointID: uuid.New(), TenantID: uuid.New(), Attempt: 1, Trigger: model.TriggerInitial}
		if err := db.Exec(`INSERT INTO parked_jobs (owner, endpoint_id, tenant_id, job) VALUES (?, ?, ?, ?::jsonb)`,
			owner, job.EndpointID, job.TenantID, mustJSON(t, job)).Error; err != nil {
			t.Fatal(err)
		}
		if owner == dead {
			want = append(want, job.DeliveryID)
		}
	}
	pub := &fakePublisher{}
	d := NewDispatcher(db, nil, nil, pub, nil, telemetry.NewMetrics(prometheus.NewRegistry()), Config{}, deliverytest.Logger(), nil)
	runDispatcher(t, ctx, d)
	var left []uuid.UUID
	testenv.Eventually(t, 10*time.Second, func() bool {
		left = nil
		_ = db.Raw(`SELECT owner FROM parked_jobs`).Scan(&left).Error
		return len(left) == 1
	}, "parked rows left %v, want one", &left)
	if left[0] != alive {
		t.Fatalf("parked rows left %v, want only the live worker's", left)
	}
	pub.mu.Lock()
	defer pub.mu.Unlock()
	if len(pub.msgs) != len(want) {
		t.Fatalf("%d republished, want %d", len(pub.msgs), len(want))
	}
	for i, m := range pub.msgs {
		if m.Topic != model.TopicDeliveries || m.Job.DeliveryID != want[i] {
			t.Errorf("republished %d: %s %s, want deliveries %s (in parking order)", i, m.Topic, m.Job.DeliveryID, want[i])
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestTakenJobsBoundedPerTenant stops the attempt log, so no attempt
// becomes durable, and checks that a tenant then has at most
// MaxTakenPerTenant jobs attempted and waiting for the log, rather than
// one per queued job, while another tenant's jobs are still attempted;
// once the log runs, every job is logged and done.
func TestTakenJobsBoundedPerTenant(t *testing.T) {
	t.Parallel()
	b := setupDispatcher(t)
	db, ctx, svc := b.db, b.ctx, b.svc
	bystander := uuid.New()
	if err := db.Exec(`INSERT INTO tenants (id, name) VALUES (?, 'bystander')`, bystander).Error; err != nil {
		t.Fatal(err)
	}
	var busy, calm atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/busy" {
			busy.Add(1)
		} else {
			calm.Add(1)
		}
	}))
	t.Cleanup(srv.Close)
	if _, _, err := svc.CreateEndpoint(ctx, b.tenant, delivery.EndpointInput{URL: srv.URL + "/busy"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.CreateEndpoint(ctx, bystander, delivery.EndpointInput{URL: srv.URL + "/calm"}); err != nil {
		t.Fatal(err)
	}
	const busyEvents, calmEvents, maxTaken = 30, 5, 8
	for i := 0; i < busyEvents; i++ {
		if _, _, err := svc.Ingest(ctx, b.tenant, delivery.EventInput{Type: "x", Data: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < calmEvents; i++ {
		if _, _, err := svc.Ingest(ctx, bystander, delivery.EventInput{Type: "x", Data: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}

	attempts := newAttemptLog(db) // started once the bound is checked
	d := NewDispatcher(db, b.cipher, egress.NewSender(egress.AddressPolicy{AllowPrivate: true}, nil), &fakePublisher{}, attempts,
		telemetry.NewMetrics(prometheus.NewRegistry()), Config{Policy: RetryPolicy{Scale: 0.001}, MaxTakenPerTenant: maxTaken},
		deliverytest.Logger(), nil)
	runDispatcher(t, ctx, d)
	var done atomic.Int32
	for _, j := range b.enq.all() {
		if err := d.Submit(ctx, j, func() { done.Add(1) }); err != nil {
			t.Fatal(err)
		}
	}

	testenv.Eventually(t, 10*time.Second, func() bool { return calm.Load() == calmEvents && busy.Load() >= maxTaken },
		"want the bystander's 5 jobs attempted and the busy tenant's first 8")
	time.Sleep(300 * time.Millisecond) // room for attempts beyond the bound, if the bound failed
	if n := busy.Load(); n != maxTaken {
		t.Fatalf("the busy tenant had %d jobs attempted while none could be logged, want %d (MaxTakenPerTenant)", n, maxTaken)
	}
	if n := done.Load(); n != 0 {
		t.Fatalf("%d jobs done before their attempts were logged", n)
	}

	deliverytest.Run(t, ctx, attempts.Run)
	var logged int64
	testenv.Eventually(t, 20*time.Second, func() bool {
		_ = db.Raw(`SELECT count(*) FROM attempts WHERE tenant_id IN (?, ?)`, b.tenant, bystander).Scan(&logged).Error
		return logged == busyEvents+calmEvents && done.Load() == busyEvents+calmEvents
	}, "want every job attempted once, logged and done once the attempt log runs")
	if n := busy.Load(); n != busyEvents {
		t.Errorf("the busy endpoint got %d requests, want %d", n, busyEvents)
	}
}
