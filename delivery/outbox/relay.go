package outbox

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/codes"
	semconv "go.opentelemetry.io/otel/semconv/v1.40.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/internal/backoff"
	"github.com/ferry-dev/ferry/delivery/internal/jobtrace"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/delivery/telemetry"
	"github.com/ferry-dev/ferry/internal/batch"
	"github.com/ferry-dev/ferry/internal/clock"
)

// RelayConfig tunes the outbox relay.
type RelayConfig struct {
	// SweepAfter is how old an outbox row must be before the sweeper
	// treats it as abandoned by a crashed process (default 15 s).
	SweepAfter time.Duration
	// SweepInterval is how often the sweeper looks (default 2 s).
	SweepInterval time.Duration
	// Buffer bounds jobs waiting in memory; beyond it the sweeper
	// publishes them from Postgres (default 65536).
	Buffer int
	// Metrics, when set, receives the outbox backlog.
	Metrics *telemetry.Metrics
	// Tracing makes a producer span for each traced job published (nil:
	// none).
	Tracing trace.TracerProvider
	// Stream, when set, publishes committed jobs without waiting for
	// Kafka between batches (model.Streamer): a partition that lost its
	// leader then holds back only its own jobs. Without it each batch is
	// published and acknowledged before the next (the sweeper always
	// works that way).
	Stream model.Streamer
	// MaxInFlight bounds the jobs streamed and not yet acknowledged
	// (default 65536); at the bound the relay waits.
	MaxInFlight int
}

// Relay publishes committed outbox jobs to the deliveries topic and
// deletes their rows; its sweeper republishes rows left behind by a crash
// between commit and publish (docs/delivery.md).
type Relay struct {
	db    *gorm.DB
	pub   model.Publisher
	cfg   RelayConfig
	log   *slog.Logger
	clock clock.Clock
	ch    chan model.Job
	// published carries the outbox keys of jobs Kafka has, to a deleter
	// goroutine, so the next publish does not wait for a delete.
	published chan []outboxKey
	// pending counts jobs handed to this relay whose rows are not yet
	// deleted; busySince is when it last rose from zero (unix ns). Rows
	// created since then may still be on their way through this relay,
	// so the sweeper leaves them alone (see sweepCutoff).
	pending   atomic.Int64
	busySince atomic.Int64
	tracer    trace.Tracer
	// inFlight holds a slot per streamed job until Kafka acknowledges it.
	inFlight chan struct{}
	// spans are the producer spans of streamed traced jobs, ended by
	// their acknowledgement (empty with tracing off).
	spans sync.Map // outboxKey → trace.Span
}

type outboxKey struct {
	deliveryID uuid.UUID
	at         time.Time
}

// NewRelay returns a Relay; call Run to start it. clk nil is the system
// clock.
func NewRelay(db *gorm.DB, pub model.Publisher, cfg RelayConfig, log *slog.Logger, clk clock.Clock) *Relay {
	cfg.SweepAfter = cmp.Or(cfg.SweepAfter, 15*time.Second)
	cfg.SweepInterval = cmp.Or(cfg.SweepInterval, 2*time.Second)
	cfg.Buffer = cmp.Or(cfg.Buffer, 1<<16)
	cfg.MaxInFlight = cmp.Or(cfg.MaxInFlight, 1<<16)
	if cfg.Tracing == nil {
		cfg.Tracing = noop.NewTracerProvider()
	}
	return &Relay{db: db, pub: pub, cfg: cfg, log: log, clock: clock.Or(clk), ch: make(chan model.Job, cfg.Buffer), published: make(chan []outboxKey, 256),
		tracer: cfg.Tracing.Tracer("github.com/ferry-dev/ferry/delivery/outbox"), inFlight: make(chan struct{}, cfg.MaxInFlight)}
}

// Enqueue hands committed jobs to the publisher without blocking; a job
// that does not fit stays in the outbox for the sweeper.
func (r *Relay) Enqueue(jobs []model.Job) {
	now := r.clock.Now()
	for _, j := range jobs {
		r.cfg.Metrics.ObserveStage(telemetry.StageCommitted, j, now) // callers enqueue right after their commit
		if r.pending.Add(1) == 1 {
			r.busySince.Store(now.UnixNano())
		}
		select {
		case r.ch <- j:
		default:
			r.pending.Add(-1)
			r.log.Warn("relay buffer full; leaving job to the sweeper", "delivery_id", j.DeliveryID)
		}
	}
}

