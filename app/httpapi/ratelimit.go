package httpapi

import (
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"golang.org/x/time/rate"

	"github.com/ferry-dev/ferry"
)

// tenantLimiter is a per-tenant rate limit: a token bucket per tenant in
// this process (rate and burst = the limit per second). With N API
// replicas a tenant may get up to N times the limit. The API as a whole
// has one; test-routing, which runs code on demand, a stricter one of its
// own.
type tenantLimiter struct {
	perSecond int
	message   string // the 429's message
	mu        sync.Mutex
	buckets   map[uuid.UUID]*rate.Limiter
	now       func() time.Time
}

// maxBuckets bounds memory; past it idle buckets are forgotten (a full
// bucket is what a new one starts with anyway).
const maxBuckets = 100_000

func newTenantLimiter(perSecond int) *tenantLimiter {
	return newLimiter(perSecond, "too many API requests for this tenant; slow down")
}

// newTestRoutingLimiter limits test-routing requests: each may run a
// transformation for up to its deadline.
func newTestRoutingLimiter(perSecond int) *tenantLimiter {
	return newLimiter(perSecond, "too many routing tests for this tenant; slow down")
}

func newLimiter(perSecond int, message string) *tenantLimiter {
	return &tenantLimiter{perSecond: perSecond, message: message, buckets: map[uuid.UUID]*rate.Limiter{}, now: time.Now}
}

// bucket returns tenantID's bucket, made full on first use.
func (l *tenantLimiter) bucket(tenantID uuid.UUID) *rate.Limiter {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[tenantID]
	if !ok {
		if len(l.buckets) >= maxBuckets {
			now := l.now()
			for id, old := range l.buckets {
				if old.TokensAt(now) >= float64(old.Burst()) {
					delete(l.buckets, id)
				}
			}
		}
		b = rate.NewLimiter(rate.Limit(l.perSecond), l.perSecond)
		l.buckets[tenantID] = b
	}
	return b
}

// allow takes a token for tenantID or returns ERATELIMIT with the wait
// until the next token as Retry-After. A limit of 0 disables it.
func (l *tenantLimiter) allow(tenantID uuid.UUID) error {
	if l == nil || l.perSecond <= 0 {
		return nil
	}
	return l.take(l.bucket(tenantID))
}

// admit is allow for a request, which also learns where it stands:
// RateLimit-Limit (requests per second), RateLimit-Remaining (requests it
// may make at once now) and RateLimit-Reset (seconds until the bucket is
// full again), refused or not.
func (l *tenantLimiter) admit(c *fiber.Ctx, tenantID uuid.UUID) error {
	if l == nil || l.perSecond <= 0 {
		return nil
	}
	b := l.bucket(tenantID)
	err := l.take(b)
	tokens := max(0, b.TokensAt(l.now()))
	c.Set("RateLimit-Limit", strconv.Itoa(l.perSecond))
	c.Set("RateLimit-Remaining", strconv.Itoa(int(math.Floor(tokens))))
	c.Set("RateLimit-Reset", strconv.Itoa(int(math.Ceil((float64(l.perSecond)-tokens)/float64(l.perSecond)))))
	return err
}

func (l *tenantLimiter) take(b *rate.Limiter) error {
	now := l.now()
	r := b.ReserveN(now, 1)
	if delay := r.DelayFrom(now); delay > 0 {
		r.CancelAt(now)
		return &ferry.Error{Code: ferry.ERATELIMIT,
			Message:           l.message,
			RetryAfterSeconds: max(1, int(math.Ceil(delay.Seconds())))}
	}
	return nil
}
