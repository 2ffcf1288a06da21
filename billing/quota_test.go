package billing

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
)

func TestPlansSeeded(t *testing.T) {
	t.Parallel()
	b := setup(t)
	plans, err := b.svc.Plans(b.ctx)
	require.NoError(t, err)
	byName := map[string]Plan{}
	for _, p := range plans {
		byName[p.Name] = p
	}
	free, pro, ent := byName[PlanFree], byName[PlanPro], byName[PlanEnterprise]
	require.Equal(t, Plan{Name: "free", DisplayName: "Free", EventsPerMonth: 10000, MaxEndpoints: 3, RetentionDays: 3,
		EventsPerSecond: 10, HardCap: true, OverageUnitEvents: 10000, Currency: "USD", SelfServe: true,
		MaxSources: 3, CapturedBytesPerMonth: 100 << 20}, free)
	require.Equal(t, Plan{Name: "pro", DisplayName: "Pro", EventsPerMonth: 1000000, MaxEndpoints: 50, RetentionDays: 30,
		EventsPerSecond: 200, BaseFeeMinor: 4900, OverageUnitEvents: 10000, OveragePriceMinor: 100, Currency: "USD", SelfServe: true,
		MaxSources: 50, CapturedBytesPerMonth: 10 << 30}, pro)
	require.False(t, ent.SelfServe)
	require.False(t, ent.HardCap)

	// tenants.plan must name a plan; plans stay editable in the database.
	err = b.db.Exec(`INSERT INTO tenants (id, name, plan) VALUES (gen_random_uuid(), 'x', 'platinum')`).Error
	require.ErrorContains(t, err, "tenants_plan_fkey")
	require.NoError(t, b.db.Exec(`UPDATE plans SET events_per_month = 20000 WHERE name = 'free'`).Error)
	id := b.tenant(t, PlanFree, b.clock.Now())
	e, err := b.svc.Entitlements(b.ctx, id)
	require.NoError(t, err)
	require.EqualValues(t, 20000, e.EventsPerMonth)
}

func TestConsumeEventsHardCap(t *testing.T) {
	eachMeter(t, func(t *testing.T, b *testBundle) {
		b.clock.Set(time.Date(2026, 11, 30, 23, 58, 20, 0, time.UTC))
		id := b.tenant(t, PlanFree, b.clock.Now())
		b.override(t, id, PlanFree, map[string]any{"events_per_month": 5, "events_per_second": 1000})

		for i := range 5 {
			require.NoError(t, b.consume(id, 1), "event %d", i+1)
		}
		err := b.consume(id, 1)
		var fe *ferry.Error
		require.ErrorAs(t, err, &fe)
		require.Equal(t, ferry.EQUOTA, fe.Code)
		require.Equal(t, 100, fe.RetryAfterSeconds, "Retry-After runs to 2026-12-01T00:00Z")
		// A batch that would cross the cap is refused whole.
		require.Equal(t, ferry.EQUOTA, ferry.ErrorCode(b.consume(id, 2)))

		u, err := b.svc.Usage(b.ctx, id, b.clock.Now())
		require.NoError(t, err)
		require.EqualValues(t, 5, u.Events, "refused events roll back with their transaction")

		// The cap is per calendar month: December starts afresh.
		b.clock.Set(time.Date(2026, 12, 1, 0, 0, 1, 0, time.UTC))
		require.NoError(t, b.consume(id, 1))
		o, err := b.svc.Overview(b.ctx, id)
		require.NoError(t, err)
		require.EqualValues(t, 1, o.Usage.Events)
		require.Equal(t, "2026-12", o.Usage.Period)
	})
}

func TestConsumeEventsConcurrentHardCapIsExact(t *testing.T) {
	eachMeter(t, func(t *testing.T, b *testBundle) {
		id := b.tenant(t, PlanFree, b.clock.Now())
		b.override(t, id, PlanFree, map[string]any{"events_per_month": 25, "events_per_second": 100000})

		var wg sync.WaitGroup
		var mu sync.Mutex
		accepted, refused := 0, 0
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 8 {
					err := b.consume(id, 1)
					mu.Lock()
					switch ferry.ErrorCode(err) {
					case "":
						accepted++
					case ferry.EQUOTA:
						refused++
					default:
						t.Errorf("consume: %v", err)
					}
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		require.Equal(t, 25, accepted)
		require.Equal(t, 64-25, refused)
		u, err := b.svc.Usage(b.ctx, id, b.clock.Now())
		require.NoError(t, err)
		require.EqualValues(t, 25, u.Events)
	})
}

func TestConsumeEventsPaidPlanAccruesOverage(t *testing.T) {
	eachMeter(t, func(t *testing.T, b *testBundle) {
		id := b.tenant(t, PlanPro, b.clock.Now())
		b.override(t, id, PlanPro, map[string]any{"events_per_month": 10, "events_per_second": 100000})
		var wg sync.WaitGroup
		for range 5 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 5 {
					if err := b.consume(id, 1); err != nil {
						t.Errorf("paid plan refused an event: %v", err)
					}
				}
			}()
		}
		wg.Wait()
		o, err := b.svc.Overview(b.ctx, id)
		require.NoError(t, err)
		require.EqualValues(t, 25, o.Usage.Events, "the sum over usage slots is exact")
		require.EqualValues(t, 15, o.OverageEvents)
		require.EqualValues(t, 100, o.EstimatedOverageMinor, "15 events over is one started block of 10,000 at 100")
		require.False(t, o.QuotaExhausted)
	})
}

