package billing

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

// attemptsFixture creates daily attempt partitions around the clock's
// today and inserts attempts.
type attemptsFixture struct {
	b *testBundle
}

func newAttemptsFixture(t *testing.T, b *testBundle, from, to time.Time) attemptsFixture {
	t.Helper()
	for d := from; d.Before(to); d = d.AddDate(0, 0, 1) {
		require.NoError(t, b.db.Exec(fmt.Sprintf(`CREATE TABLE attempts_p%s PARTITION OF attempts FOR VALUES FROM ('%s') TO ('%s')`,
			d.Format("20060102"), d.Format(time.RFC3339), d.AddDate(0, 0, 1).Format(time.RFC3339))).Error)
	}
	return attemptsFixture{b: b}
}

// add inserts n attempts of tenantID started at at.
func (f attemptsFixture) add(t *testing.T, tenantID uuid.UUID, at time.Time, n int) {
	t.Helper()
	require.NoError(t, f.b.db.Exec(`INSERT INTO attempts (id, tenant_id, delivery_id, event_id, endpoint_id, attempt_number,
		trigger, started_at, duration_ms, request_headers, outcome)
		SELECT gen_random_uuid(), ?, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 1, 'initial', ?, 5, '{}', 'success'
		FROM generate_series(1, ?)`, tenantID, at, n).Error)
}

func (f attemptsFixture) count(t *testing.T, tenantID uuid.UUID) int64 {
	t.Helper()
	var n int64
	require.NoError(t, f.b.db.Raw(`SELECT count(*) FROM attempts WHERE tenant_id = ?`, tenantID).Scan(&n).Error)
	return n
}

func TestMeterAttemptsAndPruneByPlanRetention(t *testing.T) {
	t.Parallel()
	b := setup(t)
	now := b.clock.Now() // 2026-11-22 12:00
	f := newAttemptsFixture(t, b, nov(15, 0), nov(23, 0))
	free := b.tenant(t, PlanFree, nov(1, 0))
	pro := b.tenant(t, PlanPro, nov(1, 0))
	custom := b.tenant(t, PlanFree, nov(1, 0))
	b.override(t, custom, PlanFree, map[string]any{"retention_days": 7})

	for _, id := range []uuid.UUID{free, pro, custom} {
		f.add(t, id, now.AddDate(0, 0, -5), 4) // Nov 17
		f.add(t, id, now.Add(-time.Hour), 3)   // Nov 22
	}
	f.add(t, free, now.AddDate(0, 0, -1), 2) // Nov 21

	// The first run meters every day the log may hold, then prunes.
	require.NoError(t, b.svc.RunOnce(b.ctx))
	require.EqualValues(t, 5, f.count(t, free), "free keeps 3 days: Nov 17 is gone")
	require.EqualValues(t, 7, f.count(t, pro), "pro keeps 30 days")
	require.EqualValues(t, 7, f.count(t, custom), "an override keeps 7 days")

	u, err := b.svc.Usage(b.ctx, free, now)
	require.NoError(t, err)
	require.EqualValues(t, 9, u.Attempts, "Nov 17 was counted before it was pruned")

	// Later runs meter from the last final day on: after the workers were
	// down for 4 days, Nov 22's later attempts are still counted before
	// retention removes them.
	f.add(t, free, now.Add(time.Hour), 6) // Nov 22 13:00
	b.clock.Set(now.AddDate(0, 0, 4))     // Nov 26
	newAttemptsFixture(t, b, nov(23, 0), nov(27, 0))
	require.NoError(t, b.svc.RunOnce(b.ctx))
	require.EqualValues(t, 0, f.count(t, free), "everything up to Nov 22 is past free retention")
	u, err = b.svc.Usage(b.ctx, free, now)
	require.NoError(t, err)
	require.EqualValues(t, 15, u.Attempts)

	// Metering a whole month first (what the invoice run does) counts
	// every day still present, and counts never go down after pruning.
	b2 := setup(t)
	f2 := newAttemptsFixture(t, b2, nov(15, 0), nov(23, 0))
	id := b2.tenant(t, PlanFree, nov(1, 0))
	f2.add(t, id, now.AddDate(0, 0, -5), 4)
	f2.add(t, id, now.Add(-time.Hour), 3)
	require.NoError(t, b2.svc.MeterAttempts(b2.ctx, nov(1, 0), nov(23, 0)))
	require.NoError(t, b2.svc.MeterAttempts(b2.ctx, nov(1, 0), nov(23, 0)), "re-metering is idempotent")
	_, err = b2.svc.PruneAttempts(b2.ctx)
	require.NoError(t, err)
	require.EqualValues(t, 3, f2.count(t, id))
	require.NoError(t, b2.svc.MeterAttempts(b2.ctx, nov(1, 0), nov(23, 0)))
	u, err = b2.svc.Usage(b2.ctx, id, now)
	require.NoError(t, err)
	require.EqualValues(t, 7, u.Attempts)

	// The partition job's horizon is the longest retention of any plan.
	days, err := b.svc.MaxRetentionDays(b.ctx)
	require.NoError(t, err)
	require.Equal(t, 30, days)
	b.override(t, pro, PlanPro, map[string]any{"retention_days": 400})
	days, err = b.svc.MaxRetentionDays(b.ctx)
	require.NoError(t, err)
	require.Equal(t, 400, days, "a longer custom retention moves the partition horizon")
}
