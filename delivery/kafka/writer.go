package kafka

import (
	"context"
	"fmt"

	kafkago "github.com/segmentio/kafka-go"

	"github.com/ferry-dev/ferry/delivery/model"
)

// Writer publishes delivery messages; one Writer is shared by the whole
// process so that concurrent publishes batch together.
type Writer struct {
	cfg Config
	w   *kafkago.Writer
}

var _ model.Publisher = (*Writer)(nil)

// NewWriter returns a Writer that waits for all in-sync replicas.
func NewWriter(cfg Config) (*Writer, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Writer{cfg: cfg, w: &kafkago.Writer{
		Addr:                   kafkago.TCP(cfg.Brokers...),
		Balancer:               &kafkago.Hash{},
		RequiredAcks:           kafkago.RequireAll,
		BatchTimeout:           cfg.BatchTimeout,
		BatchSize:              1000,
		BatchBytes:             16 << 20,
		AllowAutoTopicCreation: false,
		Transport:              cfg.conn.producerTransport(cfg.metadataTopics()),
	}}, nil
}

// Publish writes msgs and returns once Kafka acknowledged all of them.
func (w *Writer) Publish(ctx context.Context, msgs []model.Message) error {
	out := make([]kafkago.Message, len(msgs))
	for i, m := range msgs {
		rec, err := encodeJob(w.cfg.topic(m.Topic), m)
		if err != nil {
			return err
		}
		out[i] = rec
	}
	if err := w.w.WriteMessages(ctx, out...); err != nil {
		return fmt.Errorf("kafka write: %w", err)
	}
	return nil
}

// Close flushes and closes the writer.
func (w *Writer) Close() error { return w.w.Close() }
