package attemptlog_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/internal/clock"
)

// TestUsage checks what billing reads of the attempt log: attempts per
// tenant in a range, and pruning before each tenant's own cutoff but not
// below the floor.
func TestUsage(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	ctx := context.Background()
	now := time.Now().UTC()
	for _, back := range []time.Duration{0, 2 * 24 * time.Hour, 5 * 24 * time.Hour} {
		if err := attemptlog.NewPartitions(db, attemptlog.PartitionConfig{}, deliverytest.Logger(), clock.NewManual(now.Add(-back))).Maintain(ctx); err != nil {
			t.Fatal(err)
		}
	}
	a, b := deliverytest.Seed(t, db, now), deliverytest.Seed(t, db, now)
	ages := []time.Duration{time.Hour, 2 * 24 * time.Hour, 5 * 24 * time.Hour}
	for _, s := range []deliverytest.Seeded{a, b} {
		for i, age := range ages {
			insertUsageAttempt(t, db, s, i+1, now.Add(-age))
		}
	}
	u := attemptlog.NewUsage(db)

	counts, err := u.CountAttempts(ctx, now.Add(-3*24*time.Hour), now)
	if err != nil {
		t.Fatal(err)
	}
	if len(counts) != 2 || counts[a.TenantID] != 2 || counts[b.TenantID] != 2 {
		t.Errorf("counts of the last 3 days: %v, want 2 for each tenant", counts)
	}

	// a keeps one day; the floor protects the 5-day-old attempt.
	floor := now.Add(-4 * 24 * time.Hour)
	n, err := u.PruneAttempts(ctx, floor, map[uuid.UUID]time.Time{a.TenantID: now.Add(-24 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("pruned %d attempts, want 1", n)
	}
	counts, err = u.CountAttempts(ctx, now.Add(-6*24*time.Hour), now)
	if err != nil {
		t.Fatal(err)
	}
	if counts[a.TenantID] != 2 || counts[b.TenantID] != 3 {
		t.Errorf("after pruning: %v, want a 2 and b 3", counts)
	}

}

func insertUsageAttempt(t *testing.T, db *gorm.DB, s deliverytest.Seeded, number int, at time.Time) {
	t.Helper()
	if err := db.Exec(`INSERT INTO attempts (id, tenant_id, delivery_id, event_id, endpoint_id, attempt_number, trigger,
		started_at, duration_ms, request_headers, outcome) VALUES (?, ?, ?, ?, ?, ?, 'initial', ?, 1, '{}', 'retry')`,
		uuid.New(), s.TenantID, s.DeliveryID, s.EventID, s.EndpointID, number, at).Error; err != nil {
		t.Fatal(err)
	}
}
