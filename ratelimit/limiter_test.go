package ratelimit

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// failingLeaser is shared buckets whose database refuses connections.
type failingLeaser struct{}

func (failingLeaser) Lease(context.Context, string, int, int) (int, float64, error) {
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
	}{{"no shared buckets", nil}, {"shared buckets down", failingLeaser{}}} {
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

// gatedLeaser grants every lease in full, each once the test lets it
// through.
type gatedLeaser struct {
	gate  chan struct{}
	calls atomic.Int32
	mu    sync.Mutex
	wants []int
}

func (g *gatedLeaser) Lease(ctx context.Context, _ string, _, want int) (int, float64, error) {
	g.calls.Add(1)
	g.mu.Lock()
	g.wants = append(g.wants, want)
	g.mu.Unlock()
	select {
	case <-g.gate:
		return want, 50, nil
	case <-ctx.Done():
		return 0, 0, ctx.Err()
	}
}

// waitCalls waits up to 5 s for n leases to have been asked for, and
// returns how many were.
func (g *gatedLeaser) waitCalls(n int32) int32 {
	deadline := time.Now().Add(5 * time.Second)
	for g.calls.Load() < n && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	return g.calls.Load()
}

// takeAsync runs a take and reports whether it was admitted.
func takeAsync(l *Limiter, key string, perSecond int) <-chan bool {
	done := make(chan bool, 1)
	go func() {
		_, wait := l.Take(context.Background(), key, perSecond)
		done <- wait == 0
	}()
	return done
}

// A steady key's requests do not wait for the database: its batch is
// topped up in the background while what is left of it is spent. Only
// a request that finds the batch spent waits, for the lease in flight
// (not a lease of its own).
func TestLimiterTopsUpAhead(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC)
	var clock sync.Mutex
	g := &gatedLeaser{gate: make(chan struct{})}
	l := NewLimiter(g, "test", nil)
	l.SetClock(func() time.Time { clock.Lock(); defer clock.Unlock(); return now })
	// 100 a second: batches of 5.
	first := takeAsync(l, "a", 100)
	g.gate <- struct{}{}
	if !<-first {
		t.Fatal("the first take was refused")
	}
	// Four left: spending them starts a top-up when fewer than half
	// are left, and none of them waits for it.
	for i := range 4 {
		select {
		case ok := <-takeAsync(l, "a", 100):
			if !ok {
				t.Fatalf("take %d of the first batch refused", i+2)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("take %d of the first batch waited for the database", i+2)
		}
	}
	if n := g.waitCalls(2); n != 2 {
		t.Fatalf("%d leases asked for after spending a batch of 5; want the first and one top-up", n)
	}
	// The batch is spent: the next two wait for the top-up in flight.
	sixth, seventh := takeAsync(l, "a", 100), takeAsync(l, "a", 100)
	select {
	case <-sixth:
		t.Fatal("a take past the batch did not wait for the lease in flight")
	case <-time.After(50 * time.Millisecond):
	}
	g.gate <- struct{}{}
	if !<-sixth || !<-seventh {
		t.Fatal("takes waiting for the top-up were refused")
	}
	g.mu.Lock()
	wants := append([]int(nil), g.wants...)
	g.mu.Unlock()
	if len(wants) != 2 || wants[0] != 5 || wants[1] != 4 {
		t.Errorf("leases asked for %v tokens; want [5 4]: a batch, then the top-up to a batch of what was held", wants)
	}
	// A batch near the end of its life is topped up too, though most
	// of it is left (200 a second: batches of 10); not before.
	first = takeAsync(l, "b", 200)
	g.gate <- struct{}{}
	if !<-first {
		t.Fatal("the first take of b was refused")
	}
	clock.Lock()
	now = now.Add(leaseLife - topUpBeforeExpiry - time.Millisecond)
	clock.Unlock()
	if !<-takeAsync(l, "b", 200) {
		t.Fatal("a take of an ageing batch was refused")
	}
	time.Sleep(20 * time.Millisecond)
	if n := g.calls.Load(); n != 3 {
		t.Errorf("%d leases for a batch with %s to live and 8 of 10 left; want no top-up yet (3)", n, topUpBeforeExpiry+time.Millisecond)
	}
	clock.Lock()
	now = now.Add(2 * time.Millisecond)
	clock.Unlock()
	if !<-takeAsync(l, "b", 200) {
		t.Fatal("a take of an ageing batch was refused")
	}
	if n := g.waitCalls(4); n != 4 {
		t.Errorf("%d leases for a batch about to expire with 7 of 10 left; want a top-up (4)", n)
	}
	g.gate <- struct{}{}
}

// hangingLeaser is shared buckets whose database never answers.
type hangingLeaser struct{ calls atomic.Int32 }

func (h *hangingLeaser) Lease(ctx context.Context, _ string, _, _ int) (int, float64, error) {
	h.calls.Add(1)
	<-ctx.Done()
	return 0, 0, ctx.Err()
}

// When the database hangs, a key's concurrent requests wait for one
// lease's timeout together, then are limited per process for a while
// without asking again: not one timeout per request in a row.
func TestLimiterWaitsOnceForAHungDatabase(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC)
	var clock sync.Mutex
	h := &hangingLeaser{}
	l := NewLimiter(h, "test", nil)
	l.SetClock(func() time.Time { clock.Lock(); defer clock.Unlock(); return now })
	start := time.Now()
	var takes []<-chan bool
	for range 10 {
		takes = append(takes, takeAsync(l, "a", 100))
	}
	for i, c := range takes {
		if !<-c {
			t.Errorf("take %d refused while the database hangs; the process's own bucket has 100", i+1)
		}
	}
	if took := time.Since(start); took > leaseTimeout+time.Second {
		t.Errorf("10 concurrent takes took %s; want one lease timeout (%s)", took, leaseTimeout)
	}
	if !<-takeAsync(l, "a", 100) {
		t.Error("a take after the failure was refused")
	}
	if n := h.calls.Load(); n != 1 {
		t.Errorf("%d leases asked of a hung database; want 1", n)
	}
	clock.Lock()
	now = now.Add(localAfterFailure + time.Millisecond)
	clock.Unlock()
	done := takeAsync(l, "a", 100)
	deadline := time.Now().Add(5 * time.Second)
	for h.calls.Load() != 2 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	if n := h.calls.Load(); n != 2 {
		t.Errorf("%d leases %s after the failure; want the database asked again", n, localAfterFailure)
	}
	<-done
}
