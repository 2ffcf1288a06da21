package dispatch

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/egress"
	"github.com/ferry-dev/ferry/delivery/internal/backoff"
	"github.com/ferry-dev/ferry/delivery/internal/jobtrace"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/delivery/telemetry"
	"github.com/ferry-dev/ferry/internal/clock"
	"github.com/ferry-dev/ferry/internal/pgval"
	"github.com/ferry-dev/ferry/internal/rowid"
	"github.com/ferry-dev/ferry/internal/seal"
	"github.com/ferry-dev/ferry/ratelimit"
)

// Config tunes the Dispatcher. The caps bound what one worker holds in
// memory; a job arriving over any of them is parked (see lanes.go).
type Config struct {
	Policy RetryPolicy
	// UserAgent is sent on every attempt, e.g. "Ferry/1.2.3".
	UserAgent string
	// EndpointTTL bounds how stale a cached endpoint may be (default 2 s).
	EndpointTTL time.Duration
	// MaxQueued bounds jobs held in memory across all lanes (default
	// 50000). Over it, jobs of tenants holding more than their share of
	// it are parked.
	MaxQueued int
	// MaxQueuedPerEndpoint bounds one endpoint's lane (default 1000).
	MaxQueuedPerEndpoint int
	// MaxQueuedPerTenant bounds what one tenant's lanes hold together
	// (default 10000).
	MaxQueuedPerTenant int
	// MaxInFlightPerTenant bounds one tenant's concurrent HTTP attempts
	// (default 512).
	MaxInFlightPerTenant int
	// MaxTakenPerTenant bounds one tenant's jobs taken from its lanes and
	// not yet done: being attempted, or their next step and attempt log
	// entry being made durable (default 1024). Each holds a goroutine, so
	// a tenant whose endpoints answer faster than the attempt log commits
	// would otherwise hold one per job it has queued.
	MaxTakenPerTenant int
	// Tracing makes the spans of traced jobs' attempts (tracing.go); nil
	// makes none.
	Tracing trace.TracerProvider
	// StateDB, if set, is the pool the state reads use, opened with
	// pgval.OpenLookups and StateConns connections: each read is then
	// planned once per connection instead of at every execution. Nil
	// reads through the dispatcher's db.
	StateDB *gorm.DB
	// Rate keeps each endpoint's bucket of attempts (its
	// rate_limit_per_second), shared by every worker so that retry tiers
	// consumed by other processes do not add up past it; nil keeps the
	// buckets in this process alone.
	Rate RateLimiter
}

// RateLimiter spends tokens of per-key buckets that hold at most
// perSecond tokens and refill perSecond a second (*ratelimit.Limiter).
// wait > 0 means there was none to spend, and says how long until there
// is.
type RateLimiter interface {
	Take(ctx context.Context, key string, perSecond int) (left float64, wait time.Duration)
}

// Dispatcher makes attempts: for each job it checks Postgres, sends the
// signed envelope and classifies the outcome in the job's lane, then
// (off the lane) publishes the next step to Kafka and logs the attempt,
// in that order, and only then lets the consumer commit the job's offset.
type Dispatcher struct {
	db        *gorm.DB
	endpoints *endpointCache
	sender    *egress.Sender
	pub       model.Publisher
	attempts  *attemptlog.Log
	metrics   *telemetry.Metrics
	cfg       Config
	tiers     []Tier
	log       *slog.Logger
	now       func() time.Time
	lanes     *lanes
	states    *stateLoader
	parking   *parkingLot
	tracer    trace.Tracer
}

