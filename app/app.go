// Package app is Ferry's composition root: it reads configuration, opens
// PostgreSQL and Kafka, wires the domain services to the HTTP layer and
// the workers, and runs them until shutdown.
package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/ferry-dev/ferry/customers"
	"github.com/ferry-dev/ferry/internal/firstanalyze"
	"github.com/ferry-dev/ferry/internal/pgval"
	"github.com/ferry-dev/ferry/internal/requestid"
	"github.com/ferry-dev/ferry/internal/seal"
	"github.com/ferry-dev/ferry/internal/tracing"
	"github.com/ferry-dev/ferry/portal"

	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/dispatch"
	"github.com/ferry-dev/ferry/delivery/egress"
	"github.com/ferry-dev/ferry/delivery/insight"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/opevents"
	"github.com/ferry-dev/ferry/delivery/outbox"
	"github.com/ferry-dev/ferry/delivery/queue"
	"github.com/ferry-dev/ferry/delivery/replay"
	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/delivery/routing/sandbox"
	"github.com/ferry-dev/ferry/delivery/telemetry"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel/trace"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/app/httpapi"
	"github.com/ferry-dev/ferry/billing"
	"github.com/ferry-dev/ferry/catalog"
	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/kafka"
	"github.com/ferry-dev/ferry/frontend"
	"github.com/ferry-dev/ferry/idempotency"
	"github.com/ferry-dev/ferry/inbound"
	"github.com/ferry-dev/ferry/migrations"
	"github.com/ferry-dev/ferry/notify"
	"github.com/ferry-dev/ferry/ratelimit"
	"github.com/ferry-dev/ferry/tenants"
)

// What each domain asks of the others, and who answers: billing asks
// tenants for tenants and plan assignments and delivery for endpoint and
// attempt counts; delivery asks billing for plan limits (billingLimits).
var (
	_ billing.TenantPlans       = (*tenants.Service)(nil)
	_ billing.EndpointCounter   = delivery.EndpointCounter{}
	_ billing.AttemptLog        = (*attemptlog.Usage)(nil)
	_ delivery.Limits           = billingLimits{}
	_ delivery.Meter            = (*billing.Meter)(nil)
	_ insight.QuotaUsage        = billingLimits{}
	_ opevents.Notifier         = (*notify.Mailer)(nil)
	_ customers.Endpoints       = (*delivery.Service)(nil)
	_ delivery.CustomerResolver = (*customers.Service)(nil)
	_ portal.Customers          = (*customers.Service)(nil)
	_ billing.InvoiceNotifier   = (*notify.Mailer)(nil)
	_ notify.Directory          = (*tenants.Service)(nil)
	_ inbound.Events            = inboundEvents{}
	_ inbound.Sealer            = (*seal.Cipher)(nil)
	_ inbound.Retention         = billingLimits{}
	_ inbound.Limits            = billingLimits{}
	_ inbound.RateLimiter       = (*ratelimit.Limiter)(nil)
	_ dispatch.RateLimiter      = (*ratelimit.Limiter)(nil)
)

// inboundEvents plugs delivery into inbound: a verified capture becomes
// an event in inbound's transaction.
type inboundEvents struct{ delivery *delivery.Service }

// IngestInTx accepts the capture's event in tx.
func (e inboundEvents) IngestInTx(ctx context.Context, tx dbtx.Tx, tenantID uuid.UUID, ev inbound.EventInput) (uuid.UUID, func(), error) {
	out, after, err := e.delivery.IngestInTx(ctx, tx, tenantID, sourceEvent(ev))
	if err != nil {
		return uuid.Nil, nil, err
	}
	return out.ID, after, nil
}

// IngestBatchInTx accepts many captures' events in tx.
func (e inboundEvents) IngestBatchInTx(ctx context.Context, tx dbtx.Tx, evs []inbound.TenantEvent) (func(), error) {
	items := make([]delivery.SourceEventItem, len(evs))
	for i, ev := range evs {
		items[i] = delivery.SourceEventItem{TenantID: ev.TenantID, Input: sourceEvent(ev.Event)}
	}
	_, after, err := e.delivery.IngestBatchInTx(ctx, tx, items)
	return after, err
}

func sourceEvent(ev inbound.EventInput) delivery.SourceEventInput {
	return delivery.SourceEventInput{ID: ev.ID, Type: ev.Type, Data: ev.Data, Body: ev.Body, ContentType: ev.ContentType,
		Request: routing.Request(ev.Request), Trace: ev.Trace}
}

// ValidEventType reports whether t may be an event's type.
func (inboundEvents) ValidEventType(t string) bool { return delivery.ValidEventType(t) }

// customerIDs resolves customer uids for delivery; the customers service
// is made after delivery (it disables a deleted customer's endpoints
// through it), so delivery reaches it through a.Customers.
type customerIDs struct{ svc **customers.Service }

