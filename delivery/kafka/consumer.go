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

// fetchMaxWait is how long the broker holds a fetch of a partition with
// nothing new. A message ends the wait at once (a fetch asks for one
// byte), so it costs no latency; it sets how often an idle partition is
// asked again, and how long stopping a reader waits for its fetch to
// return.
const fetchMaxWait = 2 * time.Second

// Consumer reads the deliveries topic and every retry tier, one consumer
// group per topic, and hands jobs to a Submitter.
//
// The group only assigns partitions: each assigned partition is read by a
// reader of its own, which keeps reading when the group's generation ends
// and stops only when a later generation gives the partition to another
// process. kafka-go's group readers stop every partition at the first
// failed heartbeat, so the death of the broker that coordinates a group
// (a routine rolling restart) stalled all of its partitions until a new
// coordinator was elected; now it only delays offset commits, and a
// broker's death pauses the partitions it led, no others.
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
	group   *kafkago.ConsumerGroup
	offsets *offsets

	mu sync.Mutex
	// gen is the group's current generation (nil between two): offsets
	// are committed through it.
	gen *kafkago.Generation
	// parts are the partitions this process reads now.
	parts       map[int]*partitionReader
	epoch       uint64
	generations int
	wg          sync.WaitGroup
}

// partitionReader reads one partition until cancelled.
type partitionReader struct {
	partition int
	epoch     uint64
	reader    *kafkago.Reader
	cancel    context.CancelFunc
	done      chan struct{}
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
	r, err := c.newReader(model.TopicDeliveries, nil)
	if err != nil {
		return nil, err
	}
	c.readers = append(c.readers, r)
	for i := range tiers {
		r, err := c.newReader(tiers[i].Name, &tiers[i])
		if err != nil {
			return nil, err
		}
		c.readers = append(c.readers, r)
	}
	return c, nil
}

func (c *Consumer) newReader(name string, tier *dispatch.Tier) (*topicReader, error) {
	topic := c.cfg.topic(name)
	dialer := c.cfg.conn.dialer() // TLS and SASL (security.go)
	if dialer == nil {
		dialer = kafkago.DefaultDialer
	}
	group, err := kafkago.NewConsumerGroup(kafkago.ConsumerGroupConfig{
		// One group per topic: a reader joining or leaving then rebalances
		// only its own topic, not every tier at once.
		ID:      c.cfg.GroupID + "." + name,
		Brokers: c.cfg.Brokers,
		Dialer:  dialer,
		Topics:  []string{topic},
		// A crashed process's partitions move to the survivors after the
		// session timeout; kafka-go's 30 s default stalls them too long.
		SessionTimeout:         10 * time.Second,
		HeartbeatInterval:      time.Second,
		RebalanceTimeout:       10 * time.Second,
		JoinGroupBackoff:       500 * time.Millisecond,
		WatchPartitionChanges:  true,
		PartitionWatchInterval: 10 * time.Second,
		StartOffset:            kafkago.FirstOffset, // a new group must not skip jobs published before it joined
		ErrorLogger:            kafkago.LoggerFunc(func(msg string, args ...any) { c.log.Debug(fmt.Sprintf(msg, args...), "component", "kafka-group") }),
	})
	if err != nil {
		return nil, fmt.Errorf("consumer group for %s: %w", topic, err)
	}
	return &topicReader{name: name, topic: topic, tier: tier, group: group, offsets: newOffsets(),
		parts: map[int]*partitionReader{}}, nil
}

// Run fetches until ctx ends, committing finished offsets as it goes.
// It returns once fetching has stopped; call Close after the dispatcher
// has drained to commit the last offsets and leave the groups.
func (c *Consumer) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	for _, r := range c.readers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			c.assignLoop(ctx, r)
		}()
		go func() {
			defer wg.Done()
			c.commitLoop(ctx, r)
		}()
	}
	wg.Wait()
	for _, r := range c.readers {
		r.wg.Wait() // the partitions' fetch loops end with ctx
	}
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

// assignLoop follows the group's generations: each one's assignment
// starts readers for the partitions newly this process's and stops those
// it lost; partitions kept read on without a pause.
func (c *Consumer) assignLoop(ctx context.Context, r *topicReader) {
	for {
		gen, err := r.group.Next(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			c.log.Debug("kafka group join failed; reading on with the partitions held", "topic", r.topic, "err", err)
			sleep(ctx, 200*time.Millisecond)
			continue
		}
		c.assign(ctx, r, gen)
		ended := make(chan struct{})
		gen.Start(func(gctx context.Context) {
			<-gctx.Done()
			close(ended)
		})
		select {
		case <-ended:
		case <-ctx.Done():
		}
		r.mu.Lock()
		if r.gen == gen {
			r.gen = nil
		}
		r.mu.Unlock()
		if ctx.Err() != nil {
			return
		}
	}
}

