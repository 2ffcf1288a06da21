package outbox

import (
	"log/slog"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/internal/clock"
)

// TestSweepCutoffSparesRowsOfABusyRelay: while this relay still holds
// jobs, the sweeper leaves rows created since it became busy (they are on
// their way through it) unless they are older than sweepMaxAge.
func TestSweepCutoffSparesRowsOfABusyRelay(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	r := NewRelay(nil, nil, RelayConfig{SweepAfter: 2 * time.Second}, slog.New(slog.DiscardHandler), clock.NewManual(now))
	for _, c := range []struct {
		name      string
		pending   int64
		busySince time.Time
		want      time.Time
	}{
		{"idle", 0, now.Add(-time.Minute), now.Add(-2 * time.Second)},
		{"busy for a minute", 5, now.Add(-time.Minute), now.Add(-time.Minute - time.Second)},
		{"busy just now", 5, now.Add(-100 * time.Millisecond), now.Add(-2 * time.Second)},
		{"busy for an hour", 5, now.Add(-time.Hour), now.Add(-sweepMaxAge)},
	} {
		r.pending.Store(c.pending)
		r.busySince.Store(c.busySince.UnixNano())
		if got := r.sweepCutoff(); !got.Equal(c.want) {
			t.Errorf("%s: cutoff %s, want %s", c.name, got, c.want)
		}
	}
}
