package queue

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/ferry-dev/ferry/internal/seal"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery/dispatch"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/clock"
)

// Limits of the queue routes.
const (
	MaxPull                  = 100
	MaxWaitSeconds           = 30
	DefaultVisibilitySeconds = 30
	MaxVisibilitySeconds     = 43200
	MaxDelaySeconds          = 43200
	maxReceipts              = 100
	maxReasonBytes           = 1000
)

// Config tunes the Service.
type Config struct {
	// DatabaseURL is where the listener opens its own connection for
	// LISTEN (a pooled connection cannot wait for notifications).
	DatabaseURL string
	// Policy is the retry schedule and window (scaled like the
	// dispatcher's).
	Policy dispatch.RetryPolicy
	// UserAgent goes into the webhook headers of pulled messages.
	UserAgent string
	// PollInterval is how often the process re-checks the queues that
	// have waiters for messages no notification announced (default 1 s;
	// see recheck.go).
	PollInterval time.Duration
	// MaxWaitersPerTenant and MaxWaitersPerQueue cap the long-polls and
	// streams waiting at once in this process, over all of a tenant's
	// queues and on one queue (defaults DefaultMaxWaitersPerTenant and
	// DefaultMaxWaitersPerQueue).
	MaxWaitersPerTenant int
	MaxWaitersPerQueue  int
	// SweepInterval is how often the sweeper runs (default 1 s).
	SweepInterval time.Duration
	// Attempts logs ended leases (required).
	Attempts AttemptLog
	// Instance names this process in the queue notifications of its
	// ingests, which its listener skips (WakeQueues has woken a waiter
	// already); default a random UUID. Replicas must differ.
	Instance string
	// Leased, if set, observes for each message leased for the first
	// time how long after its event's acceptance that was, in seconds:
	// the server's side of "how soon can a consumer pull it" (app passes
	// the StageLeased series of ferry_delivery_stage_seconds).
	Leased prometheus.Observer
	// Metrics count what the queues cost the database (nil fields count
	// nowhere; app registers them on /metrics).
	Metrics Metrics
	// Tracing makes the spans of leased messages whose events are traced
	// (nil: none).
	Tracing trace.TracerProvider
}

// Metrics are the queues' counters.
type Metrics struct {
	// Leases counts lease statements run, empty ones included: what a
	// spurious wake-up costs.
	Leases prometheus.Counter
	// Rechecks counts the shared re-check statements (recheck.go).
	Rechecks prometheus.Counter
	// SigningLoads counts loads of an endpoint's signing state, the
	// misses of the target cache (target.go).
	SigningLoads prometheus.Counter
	// OwnNotificationsSkipped counts queue notifications this process's
	// listener skipped as its own ingests' (listener.go).
	OwnNotificationsSkipped prometheus.Counter
}

// withDefaults gives every nil counter one that counts nowhere.
func (m Metrics) withDefaults() Metrics {
	for _, c := range []*prometheus.Counter{&m.Leases, &m.Rechecks, &m.SigningLoads, &m.OwnNotificationsSkipped} {
		if *c == nil {
			*c = prometheus.NewCounter(prometheus.CounterOpts{Name: "unregistered"})
		}
	}
	return m
}

// StageLeased is the stage of ferry_delivery_stage_seconds that Leased
// observes: a queue message leased for the first time.
const StageLeased = "leased"

// Service is the pull side of queue endpoints.
type Service struct {
	db       *gorm.DB
	cipher   *seal.Cipher
	cfg      Config
	log      *slog.Logger
	clock    clock.Clock
	listener *listener
	// slots caps the waiting long-polls and streams (slots.go).
	slots *waitSlots
	// targets caches endpoints' decrypted signing state (target.go).
	targets *targetCache
	tracer  trace.Tracer
	// done is closed when Run returns, so long-polls and streams end
	// before the HTTP server shuts down.
	done chan struct{}
}

