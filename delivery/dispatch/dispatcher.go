package dispatch

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/egress"
	"github.com/ferry-dev/ferry/delivery/internal/backoff"
	"github.com/ferry-dev/ferry/delivery/internal/pgval"
	"github.com/ferry-dev/ferry/delivery/outbox"
	"github.com/ferry-dev/ferry/delivery/webhook"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// DispatcherConfig tunes the Dispatcher.
type Config struct {
	Policy RetryPolicy
	// UserAgent is sent on every attempt, e.g. "Ferry/1.2.3".
	UserAgent string
	// EndpointTTL bounds how stale a cached endpoint may be (default 2 s).
	EndpointTTL time.Duration
	// MaxQueued bounds jobs held in memory across all lanes (default 50000).
	MaxQueued int
	// MaxQueuedPerEndpoint bounds one endpoint's lane (default 1000). A
	// job arriving at a full lane is parked: published to the first retry
	// tier without counting as an attempt, so one slow endpoint's backlog
	// cannot fill MaxQueued and stall fetching for every other endpoint.
	MaxQueuedPerEndpoint int
}

// Dispatcher makes attempts: for each job it checks Postgres, sends the
// signed envelope, classifies the outcome, publishes the next step to
// Kafka and logs the attempt, in that order, so that the consumer may
// commit the job's offset as soon as Handle returns nil.
type Dispatcher struct {
	db        *gorm.DB
	endpoints *endpointCache
	sender    *egress.Sender
	pub       outbox.Publisher
	attempts  *attemptlog.Log
	metrics   *delivery.Metrics
	cfg       Config
	tiers     []Tier
	log       *slog.Logger
	now       func() time.Time
	lanes     *lanes
	states    *stateLoader
}

// NewDispatcher returns a Dispatcher.
func NewDispatcher(db *gorm.DB, cipher *delivery.Cipher, sender *egress.Sender, pub outbox.Publisher, attempts *attemptlog.Log,
	metrics *delivery.Metrics, cfg Config, log *slog.Logger, now func() time.Time) *Dispatcher {
	if now == nil {
		now = time.Now
	}
	cfg.EndpointTTL = cmp.Or(cfg.EndpointTTL, 2*time.Second)
	cfg.MaxQueued = cmp.Or(cfg.MaxQueued, 50_000)
	cfg.MaxQueuedPerEndpoint = min(cmp.Or(cfg.MaxQueuedPerEndpoint, 1000), cfg.MaxQueued)
	cfg.UserAgent = cmp.Or(cfg.UserAgent, "Ferry/dev")
	d := &Dispatcher{
		db: db, endpoints: newEndpointCache(db, cipher, cfg.EndpointTTL, now), sender: sender, pub: pub,
		attempts: attempts, metrics: metrics, cfg: cfg, tiers: cfg.Policy.Tiers(), log: log, now: now,
		states: newStateLoader(db),
	}
	d.lanes = newLanes(d, cfg.MaxQueued, cfg.MaxQueuedPerEndpoint)
	return d
}

// Tiers returns the retry tiers the dispatcher publishes to.
func (d *Dispatcher) Tiers() []Tier { return d.tiers }