// NewDispatcher returns a Dispatcher; call Run before submitting jobs.
// clk nil is the system clock.
func NewDispatcher(db *gorm.DB, cipher *seal.Cipher, sender *egress.Sender, pub model.Publisher, attempts *attemptlog.Log,
	metrics *telemetry.Metrics, cfg Config, log *slog.Logger, clk clock.Clock) *Dispatcher {
	clk = clock.Or(clk)
	now := clk.Now
	cfg.EndpointTTL = cmp.Or(cfg.EndpointTTL, 2*time.Second)
	cfg.MaxQueued = cmp.Or(cfg.MaxQueued, 50_000)
	cfg.MaxQueuedPerEndpoint = min(cmp.Or(cfg.MaxQueuedPerEndpoint, 1000), cfg.MaxQueued)
	cfg.MaxQueuedPerTenant = min(cmp.Or(cfg.MaxQueuedPerTenant, 10_000), cfg.MaxQueued)
	cfg.MaxInFlightPerTenant = cmp.Or(cfg.MaxInFlightPerTenant, 512)
	cfg.MaxTakenPerTenant = cmp.Or(cfg.MaxTakenPerTenant, 1024)
	cfg.UserAgent = cmp.Or(cfg.UserAgent, "Ferry/dev")
	if cfg.Tracing == nil {
		cfg.Tracing = noop.NewTracerProvider()
	}
	if cfg.Rate == nil {
		cfg.Rate = ratelimit.NewLimiter(nil, "endpoint", log)
	}
	d := &Dispatcher{
		db: db, endpoints: newEndpointCache(db, cipher, cfg.EndpointTTL, now), sender: sender, pub: pub,
		attempts: attempts, metrics: metrics, cfg: cfg, tiers: cfg.Policy.Tiers(), log: log, now: now,
		states: newStateLoader(cmp.Or(cfg.StateDB, db), cfg.StateDB != nil, metrics.StateBatch), parking: newParkingLot(db, pub, log, clk),
		tracer: cfg.Tracing.Tracer("github.com/ferry-dev/ferry/delivery/dispatch"),
	}
	d.lanes = newLanes(d, cfg)
	return d
}