// Run publishes until ctx ends. Jobs still buffered then stay in the
// outbox and are swept by the next process.
func (r *Relay) Run(ctx context.Context) error {
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		r.sweepLoop(ctx)
	}()
	go func() {
		defer wg.Done()
		r.deleteLoop(ctx)
	}()
	defer wg.Wait()
	const maxBatch = 2000
	batch := make([]model.Job, 0, maxBatch)
	for {
		select {
		case <-ctx.Done():
			return nil
		case j := <-r.ch:
			batch = append(batch[:0], j)
		}
	drain:
		for len(batch) < maxBatch {
			select {
			case j := <-r.ch:
				batch = append(batch, j)
			default:
				break drain
			}
		}
		if r.cfg.Stream != nil {
			if err := r.stream(ctx, batch); err != nil {
				r.pending.Add(-int64(len(batch))) // the rows stay, for a sweeper
				r.log.Warn("relay stream stopped; outbox keeps the jobs", "err", err, "jobs", len(batch))
			}
			continue
		}
		if err := r.publish(ctx, batch); err != nil {
			r.pending.Add(-int64(len(batch))) // the rows stay, for a sweeper
			r.log.Warn("relay publish stopped; outbox keeps the jobs", "err", err, "jobs", len(batch))
		}
	}
}

