package kafka

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	kafkago "github.com/segmentio/kafka-go"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/ferry-dev/ferry/delivery/dispatch"
	"github.com/ferry-dev/ferry/delivery/internal/jobtrace"
	"github.com/ferry-dev/ferry/delivery/model"
)

// Submitter takes a job and calls done once it may be committed.
// dispatch.Dispatcher satisfies it.
type Submitter interface {
	Submit(ctx context.Context, job model.Job, done func()) error
}

// Consumer reads the deliveries topic and every retry tier in one consumer
// group and hands jobs to a Submitter.
type Consumer struct {
	cfg     Config
	sub     Submitter
	log     *slog.Logger
	readers []*topicReader

	// Retry jobs fetched before they are due wait on timers; Run stops
	// the pending ones and waits for those firing before it returns.
	mu        sync.Mutex
	timers    map[*time.Timer]struct{}
	scheduled sync.WaitGroup

	tracer trace.Tracer
}

type topicReader struct {
	name    string // logical name, e.g. "retry-30s"
	topic   string
	tier    *dispatch.Tier // nil for the deliveries topic
	reader  *kafkago.Reader
	offsets *offsets
}

// NewConsumer returns a Consumer for the deliveries topic and tiers.
func NewConsumer(cfg Config, sub Submitter, tiers []dispatch.Tier, log *slog.Logger) (*Consumer, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	tp := cfg.Tracing
	if tp == nil {
		tp = noop.NewTracerProvider()
	}
	c := &Consumer{cfg: cfg, sub: sub, log: log, timers: make(map[*time.Timer]struct{}),
		tracer: tp.Tracer("github.com/ferry-dev/ferry/delivery/kafka")}
	c.readers = append(c.readers, c.newReader(model.TopicDeliveries, nil))
	for i := range tiers {
		c.readers = append(c.readers, c.newReader(tiers[i].Name, &tiers[i]))
	}
	return c, nil
}

func (c *Consumer) newReader(name string, tier *dispatch.Tier) *topicReader {
	topic := c.cfg.topic(name)
	return &topicReader{name: name, topic: topic, tier: tier, offsets: newOffsets(), reader: kafkago.NewReader(kafkago.ReaderConfig{
		Brokers: c.cfg.Brokers,
		Dialer:  c.cfg.conn.dialer(), // TLS and SASL (security.go)
		// One group per topic: a reader joining or leaving then rebalances
		// only its own topic, not every tier at once.
		GroupID:          c.cfg.GroupID + "." + name,
		Topic:            topic,
		MinBytes:         1,
		MaxBytes:         8 << 20,
		MaxWait:          250 * time.Millisecond,
		ReadBackoffMin:   20 * time.Millisecond,
		ReadBackoffMax:   500 * time.Millisecond,
		StartOffset:      kafkago.FirstOffset, // a new group must not skip jobs published before it joined
		CommitInterval:   0,
		JoinGroupBackoff: 500 * time.Millisecond,
		// A crashed process's partitions move to the survivors after the
		// session timeout; kafka-go's 30 s default stalls them too long.
		SessionTimeout:    10 * time.Second,
		HeartbeatInterval: time.Second,
		RebalanceTimeout:  10 * time.Second,
		Logger:            nil,
		ErrorLogger:       kafkago.LoggerFunc(func(msg string, args ...any) { c.log.Debug(fmt.Sprintf(msg, args...), "component", "kafka-reader") }),
	})}
}

// Run fetches until ctx ends, committing finished offsets as it goes.
// It returns once fetching has stopped; call Close after the dispatcher
// has drained to commit the last offsets and leave the group.
func (c *Consumer) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, r := range c.readers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			c.fetchLoop(ctx, r)
		}()
		go func() {
			defer wg.Done()
			c.commitLoop(ctx, r)
		}()
	}
	wg.Wait()
	// Jobs still waiting to be due stay uncommitted for the next owner.
	c.mu.Lock()
	for t := range c.timers {
		if t.Stop() {
			c.scheduled.Done()
		}
		delete(c.timers, t)
	}
	c.mu.Unlock()
	c.scheduled.Wait()
	return nil
}

// Close commits what is finished and closes the readers.
func (c *Consumer) Close(ctx context.Context) error {
	var errs []error
	for _, r := range c.readers {
		c.commit(ctx, r)
		if err := r.reader.Close(); err != nil {
			errs = append(errs, fmt.Errorf("close reader %s: %w", r.topic, err))
		}
	}
	return errors.Join(errs...)
}

