package delivery

import (
	"context"
	"testing"
	"time"
)

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
