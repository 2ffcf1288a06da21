package dispatch

import (
	"testing"
	"time"
)

func fixedRand(v float64) func() float64 { return func() float64 { return v } }

// TestRetryBaseDelays checks min(30 s · 2^(n-1), 8 h).
func TestRetryBaseDelays(t *testing.T) {
	t.Parallel()
	want := []time.Duration{30 * time.Second, time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute,
		16 * time.Minute, 32 * time.Minute, 64 * time.Minute, 128 * time.Minute, 256 * time.Minute,
		8 * time.Hour, 8 * time.Hour, 8 * time.Hour}
	p := RetryPolicy{Scale: 1}
	for i, w := range want {
		if got := p.BaseDelay(i + 1); got != w {
			t.Errorf("BaseDelay(%d) = %s, want %s", i+1, got, w)
		}
	}
	if got := p.BaseDelay(1000); got != 8*time.Hour {
		t.Errorf("BaseDelay(1000) = %s, want the 8h cap", got)
	}
}

// TestRetryJitterOnlyShortens checks the jitter takes off up to 20 % and
// never adds.
func TestRetryJitterOnlyShortens(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		r    float64
		n    int
		want time.Duration
	}{
		{0, 1, 30 * time.Second},
		{0.5, 1, 27 * time.Second},
		{0.999999, 1, 24*time.Second + 6*time.Microsecond},
		{0, 3, 2 * time.Minute},
		{0.25, 3, 2*time.Minute - 6*time.Second},
		{1 - 1e-12, 11, 8*time.Hour - 96*time.Minute},
	} {
		p := RetryPolicy{Scale: 1, Rand: fixedRand(c.r)}
		due, exhausted := p.Next(c.n, now, now, 0)
		got := due.Sub(now)
		if exhausted {
			t.Errorf("n=%d r=%v: exhausted", c.n, c.r)
		}
		if d := got - c.want; d < -time.Millisecond || d > time.Millisecond {
			t.Errorf("n=%d r=%v: delay %s, want %s", c.n, c.r, got, c.want)
		}
		base := p.BaseDelay(c.n)
		if got > base || got < base*8/10 {
			t.Errorf("n=%d r=%v: delay %s outside [0.8, 1]×%s", c.n, c.r, got, base)
		}
	}
}

// TestRetryAfterHonouredWhenLonger checks Retry-After wins only when
// longer than the jittered delay, and is capped at 8 h.
func TestRetryAfterHonouredWhenLonger(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)
	p := RetryPolicy{Scale: 1, Rand: fixedRand(0)}
	for _, c := range []struct {
		n          int
		retryAfter time.Duration
		want       time.Duration
	}{
		{1, 10 * time.Second, 30 * time.Second},
		{1, 5 * time.Minute, 5 * time.Minute},
		{3, time.Minute, 2 * time.Minute},
		{1, 24 * time.Hour, 8 * time.Hour},
	} {
		due, _ := p.Next(c.n, now, now, c.retryAfter)
		if got := due.Sub(now); got != c.want {
			t.Errorf("n=%d Retry-After %s: delay %s, want %s", c.n, c.retryAfter, got, c.want)
		}
	}
}

// TestRetryExhaustsAfterWindow checks retries stop when the next attempt
// would fall more than 72 h after the first.
func TestRetryExhaustsAfterWindow(t *testing.T) {
	t.Parallel()
	first := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	p := RetryPolicy{Scale: 1, Rand: fixedRand(0)}
	if _, ex := p.Next(12, first, first.Add(64*time.Hour), 0); ex {
		t.Error("64h + 8h = 72h is not beyond the window, must not be exhausted")
	}
	if _, ex := p.Next(12, first, first.Add(64*time.Hour+time.Second), 0); !ex {
		t.Error("64h1s + 8h is beyond 72h, must be exhausted")
	}
	// Walking the whole schedule without jitter: 1 + 10 doubling retries
	// reach 8h31m30s; then 7 retries of 8 h fit into 72 h.
	now, attempts := first, 1
	for {
		due, ex := p.Next(attempts, first, now, 0)
		if ex {
			break
		}
		now, attempts = due, attempts+1
	}
	if attempts != 18 {
		t.Errorf("without jitter a delivery gets %d attempts in 72h, want 18", attempts)
	}
	if now.Sub(first) > 72*time.Hour {
		t.Errorf("last attempt %s after the first, beyond 72h", now.Sub(first))
	}
}