// Resolve satisfies delivery.CustomerResolver.
func (c customerIDs) Resolve(ctx context.Context, tenantID uuid.UUID, field, uid string) (uuid.UUID, error) {
	return (*c.svc).Resolve(ctx, tenantID, field, uid)
}

// billingLimits plugs billing into delivery as its Limits: per
// transaction, billing's Meter is delivery's Meter.
type billingLimits struct{ billing *billing.Service }

// CaptureLimits returns the tenant's plan bounds on inbound sources and
// this month's captured bytes.
func (l billingLimits) CaptureLimits(ctx context.Context, tenantID uuid.UUID) (inbound.CaptureLimits, error) {
	t, err := l.billing.CaptureTerms(ctx, tenantID)
	if err != nil {
		return inbound.CaptureLimits{}, err
	}
	return inbound.CaptureLimits{MaxSources: t.MaxSources, BytesPerMonth: t.CapturedBytesPerMonth, UsedBytes: t.CapturedBytes,
		MonthEnds: t.MonthEnds}, nil
}

// MeterCapturedBytes adds captured bytes to billing's meter.
func (l billingLimits) MeterCapturedBytes(ctx context.Context, usage map[uuid.UUID]int64, at time.Time) error {
	return l.billing.MeterCapturedBytes(ctx, usage, at)
}

// Meter returns billing's meter for tx.
func (l billingLimits) Meter(tx dbtx.Tx) delivery.Meter { return l.billing.Meter(tx) }

// Pipeline returns billing's meter for one group commit's batches.
func (l billingLimits) Pipeline() delivery.PipelineMeter { return l.billing.Pipeline() }

// EventsPerSecond returns the tenant's plan limit on events per second.
func (l billingLimits) EventsPerSecond(ctx context.Context, tenantID uuid.UUID) (int, error) {
	ent, err := l.billing.Entitlements(ctx, tenantID)
	if err != nil {
		return 0, err
	}
	return ent.EventsPerSecond, nil
}

// AttemptRetention returns how long the tenant's plan keeps attempts.
func (l billingLimits) AttemptRetention(ctx context.Context, tenantID uuid.UUID) (time.Duration, error) {
	return l.billing.AttemptRetention(ctx, tenantID)
}

// MonthlyEvents returns the tenant's events this month against its plan,
// for quota warnings; only a hard-capped plan costs more than one lookup.
func (l billingLimits) MonthlyEvents(ctx context.Context, tenantID uuid.UUID) (insight.MonthlyUsage, error) {
	ent, err := l.billing.Entitlements(ctx, tenantID)
	if err != nil {
		return insight.MonthlyUsage{}, err
	}
	if !ent.HardCap {
		return insight.MonthlyUsage{Limit: ent.EventsPerMonth}, nil
	}
	o, err := l.billing.Overview(ctx, tenantID)
	if err != nil {
		return insight.MonthlyUsage{}, err
	}
	return insight.MonthlyUsage{Period: o.Usage.PeriodStart, Used: o.Usage.Events, Limit: o.Plan.EventsPerMonth,
		HardCap: o.Plan.HardCap}, nil
}

// App is one Ferry process.
type App struct {
	cfg Config
	log *slog.Logger

	db       *gorm.DB
	kafkaCfg kafka.Config
	writer   *kafka.Writer
	// stream publishes the outbox relay's jobs without waiting between
	// batches (one partition's trouble holds back only its jobs).
	stream *kafka.Stream

	Tenants  *tenants.Service
	Delivery *delivery.Service
	Billing  *billing.Service
	Queues   *queue.Service
	Inbound  *inbound.Service
	Catalog  *catalog.Service
	// idempotency keeps creating requests' answers by Idempotency-Key.
	idempotency *idempotency.Store

	relay      *outbox.Relay
	attempts   *attemptlog.Log
	dispatcher *dispatch.Dispatcher
	consumer   *kafka.Consumer
	partitions *attemptlog.Partitions
	replays    *replay.Worker
	// Insight answers stats and the staff's read models.
	Insight *insight.Service
	// Customers keeps the tenants' own customers.
	Customers *customers.Service
	// CustomerPortal mints and checks the customers' portal sessions.
	CustomerPortal *portal.Service
	// Replays replays events and runs bulk replay jobs.
	Replays *replay.Service
	quota   *insight.QuotaWarner
	// opEvents stores operational events and does what follows their
	// commit; transformSweep finishes their transformations a stopped
	// process left pending.
	opEvents       *opevents.Emitter
	transformSweep *opevents.Sweeper
	// firstAnalyze gives a fresh database's tables their first planner
	// statistics once they hold rows.
	firstAnalyze *firstanalyze.Watcher
	// stateDB is the dispatcher's pool for its state reads, planned once
	// per connection (pgval.OpenLookups); workers only.
	stateDB *gorm.DB
	// router filters and transforms for ingest and operational events;
	// Close stops its transformation workers.
	router  *delivery.Router
	notices *notify.Mailer
	// rateBuckets keep the rate limits that hold across replicas (a
	// tenant's API rate, a source's, an endpoint's); rateLeases are their
	// leases, timed.
	rateBuckets *ratelimit.Buckets
	rateLeases  *timedLeases

	// tracing exports spans (OTEL_*), or is the no-op provider; Run's
	// last phase to stop flushes it.
	tracing *tracing.Provider

	http     *fiber.App
	listener net.Listener
	// metricsListener serves /metrics alone (FERRY_METRICS_ADDR).
	metricsListener net.Listener
	metricsHandler  http.Handler
	// lag samples the consumer groups' lag (worker role only).
	lag *lagSampler
}

