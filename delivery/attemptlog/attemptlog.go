package attemptlog

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/prometheus/client_golang/prometheus"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/internal/batch"
	"github.com/ferry-dev/ferry/internal/clock"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// attemptRecord is one attempt plus the delivery state it leads to.
type Record struct {
	model.Attempt
	TenantID uuid.UUID
	Status   model.Status // the delivery's status after this attempt
	// FirstAttemptAt is the delivery's first attempt time (this one's
	// start for attempt 1).
	FirstAttemptAt time.Time
}

// Emitter stores operational events in the open transaction of a batch
// and returns what to run once it has committed (opevents.Emitter).
type Emitter interface {
	Emit(ctx context.Context, tx store.Tx, evs []model.OperationalEvent, now time.Time) (after func(context.Context), err error)
}

// dropEvents is the Emitter of a Log told of none: the events are not
// stored.
type dropEvents struct{}

func (dropEvents) Emit(context.Context, store.Tx, []model.OperationalEvent, time.Time) (func(context.Context), error) {
	return func(context.Context) {}, nil
}

// Config tunes the batch writer.
type Config struct {
	// MaxBatch bounds attempts per transaction (default 1000).
	MaxBatch int
	// Pace is how long after one batch began the next may begin when it
	// is not full (default DefaultPace). An attempt after a quiet spell
	// is written at once; under a steady flow each batch holds what
	// arrived in Pace.
	Pace time.Duration
	// DisableAfter disables an endpoint whose attempts have all failed for
	// this long (default DefaultDisableAfter, scaled by the caller).
	DisableAfter time.Duration
	// FailingAfter is how long every attempt of an endpoint must have
	// failed before ferry.endpoint.failing is emitted (default 15
	// minutes, scaled by the caller).
	FailingAfter time.Duration
	// Events stores the operational events a batch causes (endpoint
	// health changes, exhausted deliveries) in the batch's transaction;
	// nil drops them.
	Events Emitter
	// BatchSize, if set, observes how many attempts each committed batch
	// held (telemetry.Metrics.AttemptLogBatch).
	BatchSize prometheus.Observer
}

// DefaultDisableAfter is how long an endpoint may fail without a success
// before it is disabled, when Config.DisableAfter is unset.
const DefaultDisableAfter = 5 * 24 * time.Hour

// DefaultPace is Config.Pace when unset. The receiver already has its
// request when its attempt is logged: the wait holds back only the
// attempt's showing in the API, the commit of its Kafka offset and its
// place in the tenant's count of jobs taken (docs/delivery.md). Each
// batch costs PostgreSQL four statements and a commit whatever its
// size, and unpaced, at 1,000 attempts/s, batches held about seven
// attempts (docs/benchmarks.md, 2026-11-28 04:36). At 50 ms against 20,
// with the relay's deletes alike, PostgreSQL took 0.41–0.42 of a core
// in the inbound flood against 0.45, lower in each of three alternated
// rounds (docs/benchmarks.md, 2026-11-28 06:28).
const DefaultPace = 50 * time.Millisecond

// Log writes attempts in batches: each transaction COPYs the
// attempts into the partitioned log, advances their deliveries and tracks
// endpoint health. Callers block until their attempt is committed, so many
// concurrent attempts share one commit.
type Log struct {
	db    *gorm.DB
	cfg   Config
	log   *slog.Logger
	clock clock.Clock
	ch    chan pendingRecord
}

type pendingRecord struct {
	rec  Record
	done chan error
}

// New returns a Log; call Run to start it. clk (nil: the system clock)
// times health tracking and the sweep of pending transformations.
func New(db *gorm.DB, cfg Config, log *slog.Logger, clk clock.Clock) *Log {
	cfg.MaxBatch = cmp.Or(cfg.MaxBatch, 1000)
	cfg.Pace = cmp.Or(cfg.Pace, DefaultPace)
	cfg.DisableAfter = cmp.Or(cfg.DisableAfter, DefaultDisableAfter)
	cfg.FailingAfter = cmp.Or(cfg.FailingAfter, 15*time.Minute)
	if cfg.Events == nil {
		cfg.Events = dropEvents{}
	}
	if cfg.BatchSize == nil {
		cfg.BatchSize = prometheus.ObserverFunc(func(float64) {})
	}
	return &Log{db: db, cfg: cfg, log: log, clock: clock.Or(clk), ch: make(chan pendingRecord, cfg.MaxBatch)}
}

