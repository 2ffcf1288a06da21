package dispatch

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/internal/seal"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/egress"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/telemetry"
)

// flakyPublisher fails its first failures calls, then records.
type flakyPublisher struct {
	fakePublisher
	mu       sync.Mutex
	failures int
}

func (p *flakyPublisher) Publish(ctx context.Context, msgs []model.Message) error {
	p.mu.Lock()
	if p.failures > 0 {
		p.failures--
		p.mu.Unlock()
		return errors.New("kafka unavailable")
	}
	p.mu.Unlock()
	return p.fakePublisher.Publish(ctx, msgs)
}

type dispatcherBundle struct {
	db     *gorm.DB
	svc    *delivery.Service
	enq    *fakeEnqueuer
	tenant uuid.UUID
	cipher *seal.Cipher
	ctx    context.Context
}

func setupDispatcher(t *testing.T) dispatcherBundle {
	t.Helper()
	db := deliverytest.DB(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if err := attemptlog.NewPartitions(db, attemptlog.PartitionConfig{}, deliverytest.Logger(), nil).Maintain(ctx); err != nil {
		t.Fatal(err)
	}
	cipher, err := seal.New(bytes.Repeat([]byte{2}, 32))
	if err != nil {
		t.Fatal(err)
	}
	enq := &fakeEnqueuer{}
	svc, err := delivery.NewService(db, cipher, enq, nil, delivery.Config{AllowHTTP: true, AddressPolicy: egress.AddressPolicy{AllowPrivate: true}}, deliverytest.Logger(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tenant := uuid.New()
	if err := db.Exec(`INSERT INTO tenants (id, name) VALUES (?, 'dispatch')`, tenant).Error; err != nil {
		t.Fatal(err)
	}
	return dispatcherBundle{db: db, svc: svc, enq: enq, tenant: tenant, cipher: cipher, ctx: ctx}
}

// TestJobDoneOnlyAfterNextStepAndLogAreDurable makes a failing attempt
// while Kafka refuses the next-tier publish a few times: the job must not
// be reported done (committable) until the retry message is published
// and the attempt is in Postgres.
func TestJobDoneOnlyAfterNextStepAndLogAreDurable(t *testing.T) {
	t.Parallel()
	b := setupDispatcher(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) }))
	t.Cleanup(srv.Close)
	if _, _, err := b.svc.CreateEndpoint(b.ctx, b.tenant, delivery.EndpointInput{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.svc.Ingest(b.ctx, b.tenant, delivery.EventInput{Type: "x", Data: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	pub := &flakyPublisher{failures: 3}
	attempts := startAttemptLog(t, b.db)
	ctx, cancel := context.WithCancel(b.ctx)
	t.Cleanup(cancel)
	d := NewDispatcher(b.db, b.cipher, egress.NewSender(egress.AddressPolicy{AllowPrivate: true}, nil), pub, attempts,
		telemetry.NewMetrics(prometheus.NewRegistry()), Config{Policy: RetryPolicy{Scale: 0.001}}, deliverytest.Logger(), nil)
	runDispatcher(t, ctx, d)

	type atDone struct {
		published int
		logged    int
		status    string
	}
	doneCh := make(chan atDone, 1)
	job := b.enq.jobs[0]
	if err := d.Submit(ctx, job, func() {
		var s atDone
		s.published = pub.topics()["retry-30s"]
		_ = b.db.Raw(`SELECT count(*) FROM attempts WHERE delivery_id = ?`, job.DeliveryID).Scan(&s.logged).Error
		_ = b.db.Raw(`SELECT status FROM deliveries WHERE id = ?`, job.DeliveryID).Scan(&s.status).Error
		doneCh <- s
	}); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-doneCh:
		if s.published != 1 || s.logged != 1 || s.status != "retrying" {
			t.Fatalf("when the job was done: %d retry messages published, %d attempts logged, status %q; want 1, 1, retrying",
				s.published, s.logged, s.status)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("job never done")
	}

	// The same job again (a redelivery) is skipped: no second request.
	before := pub.topics()["retry-30s"]
	again := make(chan struct{})
	if err := d.Submit(ctx, job, func() { close(again) }); err != nil {
		t.Fatal(err)
	}
	select {
	case <-again:
	case <-time.After(10 * time.Second):
		t.Fatal("duplicate job never done")
	}
	var n int
	_ = b.db.Raw(`SELECT count(*) FROM attempts WHERE delivery_id = ?`, job.DeliveryID).Scan(&n).Error
	if n != 1 || pub.topics()["retry-30s"] != before {
		t.Errorf("a redelivered job made another attempt (%d attempts logged)", n)
	}
}

// TestJobNotMatchingItsDeliveryRowIsNeverSent: the tenant and endpoint
// come from the delivery row; a Kafka job naming others is skipped.
func TestJobNotMatchingItsDeliveryRowIsNeverSent(t *testing.T) {
	t.Parallel()
	b := setupDispatcher(t)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	if _, _, err := b.svc.CreateEndpoint(b.ctx, b.tenant, delivery.EndpointInput{URL: srv.URL}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.svc.Ingest(b.ctx, b.tenant, delivery.EventInput{Type: "x", Data: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	attempts := startAttemptLog(t, b.db)
	ctx, cancel := context.WithCancel(b.ctx)
	t.Cleanup(cancel)
	d := NewDispatcher(b.db, b.cipher, egress.NewSender(egress.AddressPolicy{AllowPrivate: true}, nil), &fakePublisher{}, attempts,
		telemetry.NewMetrics(prometheus.NewRegistry()), Config{Policy: RetryPolicy{Scale: 0.001}}, deliverytest.Logger(), nil)
	runDispatcher(t, ctx, d)
	for name, forge := range map[string]func(*model.Job){
		"other tenant":   func(j *model.Job) { j.TenantID = uuid.New() },
		"other endpoint": func(j *model.Job) { j.EndpointID = uuid.New() },
	} {
		job := b.enq.all()[0]
		forge(&job)
		done := make(chan struct{})
		if err := d.Submit(ctx, job, func() { close(done) }); err != nil {
			t.Fatal(err)
		}
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: forged job never done", name)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("forged jobs reached the receiver %d times", n)
	}
}
