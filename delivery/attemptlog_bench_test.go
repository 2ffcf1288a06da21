package delivery

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
)

// BenchmarkAttemptLog measures the attempt-log batch writer on real
// PostgreSQL (FERRY_TEST_DATABASE_URL): 64 concurrent writers, as lanes
// are, each waiting for its attempt's commit; COPY into the partitioned
// table, the delivery update and endpoint health in one transaction per
// batch. Reports attempts/s.
func BenchmarkAttemptLog(b *testing.B) {
	db := openTestDB(b)
	log := slog.New(slog.DiscardHandler)
	if err := NewPartitions(db, PartitionConfig{}, log, nil).Maintain(context.Background()); err != nil {
		b.Fatal(err)
	}
	tenantID, eps := seedTenant(b, db, nil)
	s := newTestService(b, db, &collectingRelay{}, nil)
	// Real deliveries, so the batch's UPDATE finds its rows.
	const deliveries = 2000
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range deliveries / 50 {
				if _, _, err := s.Ingest(context.Background(), tenantID, EventInput{Type: "t", Data: []byte(`{"a":1}`)}); err != nil {
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
	l := NewAttemptLog(db, AttemptLogConfig{}, log)
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
				rec := attemptRecord{TenantID: tenantID, Status: StatusSucceeded, FirstAttemptAt: time.Now().UTC(), Attempt: Attempt{
					ID: uuid.New(), DeliveryID: row.ID, EventID: row.EventID, EndpointID: eps[0], AttemptNumber: 1,
					Trigger: TriggerInitial, StartedAt: time.Now().UTC(), DurationMs: 3, RequestHeaders: headers,
					ResponseStatus: &status, ResponseBody: "ok", Outcome: OutcomeSuccess,
				}}
				if err := l.record(context.Background(), rec); err != nil {
					b.Error(err)
					return
				}
			}
		})
		b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "attempts/s")
	})
}

// BenchmarkIngest measures Service.Ingest on real PostgreSQL with 64
// concurrent callers (group commit) and one (no sharing possible), one
// endpoint per event. Reports events/s.
func BenchmarkIngest(b *testing.B) {
	db := openTestDB(b)
	tenantID, _ := seedTenant(b, db, nil)
	s := newTestService(b, db, &collectingRelay{}, nil)
	in := EventInput{Type: "invoice.paid", Data: []byte(`{"amount":4200}`)}
	for _, par := range []int{1, 64} {
		b.Run(map[int]string{1: "serial", 64: "concurrent-64"}[par], func(b *testing.B) {
			b.SetParallelism(max(1, par/2))
			b.ReportAllocs()
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if _, _, err := s.Ingest(context.Background(), tenantID, in); err != nil {
						b.Fatal(err)
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "events/s")
		})
	}
}
