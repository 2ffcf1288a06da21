package attemptlog_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/internal/seal"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/opevents"
)

// discardRelay drops what ingest would publish: the benchmark needs only
// the committed deliveries.
type discardRelay struct{}

func (discardRelay) Enqueue([]model.Job) {}

func newService(b *testing.B, db *gorm.DB) *delivery.Service {
	b.Helper()
	c, _ := seal.New(bytes.Repeat([]byte{1}, 32))
	s, err := delivery.NewService(db, c, discardRelay{}, nil, delivery.Config{}, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// seedTenant creates a tenant with one endpoint subscribed to every type.
func seedTenant(b *testing.B, db *gorm.DB) (uuid.UUID, []uuid.UUID) {
	b.Helper()
	tenantID, endpointID := uuid.New(), uuid.New()
	if err := db.Exec(`INSERT INTO tenants (id, name) VALUES (?, 'bench')`, tenantID).Error; err != nil {
		b.Fatal(err)
	}
	if err := db.Exec(`INSERT INTO endpoints (id, tenant_id, url) VALUES (?, ?, 'http://127.0.0.1:1/')`, endpointID, tenantID).Error; err != nil {
		b.Fatal(err)
	}
	return tenantID, []uuid.UUID{endpointID}
}

// BenchmarkAttemptLog measures the attempt-log batch writer on real
// PostgreSQL (FERRY_TEST_DATABASE_URL): 64 concurrent writers, as lanes
// are, each waiting for its attempt's commit; COPY into the partitioned
// table, the delivery update and endpoint health in one transaction per
// batch. Reports attempts/s.
func BenchmarkAttemptLog(b *testing.B) {
	db := deliverytest.DB(b)
	log := slog.New(slog.DiscardHandler)
	if err := attemptlog.NewPartitions(db, attemptlog.PartitionConfig{}, log, nil).Maintain(context.Background()); err != nil {
		b.Fatal(err)
	}
	tenantID, eps := seedTenant(b, db)
	s := newService(b, db)
	// Real deliveries, so the batch's UPDATE finds its rows.
	const deliveries = 2000
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range deliveries / 50 {
				if _, _, err := s.Ingest(context.Background(), tenantID, delivery.EventInput{Type: "t", Data: []byte(`{"a":1}`)}); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	var rows []struct {
		ID      uuid.UUID
		EventID uuid.UUID
	}
	if err := db.Raw(`SELECT id, event_id FROM deliveries`).Scan(&rows).Error; err != nil || len(rows) == 0 {
		b.Fatalf("load deliveries: %v (%d)", err, len(rows))
	}
	l := attemptlog.New(db, attemptlog.Config{Events: opevents.NewEmitter(db, nil, nil, nil, log, nil)}, log, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { _ = l.Run(ctx); close(done) }()
	b.Cleanup(func() { cancel(); <-done })

	headers := http.Header{"Content-Type": {"application/json"}, "Webhook-Id": {"x"}, "Webhook-Signature": {"v1,abc"}}
	status := 200
	var seq atomic.Int64
	b.Run("concurrent-64", func(b *testing.B) {
		b.SetParallelism(32) // 32 × GOMAXPROCS(2) concurrent writers, as lanes are
		b.ReportAllocs()
		start := time.Now()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				row := rows[int(seq.Add(1))%len(rows)]
				rec := attemptlog.Record{TenantID: tenantID, Status: model.StatusSucceeded, FirstAttemptAt: time.Now().UTC(), Attempt: model.Attempt{
					ID: uuid.New(), DeliveryID: row.ID, EventID: row.EventID, EndpointID: eps[0], AttemptNumber: 1,
					Trigger: model.TriggerInitial, StartedAt: time.Now().UTC(), DurationMs: 3, RequestHeaders: headers,
					ResponseStatus: &status, ResponseBody: "ok", Outcome: model.OutcomeSuccess,
				}}
				if err := l.Record(context.Background(), rec); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "attempts/s")
	})
}
