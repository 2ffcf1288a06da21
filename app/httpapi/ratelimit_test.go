package httpapi

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
)

func TestTenantLimiter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)
	l := newTenantLimiter(3, nil, nil)
	l.buckets.SetClock(func() time.Time { return now })
	a, b := uuid.New(), uuid.New()
	for i := range 3 {
		if err := l.allow(ctx, a); err != nil {
			t.Fatalf("request %d refused: %v", i+1, err)
		}
	}
	err := l.allow(ctx, a)
	var fe *ferry.Error
	if !errors.As(err, &fe) || fe.Code != ferry.ERATELIMIT || fe.RetryAfterSeconds != 1 {
		t.Fatalf("4th request: %v, want rate_limited with Retry-After 1", err)
	}
	if err := l.allow(ctx, b); err != nil {
		t.Errorf("another tenant was limited: %v", err)
	}
	now = now.Add(400 * time.Millisecond) // one token back
	if err := l.allow(ctx, a); err != nil {
		t.Errorf("after a refill: %v", err)
	}
	if err := l.allow(ctx, a); err == nil {
		t.Error("refill gave more than one token")
	}
	if err := newTenantLimiter(0, nil, nil).allow(ctx, a); err != nil {
		t.Errorf("limit 0 must mean unlimited: %v", err)
	}
}

// fakeBuckets is one shared token bucket per key on a manual clock.
type fakeBuckets struct {
	mu     sync.Mutex
	now    *time.Time
	tokens map[string]float64
	at     map[string]time.Time
	leases int
	fail   error
}

func (f *fakeBuckets) Lease(_ context.Context, key string, perSecond, want int) (int, float64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return 0, 0, f.fail
	}
	f.leases++
	tokens, ok := f.tokens[key]
	if !ok {
		tokens = float64(perSecond)
	} else {
		tokens = min(float64(perSecond), tokens+f.now.Sub(f.at[key]).Seconds()*float64(perSecond))
	}
	got := min(want, int(tokens))
	f.tokens[key], f.at[key] = tokens-float64(got), *f.now
	return got, tokens - float64(got), nil
}

// count is how many leases were granted; leases run in the background.
func (f *fakeBuckets) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.leases
}

// failWith makes every later lease fail with err.
func (f *fakeBuckets) failWith(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fail = err
}

// With shared buckets, two processes (two limiters) together admit the
// limit, not twice it; each leases a batch at a time, spends it locally,
// drops what it did not spend within a second, and refuses without
// asking while the shared bucket is empty. When the buckets fail, each
// process falls back to its own.
func TestSharedLimiterHoldsAcrossProcesses(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	now := time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)
	shared := &fakeBuckets{now: &now, tokens: map[string]float64{}, at: map[string]time.Time{}}
	a, b := newTenantLimiter(100, shared, nil), newTenantLimiter(100, shared, nil)
	a.buckets.SetClock(func() time.Time { return now })
	b.buckets.SetClock(func() time.Time { return now })
	tenant := uuid.New()
	admitted := 0
	for i := range 400 {
		l := a
		if i%2 == 1 {
			l = b
		}
		if l.allow(ctx, tenant) == nil {
			admitted++
		}
	}
	if admitted != 100 {
		t.Errorf("two processes admitted %d of 400 instant requests; the limit is 100 together", admitted)
	}
	// A batch of 5 is topped up by what was spent of it, 4 tokens.
	if n := shared.count(); n > 100/4+4 {
		t.Errorf("%d leases for 100 requests: the batch is 5 tokens, topped up with one left", n)
	}
	err := a.allow(ctx, tenant)
	var fe *ferry.Error
	if !errors.As(err, &fe) || fe.Code != ferry.ERATELIMIT || fe.RetryAfterSeconds != 1 {
		t.Fatalf("over the limit: %v, want rate_limited with Retry-After 1", err)
	}
	before := shared.count()
	_ = a.allow(ctx, tenant)
	if shared.count() != before {
		t.Error("an empty shared bucket was asked again before it could have a token")
	}
	// Half a second refills half the bucket, shared by both.
	now = now.Add(500 * time.Millisecond)
	admitted = 0
	for i := range 200 {
		l := a
		if i%2 == 1 {
			l = b
		}
		if l.allow(ctx, tenant) == nil {
			admitted++
		}
	}
	if admitted < 45 || admitted > 50 {
		t.Errorf("after half a second: %d admitted, want about 50", admitted)
	}
	// Leased tokens not spent within a second are dropped.
	now = now.Add(2 * time.Second)
	if err := a.allow(ctx, tenant); err != nil {
		t.Fatal(err)
	}
	now = now.Add(1500 * time.Millisecond)
	before = shared.count()
	if err := a.allow(ctx, tenant); err != nil || shared.count() != before+1 {
		t.Errorf("tokens leased 1.5 s ago were spent (err %v, %d leases)", err, shared.count()-before)
	}

	// The shared buckets fail: each process limits alone.
	shared.failWith(errors.New("database down"))
	other := uuid.New()
	for i := range 100 {
		if err := a.allow(ctx, other); err != nil {
			t.Fatalf("request %d refused while the shared buckets fail: %v", i, err)
		}
	}
	if a.allow(ctx, other) == nil {
		t.Error("the per-process fallback admitted more than the limit")
	}
}