// New returns a Service; clk nil is the system clock.
func New(db *gorm.DB, cipher *seal.Cipher, cfg Config, log *slog.Logger, clk clock.Clock) (*Service, error) {
	if db == nil || cipher == nil || log == nil {
		return nil, errors.New("queue.New: db, cipher and log are required")
	}
	if cfg.DatabaseURL == "" || cfg.Attempts == nil {
		return nil, errors.New("queue.New: DatabaseURL and Attempts are required")
	}
	cfg.PollInterval = cmp.Or(cfg.PollInterval, time.Second)
	cfg.SweepInterval = cmp.Or(cfg.SweepInterval, time.Second)
	if cfg.PollInterval < 0 || cfg.SweepInterval < 0 || cfg.MaxWaitersPerTenant < 0 || cfg.MaxWaitersPerQueue < 0 {
		return nil, errors.New("queue.New: intervals and waiter caps must not be negative")
	}
	cfg.MaxWaitersPerTenant = cmp.Or(cfg.MaxWaitersPerTenant, DefaultMaxWaitersPerTenant)
	cfg.MaxWaitersPerQueue = cmp.Or(cfg.MaxWaitersPerQueue, DefaultMaxWaitersPerQueue)
	cfg.UserAgent = cmp.Or(cfg.UserAgent, "Ferry")
	cfg.Instance = cmp.Or(cfg.Instance, uuid.NewString())
	if strings.Contains(cfg.Instance, model.QueueSenderSep) {
		return nil, fmt.Errorf("queue.New: Instance must not contain %q", model.QueueSenderSep)
	}
	if cfg.Leased == nil {
		cfg.Leased = prometheus.ObserverFunc(func(float64) {})
	}
	cfg.Metrics = cfg.Metrics.withDefaults()
	if cfg.Tracing == nil {
		cfg.Tracing = noop.NewTracerProvider()
	}
	return &Service{db: db, cipher: cipher, cfg: cfg, log: log, clock: clock.Or(clk),
		tracer:   cfg.Tracing.Tracer("github.com/ferry-dev/ferry/delivery/queue"),
		listener: newListener(cfg.DatabaseURL, cfg.Instance, cfg.Metrics.OwnNotificationsSkipped, log), slots: newWaitSlots(cfg.MaxWaitersPerTenant, cfg.MaxWaitersPerQueue), targets: newTargetCache(), done: make(chan struct{})}, nil
}

// WakeQueues wakes a long-poll of each queue endpoint, for an ingest in
// this process that has just committed messages for them: quicker than
// the NOTIFY, which wakes the other replicas (this one's listener skips
// it, see Instance).
func (s *Service) WakeQueues(endpointIDs []uuid.UUID) {
	for _, id := range endpointIDs {
		s.listener.wake(id)
	}
}

// Instance names this process in the notifications of the ingests that
// call WakeQueues (delivery.QueueWaker).
func (s *Service) Instance() string { return s.cfg.Instance }

// Run listens for notifications, re-checks the queues with waiters every
// PollInterval and sweeps expired leases every SweepInterval until ctx
// ends.
func (s *Service) Run(ctx context.Context) error {
	defer close(s.done)
	errc := make(chan error, 1)
	go func() { errc <- s.listener.run(ctx) }()
	sweep := s.clock.NewTicker(s.cfg.SweepInterval)
	defer sweep.Stop()
	poll := s.clock.NewTicker(s.cfg.PollInterval)
	defer poll.Stop()
	for {
		select {
		case <-ctx.Done():
			<-errc
			return nil
		case <-sweep.C():
			if err := s.Sweep(ctx); err != nil && ctx.Err() == nil {
				s.log.WarnContext(ctx, "queue sweep failed", "err", err)
			}
		case <-poll.C():
			if err := s.recheck(ctx); err != nil && ctx.Err() == nil {
				s.log.WarnContext(ctx, "queue re-check failed", "err", err)
			}
		case <-s.listener.listening:
			if err := s.recheck(ctx); err != nil && ctx.Err() == nil {
				s.log.WarnContext(ctx, "queue re-check after the listener connected failed", "err", err)
			}
		}
	}
}

// RunOnce does each of Run's periodic jobs once, for tests that step the
// Service: it sweeps expired leases (Sweep) and re-checks the queues that
// have waiters.
func (s *Service) RunOnce(ctx context.Context) error {
	return errors.Join(s.Sweep(ctx), s.recheck(ctx))
}

// Waiting returns how many long-polls and streams of this process are
// waiting for messages now (a gauge for /metrics).
func (s *Service) Waiting() int { return s.listener.count() }

// Holding returns how many waiting slots (long-polls and streams in this
// process) the tenant holds over all its queues, and how many of them
// are on its queue endpointID.
func (s *Service) Holding(tenantID, endpointID uuid.UUID) (tenant, queue int) {
	return s.slots.held(tenantID, endpointID)
}

// Done is closed once the Service stops; streams end then.
func (s *Service) Done() <-chan struct{} { return s.done }

// queueEndpoint loads one of the tenant's queue endpoints. Errors:
// ENOTFOUND (also for an http endpoint).
func (s *Service) queueEndpoint(ctx context.Context, tenantID, endpointID uuid.UUID) (endpointInfo, error) {
	var rows []endpointInfo
	if err := s.db.WithContext(ctx).Raw(`SELECT id, enabled, max_in_flight FROM endpoints
		WHERE id = ? AND tenant_id = ? AND kind = 'queue' AND deleted_at IS NULL`, endpointID, tenantID).
		Scan(&rows).Error; err != nil {
		return endpointInfo{}, fmt.Errorf("load queue %s: %w", endpointID, err)
	}
	if len(rows) == 0 {
		return endpointInfo{}, ferry.NotFound("queue")
	}
	return rows[0], nil
}

type endpointInfo struct {
	ID          uuid.UUID
	Enabled     bool
	MaxInFlight int
}
