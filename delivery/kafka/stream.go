package kafka

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"github.com/ferry-dev/ferry/delivery/model"
)

// Stream publishes without waiting for acknowledgements (model.Streamer)
// through one lane per partition: each lane writes everything queued for
// its partition as one batch, waits for Kafka, and takes the next, so
// batches grow with the load and a partition's jobs stay in order. While
// one partition has no leader (a broker died and the cluster has not yet
// elected another) only its lane waits; every other partition's jobs
// keep flowing. The outbox relay publishes through it.
type Stream struct {
	cfg Config
	// client sends each lane's batch as one produce request to its
	// partition's leader. A lane is already the batch, so kafka-go's
	// Writer would only batch it again, and it allocates room for its
	// largest batch (maxLaneBatch messages, about 300 KB) for every
	// write, however small: half of all Ferry allocated at full load.
	client    *kafkago.Client
	transport *kafkago.Transport
	log       *slog.Logger

	mu     sync.Mutex
	lanes  map[laneKey]*lane
	counts map[string]partitionCount // topic → its partition count
	closed bool
	wg     sync.WaitGroup
	stop   chan struct{}
}

var _ model.Streamer = (*Stream)(nil)

// laneKey names one partition of one topic.
type laneKey struct {
	topic     string
	partition int
}

// partitionCount is a topic's partition count as last read.
type partitionCount struct {
	n      int
	readAt time.Time
}

// partitionCountTTL is how long a topic's partition count is trusted:
// partitions are only ever added, and a job sent to the old count's
// partition is still delivered, only not in the lane of its real
// partition.
const partitionCountTTL = 30 * time.Second

// maxLaneBatch bounds one write.
const maxLaneBatch = 2000

// lane is one partition's queue and writer goroutine.
type lane struct {
	mu     sync.Mutex
	queue  []queued
	wake   chan struct{}
	closed bool
}

type queued struct {
	msg  model.Message
	rec  kafkago.Message
	send *sendCall
}

// sendCall is one Send: its messages find their ack through it.
type sendCall struct {
	ack func([]model.Message, error)
}

// NewStream returns a Stream that waits for all in-sync replicas; log
// hears of partitions whose writes keep failing.
func NewStream(cfg Config, log *slog.Logger) (*Stream, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	transport := cfg.conn.producerTransport(cfg.metadataTopics())
	return &Stream{cfg: cfg, log: log, lanes: map[laneKey]*lane{}, counts: map[string]partitionCount{}, stop: make(chan struct{}),
		transport: transport,
		client:    &kafkago.Client{Addr: kafkago.TCP(cfg.Brokers...), Transport: transport, Timeout: writeTimeout}}, nil
}

// writeTimeout bounds one batch's produce request.
const writeTimeout = 5 * time.Second

// Send queues msgs on their partitions' lanes and returns; ack gets
// them back, a batch at a time, once Kafka acknowledged them. A lane
// retries its batch until Kafka takes it or the Stream closes (then ack
// gets the error).
func (s *Stream) Send(ctx context.Context, msgs []model.Message, ack func([]model.Message, error)) error {
	call := &sendCall{ack: ack}
	byLane := map[laneKey][]queued{}
	parts := map[string][]int{} // topic → its partitions, read once per Send
	balancer := &kafkago.Hash{}
	for _, m := range msgs {
		rec, err := encodeJob(s.cfg.topic(m.Topic), m)
		if err != nil {
			return err
		}
		list, ok := parts[rec.Topic]
		if !ok {
			n, err := s.partitions(ctx, rec.Topic)
			if err != nil {
				return err
			}
			list = partitionList(n)
			parts[rec.Topic] = list
		}
		k := laneKey{rec.Topic, balancer.Balance(rec, list...)}
		byLane[k] = append(byLane[k], queued{msg: m, rec: rec, send: call})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return fmt.Errorf("kafka stream: closed")
	}
	for k, qs := range byLane {
		l := s.lanes[k]
		if l == nil {
			l = &lane{wake: make(chan struct{}, 1)}
			s.lanes[k] = l
			s.wg.Add(1)
			go s.run(k, l)
		}
		l.mu.Lock()
		l.queue = append(l.queue, qs...)
		l.mu.Unlock()
		select {
		case l.wake <- struct{}{}:
		default:
		}
	}
	return nil
}

