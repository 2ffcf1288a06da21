package jobtrace

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/ferry-dev/ferry/delivery/model"
)

func TestJobCarriesSpanContext(t *testing.T) {
	t.Parallel()
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1, 2, 3}, SpanID: trace.SpanID{4, 5},
		TraceFlags: trace.FlagsSampled})
	var job model.Job
	Set(trace.ContextWithSpanContext(context.Background(), sc), &job)
	require.Equal(t, "00-01020300000000000000000000000000-0405000000000000-01", job.TraceParent)
	got := SpanContext(job)
	require.True(t, got.IsRemote())
	require.Equal(t, sc.TraceID(), got.TraceID())
	require.Equal(t, sc.SpanID(), got.SpanID())

	SetSpanContext(&job, trace.SpanContext{})
	require.False(t, Traced(job))
	require.False(t, SpanContext(job).IsValid())
}

// With tracing off no context holds a span: carrying and starting cost
// nothing.
func TestUntracedCostsNothing(t *testing.T) {
	ctx := context.Background()
	tracer := noop.NewTracerProvider().Tracer("test")
	var job model.Job
	allocs := testing.AllocsPerRun(1000, func() {
		Set(ctx, &job)
		_, span := StartChild(ctx, tracer, "x")
		span.End()
		_, span = StartFromJob(ctx, tracer, job, "y")
		span.End()
	})
	require.Zero(t, allocs)
	require.False(t, Traced(job))
}