// Handle makes the attempt job asks for, unless Postgres shows it was
// already made or the delivery is finished. It returns nil once the
// attempt is logged and the next step is durable; an error means nothing
// may be committed and the job must be handled again.
func (d *Dispatcher) Handle(ctx context.Context, job delivery.Job) error {
	log := d.log.With("tenant_id", job.TenantID, "event_id", job.EventID, "endpoint_id", job.EndpointID,
		"delivery_id", job.DeliveryID, "attempt", job.Attempt)
	st, found, err := d.states.load(ctx, job.DeliveryID)
	if err != nil {
		return fmt.Errorf("load delivery %s: %w", job.DeliveryID, err)
	}
	if !found || st.Status.Finished() || st.AttemptCount >= job.Attempt {
		d.metrics.Skipped.Inc()
		log.Debug("skipping job", "status", st.Status, "attempt_count", st.AttemptCount)
		return nil
	}
	tgt, err := d.endpoints.get(ctx, job.EndpointID)
	if err != nil {
		return err
	}
	if tgt.deleted || !tgt.endpoint.Enabled {
		return d.exhaustWithoutAttempt(ctx, job, log)
	}
	if tgt.limiter != nil {
		if err := tgt.limiter.Wait(ctx); err != nil {
			return fmt.Errorf("rate limit wait: %w", err)
		}
	}

	body := webhook.Envelope(job.EventID, st.Type, st.CreatedAt, st.Data)
	headers := webhook.Headers(tgt.endpoint.Headers, d.cfg.UserAgent, tgt.keys, job.EventID.String(), st.CreatedAt, body)

	started := d.now()
	if job.Attempt == 1 && job.Trigger == delivery.TriggerInitial && !job.AcceptedAt.IsZero() {
		d.metrics.FirstAttempt.Observe(started.Sub(job.AcceptedAt).Seconds())
	}
	d.metrics.ObserveStage(delivery.StageSent, job, started)
	resp := d.sender.Send(ctx, egress.Request{URL: tgt.endpoint.URL, Headers: headers, Body: body,
		Timeout: time.Duration(tgt.endpoint.TimeoutSeconds) * time.Second})
	d.metrics.ObserveStage(delivery.StageAnswered, job, started.Add(resp.Duration))
	if ctx.Err() != nil {
		// Shutting down mid-attempt: hand the job back unlogged.
		return ctx.Err()
	}

	rec := attemptlog.Record{TenantID: job.TenantID, Attempt: delivery.Attempt{
		ID: uuid.New(), DeliveryID: job.DeliveryID, EventID: job.EventID, EndpointID: job.EndpointID,
		AttemptNumber: job.Attempt, Trigger: job.Trigger, Actor: job.Actor, StartedAt: started.UTC(),
		DurationMs: int(resp.Duration.Milliseconds()), RequestHeaders: headers,
	}}
	rec.FirstAttemptAt = started.UTC()
	if st.FirstAttemptAt != nil && job.Trigger != delivery.TriggerReplay {
		rec.FirstAttemptAt = *st.FirstAttemptAt
	} else if !job.FirstAttemptAt.IsZero() && job.Trigger != delivery.TriggerReplay {
		rec.FirstAttemptAt = job.FirstAttemptAt
	}
	var reason string
	rec.Outcome, rec.ErrorClass, reason = Classify(resp)
	if resp.Err != nil {
		rec.ErrorMessage = pgval.Text([]byte(pgval.Truncate(resp.Err.Error(), 1000)))
	}
	if resp.Status != 0 {
		status := resp.Status
		rec.ResponseStatus, rec.ResponseHeaders, rec.ResponseBody = &status, resp.Headers, pgval.Text(resp.Body)
	}
	d.metrics.Attempts.WithLabelValues(string(rec.Outcome), reason).Inc()

	next, err := d.nextStep(job, &rec, resp.RetryAfter)
	if err != nil {
		return err
	}
	if next != nil {
		if err := backoff.Until(ctx, log, "publish next step", func() error { return d.pub.Publish(ctx, []delivery.Message{*next}) }); err != nil {
			return err
		}
	}
	if err := backoff.Until(ctx, log, "log attempt", func() error { return d.attempts.Record(ctx, rec) }); err != nil {
		return err
	}
	if rec.Status == delivery.StatusSucceeded && !job.AcceptedAt.IsZero() {
		d.metrics.ToSuccess.Observe(d.now().Sub(job.AcceptedAt).Seconds())
		d.metrics.ObserveStage(delivery.StageLogged, job, d.now())
	}
	log.Debug("attempt made", "outcome", rec.Outcome, "reason", reason, "status", rec.Status)
	return nil
}