// kafkaConfig is the Kafka side of cfg, Ferry's topics included.
func kafkaConfig(cfg Config) kafka.Config {
	return kafka.Config{Brokers: cfg.KafkaBrokers, TopicPrefix: cfg.KafkaTopicPrefix, GroupID: cfg.KafkaGroup,
		Partitions: cfg.KafkaPartitions, ReplicationFactor: cfg.KafkaReplication, MinInsyncReplicas: cfg.KafkaMinInsync,
		Security: cfg.KafkaSecurity, Topics: topicNames(retryPolicy(cfg))}
}

// retryPolicy is cfg's retry schedule: it names the retry tiers' topics
// as well as timing the retries.
func retryPolicy(cfg Config) dispatch.RetryPolicy { return dispatch.RetryPolicy{Scale: cfg.RetryScale} }

// topicNames are Ferry's topics (unprefixed): deliveries, dead and one
// per retry tier of policy.
func topicNames(policy dispatch.RetryPolicy) []string {
	topics := []string{model.TopicDeliveries, model.TopicDead}
	for _, t := range policy.Tiers() {
		topics = append(topics, t.Name)
	}
	return topics
}

// NewLogger builds the process logger: JSON in production, text in dev.
func NewLogger(cfg Config) *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(cfg.LogLevel)); err != nil {
		level = slog.LevelInfo
	}
	opts := &slog.HandlerOptions{Level: level}
	// Lines logged for an API request carry its X-Request-Id.
	if cfg.LogFormat == "text" {
		return slog.New(requestid.Handler{Handler: slog.NewTextHandler(os.Stderr, opts)})
	}
	return slog.New(requestid.Handler{Handler: slog.NewJSONHandler(os.Stderr, opts)})
}

// OpenDB connects to Postgres with a pool sized from cfg.
func OpenDB(ctx context.Context, cfg Config) (*gorm.DB, error) {
	return pgval.Open(ctx, cfg.DatabaseURL, cfg.DBMaxConns, nil)
}

// Migrate applies pending migrations, then seals what older versions
// stored in clear and only the master key can seal (staff authenticator
// keys).
func Migrate(ctx context.Context, db *gorm.DB, cfg Config) error {
	sqlDB, err := db.DB()
	if err != nil {
		return err
	}
	if err := migrations.Up(ctx, sqlDB); err != nil {
		return err
	}
	if len(cfg.MasterKey) == 0 {
		return nil // nothing can be sealed; login seals each key as it is used
	}
	cipher, err := cfg.cipher()
	if err != nil {
		return err
	}
	if _, err := tenants.SealClearTOTPSecrets(ctx, db, cipher); err != nil {
		return fmt.Errorf("seal stored secrets: %w", err)
	}
	return nil
}

