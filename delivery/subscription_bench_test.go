package delivery

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
)

// BenchmarkIngestSubscriptions measures ingest of an order.created event
// for a tenant with one subscribed endpoint, alone and beside 1,000
// endpoints subscribed to other types (exact and wildcard) or 200
// endpoints subscribed by wildcard whose filter rejects the event, or with
// its one endpoint's JavaScript transformation run on each event (and
// stored) at fan-out.
// Reports events/s, serial (one event per transaction) and with 64
// concurrent callers (group commit).
func BenchmarkIngestSubscriptions(b *testing.B) {
	db := openTestDB(b)
	s := newTestService(b, db, &collectingRelay{}, nil)
	seed := func(b *testing.B, others int, types, filter, transformation string) uuid.UUID {
		tenantID, _ := seedTenant(b, db, []string{"order.created"})
		if transformation != "" {
			if err := db.Exec(`UPDATE endpoints SET transformation = ? WHERE tenant_id = ?`, transformation, tenantID).Error; err != nil {
				b.Fatal(err)
			}
		}
		if others > 0 {
			err := db.Exec(`INSERT INTO endpoints (id, tenant_id, url, event_types, filter)
				SELECT gen_random_uuid(), ?, 'http://127.0.0.1:1/', replace(?, 'N', g::text)::jsonb, ?
				FROM generate_series(1, ?) g`, tenantID, types, filter, others).Error
			if err != nil {
				b.Fatal(err)
			}
		}
		return tenantID
	}
	setups := []struct {
		name                          string
		others                        int
		types, filter, transformation string
	}{
		{"1-endpoint", 0, "", "", ""},
		{"1000-other-endpoints", 1000, `["other.N.created", "other.N.*", "otherN*"]`, "", ""},
		{"200-filtered-endpoints", 200, `["order.*"]`, "event.data.amount > 1000000", ""},
		{"1-transformed-endpoint", 0, "", "", `function handler(webhook) {
			webhook.payload = {text: "Order " + webhook.event.id + ": " + webhook.event.data.amount};
			webhook.headers["X-Kind"] = "slack";
			return webhook;
		}`},
	}
	in := EventInput{Type: "order.created", Data: []byte(`{"amount":4200}`)}
	for _, st := range setups {
		tenantID := seed(b, st.others, st.types, st.filter, st.transformation)
		db.Exec(`ANALYZE endpoints`)
		for _, par := range []int{1, 64} {
			b.Run(st.name+map[int]string{1: "/serial", 64: "/concurrent-64"}[par], func(b *testing.B) {
				b.SetParallelism(max(1, par/2))
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
}
