package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/ferry-dev/ferry/internal/ownercache"
	"github.com/ferry-dev/ferry/internal/seal"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/egress"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/delivery/routing/sandbox"
	"github.com/ferry-dev/ferry/internal/batch"

	"github.com/ferry-dev/ferry/dbtx"
)

// Config tunes the Service.
type Config struct {
	// AllowHTTP accepts http:// endpoint URLs (dev and tests).
	AllowHTTP bool
	// AddressPolicy is the SSRF guard; creation checks literal addresses
	// against it, the dialer checks every connection.
	AddressPolicy egress.AddressPolicy
	// RotationGrace is how long a rotated-out secret keeps signing
	// (default DefaultRotationGrace, scaled by FERRY_RETRY_SCALE by the caller).
	RotationGrace time.Duration
	// IngestBatch, if set, observes how many events each committed ingest
	// transaction held (Metrics.IngestBatch).
	IngestBatch prometheus.Observer
	// Observer hears of each tenant whose events were accepted (the
	// quota warner); nil hears nothing.
	Observer IngestObserver
	// Router evaluates filters and runs transformations; nil makes one
	// with the defaults. app shares one with the operational-event
	// emitters.
	Router *Router
	// Queues, if set, hears which queue endpoints got messages as soon as
	// an ingest commits, so long-polls in this process wake without the
	// NOTIFY round trip through Postgres (which still wakes the others).
	Queues QueueWaker
	// Customers resolves the uids of the tenant's customers; nil refuses
	// every customer.
	Customers CustomerResolver
	// Schemas, if set, validates each event's data against its type's
	// schema before ingest's transaction (the event-type catalog); nil
	// validates nothing.
	Schemas SchemaChecker
	// Tracing makes the ingest span of traced requests; nil makes none.
	Tracing trace.TracerProvider
}

// CustomerResolver is what delivery needs of the tenant's customers
// (package customers answers it): Ferry's id for a customer's uid.
type CustomerResolver interface {
	// Resolve returns the id of the tenant's live customer uid. Errors:
	// EINVALID naming field when there is none.
	Resolve(ctx context.Context, tenantID uuid.UUID, field, uid string) (uuid.UUID, error)
}

// SchemaChecker validates an event's data against the tenant's schema
// for its type; the event-type catalog satisfies it.
type SchemaChecker interface {
	// Check returns a warning for data that does not match a schema in
	// warn mode, "" otherwise. Errors: EINVALID naming the failing path
	// (field "data/amount") in reject mode, wrapped database errors.
	Check(ctx context.Context, tenantID uuid.UUID, eventType string, data json.RawMessage) (warning string, err error)
}

// IngestObserver hears of tenants whose events were just accepted.
type IngestObserver interface {
	EventsAccepted(tenantID uuid.UUID)
}

// QueueWaker wakes the long-polls waiting on queue endpoints; the pull
// queue service satisfies it.
type QueueWaker interface {
	// WakeQueues says that the queue endpoints got messages that are
	// committed now. It must not block.
	WakeQueues(endpointIDs []uuid.UUID)
	// Instance names this process in the notifications of the ingests
	// that WakeQueues is told of (QueueChannel): its own listener skips
	// them, since WakeQueues woke a waiter already; other replicas' do
	// not.
	Instance() string
}

// DefaultRotationGrace is how long a rotated-out signing secret keeps
// signing when Config.RotationGrace is unset.
const DefaultRotationGrace = 24 * time.Hour

// Limits is what delivery needs from billing: plan limits checked inside
// the transaction that would exceed them, and how long attempts stay
// visible. app plugs billing in; nil means unlimited.
type Limits interface {
	// Meter returns the limits as seen from tx, the open transaction of
	// an ingest or endpoint creation: what the Meter counts commits or
	// rolls back with it. delivery commits or rolls back tx itself.
	Meter(tx dbtx.Tx) Meter
	// Pipeline returns a meter whose statements ride in the pgx batches
	// of one group-commit transaction (ingestbatch.go).
	Pipeline() PipelineMeter
	// AttemptRetention returns how long the tenant's plan keeps attempts
	// (0 = no plan limit); older attempts are hidden from the tenant, and
	// the partition job drops them for good at the longest retention
	// (FERRY_ATTEMPT_RETENTION). Errors: wrapped database errors.
	AttemptRetention(ctx context.Context, tenantID uuid.UUID) (time.Duration, error)
	// EventsPerSecond returns the tenant's plan limit on events per
	// second (0 = none); a bulk-replay page never re-queues more.
	// Errors: ENOTFOUND, wrapped database errors.
	EventsPerSecond(ctx context.Context, tenantID uuid.UUID) (int, error)
}

