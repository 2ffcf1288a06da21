package httpapi

import (
	"context"
	"log/slog"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"golang.org/x/time/rate"

	"github.com/ferry-dev/ferry"
)

// SharedBuckets are token buckets every API process shares, so a
// tenant's limit holds across replicas; *ratelimit.Buckets satisfies it.
type SharedBuckets interface {
	// Lease takes up to want tokens from key's bucket (capacity and
	// refill perSecond) and returns how many it got and how many are
	// left.
	Lease(ctx context.Context, key string, perSecond, want int) (granted int, left float64, err error)
}

// tenantLimiter is a per-tenant rate limit: a token bucket per tenant
// (rate and burst = the limit per second). With shared buckets the
// bucket is in PostgreSQL and holds for all replicas together: each
// process leases a batch of tokens (a twentieth of a second's worth) and
// spends them locally, so the database sees one statement per batch, and
// a tenant may exceed its limit by at most a batch per replica. Without
// them (or while the database does not answer) each process keeps its
// own bucket, and N replicas allow N times the limit. The API as a whole
// has one limiter; test-routing, which runs code on demand, a stricter
// one of its own.
type tenantLimiter struct {
	perSecond int
	key       string // the shared buckets' key prefix
	message   string // the 429's message
	shared    SharedBuckets
	log       *slog.Logger
	now       func() time.Time
	// warned is when the shared buckets' failure was last logged (unix
	// seconds): once a minute is enough.
	warned atomic.Int64

	mu      sync.Mutex
	buckets map[uuid.UUID]*rate.Limiter
	leases  map[uuid.UUID]*lease
}

// lease is a process's share of a tenant's shared bucket.
type lease struct {
	mu     sync.Mutex
	tokens int
	// expires ends unspent tokens, so a process cannot hoard a burst
	// beyond the limit.
	expires time.Time
	// left is what the shared bucket held after the last lease.
	left float64
	// emptyUntil is when the shared bucket, found empty, has a token
	// again: until then requests are refused without asking.
	emptyUntil time.Time
}

// leaseLife is how long leased tokens may be spent.
const leaseLife = time.Second

// maxBuckets bounds memory; past it idle buckets and leases are forgotten
// (a full bucket is what a new one starts with anyway).
const maxBuckets = 100_000

func newTenantLimiter(perSecond int, shared SharedBuckets, log *slog.Logger) *tenantLimiter {
	return newLimiter(perSecond, "api", "too many API requests for this tenant; slow down", shared, log)
}

// newTestRoutingLimiter limits test-routing requests: each may run a
// transformation for up to its deadline.
func newTestRoutingLimiter(perSecond int, shared SharedBuckets, log *slog.Logger) *tenantLimiter {
	return newLimiter(perSecond, "test-routing", "too many routing tests for this tenant; slow down", shared, log)
}

func newLimiter(perSecond int, key, message string, shared SharedBuckets, log *slog.Logger) *tenantLimiter {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &tenantLimiter{perSecond: perSecond, key: key, message: message, shared: shared, log: log, now: time.Now,
		buckets: map[uuid.UUID]*rate.Limiter{}, leases: map[uuid.UUID]*lease{}}
}

// bucket returns tenantID's local bucket, made full on first use.
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

// leaseOf returns tenantID's share of its shared bucket.
func (l *tenantLimiter) leaseOf(tenantID uuid.UUID) *lease {
	l.mu.Lock()
	defer l.mu.Unlock()
	ls, ok := l.leases[tenantID]
	if !ok {
		if len(l.leases) >= maxBuckets {
			now := l.now()
			for id, old := range l.leases {
				if old.mu.TryLock() {
					idle := now.After(old.expires) && now.After(old.emptyUntil)
					old.mu.Unlock()
					if idle {
						delete(l.leases, id)
					}
				}
			}
		}
		ls = &lease{}
		l.leases[tenantID] = ls
	}
	return ls
}

// batch is how many tokens a process leases at once.
func (l *tenantLimiter) batch() int {
	return max(1, l.perSecond/20)
}

// allow takes a token for tenantID or returns ERATELIMIT with the wait
// until the next token as Retry-After. A limit of 0 disables it.
func (l *tenantLimiter) allow(ctx context.Context, tenantID uuid.UUID) error {
	if l == nil || l.perSecond <= 0 {
		return nil
	}
	_, err := l.take(ctx, tenantID)
	return err
}

// admit is allow for a request, which also learns where it stands:
// RateLimit-Limit (requests per second), RateLimit-Remaining (requests it
// may make at once now) and RateLimit-Reset (seconds until the bucket is
// full again), refused or not.
func (l *tenantLimiter) admit(c *fiber.Ctx, tenantID uuid.UUID) error {
	if l == nil || l.perSecond <= 0 {
		return nil
	}
	tokens, err := l.take(c.UserContext(), tenantID)
	tokens = max(0, tokens)
	c.Set("RateLimit-Limit", strconv.Itoa(l.perSecond))
	c.Set("RateLimit-Remaining", strconv.Itoa(int(math.Floor(tokens))))
	c.Set("RateLimit-Reset", strconv.Itoa(int(math.Ceil((float64(l.perSecond)-tokens)/float64(l.perSecond)))))
	return err
}

// take spends a token of tenantID's, leased or local, and returns the
// tokens left.
func (l *tenantLimiter) take(ctx context.Context, tenantID uuid.UUID) (float64, error) {
	if l.shared == nil {
		return l.takeLocal(tenantID)
	}
	ls := l.leaseOf(tenantID)
	ls.mu.Lock()
	defer ls.mu.Unlock()
	now := l.now()
	if ls.tokens > 0 && now.Before(ls.expires) {
		ls.tokens--
		return ls.left + float64(ls.tokens), nil
	}
	if now.Before(ls.emptyUntil) {
		return ls.left, l.refuse(ls.emptyUntil.Sub(now))
	}
	// Concurrent requests of the tenant wait here for this one lease
	// rather than each asking the database.
	lctx, cancel := context.WithTimeout(ctx, time.Second)
	granted, left, err := l.shared.Lease(lctx, l.key+":"+tenantID.String(), l.perSecond, l.batch())
	cancel()
	if err != nil {
		// The database is the API's own dependency: a request that can
		// reach nothing else is limited by this process alone.
		if at := now.Unix(); at-l.warned.Load() >= 60 {
			l.warned.Store(at)
			l.log.Warn("shared rate limit unavailable; limiting per process", "err", err)
		}
		return l.takeLocal(tenantID)
	}
	ls.left = left
	if granted == 0 {
		ls.tokens = 0
		wait := time.Duration((1 - left) / float64(l.perSecond) * float64(time.Second))
		ls.emptyUntil = now.Add(max(wait, time.Millisecond))
		return left, l.refuse(wait)
	}
	ls.tokens, ls.expires = granted-1, now.Add(leaseLife)
	return left + float64(ls.tokens), nil
}

func (l *tenantLimiter) takeLocal(tenantID uuid.UUID) (float64, error) {
	b := l.bucket(tenantID)
	now := l.now()
	r := b.ReserveN(now, 1)
	if delay := r.DelayFrom(now); delay > 0 {
		r.CancelAt(now)
		return b.TokensAt(now), l.refuse(delay)
	}
	return b.TokensAt(now), nil
}

func (l *tenantLimiter) refuse(wait time.Duration) error {
	return &ferry.Error{Code: ferry.ERATELIMIT, Message: l.message,
		RetryAfterSeconds: max(1, int(math.Ceil(wait.Seconds())))}
}
