package kafka

import (
	"encoding/json"
	"fmt"

	kafkago "github.com/segmentio/kafka-go"

	"github.com/ferry-dev/ferry/delivery/model"
)

// The job wire format, both directions: the value is the job as JSON and
// the key its endpoint id, so one endpoint's jobs share a partition and
// its first attempts are fetched in acceptance order.

// encodeJob returns the Kafka record for m on the prefixed topic.
func encodeJob(topic string, m model.Message) (kafkago.Message, error) {
	b, err := json.Marshal(m.Job)
	if err != nil {
		return kafkago.Message{}, fmt.Errorf("encode job %s: %w", m.Job.DeliveryID, err)
	}
	return kafkago.Message{Topic: topic, Key: []byte(m.Job.EndpointID.String()), Value: b}, nil
}

// decodeJob reads a job from a record's value.
func decodeJob(value []byte) (model.Job, error) {
	var job model.Job
	if err := json.Unmarshal(value, &job); err != nil {
		return model.Job{}, fmt.Errorf("decode job: %w", err)
	}
	return job, nil
}
