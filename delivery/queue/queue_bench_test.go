package queue

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkDrainFourConsumers is the service's side of the g-queue
// bench without HTTP: b.N messages queued on one queue, drained by four
// concurrent consumers that each pull batches of 100 and ack them. It
// reports messages pulled and acked per second, and the mean time of a
// pull and of an ack.
func BenchmarkDrainFourConsumers(b *testing.B) {
	tb := setup(b)
	ctx := context.Background()
	if err := tb.db.Exec(`INSERT INTO events (id, tenant_id, type, data, created_at)
		SELECT gen_random_uuid(), ?, 'bench', '{}', ?::timestamptz + g * interval '1 millisecond' FROM generate_series(1, ?::int) g`,
		tb.seed.TenantID, tb.t0, b.N).Error; err != nil {
		b.Fatal(err)
	}
	if err := tb.db.Exec(`INSERT INTO deliveries (id, tenant_id, event_id, endpoint_id, created_at)
		SELECT gen_random_uuid(), tenant_id, id, ?, created_at FROM events WHERE tenant_id = ? AND type = 'bench'`,
		tb.seed.EndpointID, tb.seed.TenantID).Error; err != nil {
		b.Fatal(err)
	}
	if err := tb.db.Exec(`ANALYZE deliveries, events`).Error; err != nil {
		b.Fatal(err)
	}
	hundred := 100
	var done, calls, pullNs, ackNs atomic.Int64
	b.ResetTimer()
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				t0 := time.Now()
				msgs, err := tb.svc.Pull(ctx, tb.seed.TenantID, tb.seed.EndpointID, PullInput{Max: &hundred})
				if err != nil {
					b.Error(err)
					return
				}
				if len(msgs) == 0 {
					return
				}
				t1 := time.Now()
				receipts := make([]string, len(msgs))
				for i, m := range msgs {
					receipts[i] = m.Receipt
				}
				if _, err := tb.svc.Ack(ctx, tb.seed.TenantID, tb.seed.EndpointID, AckInput{Receipts: receipts}); err != nil {
					b.Error(err)
					return
				}
				pullNs.Add(int64(t1.Sub(t0)))
				ackNs.Add(int64(time.Since(t1)))
				calls.Add(1)
				done.Add(int64(len(msgs)))
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	if done.Load() < int64(b.N) {
		b.Fatalf("drained %d of %d", done.Load(), b.N)
	}
	b.ReportMetric(float64(done.Load())/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(pullNs.Load())/1e6/float64(calls.Load()), "ms/pull")
	b.ReportMetric(float64(ackNs.Load())/1e6/float64(calls.Load()), "ms/ack")
	b.ReportMetric(0, "ns/op")
}
