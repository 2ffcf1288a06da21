package httpapi

import (
	"context"
	"log/slog"
	"math"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/ratelimit"
)

// tenantLimiter is a per-tenant rate limit: a token bucket per tenant
// (rate and burst = the limit per second), shared by every replica when
// there are shared buckets (ratelimit.Limiter). The API as a whole has
// one limiter; test-routing, which runs code on demand, a stricter one of
// its own.
type tenantLimiter struct {
	perSecond int
	message   string // the 429's message
	buckets   *ratelimit.Limiter
}

func newTenantLimiter(perSecond int, shared ratelimit.Leaser, log *slog.Logger) *tenantLimiter {
	return newLimiter(perSecond, "api", "too many API requests for this tenant; slow down", shared, log)
}

// newTestRoutingLimiter limits test-routing requests: each may run a
// transformation for up to its deadline.
func newTestRoutingLimiter(perSecond int, shared ratelimit.Leaser, log *slog.Logger) *tenantLimiter {
	return newLimiter(perSecond, "test-routing", "too many routing tests for this tenant; slow down", shared, log)
}

func newLimiter(perSecond int, key, message string, shared ratelimit.Leaser, log *slog.Logger) *tenantLimiter {
	return &tenantLimiter{perSecond: perSecond, message: message, buckets: ratelimit.NewLimiter(shared, key, log)}
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

// take spends a token of tenantID's and returns the tokens left.
func (l *tenantLimiter) take(ctx context.Context, tenantID uuid.UUID) (float64, error) {
	left, wait := l.buckets.Take(ctx, tenantID.String(), l.perSecond)
	if wait > 0 {
		return left, l.refuse(wait)
	}
	return left, nil
}

func (l *tenantLimiter) refuse(wait time.Duration) error {
	return &ferry.Error{Code: ferry.ERATELIMIT, Message: l.message,
		RetryAfterSeconds: max(1, int(math.Ceil(wait.Seconds())))}
}
