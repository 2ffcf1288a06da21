// Package jobtrace carries a delivery's trace from hop to hop: a job
// holds the W3C trace context (traceparent, tracestate) of the span that
// asked for it, and each hop (relay, consumer, dispatcher, pull queue)
// starts its span as a child of, or linked to, that context.
//
// Tracing off must cost nothing per job: every function here returns at
// once, allocating nothing, when there is no span context to carry (the
// no-op tracer provider never makes one, and a job without trace context
// starts no span).
package jobtrace

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/ferry-dev/ferry/delivery/model"
)

// Attribute keys of Ferry's own identifiers on spans.
const (
	TenantID   = attribute.Key("ferry.tenant_id")
	EventID    = attribute.Key("ferry.event_id")
	EndpointID = attribute.Key("ferry.endpoint_id")
	DeliveryID = attribute.Key("ferry.delivery_id")
	Attempt    = attribute.Key("ferry.attempt")
)

// carrier reads and writes a job's trace context for the W3C propagator.
type carrier struct{ job *model.Job }

func (c carrier) Get(key string) string {
	switch key {
	case "traceparent":
		return c.job.TraceParent
	case "tracestate":
		return c.job.TraceState
	}
	return ""
}

func (c carrier) Set(key, value string) {
	switch key {
	case "traceparent":
		c.job.TraceParent = value
	case "tracestate":
		c.job.TraceState = value
	}
}

func (c carrier) Keys() []string { return []string{"traceparent", "tracestate"} }

// Set stores on job the context of the span ctx carries; without a valid
// one (tracing off) job is left as it is.
func Set(ctx context.Context, job *model.Job) {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return
	}
	propagation.TraceContext{}.Inject(ctx, carrier{job})
}

// SetSpanContext stores sc on job, or clears job's trace context when sc
// is invalid.
func SetSpanContext(job *model.Job, sc trace.SpanContext) {
	job.TraceParent, job.TraceState = "", ""
	if sc.IsValid() {
		Set(trace.ContextWithSpanContext(context.Background(), sc), job)
	}
}

// TraceParent is sc as a W3C traceparent header value, for rows that
// keep a trace without a job (queue deliveries).
func TraceParent(sc trace.SpanContext) string {
	var job model.Job
	SetSpanContext(&job, sc)
	return job.TraceParent
}

// ParseTraceParent is the remote span context a traceparent value names;
// invalid when it names none.
func ParseTraceParent(traceparent string) trace.SpanContext {
	return SpanContext(model.Job{TraceParent: traceparent})
}

// SpanContext returns the remote span context job carries; it is invalid
// when job carries none (or a malformed one).
func SpanContext(job model.Job) trace.SpanContext {
	if job.TraceParent == "" {
		return trace.SpanContext{}
	}
	ctx := propagation.TraceContext{}.Extract(context.Background(), carrier{&job})
	return trace.SpanContextFromContext(ctx)
}

// Traced reports whether job carries a trace context, that is whether
// its hops make spans.
func Traced(job model.Job) bool { return job.TraceParent != "" }

// Attributes are the identifiers of job for its spans.
func Attributes(job model.Job) []attribute.KeyValue {
	return []attribute.KeyValue{
		TenantID.String(job.TenantID.String()), EventID.String(job.EventID.String()),
		EndpointID.String(job.EndpointID.String()), DeliveryID.String(job.DeliveryID.String()),
		Attempt.Int(job.Attempt),
	}
}

// StartChild starts a span under the span ctx carries, or, when ctx
// carries none (tracing off, or an untraced caller), returns ctx and the
// no-op span it already holds, allocating nothing.
func StartChild(ctx context.Context, tracer trace.Tracer, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	if !trace.SpanContextFromContext(ctx).IsValid() {
		return ctx, trace.SpanFromContext(ctx)
	}
	return tracer.Start(ctx, name, opts...)
}

// StartFromJob starts a span whose parent is the context job carries,
// under ctx (for cancellation and values). An untraced job gets ctx and
// a no-op span back, at no cost.
func StartFromJob(ctx context.Context, tracer trace.Tracer, job model.Job, name string, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	if !Traced(job) {
		return ctx, trace.SpanFromContext(ctx)
	}
	sc := SpanContext(job)
	if !sc.IsValid() {
		return ctx, trace.SpanFromContext(ctx)
	}
	return tracer.Start(trace.ContextWithRemoteSpanContext(ctx, sc), name, opts...)
}
