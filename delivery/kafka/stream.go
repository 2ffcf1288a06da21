package kafka

import (
	"context"
	"fmt"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"github.com/ferry-dev/ferry/delivery/model"
)

// Stream publishes without waiting for acknowledgements (model.Streamer):
// kafka-go keeps a writer per partition that sends its batches in order
// and retries the one at its head, so while one partition has no leader
// (a broker died, and the cluster has not yet elected another) only the
// jobs bound for it wait; every other partition's keep flowing. The
// outbox relay publishes through it.
type Stream struct {
	cfg Config
	w   *kafkago.Writer
}

var _ model.Streamer = (*Stream)(nil)

// streamRetries and streamBackoffMax keep retrying a partition's head
// batch for about 20 s, longer than a broker's session timeout (9 s) and
// the election that follows; past that the batch comes back to its
// sender with the error.
const (
	streamRetries    = 40
	streamBackoffMax = 500 * time.Millisecond
)

// sendBatch is one Send call: its messages find their ack through it.
type sendBatch struct {
	ack func([]model.Message, error)
}

// NewStream returns a Stream that waits for all in-sync replicas.
func NewStream(cfg Config) (*Stream, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	return &Stream{cfg: cfg, w: &kafkago.Writer{
		Addr:                   kafkago.TCP(cfg.Brokers...),
		Balancer:               &kafkago.Hash{},
		RequiredAcks:           kafkago.RequireAll,
		BatchTimeout:           cfg.BatchTimeout,
		BatchSize:              1000,
		BatchBytes:             16 << 20,
		AllowAutoTopicCreation: false,
		Async:                  true,
		MaxAttempts:            streamRetries,
		WriteBackoffMin:        20 * time.Millisecond,
		WriteBackoffMax:        streamBackoffMax,
		WriteTimeout:           5 * time.Second,
		Completion:             completed,
		Transport:              cfg.conn.producerTransport(),
	}}, nil
}

// Send hands msgs to their partitions' writers and returns; ack gets
// them back, a batch at a time, once Kafka acknowledged them or the
// writer gave up.
func (s *Stream) Send(_ context.Context, msgs []model.Message, ack func([]model.Message, error)) error {
	b := &sendBatch{ack: ack}
	out := make([]kafkago.Message, len(msgs))
	for i, m := range msgs {
		rec, err := encodeJob(s.cfg.topic(m.Topic), m)
		if err != nil {
			return err
		}
		rec.WriterData = streamed{msg: m, batch: b}
		out[i] = rec
	}
	// Async: this only queues them (it fails on a closed writer or a
	// message over BatchBytes).
	if err := s.w.WriteMessages(context.Background(), out...); err != nil {
		return fmt.Errorf("kafka stream: %w", err)
	}
	return nil
}

// streamed is what a record carries back to its Send.
type streamed struct {
	msg   model.Message
	batch *sendBatch
}

// completed returns each of kafka-go's finished batches (one partition's
// records, possibly from several Sends) to the acks of their Sends.
func completed(recs []kafkago.Message, err error) {
	var last *sendBatch
	var msgs []model.Message
	for _, r := range recs {
		st, ok := r.WriterData.(streamed)
		if !ok {
			continue
		}
		if last != nil && st.batch != last {
			last.ack(msgs, err)
			msgs = nil
		}
		last = st.batch
		msgs = append(msgs, st.msg)
	}
	if last != nil {
		last.ack(msgs, err)
	}
}

// Close flushes what was sent and closes the writer.
func (s *Stream) Close() error { return s.w.Close() }