// errLogClosed is returned to writers once Run has stopped.
var errLogClosed = errors.New("attempt log stopped")

// record queues rec and waits until it is committed or ctx ends.
func (l *Log) Record(ctx context.Context, rec Record) error {
	p := pendingRecord{rec: rec, done: make(chan error, 1)}
	select {
	case l.ch <- p:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-p.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Run writes batches until ctx ends. Writers still waiting get an error;
// their jobs are not committed to Kafka and will be redelivered.
func (l *Log) Run(ctx context.Context) error {
	queued := make([]pendingRecord, 0, l.cfg.MaxBatch)
	pace := batch.Pace[pendingRecord]{Every: l.cfg.Pace}
	for {
		select {
		case <-ctx.Done():
			l.failPending(errLogClosed)
			return nil
		case p := <-l.ch:
			queued = append(queued[:0], p)
		}
		pace.Fill(ctx, l.ch, func(p pendingRecord) { queued = append(queued, p) },
			func() bool { return len(queued) >= l.cfg.MaxBatch })
		err := l.write(ctx, queued)
		if err == nil {
			l.cfg.BatchSize.Observe(float64(len(queued)))
		}
		if err != nil {
			l.log.Warn("attempt log batch failed", "err", err, "attempts", len(queued))
		}
		var pgErr *pgconn.PgError
		if err != nil && len(queued) > 1 && errors.As(err, &pgErr) {
			// A row Postgres refuses must not fail every attempt that
			// shares its batch (they would all retry together, forever):
			// write them one by one so only the bad one fails.
			for _, p := range queued {
				p.done <- l.write(ctx, []pendingRecord{p})
			}
			continue
		}
		for _, p := range queued {
			p.done <- err
		}
	}
}

func (l *Log) failPending(err error) {
	for {
		select {
		case p := <-l.ch:
			p.done <- err
		default:
			return
		}
	}
}

var attemptCopyColumns = []string{"id", "tenant_id", "delivery_id", "event_id", "endpoint_id", "attempt_number",
	"trigger", "actor", "started_at", "duration_ms", "request_headers", "response_status", "response_headers",
	"response_body", "error_class", "error_message", "outcome", "next_attempt_at", "response_headers_truncated",
	"response_body_truncated"}

func (l *Log) write(ctx context.Context, pending []pendingRecord) error {
	recs := make([]Record, len(pending))
	for i, p := range pending {
		recs[i] = p.rec
	}
	prep, err := prepare(recs)
	if err != nil {
		return err
	}
	changes := make([]store.Change, 0, len(prep.latest))
	for _, r := range prep.latest {
		changes = append(changes, store.Change{DeliveryID: r.DeliveryID, Status: r.Status, Attempt: r.AttemptNumber,
			FirstAttemptAt: r.FirstAttemptAt, StartedAt: r.StartedAt, NextAttemptAt: r.NextAttemptAt})
	}
	now := l.clock.Now().UTC()

	var after func(context.Context)
	// pgx directly: COPY is an order of magnitude faster than INSERT here.
	err = pgval.WithConn(ctx, l.db, func(pc *pgx.Conn) error {
		return pgx.BeginFunc(ctx, pc, func(tx pgx.Tx) error {
			if err := prep.copy(ctx, tx); err != nil {
				return err
			}
			if err := store.Transition(ctx, tx, now, changes); err != nil {
				return err
			}
			var err error
			after, err = l.account(ctx, tx, prep, now)
			return err
		})
	})
	if err != nil {
		return err
	}
	after(ctx)
	return nil
}

// RecordTx logs attempts whose deliveries the caller advances itself, in
// tx, the caller's open transaction: pull queues settle leases this way,
// so that the row and its attempt never disagree. Like the batches of
// Run, it COPYs the attempts and, in the same transaction, adds them to
// the endpoint stats rollups, tracks endpoint health and emits the
// operational events that follow. Call after once tx has committed: it
// hands the events' deliveries to the relay and tells the notifier.
// Errors: wrapped database errors.
func (l *Log) RecordTx(ctx context.Context, tx pgx.Tx, recs []Record) (after func(context.Context), err error) {
	if len(recs) == 0 {
		return func(context.Context) {}, nil
	}
	prep, err := prepare(recs)
	if err != nil {
		return nil, err
	}
	if err := prep.copy(ctx, tx); err != nil {
		return nil, err
	}
	return l.account(ctx, tx, prep, l.clock.Now().UTC())
}

// prepared is a batch of attempts ready to COPY, with what the rest of
// its transaction needs to know of it.
type prepared struct {
	recs []Record
	rows [][]any
	// latest is each delivery's latest attempt in the batch, which
	// decides its state.
	latest            map[uuid.UUID]Record
	succeeded, failed []uuid.UUID // endpoints, per attempt
}

func prepare(recs []Record) (prepared, error) {
	p := prepared{recs: recs, rows: make([][]any, len(recs)), latest: make(map[uuid.UUID]Record, len(recs))}
	for i, r := range recs {
		reqHeaders, err := json.Marshal(storableHeaders(r.RequestHeaders))
		if err != nil {
			return prepared{}, fmt.Errorf("encode request headers: %w", err)
		}
		var respHeaders []byte
		if r.ResponseHeaders != nil {
			if respHeaders, err = json.Marshal(storableHeaders(r.ResponseHeaders)); err != nil {
				return prepared{}, fmt.Errorf("encode response headers: %w", err)
			}
		}
		// UUIDs as [16]byte: pgx encodes those directly (see pgArray).
		p.rows[i] = []any{[16]byte(r.ID), [16]byte(r.TenantID), [16]byte(r.DeliveryID), [16]byte(r.EventID), [16]byte(r.EndpointID), r.AttemptNumber,
			string(r.Trigger), pgval.Text([]byte(r.Actor)), r.StartedAt, r.DurationMs, string(reqHeaders), r.ResponseStatus,
			nullableJSON(respHeaders), pgval.Text([]byte(r.ResponseBody)), r.ErrorClass, pgval.Text([]byte(r.ErrorMessage)), string(r.Outcome), r.NextAttemptAt,
			r.ResponseHeadersTruncated, r.ResponseBodyTruncated}
		if prev, ok := p.latest[r.DeliveryID]; !ok || prev.AttemptNumber < r.AttemptNumber {
			p.latest[r.DeliveryID] = r
		}
		if !model.AboutReceiver(r.ErrorClass) {
			// Dropped by the endpoint's transformation: no request made.
		} else if r.Outcome == model.OutcomeSuccess {
			p.succeeded = append(p.succeeded, r.EndpointID)
		} else {
			p.failed = append(p.failed, r.EndpointID)
		}
	}
	return p, nil
}

func (p prepared) copy(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"attempts"}, attemptCopyColumns, pgx.CopyFromRows(p.rows)); err != nil {
		return fmt.Errorf("copy attempts: %w", err)
	}
	return nil
}