// New connects to Postgres and Kafka, migrates, creates missing topics,
// and wires every component. It binds the HTTP listener, so Addr is valid
// once New returns (tests use port 0).
func New(ctx context.Context, cfg Config, log *slog.Logger) (_ *App, err error) {
	a := &App{cfg: cfg, log: log}
	defer func() {
		if err != nil {
			a.Close()
		}
	}()
	if a.tracing, err = tracing.New(ctx, cfg.Tracing, log); err != nil {
		return nil, err
	}
	if a.db, err = OpenDB(ctx, cfg); err != nil {
		return nil, err
	}
	if err = Migrate(ctx, a.db, cfg); err != nil {
		return nil, err
	}

	policy := retryPolicy(cfg)
	a.kafkaCfg = kafkaConfig(cfg)
	if err = kafka.EnsureTopics(ctx, a.kafkaCfg, a.kafkaCfg.Topics); err != nil {
		return nil, err
	}
	if a.writer, err = kafka.NewWriter(a.kafkaCfg); err != nil {
		return nil, err
	}
	if a.stream, err = kafka.NewStream(a.kafkaCfg, log); err != nil {
		return nil, err
	}

	sqlDB, err := a.db.DB()
	if err != nil {
		return nil, fmt.Errorf("database pool: %w", err)
	}
	registry := prometheus.NewRegistry()
	// The pool's stats (go_sql_*) show requests waiting for one of
	// FERRY_DB_MAX_CONNS connections, which no stage histogram separates
	// from PostgreSQL's own time; the scheduler's latencies
	// (go_sched_latencies_seconds) show goroutines waiting for a CPU,
	// which every stage's time includes (docs/operations.md).
	registry.MustRegister(collectors.NewGoCollector(collectors.WithGoCollectorRuntimeMetrics(collectors.MetricsScheduler)),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}), collectors.NewDBStatsCollector(sqlDB, "ferry"))
	metrics := telemetry.NewMetrics(registry)
	a.kafkaCfg.Lag = metrics // per-topic consumer lag
	a.kafkaCfg.Tracing = a.tracing.TracerProvider()

	cipher, err := cfg.cipher()
	if err != nil {
		return nil, err
	}
	sessions, err := tenants.NewSessions(cfg.JWTSecret, cfg.SessionTTL, nil)
	if err != nil {
		return nil, err
	}
	// The listener is bound before the services so that links in emails
	// can name the portal's address (port 0 in tests).
	if cfg.Roles[RoleAPI] {
		if a.listener, err = net.Listen("tcp", cfg.HTTPAddr); err != nil {
			return nil, fmt.Errorf("listen on %s: %w", cfg.HTTPAddr, err)
		}
	}
	if !cfg.Dev && cfg.PublicURL == "" && cfg.Roles[RoleAPI] {
		log.Warn("FERRY_PUBLIC_URL is not set: links in emails (password reset, invites) name the listen address " + a.URL())
	}
	accounts, err := newAccountMail(cfg, log)
	if err != nil {
		return nil, err
	}
	if a.Tenants, err = tenants.NewService(a.db, tenantsConfig(cfg, a.URL(), accounts, cipher), log, nil); err != nil {
		return nil, err
	}
	a.relay = outbox.NewRelay(a.db, a.writer, outbox.RelayConfig{SweepAfter: cfg.OutboxSweepAfter, Metrics: metrics,
		Tracing: a.tracing.TracerProvider(), Stream: a.stream}, log, nil)
	addressPolicy := egress.AddressPolicy{AllowPrivate: cfg.AllowPrivateEndpoints}
	// Notification mails (endpoint health, quota, invoices) go out from
	// the mailer's own queue, started by Run.
	if a.notices, err = notify.New(a.Tenants, accounts.Sender, accounts.Templates, notify.Config{PortalURL: a.URL()}, log); err != nil {
		return nil, err
	}
	if a.Billing, err = newBillingService(a.db, cfg, log, a.Tenants, a.notices); err != nil {
		return nil, err
	}
	// Operational events (ferry.*) are emitted as attempts are logged
	// and mailed to the tenant's owners and admins. One router (filters,
	// transformations) serves ingest and the operational events that the
	// quota warner and attempt log emit.
	// Transformations run in worker processes started from this
	// executable (its main calls sandbox.MainHook).
	router, err := delivery.NewRouter(routing.Config{}, sandbox.Config{Workers: cfg.TransformWorkers,
		PerTenant: cfg.TransformPerTenant}, log)
	if err != nil {
		return nil, err
	}
	a.router = router
	a.opEvents = opevents.NewEmitter(a.db, router, a.relay, a.notices, log, nil)
	a.transformSweep = opevents.NewSweeper(a.db, router, a.relay, log, nil)
	a.firstAnalyze = firstanalyze.New(a.db, firstanalyze.Config{}, log)
	a.attempts = attemptlog.New(a.db, attemptlog.Config{DisableAfter: cfg.scaled(attemptlog.DefaultDisableAfter), BatchSize: metrics.AttemptLogBatch,
		FailingAfter: cfg.scaled(15 * time.Minute), Events: a.opEvents}, log, nil)
	// Pull queues log ended leases through the attempt log, in their own
	// transactions; ingest wakes their long-polls in this process.
	queueCounter := func(name, help string) prometheus.Counter {
		c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help})
		registry.MustRegister(c)
		return c
	}
	queueMetrics := queue.Metrics{
		Leases:       queueCounter("ferry_queue_lease_statements_total", "Pull-queue lease statements run, empty ones included."),
		Rechecks:     queueCounter("ferry_queue_recheck_statements_total", "Shared re-checks of the queues that have waiting consumers."),
		SigningLoads: queueCounter("ferry_queue_signing_state_loads_total", "Loads of a queue endpoint's signing state (cache misses)."),
		OwnNotificationsSkipped: queueCounter("ferry_queue_own_notifications_skipped_total",
			"Queue notifications of this process's own ingests, skipped (their waiters were woken directly)."),
	}
	if a.Queues, err = queue.New(a.db, cipher, queue.Config{DatabaseURL: cfg.DatabaseURL, Policy: policy, Metrics: queueMetrics,
		UserAgent: "Ferry/" + cfg.Version, Attempts: a.attempts, Leased: metrics.Stages.WithLabelValues(queue.StageLeased),
		MaxWaitersPerTenant: cfg.QueueMaxWaitersPerTenant, MaxWaitersPerQueue: cfg.QueueMaxWaitersPerQueue,
		Tracing: a.tracing.TracerProvider()}, log, nil); err != nil {
		return nil, err
	}
	if a.Catalog, err = newCatalog(a.db, log); err != nil {
		return nil, err
	}
	a.quota = insight.NewQuotaWarner(a.db, billingLimits{a.Billing}, insight.QuotaWarnerConfig{Events: a.opEvents}, log, nil)
	a.Delivery, err = delivery.NewService(a.db, cipher, a.relay, billingLimits{a.Billing}, delivery.Config{
		AllowHTTP: cfg.AllowHTTPEndpoints, AddressPolicy: addressPolicy, RotationGrace: cfg.scaled(delivery.DefaultRotationGrace),
		IngestBatch: metrics.IngestBatch, Observer: a.quota, Router: router, Queues: a.Queues, Customers: customerIDs{&a.Customers}, Schemas: a.Catalog,
		Tracing: a.tracing.TracerProvider(),
	}, log, nil)
	if err != nil {
		return nil, err
	}
	a.Insight = insight.New(a.db, a.Delivery, nil)
	a.Customers = customers.New(a.db, a.Delivery, log, nil)
	// Session URLs come from the public URL, never from a request; http
	// framing origins only where http endpoints are allowed (dev, tests).
	a.CustomerPortal = portal.New(a.db, a.Customers, portal.Config{PublicURL: a.URL(), AllowHTTPOrigins: cfg.AllowHTTPEndpoints}, log, nil)
	a.Replays = replay.New(a.db, a.Delivery, billingLimits{a.Billing}, a.relay, log, nil)
	// Attempts and captures are kept for the longest plan retention;
	// tenants on shorter plans are pruned on their own.
	retentionDays, err := a.Billing.MaxRetentionDays(ctx)
	if err != nil {
		return nil, err
	}
	retention := max(cfg.AttemptRetention, time.Duration(retentionDays)*24*time.Hour)
	a.idempotency = idempotency.NewStore(a.db, cipher, log, nil)
	a.rateBuckets = ratelimit.New(a.db)
	a.rateLeases = newTimedLeases(registry, a.rateBuckets)
	if a.Inbound, err = inbound.New(inbound.Deps{DB: a.db, Sealer: cipher, Events: inboundEvents{a.Delivery},
		Retention: billingLimits{a.Billing}, Limits: billingLimits{a.Billing}, Schemas: a.Catalog,
		Rate: ratelimit.NewLimiter(a.rateLeases, "source", log)}, inbound.Config{PublicURL: cmp.Or(cfg.IngestURL, a.URL()), MaxRetention: retention,
		Tracing: a.tracing.TracerProvider()}, log, nil); err != nil {
		return nil, err
	}
	registry.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "ferry_queue_waiting_consumers",
		Help: "Pull-queue long-polls and streams of this process waiting for messages."},
		func() float64 { return float64(a.Queues.Waiting()) }))
	registry.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "ferry_routing_filter_errors_total",
		Help: "Endpoint filter evaluations that failed (counted as not matched, never failing ingest)."},
		func() float64 { return float64(a.Delivery.FilterErrors()) }))
	if cfg.Roles[RoleWorker] {
		if a.stateDB, err = pgval.OpenLookups(ctx, cfg.DatabaseURL, dispatch.StateConns); err != nil {
			return nil, err
		}
	}
	a.dispatcher = dispatch.NewDispatcher(a.db, cipher, egress.NewSender(addressPolicy, nil), a.writer, a.attempts, metrics,
		dispatch.Config{Policy: policy, UserAgent: "Ferry/" + cfg.Version, Tracing: a.tracing.TracerProvider(),
			Rate: ratelimit.NewLimiter(a.rateLeases, "endpoint", log), StateDB: a.stateDB}, log, nil)
	a.partitions = attemptlog.NewPartitions(a.db, attemptlog.PartitionConfig{Retention: retention}, log, nil)
	if err = a.partitions.Maintain(ctx); err != nil {
		return nil, err
	}
	if cfg.Roles[RoleWorker] {
		if a.consumer, err = kafka.NewConsumer(a.kafkaCfg, a.dispatcher, a.dispatcher.Tiers(), log); err != nil {
			return nil, err
		}
		a.replays = replay.NewWorker(a.Replays, replay.WorkerConfig{RatePerSecond: cfg.ReplayRatePerSecond}, log)
	}

	for _, w := range startupWarnings(cfg) {
		log.Warn(w)
	}
	requestMetrics := newHTTPMetrics(registry)
	if cfg.Roles[RoleWorker] {
		a.lag = newLagSampler(registry, a.kafkaCfg, a.kafkaCfg.Topics, log)
	}
	a.metricsHandler = promhttp.HandlerFor(registry, promhttp.HandlerOpts{})
	mainMetrics := a.metricsHandler
	switch {
	case cfg.MetricsAddr != "":
		if a.metricsListener, err = net.Listen("tcp", cfg.MetricsAddr); err != nil {
			return nil, fmt.Errorf("listen for metrics on %s: %w", cfg.MetricsAddr, err)
		}
		mainMetrics = nil
	case !cfg.Dev:
		// The public listener faces the internet in production: metrics
		// (tenant counts, queue depths, error rates) are for the operator.
		mainMetrics = nil
		log.Warn("metrics are off: set FERRY_METRICS_ADDR (e.g. 127.0.0.1:9100) to serve /metrics on a private listener")
	}
	a.http = httpapi.New(httpapi.Deps{
		Auth: a.Tenants, Sessions: sessions, Account: a.Tenants, Notifications: a.Tenants, APIKeys: a.Tenants, Members: a.Tenants,
		Staff: a.Tenants, Customers: a.Customers, CustomerPortal: a.CustomerPortal, OperationalEvents: a.opEvents, Endpoints: a.Delivery, Events: a.Delivery, EventsAccepted: metrics.EventsAccepted, Replays: a.Replays,
		Stats: a.Insight, StaffDelivery: a.Insight, Billing: a.Billing, Queues: a.Queues, Sources: a.Inbound,
		Inbound:               a.Inbound,
		EventTypes:            a.Catalog,
		Ready:                 a.ready,
		MetricsHandler:        mainMetrics,
		Requests:              requestMetrics,
		Idempotency:           a.idempotency,
		RateBuckets:           a.rateLeases,
		Portal:                frontend.Dist(),
		Log:                   log,
		SecureCookies:         !cfg.Dev,
		HSTS:                  !cfg.Dev,
		APIRateLimit:          cfg.APIRateLimitPerSecond,
		TrustedProxies:        cfg.TrustedProxies,
		IngestHost:            ingestHost(cfg),
		TokenGuessesPerMinute: cfg.TokenGuessesPerMinute,
		WriteTimeout:          cfg.HTTPWriteTimeout,
		StreamAuthInterval:    cfg.QueueStreamAuthInterval,
		TestRoutingRateLimit:  cfg.TestRoutingPerSecond,
		Tracing:               serverTracing(a.tracing),
	})
	return a, nil
}

