package httpapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/ferry-dev/ferry/internal/requestid"
)

// portalCSP allows the portal only its own scripts, styles and API; the
// favicon is a data: URI. React sets inline styles through the CSSOM,
// which style-src 'self' permits.
const portalCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// apiCSP is for JSON responses, which never load anything.
const apiCSP = "default-src 'none'; frame-ancestors 'none'"

// ingestCSP is for the public ingest URLs: whatever a source answers, a
// browser that opens one renders nothing active and sends nothing on
// (sandbox: a unique origin, no scripts, no forms).
const ingestCSP = "sandbox; default-src 'none'; frame-ancestors 'none'"

// hstsValue asks browsers to use https only for two years.
const hstsValue = "max-age=63072000; includeSubDomains"

// securityHeaders sets the headers every response carries, before any
// route runs, so errors, 404s and early refusals carry them too: no MIME
// sniffing, no framing, no referrer beyond the origin, a Content-Security-
// Policy, HSTS when served over https (production), and Cache-Control:
// no-store on everything under /api/ (API responses carry secrets and
// personal data; no browser or proxy may keep them). Routes may still
// set their own Cache-Control afterwards (the portal's assets do).
func securityHeaders(hsts bool) fiber.Handler {
	return func(c *fiber.Ctx) error {
		h := &c.Response().Header
		h.Set(fiber.HeaderXContentTypeOptions, "nosniff")
		h.Set(fiber.HeaderXFrameOptions, "DENY")
		h.Set(fiber.HeaderReferrerPolicy, "strict-origin-when-cross-origin")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		if hsts {
			h.Set(fiber.HeaderStrictTransportSecurity, hstsValue)
		}
		switch p := c.Path(); {
		case isIngest(c):
			h.Set(fiber.HeaderCacheControl, "no-store")
			h.Set(fiber.HeaderContentSecurityPolicy, ingestCSP)
		case isAPIPath(p):
			h.Set(fiber.HeaderCacheControl, "no-store")
			h.Set(fiber.HeaderContentSecurityPolicy, apiCSP)
		default:
			h.Set(fiber.HeaderContentSecurityPolicy, portalCSP)
		}
		return c.Next()
	}
}

// isAPIPath reports paths answered by the API (JSON), not the portal.
func isAPIPath(p string) bool {
	return strings.HasPrefix(p, "/api/") || p == "/api" || p == "/readyz" || p == "/healthz" || p == "/metrics"
}

// requestIDs names every request: the caller's X-Request-Id when it is
// well formed (requestid.Valid), a fresh one otherwise. The id comes back
// in the response's X-Request-Id and rides in the request's context, so
// every line logged for the request carries it (requestid.Handler).
func requestIDs(c *fiber.Ctx) error {
	id := c.Get(fiber.HeaderXRequestID)
	if !requestid.Valid(id) {
		id = requestid.New()
	}
	c.Set(fiber.HeaderXRequestID, id)
	c.SetUserContext(requestid.With(c.UserContext(), id))
	return c.Next()
}
