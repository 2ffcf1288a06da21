package dispatch

import (
	"context"
	"net/http"
	"net/url"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/egress"
	"github.com/ferry-dev/ferry/delivery/internal/jobtrace"
	"github.com/ferry-dev/ferry/delivery/model"
)

// A traced job's attempt is a client span, the child of the span that
// received the job, named by the method as HTTP's conventions want; the
// attempt log's write is a span under it, and the retry job carries the
// attempt's context on, so every attempt of a delivery lands in the
// event's trace. An untraced job (tracing off) makes none of this, and
// pays nothing for it.

// startAttempt starts the client span of an attempt of job to rawURL.
func (d *Dispatcher) startAttempt(ctx context.Context, job model.Job, rawURL string) (context.Context, trace.Span) {
	if !jobtrace.Traced(job) {
		return ctx, trace.SpanFromContext(ctx)
	}
	attrs := []trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindClient),
		trace.WithAttributes(semconv.HTTPRequestMethodPost, semconv.URLFull(redactURL(rawURL))),
		trace.WithAttributes(jobtrace.Attributes(job)...)}
	if u, err := url.Parse(rawURL); err == nil {
		attrs = append(attrs, trace.WithAttributes(semconv.ServerAddress(u.Hostname())))
	}
	return jobtrace.StartFromJob(ctx, d.tracer, job, http.MethodPost, attrs...)
}

// endAttempt records rec's outcome on the attempt's span and ends it.
func endAttempt(span trace.Span, rec *attemptlog.Record, resp egress.Response) {
	if !span.IsRecording() {
		span.End()
		return
	}
	if resp.Status != 0 {
		span.SetAttributes(semconv.HTTPResponseStatusCode(resp.Status))
	}
	if rec.Outcome != model.OutcomeSuccess {
		errType := rec.ErrorClass
		if errType == "" && resp.Status != 0 {
			errType = http.StatusText(resp.Status)
		}
		if errType != "" {
			span.SetAttributes(semconv.ErrorTypeKey.String(errType))
		}
		span.SetStatus(codes.Error, string(rec.Outcome))
	}
	span.SetAttributes(attribute.String("ferry.outcome", string(rec.Outcome)), attribute.String("ferry.delivery_status", string(rec.Status)))
	span.End()
}

// traceRecord starts the span of writing p's attempt to the log, under
// the attempt's span; a no-op span when p is untraced.
func (d *Dispatcher) traceRecord(ctx context.Context, p *pendingAttempt) (context.Context, trace.Span) {
	if !p.trace.IsValid() {
		return ctx, trace.SpanFromContext(ctx)
	}
	return d.tracer.Start(trace.ContextWithSpanContext(ctx, p.trace), "record attempt",
		trace.WithAttributes(jobtrace.DeliveryID.String(p.job.DeliveryID.String()), jobtrace.Attempt.Int(p.job.Attempt)))
}

// redactURL is an endpoint's URL for a span: no user info, and every
// query value replaced, since receivers put tokens there.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	u.User = nil
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q[k] = []string{"REDACTED"}
		}
		u.RawQuery = q.Encode()
	}
	u.Fragment = ""
	return u.String()
}
