package dispatch

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/egress"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/outbox"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
)

// fakePublisher records what would go to Kafka.
type fakePublisher struct {
	mu   sync.Mutex
	msgs []delivery.Message
}

var _ outbox.Publisher = (*fakePublisher)(nil)

func (p *fakePublisher) Publish(_ context.Context, msgs []delivery.Message) error {
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
// the first retry tier (unattempted, committed at once) instead of taking
// the dispatcher's global slots, so a healthy endpoint's jobs submitted
// afterwards are still delivered within 2 s. Without the per-lane cap the
// 21st submit would block and the healthy endpoint would starve.
func TestLaneCapParksOverflowWithoutBlockingOthers(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := attemptlog.NewPartitions(db, attemptlog.PartitionConfig{}, deliverytest.Logger(), nil).Maintain(ctx); err != nil {
		t.Fatal(err)
	}
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
	t.Cleanup(func() { close(stop); srv.CloseClientConnections(); srv.Close() })

	cipher, err := delivery.NewCipher(bytes.Repeat([]byte{1}, 32))
	if err != nil {
		t.Fatal(err)
	}
	enq := &fakeEnqueuer{}
	svc, err := delivery.NewService(db, cipher, enq, nil, delivery.Config{AllowHTTP: true, AddressPolicy: egress.AddressPolicy{AllowPrivate: true}}, deliverytest.Logger(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tenant := uuid.New()
	if err := db.Exec(`INSERT INTO tenants (id, name) VALUES (?, 'lanes')`, tenant).Error; err != nil {
		t.Fatal(err)
	}
	one, timeout := 1, 1
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
	t.Cleanup(cancel) // stop attempts before the attempt log
	d := NewDispatcher(db, cipher, egress.NewSender(egress.AddressPolicy{AllowPrivate: true}, nil), pub, attempts,
		delivery.NewMetrics(prometheus.NewRegistry()), Config{Policy: RetryPolicy{Scale: 0.001}, MaxQueued: 20, MaxQueuedPerEndpoint: 5},
		deliverytest.Logger(), nil)
	d.SetWorkContext(ctx)

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
	for healthy.Load() < 5 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := healthy.Load(); n != 5 {
		t.Fatalf("healthy endpoint got %d of 5 deliveries within 2s", n)
	}
	// The hanging lane holds 1 running + 5 queued (or 5 with the first
	// not yet picked up by its worker); the other 34 or 35 are parked.
	parked := pub.topics()["retry-30s"]
	if parked != 34 && parked != 35 {
		t.Errorf("%d jobs parked, want 34 or 35 (topics %v)", parked, pub.topics())
	}
	pub.mu.Lock()
	for _, m := range pub.msgs {
		if m.Topic == "retry-30s" && m.Job.Attempt != 1 {
			t.Errorf("parked job counts as a retry: %+v", m.Job)
		}
		if m.Job.EndpointID != slow.ID {
			t.Errorf("parked job for endpoint %s", m.Job.EndpointID)
		}
	}
	pub.mu.Unlock()
	for done.Load() < 34+5 && time.Now().Before(deadline.Add(5*time.Second)) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := done.Load(); got < 34+5 {
		t.Errorf("%d jobs done (committable), want at least the 34 parked and 5 healthy", got)
	}
}