// run writes l's queue, batch after batch, until the Stream closes.
func (s *Stream) run(k laneKey, l *lane) {
	defer s.wg.Done()
	var failingSince, warned time.Time
	for {
		l.mu.Lock()
		batch := l.queue[:min(len(l.queue), maxLaneBatch)]
		l.mu.Unlock()
		if len(batch) == 0 {
			select {
			case <-l.wake:
				continue
			case <-s.stop:
				return
			}
		}
		err := s.produce(k, batch)
		if err != nil {
			// Said once when a partition starts failing and every 10 s
			// while it goes on, not on every retry.
			now := time.Now()
			if failingSince.IsZero() {
				failingSince = now
			}
			if now.Sub(warned) >= 10*time.Second {
				warned = now
				s.log.Warn("kafka partition not taking jobs; retrying", "topic", k.topic, "partition", k.partition,
					"jobs", len(batch), "failing_for", now.Sub(failingSince).Round(time.Millisecond), "err", err)
			}
			// The head batch stays at the head: retry it (after a
			// pause) until Kafka takes it, unless the Stream closes.
			select {
			case <-s.stop:
				s.fail(l, err)
				return
			case <-time.After(retryPause):
			}
			continue
		}
		if !failingSince.IsZero() {
			s.log.Info("kafka partition takes jobs again", "topic", k.topic, "partition", k.partition,
				"after", time.Since(failingSince).Round(time.Millisecond))
			failingSince, warned = time.Time{}, time.Time{}
		}
		l.mu.Lock()
		l.queue = l.queue[len(batch):]
		l.mu.Unlock()
		ackAll(batch, nil)
	}
}

// produce writes batch to k's partition, waiting for all in-sync
// replicas. One attempt: the lane retries its head batch itself and
// keeps it at the head.
func (s *Stream) produce(k laneKey, batch []queued) error {
	recs := make([]kafkago.Record, len(batch))
	for i, q := range batch {
		recs[i] = kafkago.Record{Time: q.rec.Time, Key: kafkago.NewBytes(q.rec.Key), Value: kafkago.NewBytes(q.rec.Value), Headers: q.rec.Headers}
	}
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	defer cancel()
	res, err := s.client.Produce(ctx, &kafkago.ProduceRequest{
		Topic: k.topic, Partition: k.partition, RequiredAcks: kafkago.RequireAll, Records: kafkago.NewRecordReader(recs...),
	})
	switch {
	case err != nil:
		return fmt.Errorf("kafka write: %w", err)
	case res.Error != nil:
		return fmt.Errorf("kafka write: %w", res.Error)
	}
	var refused []error
	for i, e := range res.RecordErrors {
		refused = append(refused, fmt.Errorf("record %d: %w", i, e))
	}
	if len(refused) > 0 {
		return fmt.Errorf("kafka write: %w", errors.Join(refused...))
	}
	return nil
}

// retryPause is how long a lane waits before writing a failed batch
// again; the writer's metadata is refreshed within every 250 ms meanwhile.
const retryPause = 100 * time.Millisecond

// fail acks everything still queued on l with err.
func (s *Stream) fail(l *lane, err error) {
	l.mu.Lock()
	rest := l.queue
	l.queue = nil
	l.mu.Unlock()
	ackAll(rest, fmt.Errorf("kafka stream closed: %w", err))
}

// ackAll returns batch to its Sends' acks, consecutive messages of one
// Send together.
func ackAll(batch []queued, err error) {
	start := 0
	for i := 1; i <= len(batch); i++ {
		if i == len(batch) || batch[i].send != batch[start].send {
			msgs := make([]model.Message, 0, i-start)
			for _, q := range batch[start:i] {
				msgs = append(msgs, q.msg)
			}
			batch[start].send.ack(msgs, err)
			start = i
		}
	}
}

// partitions is topic's partition count, read from the cluster at most
// every partitionCountTTL.
func (s *Stream) partitions(ctx context.Context, topic string) (int, error) {
	s.mu.Lock()
	c, ok := s.counts[topic]
	s.mu.Unlock()
	if ok && time.Since(c.readAt) < partitionCountTTL {
		return c.n, nil
	}
	md, err := s.client.Metadata(ctx, &kafkago.MetadataRequest{Topics: []string{topic}})
	n := 0
	if err == nil {
		for _, t := range md.Topics {
			if t.Name == topic && t.Error == nil {
				n = len(t.Partitions)
			}
		}
	}
	if n == 0 {
		if ok {
			return c.n, nil // keep the last count while the cluster does not answer
		}
		return 0, fmt.Errorf("kafka stream: partitions of %s: %v", topic, err)
	}
	s.mu.Lock()
	s.counts[topic] = partitionCount{n: n, readAt: time.Now()}
	s.mu.Unlock()
	return n, nil
}

func partitionList(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// Close stops the lanes, failing what they still hold (its outbox rows
// stay for the sweeper), and closes its connections.
func (s *Stream) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.stop)
	s.mu.Unlock()
	s.wg.Wait()
	for _, l := range s.lanes {
		s.fail(l, fmt.Errorf("closed"))
	}
	s.transport.CloseIdleConnections()
	return nil
}
