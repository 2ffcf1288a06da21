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

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/internal/pgval"
)

// attemptRecord is one attempt plus the delivery state it leads to.
type Record struct {
	delivery.Attempt
	TenantID uuid.UUID
	Status   delivery.Status // the delivery's status after this attempt
	// FirstAttemptAt is the delivery's first attempt time (this one's
	// start for attempt 1).
	FirstAttemptAt time.Time
}

// AttemptLogConfig tunes the batch writer.
type Config struct {
	// MaxBatch bounds attempts per transaction (default 1000).
	MaxBatch int
	// DisableAfter disables an endpoint whose attempts have all failed for
	// this long (default DefaultDisableAfter, scaled by the caller).
	DisableAfter time.Duration
	// Now is the clock for health tracking; nil uses time.Now.
	Now func() time.Time
	// BatchSize, if set, observes how many attempts each committed batch
	// held (delivery.Metrics.AttemptLogBatch).
	BatchSize prometheus.Observer
}

// DefaultDisableAfter is how long an endpoint may fail without a success
// before it is disabled, when Config.DisableAfter is unset.
const DefaultDisableAfter = 5 * 24 * time.Hour

// AttemptLog writes attempts in batches: each transaction COPYs the
// attempts into the partitioned log, advances their deliveries and tracks
// endpoint health. Callers block until their attempt is committed, so many
// concurrent attempts share one commit.
type Log struct {
	db  *gorm.DB
	cfg Config
	log *slog.Logger
	ch  chan pendingRecord
}

type pendingRecord struct {
	rec  Record
	done chan error
}

