package attemptlog

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// rollupKey is one row of endpoint_stats_hourly.
type rollupKey struct {
	endpoint uuid.UUID
	hour     time.Time
}

// rollup is one batch's contribution to a row of endpoint_stats_hourly
// (see migration 00040 and delivery/insight/stats.go for what each count means).
type rollup struct {
	tenant              uuid.UUID
	attempts            int64
	attemptsFailed      int64
	deliveriesSucceeded int64
	deliveriesFailed    int64
	classes             map[string]int64
	buckets             [model.ResponseBuckets]int64
	lastSuccess         *time.Time
}

// errorClass is the key an attempt counts under in by_error_class.
func errorClass(r Record) string {
	if r.ErrorClass != "" {
		return r.ErrorClass
	}
	if r.ResponseStatus != nil {
		return "http_" + strconv.Itoa(*r.ResponseStatus)
	}
	return "unknown"
}

// rollUp sums the batch per (endpoint, hour), sorted by key so concurrent
// batches of several processes lock rows in the same order.
func rollUp(batch []Record) ([]rollupKey, map[rollupKey]*rollup) {
	sums := map[rollupKey]*rollup{}
	for _, r := range batch {
		k := rollupKey{endpoint: r.EndpointID, hour: r.StartedAt.UTC().Truncate(time.Hour)}
		s := sums[k]
		if s == nil {
			s = &rollup{tenant: r.TenantID, classes: map[string]int64{}}
			sums[k] = s
		}
		s.attempts++
		if r.Outcome == model.OutcomeSuccess {
			started := r.StartedAt.UTC()
			if s.lastSuccess == nil || started.After(*s.lastSuccess) {
				s.lastSuccess = &started
			}
		} else {
			s.attemptsFailed++
			s.classes[errorClass(r)]++
		}
		switch r.Status {
		case model.StatusSucceeded:
			s.deliveriesSucceeded++
		case model.StatusDropped, model.StatusExhausted:
			s.deliveriesFailed++
		}
		if r.ResponseStatus != nil {
			s.buckets[model.ResponseBucket(r.DurationMs)]++
		}
	}
	keys := make([]rollupKey, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b rollupKey) int {
		if c := bytes.Compare(a.endpoint[:], b.endpoint[:]); c != 0 {
			return c
		}
		return a.hour.Compare(b.hour)
	})
	return keys, sums
}

// writeRollups adds the batch to the hourly rollups: one UPSERT for the
// whole batch, one row per (endpoint, hour).
func writeRollups(ctx context.Context, tx pgx.Tx, batch []Record) error {
	keys, sums := rollUp(batch)
	n := len(keys)
	endpoints, tenants := make([]uuid.UUID, n), make([]uuid.UUID, n)
	hours := make([]time.Time, n)
	attempts, failed, dSucceeded, dFailed := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	classes, buckets := make([]string, n), make([]string, n)
	lastSuccess := make([]*time.Time, n)
	for i, k := range keys {
		s := sums[k]
		endpoints[i], tenants[i], hours[i] = k.endpoint, s.tenant, k.hour
		attempts[i], failed[i], dSucceeded[i], dFailed[i] = s.attempts, s.attemptsFailed, s.deliveriesSucceeded, s.deliveriesFailed
		b, err := json.Marshal(s.classes)
		if err != nil {
			return fmt.Errorf("encode error classes: %w", err)
		}
		classes[i] = string(b)
		buckets[i] = pgIntArray(s.buckets[:])
		lastSuccess[i] = s.lastSuccess
	}
	// Hand-written: on the delivery hot path; one statement per batch.
	// Error classes and histogram buckets merge key by key and bucket by
	// bucket.
	_, err := tx.Exec(ctx, `INSERT INTO endpoint_stats_hourly AS s (endpoint_id, hour, tenant_id, attempts,
			attempts_failed, deliveries_succeeded, deliveries_failed, by_error_class, response_buckets, last_success_at)
		SELECT e, h, t, a, f, ds, df, c::jsonb, b::bigint[], ls
		FROM unnest($1::uuid[], $2::timestamptz[], $3::uuid[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[],
			$8::text[], $9::text[], $10::timestamptz[]) AS v(e, h, t, a, f, ds, df, c, b, ls)
		ON CONFLICT (endpoint_id, hour) DO UPDATE SET
			attempts = s.attempts + EXCLUDED.attempts,
			attempts_failed = s.attempts_failed + EXCLUDED.attempts_failed,
			deliveries_succeeded = s.deliveries_succeeded + EXCLUDED.deliveries_succeeded,
			deliveries_failed = s.deliveries_failed + EXCLUDED.deliveries_failed,
			by_error_class = CASE WHEN EXCLUDED.by_error_class = '{}'::jsonb THEN s.by_error_class ELSE (
				SELECT jsonb_object_agg(k, coalesce((s.by_error_class->>k)::bigint, 0) + coalesce((EXCLUDED.by_error_class->>k)::bigint, 0))
				FROM (SELECT jsonb_object_keys(s.by_error_class) UNION SELECT jsonb_object_keys(EXCLUDED.by_error_class)) AS keys(k)) END,
			response_buckets = ARRAY(SELECT x + y FROM unnest(s.response_buckets, EXCLUDED.response_buckets)
				WITH ORDINALITY AS u(x, y, i) ORDER BY i),
			last_success_at = GREATEST(s.last_success_at, EXCLUDED.last_success_at)`,
		pgval.Array(endpoints), pgval.Array(hours), pgval.Array(tenants), pgval.Array(attempts), pgval.Array(failed),
		pgval.Array(dSucceeded), pgval.Array(dFailed), pgval.Array(classes), pgval.Array(buckets), pgval.Array(lastSuccess))
	if err != nil {
		return fmt.Errorf("update stats rollups: %w", err)
	}
	return nil
}

// pgIntArray writes counts as a Postgres array literal, "{1,0,2}".
func pgIntArray(counts []int64) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, n := range counts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.FormatInt(n, 10))
	}
	b.WriteByte('}')
	return b.String()
}

// rollupRetention is how long hourly rollups are kept: the longest stats
// window (7 days) and a day to spare.
const rollupRetention = 8 * 24 * time.Hour

// pruneRollups deletes rollups older than rollupRetention; the partition
// job calls it with its own runs.
func pruneRollups(ctx context.Context, db *gorm.DB, now time.Time) error {
	if err := db.WithContext(ctx).Exec(`DELETE FROM endpoint_stats_hourly WHERE hour < ?`, now.Add(-rollupRetention)).Error; err != nil {
		return fmt.Errorf("prune stats rollups: %w", err)
	}
	return nil
}
