package httpapi

import (
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
)

// RequestObserver records every answered request: rate, errors and
// duration (RED) per route template.
type RequestObserver interface {
	ObserveRequest(route, method string, status int, elapsed time.Duration)
}

// Labels of requests no route template took: their paths are whatever
// clients send and must not become label values.
const (
	unmatchedRoute = "unmatched" // under /api/ (answered 404)
	portalRoute    = "portal"    // the portal's pages and assets
)

// routeTemplates are the method and path templates of the app's handlers
// (not its prefix middleware), filled once every route is registered.
type routeTemplates map[string]bool

func (t routeTemplates) fill(app *fiber.App) {
	for _, r := range app.GetRoutes(true) {
		t[r.Method+" "+r.Path] = true
	}
}

// observeRequests runs first, so the duration covers every other
// middleware. It answers an error through the one error handler itself
// to record the status the client gets.
func observeRequests(o RequestObserver, known routeTemplates) fiber.Handler {
	return func(c *fiber.Ctx) error {
		start := time.Now()
		if err := c.Next(); err != nil {
			if err := c.App().ErrorHandler(c, err); err != nil {
				return err
			}
		}
		// A request no handler took ends on a prefix middleware (the
		// API's catch-all 404, the portal's files), whose "route" is not
		// a template.
		route := c.Route().Path
		if !known[c.Method()+" "+route] {
			route = portalRoute
			if strings.HasPrefix(c.Path(), "/api/") {
				route = unmatchedRoute
			}
		}
		o.ObserveRequest(route, methodLabel(c.Method()), c.Response().StatusCode(), time.Since(start))
		return nil
	}
}

// methodLabel bounds the method label to the methods Ferry serves.
func methodLabel(m string) string {
	switch m {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodPost, fiber.MethodPut, fiber.MethodPatch, fiber.MethodDelete, fiber.MethodOptions:
		return m
	}
	return "OTHER"
}