// assign applies gen's assignment to r's partition readers.
func (c *Consumer) assign(ctx context.Context, r *topicReader, gen *kafkago.Generation) {
	assigned := map[int]int64{}
	for _, pa := range gen.Assignments[r.topic] {
		assigned[pa.ID] = pa.Offset
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gen = gen
	r.generations++
	for p, pr := range r.parts {
		if _, ok := assigned[p]; !ok {
			// Its jobs under way finish, but report done to nothing: the
			// partition's new owner reads on from the last commit.
			pr.cancel()
			delete(r.parts, p)
			r.offsets.drop(p)
		}
	}
	for p, off := range assigned {
		if _, ok := r.parts[p]; ok {
			continue
		}
		r.epoch++
		r.offsets.reset(p, r.epoch, off)
		reader := kafkago.NewReader(kafkago.ReaderConfig{
			Brokers:        c.cfg.Brokers,
			Dialer:         c.cfg.conn.dialer(),
			Topic:          r.topic,
			Partition:      p,
			MinBytes:       1,
			MaxBytes:       8 << 20,
			MaxWait:        fetchMaxWait,
			ReadBackoffMin: 20 * time.Millisecond,
			ReadBackoffMax: 250 * time.Millisecond, // a partition that changed leader is read again soon
			ErrorLogger:    kafkago.LoggerFunc(func(msg string, args ...any) { c.log.Debug(fmt.Sprintf(msg, args...), "component", "kafka-reader") }),
		})
		start := off
		if start < 0 {
			start = kafkago.FirstOffset // nothing committed yet
		}
		if err := reader.SetOffset(start); err != nil {
			c.log.Warn("kafka reader offset", "topic", r.topic, "partition", p, "err", err)
		}
		pctx, cancel := context.WithCancel(ctx)
		pr := &partitionReader{partition: p, epoch: r.epoch, reader: reader, cancel: cancel, done: make(chan struct{})}
		r.parts[p] = pr
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			defer close(pr.done)
			defer reader.Close()
			c.fetchLoop(pctx, r, pr)
		}()
	}
}

// Close commits what is finished, stops reading and leaves the groups.
func (c *Consumer) Close(ctx context.Context) error {
	var errs []error
	for _, r := range c.readers {
		c.commit(ctx, r)
	}
	// Every partition is stopped before any is waited for: a reader ends
	// only when its fetch returns, after at most fetchMaxWait, and one
	// such wait for all of them is enough.
	for _, r := range c.readers {
		r.mu.Lock()
		for _, pr := range r.parts {
			pr.cancel()
		}
		r.mu.Unlock()
	}
	for _, r := range c.readers {
		r.mu.Lock()
		for p, pr := range r.parts {
			<-pr.done
			delete(r.parts, p)
		}
		r.mu.Unlock()
		if err := r.group.Close(); err != nil {
			errs = append(errs, fmt.Errorf("leave group of %s: %w", r.topic, err))
		}
	}
	return errors.Join(errs...)
}

func (c *Consumer) fetchLoop(ctx context.Context, r *topicReader, pr *partitionReader) {
	for {
		m, err := pr.reader.FetchMessage(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			level := slog.LevelWarn
			if transient(err) {
				level = slog.LevelDebug
			}
			c.log.Log(ctx, level, "kafka fetch failed", "topic", r.topic, "partition", pr.partition, "err", err)
			sleep(ctx, 200*time.Millisecond)
			continue
		}
		c.log.Debug("fetched job", "topic", r.topic, "partition", m.Partition, "offset", m.Offset)
		r.offsets.fetchedIn(m.Partition, pr.epoch, m.Offset)
		done := func() { r.offsets.doneIn(m.Partition, pr.epoch, m.Offset) }
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
				c.cfg.Lag.ObserveLagMessages(r.name, r.lag())
			}
		}
	}
}

// lag is the messages not yet fetched over the partitions read here.
func (r *topicReader) lag() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	var n int64
	for _, pr := range r.parts {
		n += max(pr.reader.Stats().Lag, 0)
	}
	return n
}

// commit commits the finished prefix of each partition through the
// current generation; between generations it waits for the next.
func (c *Consumer) commit(ctx context.Context, r *topicReader) {
	r.mu.Lock()
	gen := r.gen
	r.mu.Unlock()
	if gen == nil {
		return
	}
	offs := r.offsets.committable()
	if len(offs) == 0 {
		return
	}
	if err := gen.CommitOffsets(map[string]map[int]int64{r.topic: offs}); err != nil {
		if ctx.Err() == nil {
			c.log.Warn("kafka commit failed", "topic", r.topic, "err", err)
		}
		return
	}
	for part, off := range offs {
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
