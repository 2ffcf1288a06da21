package inbound

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// A capture of a traced request (the HTTP server's span in ctx) is a
// span under it; the event made from the capture, later and in a batch,
// carries the capture's context to its deliveries (EventInput.Trace), so
// a capture and its deliveries are one trace. With tracing off no span
// is in ctx and nothing here costs anything.

// startCapture starts the capture's span, or returns the no-op span ctx
// already holds when the request is untraced.
func (s *Service) startCapture(ctx context.Context) (context.Context, trace.Span) {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ctx, trace.SpanFromContext(ctx)
	}
	return s.tracer.Start(ctx, "capture request")
}

// endCapture names the capture on span and ends it.
func endCapture(span trace.Span, capture requestRow, err error) {
	if span.IsRecording() {
		if capture.ID != [16]byte{} {
			span.SetAttributes(attribute.String("ferry.tenant_id", capture.TenantID.String()),
				attribute.String("ferry.source_id", capture.SourceID.String()),
				attribute.String("ferry.capture_id", capture.ID.String()))
		}
		if capture.Status != "" {
			span.SetAttributes(attribute.String("ferry.capture_status", string(capture.Status)))
		}
		if err != nil {
			span.SetStatus(codes.Error, "capture refused")
		}
	}
	span.End()
}