// TestRetryScaleAppliesToEverything checks FERRY_RETRY_SCALE scales the
// delays, the jitter, the window and Retry-After.
func TestRetryScaleAppliesToEverything(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC)
	p := RetryPolicy{Scale: 0.001, Rand: fixedRand(0.5)}
	if got := p.BaseDelay(1); got != 30*time.Millisecond {
		t.Errorf("scaled BaseDelay(1) = %s, want 30ms", got)
	}
	if got := p.Window(); got != 72*time.Hour/1000 {
		t.Errorf("scaled window = %s", got)
	}
	due, _ := p.Next(1, now, now, 0)
	if got := due.Sub(now); got != 27*time.Millisecond {
		t.Errorf("scaled jittered delay = %s, want 27ms", got)
	}
	due, _ = p.Next(1, now, now, 100*time.Second)
	if got := due.Sub(now); got != 100*time.Millisecond {
		t.Errorf("scaled Retry-After = %s, want 100ms", got)
	}
	if _, ex := p.Next(5, now, now.Add(72*time.Hour/1000), 0); !ex {
		t.Error("scaled window not applied")
	}
	for i, tier := range p.Tiers() {
		if tier.Delay != p.BaseDelay(i+1) {
			t.Errorf("tier %s delay %s, want %s", tier.Name, tier.Delay, p.BaseDelay(i+1))
		}
	}
}

// TestRetryDefaultRandomStaysInBounds checks the default random source.
func TestRetryDefaultRandomStaysInBounds(t *testing.T) {
	t.Parallel()
	now := time.Now()
	p := RetryPolicy{Scale: 1}
	for i := 0; i < 1000; i++ {
		n := i%12 + 1
		due, _ := p.Next(n, now, now, 0)
		if d := due.Sub(now); d > p.BaseDelay(n) || d < p.BaseDelay(n)*8/10 {
			t.Fatalf("attempt %d: delay %s outside [0.8, 1]×%s", n, d, p.BaseDelay(n))
		}
	}
}

// TestTierFor checks every delay the policy can produce lands in a tier
// whose read-ahead never exceeds it (so tier consumers may read ahead),
// and the nominal delays land in their own tier.
func TestTierFor(t *testing.T) {
	t.Parallel()
	p := RetryPolicy{Scale: 1}
	tiers := p.Tiers()
	if len(tiers) != 11 || tiers[0].Name != "retry-30s" || tiers[len(tiers)-1].Name != "retry-8h" {
		t.Fatalf("tiers = %+v", tiers)
	}
	for n := 1; n <= 11; n++ {
		if got := TierFor(tiers, p.BaseDelay(n)); got != tiers[n-1] {
			t.Errorf("delay %s went to %s, want %s", p.BaseDelay(n), got.Name, tiers[n-1].Name)
		}
		for _, r := range []float64{0, 0.3, 0.999} {
			d, _ := RetryPolicy{Scale: 1, Rand: fixedRand(r)}.Next(n, time.Time{}, time.Time{}, 0)
			tier := TierFor(tiers, d.Sub(time.Time{}))
			if tier.ReadAheadDelay() > d.Sub(time.Time{}) {
				t.Errorf("n=%d r=%v: tier %s reads ahead %s past the %s delay", n, r, tier.Name, tier.ReadAheadDelay(), d.Sub(time.Time{}))
			}
		}
	}
	if got := TierFor(tiers, time.Second); got.Name != "retry-30s" {
		t.Errorf("a 1s delay went to %s, want the first tier", got.Name)
	}
	if got := TierFor(tiers, 5*time.Minute); got.Name != "retry-4m" {
		t.Errorf("a 5m Retry-After went to %s, want retry-4m", got.Name)
	}
}
