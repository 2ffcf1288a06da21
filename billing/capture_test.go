package billing

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
)

func TestCapturedBytesMetering(t *testing.T) {
	t.Parallel()
	b := setup(t)
	now := b.clock.Now()
	a, other := b.tenant(t, PlanPro, now.AddDate(0, -1, 0)), b.tenant(t, PlanFree, now.AddDate(0, -1, 0))
	b.override(t, a, PlanPro, map[string]any{"max_sources": 7, "captured_bytes_per_month": 5000})

	require.NoError(t, b.svc.MeterCapturedBytes(b.ctx, map[uuid.UUID]int64{a: 1200, other: 10}, now))
	require.NoError(t, b.svc.MeterCapturedBytes(b.ctx, map[uuid.UUID]int64{a: 300}, now))
	// A tenant deleted since it captured does not fail the others' flush.
	require.NoError(t, b.svc.MeterCapturedBytes(b.ctx, map[uuid.UUID]int64{a: 1, uuid.New(): 99}, now))
	// Last month's bytes are last month's.
	require.NoError(t, b.svc.MeterCapturedBytes(b.ctx, map[uuid.UUID]int64{a: 1 << 20}, now.AddDate(0, -1, 0)))

	terms, err := b.svc.CaptureTerms(b.ctx, a)
	require.NoError(t, err)
	require.Equal(t, CaptureTerms{MaxSources: 7, CapturedBytesPerMonth: 5000, CapturedBytes: 1501,
		MonthEnds: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}, terms)
	terms, err = b.svc.CaptureTerms(b.ctx, other)
	require.NoError(t, err)
	require.Equal(t, int64(10), terms.CapturedBytes)
	require.Equal(t, 3, terms.MaxSources)
}
