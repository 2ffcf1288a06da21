package inbound

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/internal/batch"
	"github.com/ferry-dev/ferry/internal/clock"
	"github.com/ferry-dev/ferry/internal/ttlcache"
	"github.com/ferry-dev/ferry/ratelimit"
)

// Sealer encrypts secrets at rest, bound to their owner by aad.
// seal.Cipher satisfies it.
type Sealer interface {
	// Seal encrypts plaintext for aad.
	Seal(plaintext, aad []byte) []byte
	// Open decrypts what Seal produced for the same aad. Errors: a
	// wrapped decryption error.
	Open(ciphertext, aad []byte) ([]byte, error)
}

// Events is what inbound needs from delivery: turning a verified capture
// into an event of the tenant, in inbound's own transaction, so the
// capture's outcome, the event, its deliveries and its metering commit
// together. app plugs delivery in.
type Events interface {
	// IngestInTx accepts ev as an event of tenantID in tx, under ev.ID
	// (a new id when zero): metered, stored with its raw body and fanned
	// out. after must be called once tx has committed (it hands the jobs
	// to the relay; if it is never called, the outbox sweeper publishes
	// them later). Errors: EINVALID,
	// EQUOTA, ERATELIMIT, EPAYMENT, wrapped database errors.
	IngestInTx(ctx context.Context, tx dbtx.Tx, tenantID uuid.UUID, ev EventInput) (eventID uuid.UUID, after func(), err error)
	// IngestBatchInTx is IngestInTx for many events at once, each under
	// its Event.ID. Any error fails them all. Errors: as IngestInTx.
	IngestBatchInTx(ctx context.Context, tx dbtx.Tx, evs []TenantEvent) (after func(), err error)
	// ValidEventType reports whether t may be an event's type.
	ValidEventType(t string) bool
}

// SchemaChecker validates an event's data against the tenant's schema
// for its type; the event-type catalog satisfies it.
type SchemaChecker interface {
	// Check returns a warning for data that does not match a schema in
	// warn mode (the catalog records it), "" otherwise. Errors: EINVALID
	// naming the failing path in reject mode, wrapped database errors.
	Check(ctx context.Context, tenantID uuid.UUID, eventType string, data json.RawMessage) (warning string, err error)
}

// EventInput is the event a verified capture becomes.
type EventInput struct {
	// ID is the event's id, chosen with the capture and stored on it;
	// zero for a replay's new event.
	ID   uuid.UUID
	Type string
	// Data is the JSON body, compact, or {"raw_base64": …}.
	Data json.RawMessage
	// Body and ContentType are the request's, for raw endpoints.
	Body        []byte
	ContentType string
	// Request is the request as endpoint filters see it.
	Request RequestInfo
	// Trace is the span of the capture; the event's deliveries continue
	// its trace (invalid: untraced).
	Trace trace.SpanContext
}

// TenantEvent is one event of a batch and its tenant.
type TenantEvent struct {
	TenantID uuid.UUID
	Event    EventInput
}

// RequestInfo is a captured request as endpoint filters see it.
type RequestInfo struct {
	Method string `json:"method"`
	Path   string `json:"path"`
	// Headers has lower-cased names; repeated headers are joined by ", ".
	Headers map[string]string `json:"headers"`
	// Query has the first value of each parameter.
	Query map[string]string `json:"query"`
}

// Retention is what inbound needs from billing: how long the tenant's
// plan keeps history (attempts, and with them captured requests).
type Retention interface {
	// AttemptRetention returns the tenant's plan retention (0: no plan
	// limit). Errors: wrapped database errors.
	AttemptRetention(ctx context.Context, tenantID uuid.UUID) (time.Duration, error)
}

// Config tunes the Service.
type Config struct {
	// PublicURL is the base of ingest URLs (<PublicURL>/in/<token>).
	PublicURL string
	// RejectedPerMinute bounds the rejected requests stored per source
	// per minute (default 60); more are counted, not stored.
	RejectedPerMinute int
	// CacheTTL bounds how stale a cached source may be on the ingest path
	// (default 1 s); changes made through this process apply at once.
	CacheTTL time.Duration
	// MaxRetention is the longest any plan keeps captures; older ones are
	// deleted whatever the plan (default 30 days).
	MaxRetention time.Duration
	// JobInterval is how often Run flushes counts of unstored rejected
	// requests (default 10 s).
	JobInterval time.Duration
	// PruneInterval is how often Run prunes captures past retention
	// (default 1 h; the first prune runs at start).
	PruneInterval time.Duration
	// Tracing makes the capture span of traced requests (tracing.go);
	// nil makes none.
	Tracing trace.TracerProvider
}

// Service manages sources and receives their requests.
type Service struct {
	tracer    trace.Tracer
	db        *gorm.DB
	sealer    Sealer
	events    Events
	retention Retention
	schemas   SchemaChecker
	cfg       Config
	log       *slog.Logger
	clock     clock.Clock
	// pruned is when RunOnce last pruned (unix ns).
	pruned atomic.Int64

	cache    *ttlcache.Cache[[32]byte, liveSource]
	limiters *limiters
	rate     RateLimiter // each source's accepted requests
	// quota bounds sources and captured bytes by plan (nil: no bound).
	quota *captureQuota
	// captures commits concurrent verified captures together, and
	// making then makes their events (group.go).
	captures, making *batch.Coalescer[*pendingCapture]
}

// Deps are the Service's collaborators; all are required but Retention
// (nil: only Config.MaxRetention applies), Limits (nil: sources and
// captured bytes are unbounded) and Schemas (nil: no event's data is
// checked).
type Deps struct {
	DB        *gorm.DB
	Sealer    Sealer
	Events    Events
	Retention Retention
	Limits    Limits
	Schemas   SchemaChecker
	// Rate keeps each source's bucket of accepted requests; nil keeps
	// them in this process alone (N replicas then accept N times a
	// source's rate).
	Rate RateLimiter
}