// serverTracing is the provider of the HTTP server's spans: nil with
// tracing off, so that no request pays for a span nobody exports.
func serverTracing(p *tracing.Provider) trace.TracerProvider {
	if !p.Enabled() {
		return nil
	}
	return p.TracerProvider()
}

// Routes lists the HTTP routes the API registers (tests check that every
// route is documented and isolated).
func (a *App) Routes() []fiber.Route { return a.http.GetRoutes(true) }

// Addr is the HTTP listener's address ("" when the API role is off).
func (a *App) Addr() string {
	if a.listener == nil {
		return ""
	}
	return a.listener.Addr().String()
}

// MetricsAddr is the metrics listener's address when FERRY_METRICS_ADDR
// is set, "" otherwise (metrics are then on Addr).
func (a *App) MetricsAddr() string {
	if a.metricsListener == nil {
		return ""
	}
	return a.metricsListener.Addr().String()
}

// URL is the base URL of the API and portal.
func (a *App) URL() string {
	if a.cfg.PublicURL != "" {
		return a.cfg.PublicURL
	}
	host, port, err := net.SplitHostPort(a.Addr())
	if err != nil {
		return ""
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

func (a *App) ready(ctx context.Context) error {
	sqlDB, err := a.db.DB()
	if err != nil {
		return err
	}
	if err := sqlDB.PingContext(ctx); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	if err := kafka.Ping(ctx, a.kafkaCfg); err != nil {
		return err
	}
	return nil
}

// Run serves until ctx ends (or a component fails), then shuts down
// gracefully. The phases below start in order and stop in reverse, so
// shutdown runs bottom-up: long-polls and streams end, the API stops
// taking requests and consumers stop fetching; captures and ingest being
// committed finish; the periodic workers stop; in-flight attempts get
// ShutdownGrace to finish (what does not finish is left uncommitted for
// another process); final offsets are committed; account mail is sent;
// the attempt log flushes last.
func (a *App) Run(ctx context.Context) error {
	api, worker := []string{RoleAPI}, []string{RoleWorker}
	lc := &lifecycle{log: a.log, roles: a.cfg.Roles}
	// Added first so it stops last: the spans of everything that stops
	// before it are exported.
	lc.add("tracing", part{name: "tracing", stop: func(ctx context.Context) {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := a.tracing.Shutdown(ctx); err != nil {
			a.log.Warn("exporting the last spans", "err", err)
		}
	}})
	lc.add("observability",
		part{name: "pprof", run: func(ctx context.Context) error {
			if a.cfg.PprofAddr != "" {
				defer servePprof(a.cfg.PprofAddr, a.log)()
				<-ctx.Done()
			}
			return nil
		}},
		part{name: "metrics", run: func(ctx context.Context) error {
			if a.metricsListener != nil {
				defer serveMetrics(a.metricsListener, a.metricsHandler, a.ready, a.log)()
				<-ctx.Done()
			}
			return nil
		}},
		part{name: "kafka lag", roles: worker, run: func(ctx context.Context) error { return a.lag.Run(ctx) }})
	lc.add("attempt log", part{name: "attempt log", run: a.attempts.Run})
	lc.add("account mail", part{name: "account mail", stop: func(context.Context) { a.Tenants.WaitMail() }})
	lc.add("consumer close", part{name: "consumer close", roles: worker, stop: func(ctx context.Context) {
		ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := a.consumer.Close(ctx); err != nil {
			a.log.Warn("closing consumers", "err", err)
		}
	}})
	lc.add("dispatcher", part{name: "dispatcher", roles: worker, run: a.dispatcher.Run, stop: func(ctx context.Context) {
		ctx, cancel := context.WithTimeout(ctx, a.cfg.ShutdownGrace)
		defer cancel()
		if err := a.dispatcher.Drain(ctx); err != nil {
			a.log.Warn("in-flight attempts did not finish in the grace period; handing them back", "grace", a.cfg.ShutdownGrace)
		}
	}})
	lc.add("periodic workers",
		// Bulk replays re-queue through the outbox in the worker role too.
		part{name: "relay", roles: []string{RoleAPI, RoleWorker}, run: a.relay.Run, stop: func(ctx context.Context) {
			ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			a.relay.Drain(ctx)
		}},
		part{name: "notification mail", run: a.notices.Run},
		// Operational events' transformations a stopped process left
		// pending (any role emits operational events).
		part{name: "pending transformations", run: a.transformSweep.Run},
		part{name: "first analyze", run: a.firstAnalyze.Run},
		part{name: "rate buckets", run: func(ctx context.Context) error { return a.rateBuckets.Run(ctx, 10*time.Minute, a.log) }},
		// Filters fail to evaluate wherever events are routed (ingest
		// here, operational events in workers): each process records
		// its own.
		part{name: "filter errors", run: a.Delivery.RunFilterErrors},
		part{name: "quota warnings", roles: api, run: a.quota.Run},
		part{name: "idempotency keys", roles: api, run: a.idempotency.Run},
		// Counts of unstored rejected requests, captured bytes and
		// capture retention.
		part{name: "inbound", roles: api, run: a.Inbound.Run},
		part{name: "partitions", roles: worker, run: a.partitions.Run},
		part{name: "billing", roles: worker, run: a.Billing.Run},
		part{name: "replays", roles: worker, run: func(ctx context.Context) error { return a.replays.Run(ctx) }})
	// No new request or capture starts now: what is being committed, or
	// transformed for a commit, finishes while the database and the relay
	// are still there.
	lc.add("ingest drain", part{name: "ingest drain", roles: api, stop: func(ctx context.Context) {
		ictx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := a.Inbound.Drain(ictx); err != nil {
			a.log.Warn("captures did not drain in time; the next start's sweep makes their events", "err", err)
		}
		dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if err := a.Delivery.Drain(dctx); err != nil {
			a.log.Warn("ingest did not drain in time; the outbox and transformation sweeps finish it after the next start", "err", err)
		}
	}})
	lc.add("intake",
		part{name: "http", roles: api, run: func(context.Context) error { return a.http.Listener(a.listener) },
			stop: func(context.Context) {
				if err := a.http.ShutdownWithTimeout(10 * time.Second); err != nil {
					a.log.Warn("http shutdown", "err", err)
				}
			}},
		part{name: "consumer", roles: worker, run: a.consumer.Run})
	// Pull queues (long-poll wake-ups and the lease sweeper) stop first:
	// their long-polls and streams end before the HTTP server shuts down.
	lc.add("queues", part{name: "queues", run: a.Queues.Run})
	if a.cfg.Roles[RoleAPI] {
		a.log.Info("Ferry API listening", "url", a.URL())
	}
	if a.cfg.Roles[RoleWorker] {
		a.log.Info("Ferry delivery workers started", "group", a.cfg.KafkaGroup)
	}
	return lc.run(ctx)
}

// Close releases connections; call it after Run returns.
func (a *App) Close() error {
	var errs []error
	if a.tracing != nil {
		// After Run this finds the provider shut down already.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		errs = append(errs, a.tracing.Shutdown(ctx))
		cancel()
	}
	if a.router != nil {
		errs = append(errs, a.router.Close())
	}
	if a.stream != nil {
		errs = append(errs, a.stream.Close())
	}
	if a.writer != nil {
		errs = append(errs, a.writer.Close())
	}
	for _, db := range []*gorm.DB{a.stateDB, a.db} {
		if db == nil {
			continue
		}
		if sqlDB, err := db.DB(); err == nil {
			errs = append(errs, sqlDB.Close())
		}
	}
	if a.listener != nil {
		_ = a.listener.Close()
	}
	if a.metricsListener != nil {
		_ = a.metricsListener.Close()
	}
	return errors.Join(errs...)
}

// NewTenantsService builds the tenants service alone, for operator
// commands that need no Kafka (and send no mail).
func NewTenantsService(db *gorm.DB, cfg Config) (*tenants.Service, error) {
	var sealer tenants.Sealer
	if len(cfg.MasterKey) > 0 {
		cipher, err := cfg.cipher()
		if err != nil {
			return nil, err
		}
		sealer = cipher
	}
	return tenants.NewService(db, tenantsConfig(cfg, cfg.PublicURL, nil, sealer), slog.New(slog.DiscardHandler), nil)
}

// tenantsConfig is the tenants service's part of cfg; portalURL is the
// base of emailed links and sealer encrypts staff authenticator keys.
func tenantsConfig(cfg Config, portalURL string, mail tenants.Notifier, sealer tenants.Sealer) tenants.Config {
	return tenants.Config{
		BcryptCost:              cfg.BcryptCost,
		MaxLoginFailures:        cfg.LoginMaxFailures,
		MaxLoginFailuresPerAddr: cfg.LoginAddrMaxFailures,
		SignupsPerAddr:          cfg.SignupAddrLimit,
		InvitesPerHour:          cfg.InvitesPerHour,
		SessionCacheTTL:         cfg.SessionCacheTTL,
		RequireStaffTOTP:        cfg.StaffTOTPRequired,
		PortalURL:               portalURL,
		Notifier:                mail,
		Sealer:                  sealer,
	}
}

// NewBillingService builds the billing service; operator commands use it
// without Kafka. Dev mode collects payments with the in-memory
// RecordingProvider (FERRY_PAYMENT_PROVIDER=test, its default);
// production has no provider until a real one is wired here: invoices
// stay open and paid self-serve plans answer 402 payment_required.
func NewBillingService(db *gorm.DB, cfg Config, log *slog.Logger) (*billing.Service, error) {
	t, err := NewTenantsService(db, cfg)
	if err != nil {
		return nil, err
	}
	return newBillingService(db, cfg, log, t, nil) // operator commands send no mail
}

// newBillingService builds the billing service on the tenants service t
// and delivery's usage of db.
func newBillingService(db *gorm.DB, cfg Config, log *slog.Logger, t *tenants.Service, invoices billing.InvoiceNotifier) (*billing.Service, error) {
	var payments billing.PaymentProvider
	provider := cfg.PaymentProvider
	if provider == "" && cfg.Dev {
		provider = PaymentProviderTest
	}
	if provider == PaymentProviderTest && cfg.Dev {
		payments = &billing.RecordingProvider{}
	}
	deps := billing.Deps{Tenants: t, Endpoints: delivery.EndpointCounter{}, Attempts: attemptlog.NewUsage(db)}
	return billing.NewService(db, deps, billing.Config{JobInterval: cfg.BillingInterval, Payments: payments, Invoices: invoices}, log, nil)
}

// ingestHost is the host that alone serves ingest URLs, when
// FERRY_INGEST_URL names one apart from the portal's; empty otherwise.
func ingestHost(cfg Config) string {
	if cfg.IngestURL == "" {
		return ""
	}
	in, err := url.Parse(cfg.IngestURL)
	if err != nil {
		return "" // ConfigFromEnv validated it
	}
	if pub, err := url.Parse(cfg.PublicURL); err == nil && cfg.PublicURL != "" && strings.EqualFold(pub.Hostname(), in.Hostname()) {
		return ""
	}
	return in.Hostname()
}
