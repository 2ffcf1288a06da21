package kafka

import (
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/ferry-dev/ferry/delivery/model"
)

func wireJob() model.Job {
	return model.Job{DeliveryID: uuid.New(), EventID: uuid.New(), EndpointID: uuid.New(), TenantID: uuid.New(), Attempt: 1,
		Trigger: model.TriggerInitial, AcceptedAt: time.Now().UTC()}
}

func TestWireCarriesTraceContextInHeaders(t *testing.T) {
	t.Parallel()
	job := wireJob()
	job.TraceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	job.TraceState = "vendor=x"
	rec, err := encodeJob("deliveries", model.Message{Topic: model.TopicDeliveries, Job: job})
	require.NoError(t, err)
	require.Len(t, rec.Headers, 2)
	require.Equal(t, headerTraceParent, rec.Headers[0].Key)
	require.NotContains(t, string(rec.Value), "traceparent", "the context travels beside the JSON, not in it")
	got, err := decodeJob(rec)
	require.NoError(t, err)
	require.Equal(t, job, got)
}

// Tracing off must not cost the hot path anything: an untraced job's
// record has no headers, and encoding and decoding it allocate exactly
// what they did before tracing existed (9 and 6, measured on the parent
// commit with the same job).
func TestWireUntracedJobCostsWhatItDidBeforeTracing(t *testing.T) {
	job := wireJob()
	m := model.Message{Topic: model.TopicDeliveries, Job: job}
	rec, err := encodeJob("deliveries", m)
	require.NoError(t, err)
	require.Empty(t, rec.Headers)
	encode := testing.AllocsPerRun(1000, func() { _, _ = encodeJob("deliveries", m) })
	decode := testing.AllocsPerRun(1000, func() { _, _ = decodeJob(rec) })
	require.Equal(t, 9.0, encode, "allocations to encode an untraced job")
	require.Equal(t, 6.0, decode, "allocations to decode an untraced job")
}

func BenchmarkWireUntraced(b *testing.B) {
	m := model.Message{Topic: model.TopicDeliveries, Job: wireJob()}
	b.ReportAllocs()
	for b.Loop() {
		rec, _ := encodeJob("deliveries", m)
		_, _ = decodeJob(rec)
	}
}

func BenchmarkWireTraced(b *testing.B) {
	job := wireJob()
	job.TraceParent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
	m := model.Message{Topic: model.TopicDeliveries, Job: job}
	b.ReportAllocs()
	for b.Loop() {
		rec, _ := encodeJob("deliveries", m)
		_, _ = decodeJob(rec)
	}
}
