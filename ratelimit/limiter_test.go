package ratelimit

import (
	"context"
	"errors"
	"testing"
	"time"
)

// failingLeaser is shared buckets whose database does not answer.
type failingLeaser struct{ calls int }

func (f *failingLeaser) Lease(context.Context, string, int, int) (int, float64, error) {
	f.calls++
	return 0, 0, errors.New("connection refused")
}

// TestLimiterLocal: without shared buckets (or when they fail) each key
// has a bucket of its own in the process, of perSecond tokens refilled
// perSecond a second, which follows a changed perSecond.
func TestLimiterLocal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, c := range []struct {
		name   string
		shared Leaser
	}{{"no shared buckets", nil}, {"shared buckets down", &failingLeaser{}}} {
		t.Run(c.name, func(t *testing.T) {
			now := time.Date(2026, 11, 27, 13, 0, 0, 0, time.UTC)
			l := NewLimiter(c.shared, "test", nil)
			l.SetClock(func() time.Time { return now })
			for i := range 3 {
				if _, wait := l.Take(ctx, "a", 3); wait != 0 {
					t.Fatalf("take %d of a bucket of 3: refused for %s", i+1, wait)
				}
			}
			if _, wait := l.Take(ctx, "a", 3); wait <= 0 || wait > time.Second/3 {
				t.Errorf("the fourth take of 3 a second: wait %s, want up to a third of a second", wait)
			}
			if _, wait := l.Take(ctx, "b", 3); wait != 0 {
				t.Errorf("another key was refused for %s", wait)
			}
			now = now.Add(time.Second / 3)
			if _, wait := l.Take(ctx, "a", 3); wait != 0 {
				t.Errorf("a third of a second later: refused for %s", wait)
			}
			// A higher rate applies from the take that names it: 0.1 s
			// at 3 a second leaves 0.3 tokens, and the 0.7 missing take
			// 70 ms at 10 a second (not 233 ms at 3).
			now = now.Add(time.Second / 10)
			if _, wait := l.Take(ctx, "a", 10); wait != 70*time.Millisecond {
				t.Errorf("after raising the rate to 10 a second: wait %s, want 70ms", wait)
			}
			now = now.Add(70 * time.Millisecond)
			if _, wait := l.Take(ctx, "a", 10); wait != 0 {
				t.Errorf("70 ms later at 10 a second: refused for %s", wait)
			}
			if _, wait := l.Take(ctx, "a", 0); wait != 0 {
				t.Errorf("a rate of 0 refused for %s; it is no limit", wait)
			}
		})
	}
}