// Drain waits, until ctx ends, for the jobs handed to this relay to be
// published and their rows deleted, so a graceful stop leaves no row for
// the next process's sweeper to publish again. Call it before Run's
// context ends.
func (r *Relay) Drain(ctx context.Context) {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for r.pending.Load() > 0 {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// stream hands jobs to the Streamer, taking an in-flight slot per job,
// and returns without waiting for Kafka; acked takes it from there.
func (r *Relay) stream(ctx context.Context, jobs []model.Job) error {
	msgs := make([]model.Message, len(jobs))
	for i, j := range jobs {
		select {
		case r.inFlight <- struct{}{}:
		case <-ctx.Done():
			for range i {
				<-r.inFlight
			}
			return ctx.Err()
		}
		msgs[i] = model.Message{Topic: model.TopicDeliveries, Job: j}
	}
	if spans := r.startSends(ctx, msgs); len(spans) > 0 {
		k := 0
		for _, m := range msgs {
			if jobtrace.Traced(m.Job) {
				r.spans.Store(outboxKey{m.Job.DeliveryID, m.Job.OutboxAt}, spans[k])
				k++
			}
		}
	}
	return r.send(ctx, msgs)
}

// send streams msgs, their in-flight slots already taken.
func (r *Relay) send(ctx context.Context, msgs []model.Message) error {
	err := r.cfg.Stream.Send(ctx, msgs, func(acked []model.Message, err error) { r.acked(ctx, acked, err) })
	if err != nil {
		for range msgs {
			<-r.inFlight
		}
		r.endSpans(msgs, err)
	}
	return err
}

// acked takes a batch Kafka acknowledged to the deleter, or sends again
// one the stream gave up on (its partition had no leader for longer than
// the stream retries): the rows are still there, and while this process
// holds them the sweeper leaves them alone.
func (r *Relay) acked(ctx context.Context, msgs []model.Message, err error) {
	if err != nil {
		if ctx.Err() != nil {
			r.release(msgs, err)
			return
		}
		r.log.Warn("kafka did not take jobs in time; sending them again", "err", err, "jobs", len(msgs))
		go func() {
			if !sleep(ctx, time.Second) || r.send(ctx, msgs) != nil {
				r.release(msgs, err)
			}
		}()
		return
	}
	now := r.clock.Now()
	keys := make([]outboxKey, len(msgs))
	for i, m := range msgs {
		r.cfg.Metrics.ObserveStage(telemetry.StagePublished, m.Job, now)
		keys[i] = outboxKey{m.Job.DeliveryID, m.Job.OutboxAt}
		<-r.inFlight
	}
	r.endSpans(msgs, nil)
	select {
	case r.published <- keys:
	case <-ctx.Done():
		// The rows stay; the next sweep republishes them.
		r.pending.Add(-int64(len(keys)))
	}
}

// release gives up on msgs in this process: their rows stay for a
// sweeper.
func (r *Relay) release(msgs []model.Message, err error) {
	for range msgs {
		<-r.inFlight
	}
	r.pending.Add(-int64(len(msgs)))
	r.endSpans(msgs, err)
}

// endSpans ends the producer spans of msgs' traced jobs.
func (r *Relay) endSpans(msgs []model.Message, err error) {
	for _, m := range msgs {
		if !jobtrace.Traced(m.Job) {
			continue
		}
		if span, ok := r.spans.LoadAndDelete(outboxKey{m.Job.DeliveryID, m.Job.OutboxAt}); ok {
			endSends([]trace.Span{span.(trace.Span)}, err)
		}
	}
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// publish writes jobs to Kafka, retrying while ctx lives, then hands
// their outbox rows to deleteLoop.
func (r *Relay) publish(ctx context.Context, jobs []model.Job) error {
	msgs := make([]model.Message, len(jobs))
	for i, j := range jobs {
		m := model.Message{Topic: model.TopicDeliveries, Job: j}
		msgs[i] = m
	}
	spans := r.startSends(ctx, msgs)
	err := backoff.Until(ctx, r.log, "publish deliveries", func() error { return r.pub.Publish(ctx, msgs) })
	endSends(spans, err)
	if err != nil {
		return err
	}
	now := r.clock.Now()
	for _, j := range jobs {
		r.cfg.Metrics.ObserveStage(telemetry.StagePublished, j, now)
	}
	keys := make([]outboxKey, len(jobs))
	for i, j := range jobs {
		keys[i] = outboxKey{j.DeliveryID, j.OutboxAt}
	}
	select {
	case r.published <- keys:
	case <-ctx.Done():
		// The rows stay; the next sweep republishes them, which the
		// dispatcher tolerates.
	}
	return nil
}

// deletePace is how long after one delete of outbox rows began the next
// may begin. Nothing waits on the deletes but a graceful stop (Drain)
// and the sweeper, which leaves rows alone while this relay is busy;
// each costs PostgreSQL a statement and a commit, and unpaced, at 1,000
// jobs/s, they held about seven rows each (docs/benchmarks.md,
// 2026-11-28 04:36). 50 ms rather than 20 was measured together with the
// attempt log's pace (attemptlog.DefaultPace).
const deletePace = 50 * time.Millisecond

// maxDelete bounds the outbox rows one statement deletes.
const maxDelete = 10_000

// deleteLoop deletes the outbox rows of published jobs, at most one
// statement per deletePace, merging what piled up meanwhile.
func (r *Relay) deleteLoop(ctx context.Context) {
	pace := batch.Pace[[]outboxKey]{Every: deletePace}
	for {
		var keys []outboxKey
		select {
		case <-ctx.Done():
			return
		case keys = <-r.published:
		}
		pace.Fill(ctx, r.published, func(k []outboxKey) { keys = append(keys, k...) },
			func() bool { return len(keys) >= maxDelete })
		ids := make([]uuid.UUID, len(keys))
		ats := make([]time.Time, len(keys))
		for i, k := range keys {
			ids[i], ats[i] = k.deliveryID, k.at
		}
		err := backoff.Until(ctx, r.log, "delete outbox rows", func() error {
			return deleteOutboxRows(r.db.WithContext(ctx), ids, ats)
		})
		r.pending.Add(-int64(len(keys)))
		if err != nil {
			return
		}
	}
}

// sweepLoop runs RunOnce every SweepInterval until ctx ends.
func (r *Relay) sweepLoop(ctx context.Context) {
	t := r.clock.NewTicker(r.cfg.SweepInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C():
		}
		if err := r.RunOnce(ctx); err != nil && ctx.Err() == nil {
			r.log.Warn("outbox sweep failed", "err", err)
		}
	}
}

// RunOnce is one round of the sweeper that Run ticks every
// SweepInterval: it samples the backlog gauge and republishes abandoned
// outbox rows, batch after batch, until none is left.
func (r *Relay) RunOnce(ctx context.Context) error {
	r.sampleBacklog(ctx)
	for {
		n, err := r.sweepOnce(ctx)
		if err != nil || n < sweepBatch {
			return err
		}
	}
}

const sweepBatch = 1000

// sweepMaxAge bounds how long a busy relay keeps the sweeper off rows
// created while it was busy: past it, any row is swept.
const sweepMaxAge = 5 * time.Minute

// sweepCutoff is the creation time before which the sweeper republishes
// outbox rows: SweepAfter ago when this relay holds nothing; otherwise no
// later than when it last became busy, since newer rows may still be on
// their way through it (republishing them would only duplicate work, and
// under a backlog would make the sweeper a second, duplicating publisher).
func (r *Relay) sweepCutoff() time.Time {
	now := r.clock.Now()
	cutoff := now.Add(-r.cfg.SweepAfter)
	if r.pending.Load() > 0 {
		if busy := time.Unix(0, r.busySince.Load()).Add(-time.Second); busy.Before(cutoff) {
			cutoff = busy
		}
		if oldest := now.Add(-sweepMaxAge); cutoff.Before(oldest) {
			cutoff = oldest
		}
	}
	return cutoff
}

// sampleBacklog sets the outbox backlog gauge; the count is capped so a
// huge backlog does not make sampling expensive.
func (r *Relay) sampleBacklog(ctx context.Context) {
	if r.cfg.Metrics == nil {
		return
	}
	var n int64
	if err := r.db.WithContext(ctx).Raw(`SELECT count(*) FROM (SELECT 1 FROM outbox LIMIT 100000) o`).Scan(&n).Error; err != nil {
		return
	}
	r.cfg.Metrics.OutboxBacklog.Set(float64(n))
}

// sweepOnce republishes one batch of abandoned outbox rows. Rows are
// locked with SKIP LOCKED so replicas sweep disjoint rows.
func (r *Relay) sweepOnce(ctx context.Context) (int, error) {
	var n int
	err := r.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []struct {
			DeliveryID  uuid.UUID
			Job         []byte
			CreatedAt   time.Time
			TraceParent *string
		}
		err := tx.Raw(`SELECT delivery_id, job::text AS job, created_at, traceparent FROM outbox WHERE created_at < ?
			ORDER BY created_at LIMIT ? FOR UPDATE SKIP LOCKED`, r.sweepCutoff(), sweepBatch).Scan(&rows).Error
		if err != nil {
			return fmt.Errorf("select outbox: %w", err)
		}
		n = len(rows)
		if n == 0 {
			return nil
		}
		msgs := make([]model.Message, 0, n)
		ids := make([]uuid.UUID, n)
		ats := make([]time.Time, n)
		for i, row := range rows {
			var j model.Job
			if err := json.Unmarshal(row.Job, &j); err != nil {
				return fmt.Errorf("decode outbox job %s: %w", row.DeliveryID, err)
			}
			if row.TraceParent != nil {
				j.TraceParent = *row.TraceParent
			}
			m := model.Message{Topic: model.TopicDeliveries, Job: j}
			msgs = append(msgs, m)
			ids[i], ats[i] = row.DeliveryID, row.CreatedAt
		}
		spans := r.startSends(ctx, msgs)
		err = r.pub.Publish(ctx, msgs)
		endSends(spans, err)
		if err != nil {
			return fmt.Errorf("republish outbox: %w", err)
		}
		r.log.Info("outbox sweeper republished jobs", "count", n)
		return deleteOutboxRows(tx, ids, ats)
	})
	return n, err
}