func (c *Consumer) fetchLoop(ctx context.Context, r *topicReader) {
	for {
		m, err := r.reader.FetchMessage(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			level := slog.LevelWarn
			if transient(err) {
				level = slog.LevelDebug
			}
			c.log.Log(ctx, level, "kafka fetch failed", "topic", r.topic, "err", err)
			sleep(ctx, 200*time.Millisecond)
			continue
		}
		c.log.Debug("fetched job", "topic", r.topic, "partition", m.Partition, "offset", m.Offset)
		r.offsets.fetched(m.Partition, m.Offset)
		done := func() { r.offsets.done(m.Partition, m.Offset) }
		job, err := decodeJob(m)
		if err != nil {
			c.log.Error("dropping undecodable job", "topic", r.topic, "partition", m.Partition, "offset", m.Offset, "err", err)
			done()
			continue
		}
		if jobtrace.Traced(job) {
			c.traceReceive(ctx, r, m, &job)
		}
		if r.tier == nil {
			c.observeLag(r, job.AcceptedAt)
			if err := c.sub.Submit(ctx, job, done); err != nil {
				return
			}
			continue
		}
		// Within a tier no message enqueued after this one can be due
		// before its enqueue time plus the tier's read-ahead delay; wait
		// for that before reading further, then hold it until due.
		if !c.sleepUntil(ctx, job.EnqueuedAt.Add(r.tier.ReadAheadDelay())) {
			return
		}
		c.scheduleAt(ctx, r, job, done)
	}
}

// traceReceive records the receipt of a traced job as a consumer span,
// the child of the producer's span, and makes it the parent of what the
// dispatcher does with the job (the attempt, maybe much later for a
// retry tier's job).
func (c *Consumer) traceReceive(ctx context.Context, r *topicReader, m kafkago.Message, job *model.Job) {
	_, span := jobtrace.StartFromJob(ctx, c.tracer, *job, "receive "+r.name,
		trace.WithSpanKind(trace.SpanKindConsumer),
		trace.WithAttributes(semconv.MessagingSystemKafka, semconv.MessagingOperationTypeReceive,
			semconv.MessagingOperationName("receive"), semconv.MessagingDestinationName(r.name),
			semconv.MessagingConsumerGroupName(c.cfg.GroupID+"."+r.name),
			semconv.MessagingDestinationPartitionID(strconv.Itoa(m.Partition)), semconv.MessagingKafkaOffset(int(m.Offset))),
		trace.WithAttributes(jobtrace.Attributes(*job)...))
	jobtrace.SetSpanContext(job, span.SpanContext())
	span.End()
}

// observeLag reports how late a job is handed on after it was due.
func (c *Consumer) observeLag(r *topicReader, due time.Time) {
	if c.cfg.Lag != nil && !due.IsZero() {
		c.cfg.Lag.ObserveLag(r.name, c.cfg.Now().Sub(due))
	}
}

// scheduleAt submits job when it is due. Waiting does not block the
// fetch loop, and kafka-go's heartbeats keep the group membership.
func (c *Consumer) scheduleAt(ctx context.Context, r *topicReader, job model.Job, done func()) {
	wait := job.DueAt.Sub(c.cfg.Now())
	if wait <= 0 {
		c.observeLag(r, job.DueAt)
		_ = c.sub.Submit(ctx, job, done) // an error means shutdown: the job stays uncommitted
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if ctx.Err() != nil {
		return
	}
	c.scheduled.Add(1)
	var t *time.Timer
	t = time.AfterFunc(wait, func() {
		defer c.scheduled.Done()
		c.mu.Lock()
		delete(c.timers, t)
		c.mu.Unlock()
		c.observeLag(r, job.DueAt)
		_ = c.sub.Submit(ctx, job, done) // an error means shutdown: the job stays uncommitted
	})
	c.timers[t] = struct{}{}
}

func (c *Consumer) commitLoop(ctx context.Context, r *topicReader) {
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			c.commit(ctx, r)
			if c.cfg.Lag != nil {
				c.cfg.Lag.ObserveLagMessages(r.name, r.reader.Stats().Lag)
			}
		}
	}
}

func (c *Consumer) commit(ctx context.Context, r *topicReader) {
	for part, off := range r.offsets.committable() {
		// CommitMessages commits message.Offset+1.
		err := r.reader.CommitMessages(ctx, kafkago.Message{Topic: r.topic, Partition: part, Offset: off - 1})
		if err != nil {
			if ctx.Err() == nil {
				c.log.Warn("kafka commit failed", "topic", r.topic, "partition", part, "offset", off, "err", err)
			}
			continue
		}
		r.offsets.markCommitted(part, off)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// sleepUntil waits until t; false if ctx ended first.
func (c *Consumer) sleepUntil(ctx context.Context, t time.Time) bool {
	d := t.Sub(c.cfg.Now())
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// transient reports errors a broker gives while leadership settles (new
// topics, a restarted broker); the reader retries them by itself.
func transient(err error) bool {
	return errors.Is(err, kafkago.NotLeaderForPartition) || errors.Is(err, kafkago.LeaderNotAvailable) ||
		errors.Is(err, kafkago.UnknownTopicOrPartition) || errors.Is(err, kafkago.RebalanceInProgress)
}