func TestConsumeEventsRateLimit(t *testing.T) {
	eachMeter(t, func(t *testing.T, b *testBundle) {
		id := b.tenant(t, PlanFree, b.clock.Now())
		for i := range 10 {
			require.NoError(t, b.consume(id, 1), "event %d in the second", i+1)
		}
		err := b.consume(id, 1)
		var fe *ferry.Error
		require.ErrorAs(t, err, &fe)
		require.Equal(t, ferry.ERATELIMIT, fe.Code)
		require.Equal(t, 1, fe.RetryAfterSeconds)

		b.clock.Set(b.clock.Now().Add(time.Second))
		require.NoError(t, b.consume(id, 1), "the next second has a fresh window")
		u, err := b.svc.Usage(b.ctx, id, b.clock.Now())
		require.NoError(t, err)
		require.EqualValues(t, 11, u.Events, "a rate-limited event is not metered")

		// Old windows are cleaned up.
		b.clock.Set(b.clock.Now().Add(2 * time.Minute))
		require.NoError(t, b.svc.CleanRateWindows(b.ctx))
		var n int64
		require.NoError(t, b.db.Raw(`SELECT count(*) FROM rate_windows`).Scan(&n).Error)
		require.Zero(t, n)
	})
}

func TestCheckEndpointLimit(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.tenant(t, PlanFree, b.clock.Now())
	check := func() error {
		return b.db.Transaction(func(tx *gorm.DB) error { return b.svc.Meter(dbtx.Wrap(tx)).CheckEndpointLimit(b.ctx, id) })
	}
	eps := b.addEndpoints(t, id, 2)
	require.NoError(t, check())
	b.addEndpoints(t, id, 1)
	err := check()
	var fe *ferry.Error
	require.ErrorAs(t, err, &fe)
	require.Equal(t, ferry.EPLANLIMIT, fe.Code)
	require.Contains(t, fe.Message, "3 endpoints")

	// Deleted endpoints do not count.
	require.NoError(t, b.db.Exec(`UPDATE endpoints SET deleted_at = now() WHERE id = ?`, eps[0]).Error)
	require.NoError(t, check())

	// Another tenant's endpoints do not count either.
	other := b.tenant(t, PlanFree, b.clock.Now())
	b.addEndpoints(t, other, 3)
	require.NoError(t, check())
}

// TestMeterCommitsWithTheCallersTransaction: what a Meter counts rolls
// back with the transaction it was given, as a failed ingest does.
func TestMeterCommitsWithTheCallersTransaction(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.tenant(t, PlanPro, b.clock.Now())
	failed := errors.New("insert events failed")
	err := b.db.WithContext(b.ctx).Transaction(func(tx *gorm.DB) error {
		require.NoError(t, b.svc.Meter(dbtx.Wrap(tx)).ConsumeEvents(b.ctx, id, 5))
		return failed
	})
	require.ErrorIs(t, err, failed)
	u, err := b.svc.Usage(b.ctx, id, b.clock.Now())
	require.NoError(t, err)
	require.Zero(t, u.Events, "the rolled-back ingest is not counted")

	require.NoError(t, b.consume(id, 2))
	u, err = b.svc.Usage(b.ctx, id, b.clock.Now())
	require.NoError(t, err)
	require.EqualValues(t, 2, u.Events)
}

// TestPipelineSaysHowManyFit: a refusal says how many of the events the
// plan would have taken, so that a group commit keeps those and refuses
// only the rest.
func TestPipelineSaysHowManyFit(t *testing.T) {
	t.Parallel()
	b := setup(t)
	perSecond := b.tenant(t, PlanFree, b.clock.Now()) // 10 events/s
	require.NoError(t, b.consume(perSecond, 0))
	_, err := b.consumePipelined(perSecond, 7)
	require.NoError(t, err)
	fits, err := b.consumePipelined(perSecond, 5)
	require.Equal(t, ferry.ERATELIMIT, ferry.ErrorCode(err))
	require.Equal(t, 3, fits)
	fits, err = b.consumePipelined(perSecond, 3)
	require.NoError(t, err)
	require.Equal(t, 3, fits)
	fits, err = b.consumePipelined(perSecond, 2)
	require.Equal(t, ferry.ERATELIMIT, ferry.ErrorCode(err))
	require.Zero(t, fits)

	capped := b.tenant(t, PlanFree, b.clock.Now())
	b.override(t, capped, PlanFree, map[string]any{"events_per_month": 5, "events_per_second": 1000})
	_, err = b.consumePipelined(capped, 4)
	require.NoError(t, err)
	fits, err = b.consumePipelined(capped, 3)
	require.Equal(t, ferry.EQUOTA, ferry.ErrorCode(err))
	require.Equal(t, 1, fits)
	u, err := b.svc.Usage(b.ctx, capped, b.clock.Now())
	require.NoError(t, err)
	require.EqualValues(t, 4, u.Events, "the refused batch rolled back")
}
