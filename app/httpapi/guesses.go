package httpapi

import (
	"crypto/sha256"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v2"
	"golang.org/x/time/rate"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/internal/ttlcache"
)

// Credentials that arrive without a session are looked up by their hash:
// an ingest token in /in/<token>, an API key (Bearer fry_live_…) or a
// queue consumer token (Bearer fqc_…). A valid one is cached; an unknown
// one costs a database read every time, so guessing them is bounded per
// client address. Only failed lookups count, and an address over its
// budget is refused only credentials this process has not seen succeed
// lately: a provider whose addresses also post to a deleted source (so
// fail) keeps delivering to every live one, whoever's it is.

// DefaultTokenGuessesPerMinute is how many failed credential lookups a
// client address may make per minute (with as many in a burst).
const DefaultTokenGuessesPerMinute = 60

// guessLimiter counts failed credential lookups per client address.
type guessLimiter struct {
	perMinute int
	now       func() time.Time

	// known holds the hashes of credentials that passed lately.
	known *ttlcache.Cache[[32]byte, struct{}]

	mu      sync.Mutex
	buckets map[string]*rate.Limiter
}

// Known credentials are remembered this long, at most maxKnown of them.
const (
	knownCredentialTTL = 10 * time.Minute
	maxKnown           = 100_000
)

func newGuessLimiter(perMinute int) *guessLimiter {
	if perMinute == 0 {
		perMinute = DefaultTokenGuessesPerMinute
	}
	return &guessLimiter{perMinute: perMinute, now: time.Now, buckets: map[string]*rate.Limiter{},
		known: ttlcache.New[[32]byte, struct{}](knownCredentialTTL, maxKnown)}
}

// maxGuessBuckets bounds memory; past it idle buckets are forgotten (a
// full bucket is what a new one starts with anyway).
const maxGuessBuckets = 100_000

// bucket returns addr's bucket, creating it full; past maxGuessBuckets
// the full (idle) buckets are forgotten.
func (g *guessLimiter) bucket(addr string) *rate.Limiter {
	g.mu.Lock()
	defer g.mu.Unlock()
	b, ok := g.buckets[addr]
	if !ok {
		if len(g.buckets) >= maxGuessBuckets {
			now := g.now()
			for a, old := range g.buckets {
				if old.TokensAt(now) >= float64(old.Burst()) {
					delete(g.buckets, a)
				}
			}
		}
		b = rate.NewLimiter(rate.Limit(float64(g.perMinute)/60), g.perMinute)
		g.buckets[addr] = b
	}
	return b
}

// wait is how long addr must wait before its next lookup (0: go ahead).
func (g *guessLimiter) wait(addr string) time.Duration {
	b := g.bucket(addr)
	now := g.now()
	if b.TokensAt(now) >= 1 {
		return 0
	}
	r := b.ReserveN(now, 1)
	d := r.DelayFrom(now)
	r.CancelAt(now)
	return d
}

// failed takes a token from addr's bucket.
func (g *guessLimiter) failed(addr string) {
	g.bucket(addr).AllowN(g.now(), 1)
}

// guardLookups refuses requests carrying an unsessioned credential from
// an address that has failed too many lookups, and counts the failures:
// an ingest URL answered 404 (no such token), or a bearer credential
// answered 401.
func (s *server) guardLookups(c *fiber.Ctx) error {
	var credential string
	ingest := isIngest(c)
	bearer, isBearer := strings.CutPrefix(c.Get(fiber.HeaderAuthorization), "Bearer ")
	switch {
	case s.guesses.perMinute < 0:
		return c.Next()
	case ingest:
		rest := strings.TrimPrefix(c.Path(), ingestPrefix)
		credential, _, _ = strings.Cut(rest, "/")
	case isBearer:
		credential = strings.TrimSpace(bearer)
	default:
		return c.Next()
	}
	g, key, addr := s.guesses, sha256.Sum256([]byte(credential)), c.IP()
	if _, known := g.known.Get(key, g.now()); !known {
		if d := g.wait(addr); d > 0 {
			return tooManyGuesses(d, "too many requests with unknown credentials from this address; try again later")
		}
	}
	if err := c.Next(); err != nil {
		// Answer it here, through the one error handler, to see its status.
		if err := c.App().ErrorHandler(c, err); err != nil {
			return err
		}
	}
	status := c.Response().StatusCode()
	switch {
	case (ingest && status == http.StatusNotFound) || (!ingest && status == http.StatusUnauthorized):
		g.failed(addr)
	case status < 400:
		g.known.Put(key, struct{}{}, g.now())
	}
	return nil
}

// tooManyGuesses refuses an address that must wait d before its next
// credential lookup.
func tooManyGuesses(d time.Duration, message string) error {
	return &ferry.Error{Code: ferry.ERATELIMIT, RetryAfterSeconds: max(1, int(math.Ceil(d.Seconds()))), Message: message}
}
