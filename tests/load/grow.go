package load

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// growChunk is how many history events one statement per table writes:
// big enough to be quick, small enough that a chunk's transaction does not
// hold the WAL of millions of rows.
const growChunk = 100_000

// growTenants is how many tenants the history is spread over. They have
// no tenant rows: the hot tables keep no foreign keys, and nothing Ferry
// runs during a bench reads another tenant's history.
const growTenants = 50

// Grow fills a migrated database with n delivered events of history
// before a run, as a database in production is never empty: each event
// has its delivery (succeeded), its attempt and, for every second event,
// an inbound capture with its raw body and dedupe key, all made within
// the last 20 hours (the attempt log's partitions from yesterday on).
// Then it vacuums and analyzes the tables it filled, as autovacuum would
// have long since, and checkpoints, so that writing gigabytes of it back
// to disk is over before the scenarios start (the database's role must
// be a superuser or hold pg_checkpoint). The scenarios' tenants share
// the tables and their indexes with the history, never its rows. log
// reports progress.
func Grow(ctx context.Context, db *sql.DB, n int, log func(format string, args ...any)) error {
	return grow(ctx, db, n, growChunk, log)
}

// grow is Grow in chunks of chunk events.
func grow(ctx context.Context, db *sql.DB, n, chunk int, log func(format string, args ...any)) error {
	if n <= 0 {
		return nil
	}
	start := time.Now()
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("grow: %w", err)
	}
	defer conn.Close()
	// One tenant and source id per history tenant, then each chunk's
	// events with their ids and times; the rows of every table are made
	// from it, so they agree with each other.
	if _, err := conn.ExecContext(ctx, `CREATE TEMP TABLE grow_tenants AS
		SELECT i, gen_random_uuid() AS tenant_id, gen_random_uuid() AS source_id, gen_random_uuid() AS endpoint_id
		FROM generate_series(0, $1 - 1) AS i`, growTenants); err != nil {
		return fmt.Errorf("grow: tenants: %w", err)
	}
	for done := 0; done < n; done += chunk {
		size := min(chunk, n-done)
		if err := growChunkRows(ctx, conn, done, size); err != nil {
			return err
		}
		log("grow: %d of %d history events written (%.0f s)", done+size, n, time.Since(start).Seconds())
	}
	for _, table := range []string{"events", "deliveries", "attempts", "event_raw_bodies", "source_requests", "source_dedupe"} {
		if _, err := conn.ExecContext(ctx, "VACUUM (ANALYZE) "+table); err != nil {
			return fmt.Errorf("grow: vacuum %s: %w", table, err)
		}
	}
	if _, err := conn.ExecContext(ctx, "CHECKPOINT"); err != nil {
		return fmt.Errorf("grow: checkpoint: %w", err)
	}
	log("grow: %d history events, vacuumed, analyzed and checkpointed, in %.0f s", n, time.Since(start).Seconds())
	return nil
}

// growChunkRows writes size history events, numbered from first, and
// their rows in every table, in one transaction.
func growChunkRows(ctx context.Context, conn *sql.Conn, first, size int) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("grow: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	// Random ids, as Ferry made before its ids began with their minute:
	// the history of a database upgraded since.
	if _, err := tx.ExecContext(ctx, `CREATE TEMP TABLE grow_chunk ON COMMIT DROP AS
			SELECT g AS n, t.tenant_id, t.source_id, t.endpoint_id, gen_random_uuid() AS event_id, gen_random_uuid() AS delivery_id,
				gen_random_uuid() AS attempt_id, gen_random_uuid() AS request_id,
				now() - random() * interval '20 hours' AS at
			FROM generate_series($1::bigint, $2::bigint) AS g JOIN grow_tenants t ON t.i = g % $3`,
		first, first+size-1, growTenants); err != nil {
		return fmt.Errorf("grow: the chunk: %w", err)
	}
	inserts := []struct{ table, sql string }{
		{"events", `INSERT INTO events (id, tenant_id, type, data, created_at)
			SELECT event_id, tenant_id, 'history.item',
				json_build_object('id', n, 'order', md5(n::text), 'items', json_build_array(md5((n + 1)::text), md5((n + 2)::text), md5((n + 3)::text)),
					'note', repeat('history ', 40))::text::json, at
			FROM grow_chunk`},
		{"deliveries", `INSERT INTO deliveries (id, tenant_id, event_id, endpoint_id, status, attempt_count, first_attempt_at, last_attempt_at, created_at, updated_at)
			SELECT delivery_id, tenant_id, event_id, endpoint_id, 'succeeded', 1, at, at, at, at FROM grow_chunk`},
		{"attempts", `INSERT INTO attempts (id, tenant_id, delivery_id, event_id, endpoint_id, attempt_number, trigger, started_at, duration_ms,
				request_headers, response_status, response_headers, response_body, outcome)
			SELECT attempt_id, tenant_id, delivery_id, event_id, endpoint_id, 1, 'initial', at + interval '3 ms', 4,
				jsonb_build_object('Content-Type', 'application/json', 'User-Agent', 'Ferry-Webhooks/1.0', 'Webhook-Id', event_id::text,
					'Webhook-Timestamp', extract(epoch FROM at)::bigint::text, 'Webhook-Signature', 'v1,' || md5(n::text)),
				200, '{"Content-Length": "2", "Content-Type": "text/plain"}'::jsonb, 'ok', 'success'
			FROM grow_chunk`},
		{"captures", `INSERT INTO source_requests (id, tenant_id, source_id, received_at, method, path, headers, content_type, body, status, dedupe_key, event_id)
			SELECT request_id, tenant_id, source_id, at - interval '2 ms', 'POST', '/in/history',
				jsonb_build_object('content-type', 'application/json', 'x-delivery', request_id::text), 'application/json',
				convert_to(repeat('history ', 60), 'UTF8'), 'verified', request_id::text, event_id
			FROM grow_chunk WHERE n % 2 = 0`},
		{"raw bodies", `INSERT INTO event_raw_bodies (event_id, tenant_id, content_type, body)
			SELECT event_id, tenant_id, 'application/json', convert_to(repeat('history ', 60), 'UTF8') FROM grow_chunk WHERE n % 2 = 0`},
		{"dedupe keys", `INSERT INTO source_dedupe (source_id, key, request_id, created_at)
			SELECT source_id, request_id::text, request_id, at FROM grow_chunk WHERE n % 2 = 0`},
	}
	for _, st := range inserts {
		if _, err := tx.ExecContext(ctx, st.sql); err != nil {
			return fmt.Errorf("grow: %s: %w", st.table, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("grow: commit: %w", err)
	}
	return nil
}