// RateLimiter spends tokens of per-key buckets that hold at most
// perSecond tokens and refill perSecond a second, shared by every
// replica (*ratelimit.Limiter). wait > 0 means there was none to spend,
// and says how long until there is.
type RateLimiter interface {
	Take(ctx context.Context, key string, perSecond int) (left float64, wait time.Duration)
}

// New returns a Service; clk nil is the system clock.
func New(d Deps, cfg Config, log *slog.Logger, clk clock.Clock) (*Service, error) {
	if d.DB == nil || d.Sealer == nil || d.Events == nil || log == nil {
		return nil, errors.New("inbound.New: db, sealer, events and log are required")
	}
	cfg.RejectedPerMinute = cmp.Or(cfg.RejectedPerMinute, 60)
	cfg.CacheTTL = cmp.Or(cfg.CacheTTL, time.Second)
	cfg.MaxRetention = cmp.Or(cfg.MaxRetention, 30*24*time.Hour)
	cfg.JobInterval = cmp.Or(cfg.JobInterval, 10*time.Second)
	cfg.PruneInterval = cmp.Or(cfg.PruneInterval, time.Hour)
	if cfg.RejectedPerMinute < 0 || cfg.CacheTTL < 0 || cfg.MaxRetention < 0 || cfg.JobInterval < 0 || cfg.PruneInterval < 0 {
		return nil, errors.New("inbound.New: negative config value")
	}
	if cfg.Tracing == nil {
		cfg.Tracing = noop.NewTracerProvider()
	}
	s := &Service{tracer: cfg.Tracing.Tracer("github.com/ferry-dev/ferry/inbound"), db: d.DB, sealer: d.Sealer, events: d.Events, retention: d.Retention, schemas: d.Schemas, cfg: cfg, log: log, clock: clock.Or(clk),
		cache: ttlcache.New[[32]byte, liveSource](cfg.CacheTTL, maxCachedSources), limiters: newLimiters(cfg.RejectedPerMinute)}
	if d.Limits != nil {
		s.quota = newCaptureQuota(d.Limits)
	}
	s.rate = d.Rate
	if s.rate == nil {
		s.rate = ratelimit.NewLimiter(nil, "source", log)
	}
	s.captures = batch.NewPaced(maxGroup, captureCommitters, capturePace, s.commitCaptures)
	s.making = batch.NewLingering(maxGroup, eventMakers, makeLinger, func(ctx context.Context, b []*pendingCapture) { _, _ = s.makeEvents(ctx, b) })
	return s, nil
}

// Run runs the Service's periodic work until ctx ends: it sweeps
// captures whose event was not made every second (sweepPending), flushes
// the counts of unstored rejected requests and of captured bytes every
// JobInterval and prunes captures past retention every PruneInterval (the
// first prune at start). On its way out it drains (Drain) and flushes the
// counts once more, so they survive a clean shutdown.
func (s *Service) Run(ctx context.Context) error {
	jobs := s.clock.NewTicker(s.cfg.JobInterval)
	defer jobs.Stop()
	sweep := s.clock.NewTicker(sweepInterval)
	defer sweep.Stop()
	for {
		if err := s.pruneIfDue(ctx); err != nil && ctx.Err() == nil {
			s.log.ErrorContext(ctx, "prune source requests", "err", err)
		}
		select {
		case <-ctx.Done():
			fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			_ = s.Drain(fctx)
			s.flushUnstored(fctx)
			s.flushCaptured(fctx)
			cancel()
			return nil
		case <-sweep.C():
			if err := s.sweepPending(ctx); err != nil && ctx.Err() == nil {
				s.log.ErrorContext(ctx, "sweep pending captures", "err", err)
			}
		case <-jobs.C():
			s.flushUnstored(ctx)
			s.flushCaptured(ctx)
		}
	}
}

// RunOnce does each of Run's jobs once, whether due or not, for tests
// that step the Service: it sweeps pending captures, flushes the counts
// and prunes captures past retention.
func (s *Service) RunOnce(ctx context.Context) error {
	err := s.sweepPending(ctx)
	s.flushUnstored(ctx)
	s.flushCaptured(ctx)
	s.pruned.Store(s.clock.Now().UnixNano())
	_, perr := s.Prune(ctx)
	return errors.Join(err, perr)
}

// pruneIfDue prunes when PruneInterval has passed since the last prune.
func (s *Service) pruneIfDue(ctx context.Context) error {
	now := s.clock.Now()
	if now.Sub(time.Unix(0, s.pruned.Load())) < s.cfg.PruneInterval {
		return nil
	}
	s.pruned.Store(now.UnixNano())
	_, err := s.Prune(ctx)
	return err
}

// Drain waits, until ctx ends, for the captures being committed and then
// for the events being made of them; the owner calls it on shutdown once
// no request can start a capture, before the database goes away. What
// ctx cuts short stays pending, and the next start's sweep makes its
// event.
func (s *Service) Drain(ctx context.Context) error {
	return errors.Join(s.captures.Wait(ctx), s.making.Wait(ctx))
}

func randomBytes(n int) ([]byte, error) {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("randomness: %w", err)
	}
	return b, nil
}

// flushCaptured meters the bytes captured since the last flush.
func (s *Service) flushCaptured(ctx context.Context) {
	if err := s.quota.flush(ctx, s.clock.Now()); err != nil && ctx.Err() == nil {
		s.log.WarnContext(ctx, "meter captured bytes", "err", err)
	}
}
