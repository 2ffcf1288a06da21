package queue

import (
	"context"

	"github.com/google/uuid"

	"go.opentelemetry.io/otel/trace"

	"github.com/ferry-dev/ferry/delivery/internal/jobtrace"
)

// traceLeases joins each leased message's event trace: a consumer span
// there, linked to the pull (or stream) request that leased it, so the
// event's trace shows when and by which request its message went out.
// Messages of untraced events (tracing off) make no span and cost
// nothing.
func (s *Service) traceLeases(ctx context.Context, tenantID uuid.UUID, rows []leasedRow) {
	for _, r := range rows {
		if r.TraceParent == "" {
			continue
		}
		parent := jobtrace.ParseTraceParent(r.TraceParent)
		if !parent.IsValid() {
			continue
		}
		opts := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindConsumer),
			trace.WithAttributes(jobtrace.TenantID.String(tenantID.String()), jobtrace.EventID.String(r.EventID.String()),
				jobtrace.DeliveryID.String(r.ID.String()), jobtrace.Attempt.Int(r.AttemptCount))}
		if link := trace.LinkFromContext(ctx); link.SpanContext.IsValid() {
			opts = append(opts, trace.WithLinks(link))
		}
		_, span := s.tracer.Start(trace.ContextWithRemoteSpanContext(ctx, parent), "lease queue message", opts...)
		span.End()
	}
}