// NewAttemptLog returns an AttemptLog; call Run to start it.
func New(db *gorm.DB, cfg Config, log *slog.Logger) *Log {
	cfg.MaxBatch = cmp.Or(cfg.MaxBatch, 1000)
	cfg.DisableAfter = cmp.Or(cfg.DisableAfter, DefaultDisableAfter)
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.BatchSize == nil {
		cfg.BatchSize = prometheus.ObserverFunc(func(float64) {})
	}
	return &Log{db: db, cfg: cfg, log: log, ch: make(chan pendingRecord, cfg.MaxBatch)}
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
	batch := make([]pendingRecord, 0, l.cfg.MaxBatch)
	for {
		select {
		case <-ctx.Done():
			l.failPending(errLogClosed)
			return nil
		case p := <-l.ch:
			batch = append(batch[:0], p)
		}
	drain:
		for len(batch) < l.cfg.MaxBatch {
			select {
			case p := <-l.ch:
				batch = append(batch, p)
			default:
				break drain
			}
		}
		err := l.write(ctx, batch)
		if err == nil {
			l.cfg.BatchSize.Observe(float64(len(batch)))
		}
		if err != nil {
			l.log.Warn("attempt log batch failed", "err", err, "attempts", len(batch))
		}
		var pgErr *pgconn.PgError
		if err != nil && len(batch) > 1 && errors.As(err, &pgErr) {
			// A row Postgres refuses must not fail every attempt that
			// shares its batch (they would all retry together, forever):
			// write them one by one so only the bad one fails.
			for _, p := range batch {
				p.done <- l.write(ctx, []pendingRecord{p})
			}
			continue
		}
		for _, p := range batch {
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

func (l *Log) write(ctx context.Context, batch []pendingRecord) error {
	rows := make([][]any, len(batch))
	// The latest attempt of each delivery in the batch decides its state.
	latest := make(map[uuid.UUID]Record, len(batch))
	var failed, succeeded []uuid.UUID
	for i, p := range batch {
		r := p.rec
		reqHeaders, err := json.Marshal(storableHeaders(r.RequestHeaders))
		if err != nil {
			return fmt.Errorf("encode request headers: %w", err)
		}
		var respHeaders []byte
		if r.ResponseHeaders != nil {
			if respHeaders, err = json.Marshal(storableHeaders(r.ResponseHeaders)); err != nil {
				return fmt.Errorf("encode response headers: %w", err)
			}
		}
		// UUIDs as [16]byte: pgx encodes those directly (see pgArray).
		rows[i] = []any{[16]byte(r.ID), [16]byte(r.TenantID), [16]byte(r.DeliveryID), [16]byte(r.EventID), [16]byte(r.EndpointID), r.AttemptNumber,
			string(r.Trigger), pgval.Text([]byte(r.Actor)), r.StartedAt, r.DurationMs, string(reqHeaders), r.ResponseStatus,
			nullableJSON(respHeaders), pgval.Text([]byte(r.ResponseBody)), r.ErrorClass, pgval.Text([]byte(r.ErrorMessage)), string(r.Outcome), r.NextAttemptAt,
			r.ResponseHeadersTruncated, r.ResponseBodyTruncated}
		if prev, ok := latest[r.DeliveryID]; !ok || prev.AttemptNumber < r.AttemptNumber {
			latest[r.DeliveryID] = r
		}
		if r.Outcome == delivery.OutcomeSuccess {
			succeeded = append(succeeded, r.EndpointID)
		} else {
			failed = append(failed, r.EndpointID)
		}
	}
	ids := make([][16]byte, 0, len(latest))
	statuses := make([]string, 0, len(latest))
	numbers := make([]int32, 0, len(latest))
	firsts := make([]time.Time, 0, len(latest))
	starts := make([]time.Time, 0, len(latest))
	nexts := make([]*time.Time, 0, len(latest))
	for _, r := range latest {
		ids = append(ids, r.DeliveryID)
		statuses = append(statuses, string(r.Status))
		numbers = append(numbers, int32(r.AttemptNumber))
		firsts = append(firsts, r.FirstAttemptAt)
		starts = append(starts, r.StartedAt)
		nexts = append(nexts, r.NextAttemptAt)
	}
	now := l.cfg.Now().UTC()

	// pgx directly: COPY is an order of magnitude faster than INSERT here.
	return pgval.WithConn(ctx, l.db, func(pc *pgx.Conn) error {
		return pgx.BeginFunc(ctx, pc, func(tx pgx.Tx) error {
			if _, err := tx.CopyFrom(ctx, pgx.Identifier{"attempts"}, attemptCopyColumns, pgx.CopyFromRows(rows)); err != nil {
				return fmt.Errorf("copy attempts: %w", err)
			}
			// attempt_count only moves forward: a late write of an older
			// attempt must not undo a newer one.
			if _, err := tx.Exec(ctx, `UPDATE deliveries d SET status = v.status, attempt_count = v.n,
				first_attempt_at = coalesce(d.first_attempt_at, v.first), last_attempt_at = v.started,
				next_attempt_at = v.next, updated_at = $7
				FROM unnest($1::uuid[], $2::text[], $3::int[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[])
					AS v(id, status, n, first, started, next)
				WHERE d.id = v.id AND d.attempt_count < v.n`,
				ids, statuses, numbers, firsts, starts, nexts, now); err != nil {
				return fmt.Errorf("update deliveries: %w", err)
			}
			return l.trackHealth(ctx, tx, succeeded, failed, now)
		})
	})
}

// trackHealth clears failing_since on success, starts it on failure, and
// disables an endpoint that has failed for DisableAfter (README, Delivery guarantees: Endpoint health).
func (l *Log) trackHealth(ctx context.Context, tx pgx.Tx, succeeded, failed []uuid.UUID, now time.Time) error {
	if len(succeeded) > 0 {
		if _, err := tx.Exec(ctx, `UPDATE endpoints SET failing_since = NULL
			WHERE id = ANY($1) AND failing_since IS NOT NULL`, pgval.Array(succeeded)); err != nil {
			return fmt.Errorf("clear endpoint failure: %w", err)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	if succeeded == nil {
		// A nil slice is SQL NULL, and "NOT (id = ANY(NULL))" is never
		// true: no endpoint would ever start failing.
		succeeded = []uuid.UUID{}
	}
	if _, err := tx.Exec(ctx, `UPDATE endpoints SET failing_since = $2
		WHERE id = ANY($1) AND failing_since IS NULL AND NOT (id = ANY($3))`, pgval.Array(failed), now, pgval.Array(succeeded)); err != nil {
		return fmt.Errorf("mark endpoint failing: %w", err)
	}
	rows, err := tx.Query(ctx, `UPDATE endpoints SET enabled = false, updated_at = $2,
		disabled_reason = 'disabled automatically: every delivery failed since ' || to_char(failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
		WHERE id = ANY($1) AND enabled AND failing_since < $3
		RETURNING id, tenant_id, disabled_reason`, pgval.Array(failed), now, now.Add(-l.cfg.DisableAfter))
	if err != nil {
		return fmt.Errorf("disable failing endpoints: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, tenantID uuid.UUID
		var reason string
		if err := rows.Scan(&id, &tenantID, &reason); err != nil {
			return fmt.Errorf("disable failing endpoints: %w", err)
		}
		l.log.Warn("endpoint disabled automatically", "endpoint_id", id, "tenant_id", tenantID, "reason", reason)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("disable failing endpoints: %w", err)
	}
	return nil
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