// nextStep sets rec's resulting status and returns the message that
// carries the delivery on: a retry-tier job, a dead-topic record, or nil.
func (d *Dispatcher) nextStep(job delivery.Job, rec *attemptlog.Record, retryAfter time.Duration) (*delivery.Message, error) {
	switch rec.Outcome {
	case delivery.OutcomeSuccess:
		rec.Status = delivery.StatusSucceeded
		return nil, nil
	case delivery.OutcomeDropped:
		rec.Status = delivery.StatusDropped
		return d.deadMessage(job, delivery.StatusDropped)
	}
	now := d.now()
	due, exhausted := d.cfg.Policy.Next(job.Attempt, rec.FirstAttemptAt, now, retryAfter)
	if exhausted {
		rec.Status = delivery.StatusExhausted
		return d.deadMessage(job, delivery.StatusExhausted)
	}
	rec.Status = delivery.StatusRetrying
	dueUTC := due.UTC()
	rec.NextAttemptAt = &dueUTC
	nextJob := job
	nextJob.Attempt = job.Attempt + 1
	if job.Trigger != delivery.TriggerReplay {
		nextJob.Trigger = delivery.TriggerRetry
	}
	nextJob.FirstAttemptAt = rec.FirstAttemptAt
	nextJob.DueAt = dueUTC
	nextJob.EnqueuedAt = now.UTC()
	tier := TierFor(d.tiers, due.Sub(now))
	m := delivery.Message{Topic: tier.Name, Job: nextJob}
	return &m, nil
}

// park republishes job, unattempted, to the first retry tier: it comes
// back after that tier's delay with the same attempt number.
func (d *Dispatcher) park(ctx context.Context, job delivery.Job) error {
	tier := d.tiers[0]
	now := d.now().UTC()
	job.EnqueuedAt, job.DueAt = now, now.Add(tier.Delay)
	m := delivery.Message{Topic: tier.Name, Job: job}
	log := d.log.With("tenant_id", job.TenantID, "event_id", job.EventID, "endpoint_id", job.EndpointID,
		"delivery_id", job.DeliveryID, "attempt", job.Attempt)
	if err := backoff.Until(ctx, log, "park job", func() error { return d.pub.Publish(ctx, []delivery.Message{m}) }); err != nil {
		return err
	}
	d.metrics.Parked.Inc()
	return nil
}

func (d *Dispatcher) deadMessage(job delivery.Job, status delivery.Status) (*delivery.Message, error) {
	d.metrics.DeadLettered.WithLabelValues(string(status)).Inc()
	m := delivery.Message{Topic: delivery.TopicDead, Job: job}
	return &m, nil
}

// exhaustWithoutAttempt finishes a delivery whose endpoint was disabled or
// deleted: nothing is sent, and the delivery stays replayable.
func (d *Dispatcher) exhaustWithoutAttempt(ctx context.Context, job delivery.Job, log *slog.Logger) error {
	m, err := d.deadMessage(job, delivery.StatusExhausted)
	if err != nil {
		return err
	}
	if err := backoff.Until(ctx, log, "publish dead letter", func() error { return d.pub.Publish(ctx, []delivery.Message{*m}) }); err != nil {
		return err
	}
	err = d.db.WithContext(ctx).Exec(`UPDATE deliveries SET status = 'exhausted', next_attempt_at = NULL, updated_at = ?
		WHERE id = ? AND status IN ('pending', 'retrying')`, d.now().UTC(), job.DeliveryID).Error
	if err != nil {
		return fmt.Errorf("exhaust delivery %s: %w", job.DeliveryID, err)
	}
	log.Info("endpoint disabled or deleted; delivery exhausted without attempt")
	return nil
}

// Submit queues job on its endpoint's lane; done is called once the job
// is handled and may be committed. A job for a lane already holding
// MaxQueuedPerEndpoint jobs is parked in the first retry tier instead
// (done is called once that is durable). Submit blocks while the
// dispatcher holds MaxQueued jobs, which pauses fetching from Kafka.
func (d *Dispatcher) Submit(ctx context.Context, job delivery.Job, done func()) error {
	return d.lanes.submit(ctx, job, done)
}

// Drain waits until every submitted job has been handled, or ctx ends.
func (d *Dispatcher) Drain(ctx context.Context) error {
	return d.lanes.drain(ctx)
}

// SetWorkContext sets the context attempts run under; cancelling it
// aborts in-flight attempts (their jobs are then not committed).
func (d *Dispatcher) SetWorkContext(ctx context.Context) { d.lanes.setWorkContext(ctx) }
