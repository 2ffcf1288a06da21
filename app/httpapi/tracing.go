package httpapi

import (
	"strings"

	"github.com/gofiber/fiber/v2"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
)

// serverSpans starts a server span for each API and ingest request,
// named by method and route template ("POST /api/v1/events", "POST
// /in/:token"): a template never holds an id or an ingest token. It is
// installed only with tracing on.
//
// A caller's traceparent is not continued: Ferry's API is public, and a
// tenant must not be able to join, or sample, Ferry's own traces. Each
// request starts a trace of its own.
func serverSpans(tp trace.TracerProvider) fiber.Handler {
	tracer := tp.Tracer("github.com/ferry-dev/ferry/app/httpapi")
	return func(c *fiber.Ctx) error {
		path := c.Path()
		if !strings.HasPrefix(path, "/api/") && !strings.HasPrefix(path, ingestPrefix) {
			return c.Next() // the portal's files and probes are not worth a trace
		}
		method := c.Method()
		ctx, span := tracer.Start(c.UserContext(), method, trace.WithNewRoot(), trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(semconv.HTTPRequestMethodKey.String(method), semconv.URLScheme(c.Protocol())))
		defer span.End()
		c.SetUserContext(ctx)
		if err := c.Next(); err != nil {
			// Answer here, as the app's error handler would, so the span
			// records the status the caller gets.
			if herr := c.App().ErrorHandler(c, err); herr != nil {
				_ = c.SendStatus(fiber.StatusInternalServerError)
			}
		}
		route := c.Route().Path
		span.SetName(method + " " + route)
		status := c.Response().StatusCode()
		span.SetAttributes(semconv.HTTPRoute(route), semconv.HTTPResponseStatusCode(status))
		if status >= 500 {
			span.SetStatus(codes.Error, "")
		}
		return nil
	}
}
