package dispatch

import (
	"math/rand/v2"
	"time"
)

// The retry schedule of docs/delivery.md, before scaling.
const (
	firstRetryDelay = 30 * time.Second
	maxRetryDelay   = 8 * time.Hour
	retryWindow     = 72 * time.Hour
	maxJitter       = 0.2
)

// RetryPolicy computes when a failed delivery is tried again. Scale
// multiplies every duration (FERRY_RETRY_SCALE) so tests can run the whole
// schedule in seconds.
type RetryPolicy struct {
	Scale float64
	// Rand returns a number in [0, 1); nil uses math/rand/v2.
	Rand func() float64
}

func (p RetryPolicy) scale(d time.Duration) time.Duration {
	if p.Scale <= 0 || p.Scale == 1 {
		return d
	}
	return time.Duration(float64(d) * p.Scale)
}

// BaseDelay is the delay before retry n (n ≥ 1) without jitter:
// min(30 s · 2^(n-1), 8 h), scaled.
func (p RetryPolicy) BaseDelay(n int) time.Duration {
	d := maxRetryDelay
	if n < 20 {
		d = min(firstRetryDelay<<(n-1), maxRetryDelay)
	}
	return p.scale(d)
}

// Window is how long after the first attempt retries may continue.
func (p RetryPolicy) Window() time.Duration { return p.scale(retryWindow) }

// Next returns when retry n (the retry after the n-th attempt failed) is
// due. retryAfter is the receiver's Retry-After (unscaled, 0 when absent);
// it wins when longer, up to the cap. exhausted is true when that time
// falls beyond the window after firstAttempt.
func (p RetryPolicy) Next(n int, firstAttempt, now time.Time, retryAfter time.Duration) (due time.Time, exhausted bool) {
	random := p.Rand
	if random == nil {
		random = rand.Float64
	}
	base := p.BaseDelay(n)
	delay := base - time.Duration(float64(base)*maxJitter*random())
	if ra := p.scale(min(retryAfter, maxRetryDelay)); ra > delay {
		delay = ra
	}
	due = now.Add(delay)
	return due, due.After(firstAttempt.Add(p.Window()))
}

// Tier is a retry topic with a fixed delay.
type Tier struct {
	// Name is the topic's suffix, e.g. "retry-30s"; it names the nominal
	// delay and stays the same under scaling.
	Name  string
	Delay time.Duration // scaled
}

// Tiers returns the retry tiers: one per step of the schedule, up to the
// 8 h cap.
func (p RetryPolicy) Tiers() []Tier {
	names := []string{"retry-30s", "retry-1m", "retry-2m", "retry-4m", "retry-8m", "retry-16m",
		"retry-32m", "retry-64m", "retry-128m", "retry-256m", "retry-8h"}
	tiers := make([]Tier, len(names))
	for i, name := range names {
		tiers[i] = Tier{Name: name, Delay: p.BaseDelay(i + 1)}
	}
	return tiers
}

// TierFor picks the tier for a message due after delay: the longest tier
// whose shortest jittered delay (80 %) does not exceed it. Every message in
// a tier is then due no sooner than 80 % of the tier's delay after it was
// enqueued, which lets tier consumers read ahead safely.
func TierFor(tiers []Tier, delay time.Duration) Tier {
	chosen := tiers[0]
	for _, t := range tiers {
		if time.Duration(float64(t.Delay)*(1-maxJitter)) <= delay {
			chosen = t
		}
	}
	return chosen
}

// ReadAheadDelay is how long after a message was enqueued into t no later
// message of t can yet be due.
func (t Tier) ReadAheadDelay() time.Duration {
	return time.Duration(float64(t.Delay) * (1 - maxJitter))
}