// waitForRate waits until the endpoint's bucket, shared by every worker
// (Config.Rate), has a token for this attempt, and spends it.
func (d *Dispatcher) waitForRate(ctx context.Context, endpointID uuid.UUID, perSecond int) error {
	for {
		_, wait := d.cfg.Rate.Take(ctx, endpointID.String(), perSecond)
		if wait <= 0 {
			return nil
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// Tiers returns the retry tiers the dispatcher publishes to.
func (d *Dispatcher) Tiers() []Tier { return d.tiers }

// Run lets the dispatcher take jobs and keeps its parking lot (heartbeat,
// sweeping dead workers' parked jobs) until ctx ends. Attempts run under
// ctx: cancelling it aborts those in flight, whose jobs are then handed
// back to Kafka uncommitted. Call Drain before cancelling to let them
// finish.
func (d *Dispatcher) Run(ctx context.Context) error {
	d.lanes.start(ctx)
	err := d.parking.run(ctx)
	d.lanes.wait()
	return err
}

// pendingAttempt is an attempt whose HTTP exchange is over and whose next
// step and log entry are still to be made durable.
type pendingAttempt struct {
	job  model.Job
	rec  attemptlog.Record
	next *model.Message
	log  jobLogger
	// timedOut reports the receiver did not answer in time; the lane
	// lowers its concurrency.
	timedOut bool
	// trace is the attempt's span, parent of the log write's (invalid
	// when the job is untraced).
	trace trace.SpanContext
}

// jobLogger logs with a job's ids, added to each line as it is logged.
// slog's With would format them at once, for every attempt, and at full
// load an attempt logs nothing (its lines are at debug level): that
// formatting was a fifth of what the lanes allocated.
type jobLogger struct {
	log *slog.Logger
	job model.Job
}

// Debug, Info and Warn log msg at their level.
func (l jobLogger) Debug(msg string, args ...any) { l.at(slog.LevelDebug, msg, args) }
func (l jobLogger) Info(msg string, args ...any)  { l.at(slog.LevelInfo, msg, args) }
func (l jobLogger) Warn(msg string, args ...any)  { l.at(slog.LevelWarn, msg, args) }

func (l jobLogger) at(level slog.Level, msg string, args []any) {
	ctx := context.Background()
	if !l.log.Enabled(ctx, level) {
		return
	}
	j := l.job
	l.log.Log(ctx, level, msg, append([]any{"tenant_id", j.TenantID, "event_id", j.EventID, "endpoint_id", j.EndpointID,
		"delivery_id", j.DeliveryID, "attempt", j.Attempt}, args...)...)
}

// maxPrefetchAge bounds how old a prefetched delivery state may be when
// its attempt starts; an older one is read again, since the delivery may
// have moved on (a duplicate finished it, a replay reset it).
const maxPrefetchAge = time.Second

// attempt makes the attempt job asks for, unless Postgres shows it was
// already made or the delivery is finished (then it returns nil, nil).
// pre is the state prefetched when the job was admitted, or nil. An error
// means the job must be tried again.
func (d *Dispatcher) attempt(ctx context.Context, job model.Job, pre *stateRequest) (*pendingAttempt, error) {
	log := jobLogger{d.log, job}
	if pre == nil || d.now().Sub(pre.startedAt) > maxPrefetchAge {
		pre = d.states.prefetch(ctx, job.DeliveryID, d.now())
	}
	st, found, err := pre.wait(ctx)
	if err != nil {
		return nil, fmt.Errorf("load delivery %s: %w", job.DeliveryID, err)
	}
	if found && (st.TenantID != job.TenantID || st.EndpointID != job.EndpointID) {
		// The delivery row is authoritative; a job naming another tenant
		// or endpoint is corrupt or forged and is never sent.
		d.metrics.Skipped.Inc()
		log.Warn("job does not match its delivery row; skipped", "row_tenant_id", st.TenantID, "row_endpoint_id", st.EndpointID)
		return nil, nil
	}
	if !found || st.Status.Finished() || st.AttemptCount >= job.Attempt {
		d.metrics.Skipped.Inc()
		log.Debug("skipping job", "status", st.Status, "attempt_count", st.AttemptCount)
		return nil, nil
	}
	tgt, err := d.endpoints.get(ctx, job.EndpointID)
	if err != nil {
		return nil, err
	}
	if tgt.deleted || !tgt.endpoint.Enabled {
		// Exhausting is final: make sure with a fresh read, so an endpoint
		// re-enabled within the cache's TTL still gets its delivery.
		if tgt, err = d.endpoints.fresh(ctx, job.EndpointID); err != nil {
			return nil, err
		}
	}
	if tgt.deleted || !tgt.endpoint.Enabled {
		return nil, d.exhaustWithoutAttempt(ctx, job, log)
	}
	req, err := d.buildRequest(ctx, job, st, tgt)
	if err != nil {
		return nil, fmt.Errorf("build request of delivery %s: %w", job.DeliveryID, err)
	}
	if req.noSend != "" {
		return d.dropUnsent(job, st, req, log), nil
	}
	if rl := tgt.endpoint.RateLimitPerSecond; rl != nil && *rl > 0 {
		if err := d.waitForRate(ctx, job.EndpointID, *rl); err != nil {
			return nil, fmt.Errorf("rate limit wait: %w", err)
		}
	}
	body, headers := req.body, req.headers

	ctx, span := d.startAttempt(ctx, job, tgt.endpoint.URL)
	if tgt.endpoint.PropagateTrace && span.SpanContext().IsValid() {
		// The receiver joins the attempt's trace; the header is in the
		// attempt log like every header sent.
		propagation.TraceContext{}.Inject(ctx, propagation.HeaderCarrier(headers))
	}
	started := d.now()
	if job.Attempt == 1 && job.Trigger == model.TriggerInitial && !job.AcceptedAt.IsZero() {
		d.metrics.FirstAttempt.Observe(started.Sub(job.AcceptedAt).Seconds())
	}
	d.metrics.ObserveStage(telemetry.StageSent, job, started)
	resp := d.sender.Send(ctx, egress.Request{URL: tgt.endpoint.URL, Headers: headers, Body: body,
		Timeout: time.Duration(tgt.endpoint.TimeoutSeconds) * time.Second})
	d.metrics.ObserveStage(telemetry.StageAnswered, job, started.Add(resp.Duration))
	if ctx.Err() != nil {
		// Shutting down mid-attempt: hand the job back unlogged.
		span.End()
		return nil, ctx.Err()
	}

	rec := attemptlog.Record{TenantID: job.TenantID, Attempt: model.Attempt{
		ID: rowid.New(), DeliveryID: job.DeliveryID, EventID: job.EventID, EndpointID: job.EndpointID,
		AttemptNumber: job.Attempt, Trigger: job.Trigger, Actor: job.Actor, StartedAt: started.UTC(),
		DurationMs: int(resp.Duration.Milliseconds()), RequestHeaders: headers,
	}}
	rec.FirstAttemptAt = firstAttemptAt(job, st, started)
	var reason string
	rec.Outcome, rec.ErrorClass, reason = Classify(resp)
	if resp.Err != nil {
		rec.ErrorMessage = pgval.Text([]byte(pgval.Truncate(resp.Err.Error(), 1000)))
	}
	if resp.Status != 0 {
		status := resp.Status
		rec.ResponseStatus, rec.ResponseHeaders, rec.ResponseBody = &status, resp.Headers, pgval.Text(resp.Body)
		rec.ResponseHeadersTruncated, rec.ResponseBodyTruncated = resp.HeadersTruncated, resp.BodyTruncated
	}
	d.metrics.Attempts.WithLabelValues(string(rec.Outcome), reason).Inc()
	p := &pendingAttempt{job: job, rec: rec, log: log, timedOut: rec.ErrorClass == ErrClassTimeout, trace: span.SpanContext()}
	p.next = d.nextStep(job, &p.rec, resp.RetryAfter)
	if p.next != nil && p.trace.IsValid() {
		// The next attempt (or the dead letter) continues from this one.
		jobtrace.SetSpanContext(&p.next.Job, p.trace)
	}
	endAttempt(span, &p.rec, resp)
	log.Debug("attempt made", "outcome", rec.Outcome, "reason", reason, "status", p.rec.Status)
	return p, nil
}

// firstAttemptAt is when the delivery's first attempt started, for the
// retry window: this attempt's start, unless an earlier one is on record
// (a replay starts a new window).
func firstAttemptAt(job model.Job, st deliveryState, started time.Time) time.Time {
	switch {
	case job.Trigger == model.TriggerReplay:
	case st.FirstAttemptAt != nil:
		return *st.FirstAttemptAt
	case !job.FirstAttemptAt.IsZero():
		return job.FirstAttemptAt
	}
	return started.UTC()
}

// dropUnsent records an attempt that makes no request because the
// endpoint's transformation failed or cancelled the delivery: it is
// dropped (a transformation's result is stored, so trying again would
// fail the same way) and logged with req's error class and message.
func (d *Dispatcher) dropUnsent(job model.Job, st deliveryState, req attemptRequest, log jobLogger) *pendingAttempt {
	started := d.now()
	rec := attemptlog.Record{TenantID: job.TenantID, Attempt: model.Attempt{
		ID: rowid.New(), DeliveryID: job.DeliveryID, EventID: job.EventID, EndpointID: job.EndpointID,
		AttemptNumber: job.Attempt, Trigger: job.Trigger, Actor: job.Actor, StartedAt: started.UTC(),
		Outcome: model.OutcomeDropped, ErrorClass: req.noSend,
		ErrorMessage: pgval.Text([]byte(pgval.Truncate(req.noSendMessage, 1000))),
	}}
	rec.FirstAttemptAt = firstAttemptAt(job, st, started)
	d.metrics.Attempts.WithLabelValues(string(rec.Outcome), req.noSend).Inc()
	p := &pendingAttempt{job: job, rec: rec, log: log}
	p.next = d.nextStep(job, &p.rec, 0)
	log.Info("delivery dropped by the endpoint's transformation", "error_class", req.noSend)
	return p
}

// complete makes p durable: the next step is acknowledged by Kafka, then
// the attempt is committed in the attempt log. It returns nil only when
// both are; the job's offset may then be committed.
func (d *Dispatcher) complete(ctx context.Context, p *pendingAttempt) error {
	if p.next != nil {
		if err := backoff.Until(ctx, p.log, "publish next step", func() error { return d.pub.Publish(ctx, []model.Message{*p.next}) }); err != nil {
			return err
		}
	}
	rctx, span := d.traceRecord(ctx, p)
	err := backoff.Until(rctx, p.log, "log attempt", func() error { return d.attempts.Record(rctx, p.rec) })
	span.End()
	if err != nil {
		return err
	}
	if p.rec.Status == model.StatusSucceeded && !p.job.AcceptedAt.IsZero() {
		d.metrics.ToSuccess.Observe(d.now().Sub(p.job.AcceptedAt).Seconds())
		d.metrics.ObserveStage(telemetry.StageLogged, p.job, d.now())
	}
	return nil
}

// nextStep sets rec's resulting status and returns the message that
// carries the delivery on: a retry-tier job, a dead-topic record, or nil.
func (d *Dispatcher) nextStep(job model.Job, rec *attemptlog.Record, retryAfter time.Duration) *model.Message {
	switch rec.Outcome {
	case model.OutcomeSuccess:
		rec.Status = model.StatusSucceeded
		return nil
	case model.OutcomeDropped:
		rec.Status = model.StatusDropped
		return d.deadMessage(job, model.StatusDropped)
	}
	now := d.now()
	due, exhausted := d.cfg.Policy.Next(job.Attempt, rec.FirstAttemptAt, now, retryAfter)
	if exhausted {
		rec.Status = model.StatusExhausted
		return d.deadMessage(job, model.StatusExhausted)
	}
	rec.Status = model.StatusRetrying
	dueUTC := due.UTC()
	rec.NextAttemptAt = &dueUTC
	nextJob := job
	nextJob.Attempt = job.Attempt + 1
	if job.Trigger != model.TriggerReplay {
		nextJob.Trigger = model.TriggerRetry
	}
	nextJob.FirstAttemptAt = rec.FirstAttemptAt
	nextJob.DueAt = dueUTC
	nextJob.EnqueuedAt = now.UTC()
	return &model.Message{Topic: TierFor(d.tiers, due.Sub(now)).Name, Job: nextJob}
}

func (d *Dispatcher) deadMessage(job model.Job, status model.Status) *model.Message {
	d.metrics.DeadLettered.WithLabelValues(string(status)).Inc()
	return &model.Message{Topic: model.TopicDead, Job: job}
}

// exhaustWithoutAttempt finishes a delivery whose endpoint was disabled or
// deleted: nothing is sent, and the delivery stays replayable.
func (d *Dispatcher) exhaustWithoutAttempt(ctx context.Context, job model.Job, log jobLogger) error {
	m := d.deadMessage(job, model.StatusExhausted)
	if err := backoff.Until(ctx, log, "publish dead letter", func() error { return d.pub.Publish(ctx, []model.Message{*m}) }); err != nil {
		return err
	}
	if err := store.ExhaustUnattempted(ctx, store.Gorm(d.db), job.DeliveryID, d.now().UTC()); err != nil {
		return err
	}
	log.Info("endpoint disabled or deleted; delivery exhausted without attempt")
	return nil
}

// Submit admits job; done is called once the job is handled and may be
// committed. It never waits on one tenant: a job over its lane's, its
// tenant's or this worker's cap is parked in Postgres (done is then
// called once that is durable) and taken back as soon as there is room.
// It blocks only while parking itself is backed up, and returns an error
// once the dispatcher has stopped (the job stays uncommitted).
func (d *Dispatcher) Submit(ctx context.Context, job model.Job, done func()) error {
	return d.lanes.submit(ctx, job, done)
}

// Drain waits until every admitted job has been handled, or ctx ends.
// Parked jobs stay parked; another worker (or the next run of this one)
// republishes them.
func (d *Dispatcher) Drain(ctx context.Context) error {
	return d.lanes.drain(ctx)
}
