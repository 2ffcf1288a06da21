package kafka

import (
	"encoding/json"
	"fmt"

	kafkago "github.com/segmentio/kafka-go"

	"github.com/ferry-dev/ferry/delivery/model"
)

// The job wire format, both directions: the value is the job as JSON and
// the key its endpoint id, so one endpoint's jobs share a partition and
// its first attempts are fetched in acceptance order. A traced job's W3C
// trace context rides in the traceparent and tracestate headers, as any
// Kafka-aware tracer expects; an untraced job has no headers.

const (
	headerTraceParent = "traceparent"
	headerTraceState  = "tracestate"
)

// encodeJob returns the Kafka record for m on the prefixed topic.
func encodeJob(topic string, m model.Message) (kafkago.Message, error) {
	b, err := json.Marshal(m.Job)
	if err != nil {
		return kafkago.Message{}, fmt.Errorf("encode job %s: %w", m.Job.DeliveryID, err)
	}
	rec := kafkago.Message{Topic: topic, Key: []byte(m.Job.EndpointID.String()), Value: b}
	if m.Job.TraceParent != "" {
		rec.Headers = []kafkago.Header{{Key: headerTraceParent, Value: []byte(m.Job.TraceParent)}}
		if m.Job.TraceState != "" {
			rec.Headers = append(rec.Headers, kafkago.Header{Key: headerTraceState, Value: []byte(m.Job.TraceState)})
		}
	}
	return rec, nil
}

// decodeJob reads a job from a record: its value and trace headers.
func decodeJob(rec kafkago.Message) (model.Job, error) {
	var job model.Job
	if err := json.Unmarshal(rec.Value, &job); err != nil {
		return model.Job{}, fmt.Errorf("decode job: %w", err)
	}
	for _, h := range rec.Headers {
		switch h.Key {
		case headerTraceParent:
			job.TraceParent = string(h.Value)
		case headerTraceState:
			job.TraceState = string(h.Value)
		}
	}
	return job, nil
}