// account does, in tx, what logged attempts lead to beyond their rows:
// the stats rollups, endpoint health and operational events. It returns
// what to do once tx has committed.
func (l *Log) account(ctx context.Context, tx pgx.Tx, p prepared, now time.Time) (func(context.Context), error) {
	ops, err := l.trackHealth(ctx, tx, p.succeeded, p.failed, now)
	if err != nil {
		return nil, err
	}
	exhausted, err := exhaustedEvents(ctx, tx, p.latest)
	if err != nil {
		return nil, err
	}
	after, err := l.cfg.Events.Emit(ctx, tx, append(ops, exhausted...), now)
	if err != nil {
		return nil, err
	}
	// The rollup upsert last: every transaction logging attempts of one
	// endpoint in the same hour updates the same row, so its lock should
	// be held for the commit only (a busy pull queue settles many small
	// batches at once).
	if err := writeRollups(ctx, tx, p.recs); err != nil {
		return nil, err
	}
	return after, nil
}

// trackHealth clears failing_since on success, starts it on failure, and
// disables an http endpoint that has failed for DisableAfter
// (docs/delivery.md: Endpoint health; never a queue endpoint). It returns the operational events of the
// transitions it made: failing (every attempt failed for FailingAfter; once
// per failing period), disabled, and recovered (a success ending a period
// that was reported failing).
func (l *Log) trackHealth(ctx context.Context, tx pgx.Tx, succeeded, failed []uuid.UUID, now time.Time) ([]model.OperationalEvent, error) {
	var ops []model.OperationalEvent
	if len(succeeded) > 0 {
		rows, err := tx.Query(ctx, `UPDATE endpoints e SET failing_since = NULL, failing_notified_since = NULL
			FROM (SELECT id, failing_since, failing_notified_since FROM endpoints
				WHERE id = ANY($1) AND failing_since IS NOT NULL ORDER BY id FOR UPDATE) old
			WHERE e.id = old.id
			RETURNING e.id, e.tenant_id, e.url, old.failing_since, old.failing_notified_since IS NOT DISTINCT FROM old.failing_since`,
			pgval.Array(succeeded))
		if err != nil {
			return nil, fmt.Errorf("clear endpoint failure: %w", err)
		}
		recovered, err := healthEvents(rows, func(ep endpointHealth) (model.OperationalEvent, bool) {
			at := now
			return l.healthEvent(model.OpEndpointRecovered, ep, "", &at), ep.flag
		})
		if err != nil {
			return nil, fmt.Errorf("clear endpoint failure: %w", err)
		}
		ops = append(ops, recovered...)
	}
	if len(failed) == 0 {
		return ops, nil
	}
	if succeeded == nil {
		// A nil slice is SQL NULL, and "NOT (id = ANY(NULL))" is never
		// true: no endpoint would ever start failing.
		succeeded = []uuid.UUID{}
	}
	if _, err := tx.Exec(ctx, `UPDATE endpoints SET failing_since = $2
		WHERE id = ANY($1) AND failing_since IS NULL AND NOT (id = ANY($3))`, pgval.Array(failed), now, pgval.Array(succeeded)); err != nil {
		return nil, fmt.Errorf("mark endpoint failing: %w", err)
	}
	rows, err := tx.Query(ctx, `UPDATE endpoints SET failing_notified_since = failing_since
		WHERE id = ANY($1) AND failing_since <= $2 AND failing_notified_since IS DISTINCT FROM failing_since
		RETURNING id, tenant_id, url, failing_since, false`, pgval.Array(failed), now.Add(-l.cfg.FailingAfter))
	if err != nil {
		return nil, fmt.Errorf("report endpoint failing: %w", err)
	}
	failing, err := healthEvents(rows, func(ep endpointHealth) (model.OperationalEvent, bool) {
		return l.healthEvent(model.OpEndpointFailing, ep, "", nil), true
	})
	if err != nil {
		return nil, fmt.Errorf("report endpoint failing: %w", err)
	}
	ops = append(ops, failing...)
	// Queue endpoints are never disabled: their failures are the
	// consumer's nacks, rejects and expired leases, which cost Ferry no
	// sending, and disabling would stop new events reaching a consumer
	// that is still pulling (docs/contract.md#pull-queues).
	rows, err = tx.Query(ctx, `UPDATE endpoints SET enabled = false, updated_at = $2,
		disabled_reason = 'disabled automatically: every delivery failed since ' || to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
		WHERE id = ANY($1) AND enabled AND failing_since < $3 AND kind <> 'queue'
		RETURNING id, tenant_id, url, failing_since, false, disabled_reason`, pgval.Array(failed), now, now.Add(-l.cfg.DisableAfter))
	if err != nil {
		return nil, fmt.Errorf("disable failing endpoints: %w", err)
	}
	disabled, err := healthEvents(rows, func(ep endpointHealth) (model.OperationalEvent, bool) {
		l.log.Warn("endpoint disabled automatically", "endpoint_id", ep.id, "tenant_id", ep.tenantID, "reason", ep.reason)
		return l.healthEvent(model.OpEndpointDisabled, ep, ep.reason, nil), true
	})
	if err != nil {
		return nil, fmt.Errorf("disable failing endpoints: %w", err)
	}
	return append(ops, disabled...), nil
}