// Meter checks and meters plan limits inside one transaction.
type Meter interface {
	// ConsumeEvents meters n accepted events of the tenant. Errors: EQUOTA
	// or ERATELIMIT when the plan refuses them, wrapped database errors.
	ConsumeEvents(ctx context.Context, tenantID uuid.UUID, n int) error
	// CheckEndpointLimit refuses when the tenant may not create another
	// endpoint, and holds off concurrent creations and plan changes of
	// the tenant until the transaction ends. Errors: EPLANLIMIT, wrapped
	// database errors.
	CheckEndpointLimit(ctx context.Context, tenantID uuid.UUID) error
}

// PipelineMeter meters events with statements queued on the batches of
// one transaction, sharing their round trips: QueuePlans with the
// batch's reads, then, once that batch has run, QueueConsumeEvents with
// the batch that writes the events.
type PipelineMeter interface {
	// QueuePlans queues the reads QueueConsumeEvents needs first.
	QueuePlans(b *pgx.Batch, tenants []uuid.UUID)
	// QueueConsumeEvents queues the metering of n events of the tenant.
	// A refusal must abort the transaction, as the caller queues its
	// COMMIT on b. check, called once b has run, returns nil, or a
	// refusal as Meter.ConsumeEvents would with how many of the n events
	// would fit, or an error.
	QueueConsumeEvents(b *pgx.Batch, tenantID uuid.UUID, n int) (check func() (fits int, err error))
}

// Enqueuer hands committed jobs to the outbox relay for publication.
type Enqueuer interface {
	Enqueue(jobs []model.Job)
}

// Service is the tenant-facing side of delivery: endpoints, events,
// attempts and replay.
type Service struct {
	db     *gorm.DB
	cipher *seal.Cipher
	relay  Enqueuer
	limits Limits
	cfg    Config
	log    *slog.Logger
	now    func() time.Time
	ingest *batch.Coalescer[*ingestRequest] // group commit of concurrent ingests (ingestbatch.go)
	// router evaluates endpoints' filters and runs their transformations.
	router *Router
	// background tracks the goroutines ingest leaves running after a
	// caller's answer or batch (transformLater, finishLater), so Drain can
	// wait for them.
	background sync.WaitGroup
	// customers caches customer uids resolved at ingest (customer.go).
	customers *ownercache.Cache[uuid.UUID, string, resolvedCustomer]
	tracer    trace.Tracer
}

// Drain waits, until ctx ends, for the ingest batches being committed
// and the transformations ingest still runs in the background; the
// owner calls it on shutdown once no new ingest can start, before the
// database goes away. What ctx cuts short, the outbox and pending
// transformation sweeps finish after the next start.
func (s *Service) Drain(ctx context.Context) error {
	idle := make(chan struct{})
	go func() {
		defer close(idle)
		s.background.Wait() // may queue their events for a batch
		_ = s.ingest.Wait(ctx)
		s.background.Wait() // batches may defer transformations
	}()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// NewService returns a Service. limits may be nil.
func NewService(db *gorm.DB, cipher *seal.Cipher, relay Enqueuer, limits Limits, cfg Config, log *slog.Logger, now func() time.Time) (*Service, error) {
	if db == nil || cipher == nil || relay == nil || log == nil {
		return nil, errors.New("delivery.NewService: db, cipher, relay and log are required")
	}
	if cfg.RotationGrace == 0 {
		cfg.RotationGrace = DefaultRotationGrace
	}
	if now == nil {
		now = time.Now
	}
	if cfg.IngestBatch == nil {
		cfg.IngestBatch = prometheus.ObserverFunc(func(float64) {})
	}
	router := cfg.Router
	if router == nil {
		var err error
		if router, err = NewRouter(routing.Config{}, sandbox.Config{}, log); err != nil {
			return nil, fmt.Errorf("delivery.NewService: %w", err)
		}
	}
	s := &Service{db: db, cipher: cipher, relay: relay, limits: limits, cfg: cfg, log: log, now: now, router: router,
		customers: ownercache.New[uuid.UUID, string, resolvedCustomer](customerCacheBytes, customerCacheTenantMax)}
	if cfg.Tracing == nil {
		cfg.Tracing = noop.NewTracerProvider()
	}
	s.tracer = cfg.Tracing.Tracer("github.com/ferry-dev/ferry/delivery")
	s.ingest = batch.New(maxIngestBatch, maxIngestCommitters, s.commitBatch)
	return s, nil
}

// wakeQueues tells the waker, if any, that queues got committed messages.
func (s *Service) wakeQueues(endpointIDs []uuid.UUID) {
	if s.cfg.Queues != nil && len(endpointIDs) > 0 {
		s.cfg.Queues.WakeQueues(endpointIDs)
	}
}

// queueSender is the instance that ingest names in its queue
// notifications: this process's, when it wakes its own long-polls
// (wakeQueues); empty, so every listener wakes, when it does not.
func (s *Service) queueSender() string {
	if s.cfg.Queues == nil {
		return ""
	}
	return s.cfg.Queues.Instance()
}

// accepted tells the observer, if any, that tenantID's events committed.
func (s *Service) accepted(tenantID uuid.UUID) {
	if s.cfg.Observer != nil {
		s.cfg.Observer.EventsAccepted(tenantID)
	}
}
