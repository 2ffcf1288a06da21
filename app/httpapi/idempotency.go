package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/ferry-dev/ferry/app/httpapi/openapi"
	"github.com/ferry-dev/ferry/idempotency"
	"github.com/ferry-dev/ferry/tenants"
)

// IdempotencyStore remembers the answers of creating requests by their
// Idempotency-Key; *idempotency.Store satisfies it.
type IdempotencyStore interface {
	Begin(ctx context.Context, scope, key string, fingerprint []byte) (*idempotency.Response, error)
	Finish(ctx context.Context, scope, key string, r idempotency.Response) error
	Release(ctx context.Context, scope, key string) error
}

const (
	idempotencyHeader = "Idempotency-Key"
	// replayedHeader marks an answer sent again for a repeated key.
	replayedHeader = "Idempotent-Replayed"
)

// creatingRoutes are the Fiber path templates of the POST routes that
// create something (their success is 201 or 202) for an authenticated
// caller: the routes an Idempotency-Key applies to. POST /events keeps
// its own keys, stored with the event in the same transaction.
func creatingRoutes() map[string]bool {
	out := map[string]bool{}
	for route, op := range operations() {
		if path, ok := takesRetryKey(route, op); ok {
			out["/api/v1"+fiberPath(path)] = true
		}
	}
	return out
}

// takesRetryKey reports whether the operation at route ("POST /path")
// takes an Idempotency-Key, and its path.
func takesRetryKey(route string, op openapi.Operation) (string, bool) {
	path, ok := strings.CutPrefix(route, "POST ")
	return path, ok && op.Access != openapi.Public && (op.Status == 201 || op.Status == 202) && path != "/events"
}

// fiberPath turns an OpenAPI path template ({id}) into Fiber's (:id).
func fiberPath(p string) string {
	return strings.NewReplacer("{", ":", "}", "").Replace(p)
}

// principalScope is whose keys a tenant member, API key or staff member
// uses: a tenant's are shared by its members and keys, as one account's
// are at Stripe.
func principalScope(p tenants.Principal) string {
	if p.IsStaff() {
		return "staff:" + p.UserID.String()
	}
	return "tenant:" + p.TenantID.String()
}

// idempotent runs the rest of a creating request at most once per
// Idempotency-Key within 24 hours in scope: a repeat with the same
// method, URL and body gets the first answer again (marked
// Idempotent-Replayed: true); a repeat with another request, 422
// idempotency_key_reused; one while the first runs, 409. Only a 2xx
// answer is kept, so a request that failed runs again when retried.
func (s *server) idempotent(c *fiber.Ctx, scope string) error {
	key := c.Get(idempotencyHeader)
	if key == "" || s.Idempotency == nil || c.Method() != fiber.MethodPost || !s.creating[c.Route().Path] {
		return c.Next()
	}
	if err := idempotency.ValidKey(key); err != nil {
		return err
	}
	h := sha256.New()
	h.Write([]byte(c.OriginalURL()))
	h.Write([]byte{0})
	h.Write(c.Body())
	stored, err := s.Idempotency.Begin(c.UserContext(), scope, key, h.Sum(nil))
	if err != nil {
		return err
	}
	if stored != nil {
		c.Set(replayedHeader, "true")
		if stored.ContentType != "" {
			c.Set(fiber.HeaderContentType, stored.ContentType)
		}
		return c.Status(stored.Status).Send(stored.Body)
	}
	err = c.Next()
	// The answer is kept even when the client has gone: its retry is
	// what the key is for.
	ctx := context.WithoutCancel(c.UserContext())
	if status := c.Response().StatusCode(); err == nil && status >= 200 && status < 300 {
		r := idempotency.Response{Status: status, ContentType: string(c.Response().Header.ContentType()),
			Body: bytes.Clone(c.Response().Body())}
		if ferr := s.Idempotency.Finish(ctx, scope, key, r); ferr != nil {
			// The key stays claimed: a retry is answered 409 until the
			// claim is abandoned, never run twice.
			s.Log.Warn("storing an idempotent answer", "err", ferr, "route", c.Route().Path)
		}
	} else if rerr := s.Idempotency.Release(ctx, scope, key); rerr != nil {
		s.Log.Warn("releasing an idempotency key", "err", rerr, "route", c.Route().Path)
	}
	return err
}