// endpointHealth is an endpoint whose health changed, as the health
// statements return it.
type endpointHealth struct {
	id, tenantID uuid.UUID
	url          string
	failingSince time.Time
	flag         bool // recovered: the failing period had been reported
	reason       string
}

// healthEvents reads the rows of a health statement and turns each into
// an operational event when event says so.
func healthEvents(rows pgx.Rows, event func(endpointHealth) (model.OperationalEvent, bool)) ([]model.OperationalEvent, error) {
	defer rows.Close()
	var out []model.OperationalEvent
	for rows.Next() {
		var ep endpointHealth
		dest := []any{&ep.id, &ep.tenantID, &ep.url, &ep.failingSince, &ep.flag}
		if len(rows.FieldDescriptions()) > len(dest) {
			dest = append(dest, &ep.reason)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		if ev, ok := event(ep); ok {
			out = append(out, ev)
		}
	}
	return out, rows.Err()
}

// healthEvent is the operational event typ about ep; its idempotency key
// names the failing period, so it happens once per period.
func (l *Log) healthEvent(typ string, ep endpointHealth, reason string, recoveredAt *time.Time) model.OperationalEvent {
	since := ep.failingSince.UTC()
	return model.OperationalEvent{TenantID: ep.tenantID, Type: typ, About: ep.id,
		Key:  fmt.Sprintf("%s:%s:%d", typ, ep.id, since.UnixMicro()),
		Data: model.EndpointHealthData{EndpointID: ep.id, URL: ep.url, FailingSince: since, Reason: reason, RecoveredAt: recoveredAt}}
}

// exhaustedEvents returns ferry.delivery.exhausted for each delivery the
// batch exhausted, except deliveries of operational events (the loop
// rule).
func exhaustedEvents(ctx context.Context, tx pgx.Tx, latest map[uuid.UUID]Record) ([]model.OperationalEvent, error) {
	var ids []uuid.UUID
	for id, r := range latest {
		if r.Status == model.StatusExhausted {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return nil, nil
	}
	rows, err := tx.Query(ctx, `SELECT d.id, e.type FROM deliveries d JOIN events e ON e.id = d.event_id
		WHERE d.id = ANY($1) AND e.type NOT LIKE 'ferry.%'`, pgval.Array(ids))
	if err != nil {
		return nil, fmt.Errorf("exhausted deliveries: %w", err)
	}
	defer rows.Close()
	var out []model.OperationalEvent
	for rows.Next() {
		var id uuid.UUID
		var typ string
		if err := rows.Scan(&id, &typ); err != nil {
			return nil, fmt.Errorf("exhausted deliveries: %w", err)
		}
		r := latest[id]
		out = append(out, model.OperationalEvent{TenantID: r.TenantID, Type: model.OpDeliveryExhausted, About: r.EndpointID,
			Key: fmt.Sprintf("%s:%s:%d", model.OpDeliveryExhausted, id, r.AttemptNumber),
			Data: model.DeliveryExhaustedData{DeliveryID: id, EventID: r.EventID, EventType: typ, EndpointID: r.EndpointID,
				AttemptCount: r.AttemptNumber, LastAttemptAt: r.StartedAt.UTC()}})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("exhausted deliveries: %w", err)
	}
	return out, nil
}

// storableHeaders makes header names and values storable in jsonb, which
// refuses NUL characters and invalid UTF-8.
func storableHeaders(h http.Header) http.Header {
	if h == nil {
		return nil
	}
	out := make(http.Header, len(h))
	for k, vs := range h {
		clean := make([]string, len(vs))
		for i, v := range vs {
			clean[i] = pgval.Text([]byte(v))
		}
		out[pgval.Text([]byte(k))] = clean
	}
	return out
}

func nullableJSON(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}