// startSends starts a producer span for each traced job of msgs, under
// the job's own trace, and makes it the context the job carries on to
// Kafka, so the consumer's span is its child. It returns nil, having
// done nothing, when no job is traced (tracing off).
func (r *Relay) startSends(ctx context.Context, msgs []model.Message) []trace.Span {
	var spans []trace.Span
	for i := range msgs {
		job := &msgs[i].Job
		if !jobtrace.Traced(*job) {
			continue
		}
		_, span := jobtrace.StartFromJob(ctx, r.tracer, *job, "send "+msgs[i].Topic,
			trace.WithSpanKind(trace.SpanKindProducer),
			trace.WithAttributes(semconv.MessagingSystemKafka, semconv.MessagingOperationTypeSend,
				semconv.MessagingOperationName("send"), semconv.MessagingDestinationName(msgs[i].Topic),
				semconv.MessagingBatchMessageCount(len(msgs))),
			trace.WithAttributes(jobtrace.Attributes(*job)...))
		jobtrace.SetSpanContext(job, span.SpanContext())
		spans = append(spans, span)
	}
	return spans
}

// endSends ends the spans of startSends with the publish's result.
func endSends(spans []trace.Span, err error) {
	for _, span := range spans {
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, "publish failed")
		}
		span.End()
	}
}

// deleteOutboxRows deletes the outbox rows keyed (ids[i], ats[i]), once
// Kafka has their jobs.
func deleteOutboxRows(db *gorm.DB, ids []uuid.UUID, ats []time.Time) error {
	return store.DeleteOutbox(db.Statement.Context, store.Gorm(db), ids, ats)
}
