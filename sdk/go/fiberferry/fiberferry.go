// Package fiberferry receives Ferry webhooks in a Fiber v2 app. It wraps
// ferrywebhooks.Handler, so verification, dedupe and the answers (and
// therefore what Ferry does next) are exactly those of the net/http
// handler. It is a module of its own so that the verifier module stays
// free of dependencies.
package fiberferry

import (
	"bytes"
	"cmp"
	"net/http"

	"github.com/gofiber/fiber/v2"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
)

// New returns a Fiber handler for cfg (see ferrywebhooks.NewHandler):
//
//	h, err := fiberferry.New(ferrywebhooks.HandlerConfig{Secret: secret, Handle: handle})
//	app.Post("/webhooks", h)
//
// Fiber's own Config.BodyLimit (4 MiB by default) applies before
// cfg.MaxBodyBytes does.
func New(cfg ferrywebhooks.HandlerConfig) (fiber.Handler, error) {
	h, err := ferrywebhooks.NewHandler(cfg)
	if err != nil {
		return nil, err
	}
	limit := cmp.Or(cfg.MaxBodyBytes, ferrywebhooks.DefaultMaxBodyBytes)
	return func(c *fiber.Ctx) error {
		if c.Method() != fiber.MethodPost {
			c.Set(fiber.HeaderAllow, fiber.MethodPost)
			return reply(c, http.StatusMethodNotAllowed, "method_not_allowed")
		}
		// The raw bytes, not c.Body(), which would undo a Content-Encoding
		// the signature was computed over. Fiber reuses the buffer after
		// the handler returns, and HandleRaw may keep the body: copy it.
		raw := c.Request().Body()
		if int64(len(raw)) > limit {
			return reply(c, http.StatusRequestEntityTooLarge, "body_too_large")
		}
		body := bytes.Clone(raw)
		headers := make(http.Header)
		c.Request().Header.VisitAll(func(k, v []byte) {
			headers.Add(string(k), string(v))
		})
		res := h.Process(c.UserContext(), headers, body)
		return reply(c, res.Status, res.Code)
	}, nil
}

// reply writes the same JSON body as ferrywebhooks.Handler.
func reply(c *fiber.Ctx, status int, code string) error {
	return c.Status(status).JSON(fiber.Map{"status": code})
}
