package httpapi

import (
	"context"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/inbound"
)

// InboundReceiver captures requests to ingest URLs (/in/<token>). It is
// satisfied by *inbound.Service.
type InboundReceiver interface {
	// Receive verifies and captures one request and says what to answer.
	// Errors: ENOTFOUND, ETOOLARGE, ERATELIMIT, EUNAUTHORIZED,
	// EBADREQUEST, wrapped database errors.
	Receive(ctx context.Context, in inbound.Incoming) (inbound.Answer, error)
}

// ingestPrefix starts the public ingest URLs of inbound sources.
const ingestPrefix = "/in/"

// ingestTimeout bounds one ingest request's work: a provider must get an
// answer (503 at worst) well before it gives up on us.
const ingestTimeout = 10 * time.Second

// ingestRoutes registers the public ingest URL of inbound sources,
// outside /api/v1 and without authentication: the token in the path
// names the source, and the source's verification scheme authenticates
// the request. Methods other than those listed are refused, never
// handed to the portal (which would answer 200).
func (s *server) ingestRoutes(app *fiber.App) {
	for _, path := range []string{"/in/:token", "/in/:token/*"} {
		for _, m := range []string{fiber.MethodPost, fiber.MethodPut, fiber.MethodPatch, fiber.MethodGet} {
			app.Add(m, path, s.ingest)
		}
	}
	app.Use(ingestPrefix, func(c *fiber.Ctx) error {
		return &ferry.Error{Code: ferry.EBADREQUEST, Message: "send webhooks with POST"}
	})
}

// ingest captures one request to an ingest URL. The body is the exact
// bytes received (c.Request().Body(), never decompressed), and the token
// is replaced by {token} in the stored path.
func (s *server) ingest(c *fiber.Ctx) error {
	path := ingestPrefix + "{token}"
	if rest := c.Params("*"); rest != "" {
		path += "/" + rest
	}
	header := http.Header{}
	c.Request().Header.VisitAll(func(k, v []byte) { header.Add(string(k), string(v)) })
	// fasthttp reuses the body buffer after the handler returns, and the
	// capture's event is made after the answer: it keeps its own copy.
	body := append([]byte(nil), c.Request().Body()...)
	ctx, cancel := context.WithTimeout(c.UserContext(), ingestTimeout)
	defer cancel()
	ans, err := s.Inbound.Receive(ctx, inbound.Incoming{Token: c.Params("token"), Method: c.Method(), Path: path,
		RawQuery: string(c.Request().URI().QueryString()), Header: header, Body: body})
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderContentType, ans.ContentType)
	return c.Status(ans.Status).Send(ans.Body)
}

// isIngest reports whether a request is for an ingest URL, which has its
// own body limit (inbound.MaxBodyBytes).
func isIngest(c *fiber.Ctx) bool { return strings.HasPrefix(c.Path(), ingestPrefix) }

// ingestOrigin keeps ingest URLs and the portal on separate origins when
// FERRY_INGEST_URL names one (host): on that host only ingest URLs and the
// health probes answer, so no page of the portal and no cookie of a
// signed-in user is ever on the origin providers (and anyone holding an
// ingest URL) post to; on every other host ingest URLs answer 404.
func ingestOrigin(host string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		name := c.Hostname()
		if h, _, err := net.SplitHostPort(name); err == nil {
			name = h
		}
		onIngestHost := strings.EqualFold(name, host)
		switch {
		case isIngest(c) && !onIngestHost:
			return &ferry.Error{Code: ferry.ENOTFOUND, Message: "ingest URLs are served on their own origin (FERRY_INGEST_URL)"}
		case onIngestHost && !isIngest(c) && c.Path() != "/healthz" && c.Path() != "/readyz":
			return &ferry.Error{Code: ferry.ENOTFOUND, Message: "only ingest URLs are served on this origin"}
		}
		return c.Next()
	}
}
