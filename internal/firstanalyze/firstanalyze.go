// Package firstanalyze gives a fresh database's tables their first
// planner statistics as soon as they hold rows, rather than when
// autovacuum first gets to them.
//
// PostgreSQL caches a generic plan for each prepared statement after a
// few executions, and keeps it until the table's statistics change. On a
// fresh install the hot tables (deliveries, events, captures) are empty
// when that happens, so the cached plans scan them whole; as they fill,
// every state read and status update gets slower, until autovacuum's
// first ANALYZE of the table (up to a minute on its default naptime,
// longer while it is busy) replaces the plans. Measured on the 2-core
// machine: a delivery-status UPDATE took 2.2 ms instead of 0.3 ms, and
// forwarding at 1,000 inbound requests/s had p99 0.8 s instead of 0.09 s
// (docs/benchmarks.md). Analyzing a table once it first holds rows ends
// that at once; later analyzes stay autovacuum's.
package firstanalyze

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"
)

// Config tunes the watcher; the zero value is the default.
type Config struct {
	// MinRows is how many rows (live, or changed since the table was
	// created) a never-analyzed table must hold to be analyzed (default
	// 500: enough for statistics to favour index scans).
	MinRows int64
	// Interval is how often the statistics views are read (default 2 s).
	Interval time.Duration
}

// Watcher analyzes tables of the current schema that have never been
// analyzed, once they hold rows.
type Watcher struct {
	db  *gorm.DB
	cfg Config
	log *slog.Logger
	// done are the tables this watcher analyzed: never again, even when
	// the catalog still says "never analyzed" (an ANALYZE by a user that
	// does not own the table only warns and changes nothing).
	done map[string]bool
}

// New returns a Watcher; call Run.
func New(db *gorm.DB, cfg Config, log *slog.Logger) *Watcher {
	if cfg.MinRows <= 0 {
		cfg.MinRows = 500
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 2 * time.Second
	}
	return &Watcher{db: db, cfg: cfg, log: log, done: map[string]bool{}}
}

// Run checks every Interval until ctx ends. A failed check is logged and
// tried again; it never stops Ferry.
func (w *Watcher) Run(ctx context.Context) error {
	t := time.NewTicker(w.cfg.Interval)
	defer t.Stop()
	for {
		if _, err := w.Once(ctx); err != nil && ctx.Err() == nil {
			w.log.Warn("first analyze of new tables", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Once analyzes every table of the current schema that has never been
// analyzed (by anyone, nor tried by this watcher) and holds at least
// MinRows, and returns their names. Not safe for concurrent use.
func (w *Watcher) Once(ctx context.Context) ([]string, error) {
	var tables []string
	// Partitioned parents have no rows of their own and are left to
	// autovacuum's analyzes of their partitions.
	err := w.db.WithContext(ctx).Raw(`SELECT s.relname FROM pg_stat_user_tables s
		JOIN pg_class c ON c.oid = s.relid
		WHERE s.schemaname = current_schema() AND c.relkind = 'r'
		  AND s.last_analyze IS NULL AND s.last_autoanalyze IS NULL
		  AND greatest(s.n_live_tup, s.n_mod_since_analyze) >= ?
		ORDER BY s.relname`, w.cfg.MinRows).Scan(&tables).Error
	if err != nil {
		return nil, fmt.Errorf("find tables never analyzed: %w", err)
	}
	var done []string
	for _, t := range tables {
		if w.done[t] {
			continue
		}
		// Hand-written: ANALYZE has no query-builder form; the name comes
		// from the catalog, quoted as an identifier.
		if err := w.db.WithContext(ctx).Exec(`ANALYZE ` + pgx.Identifier{t}.Sanitize()).Error; err != nil {
			return done, fmt.Errorf("analyze %s: %w", t, err)
		}
		w.log.Debug("analyzed a new table for the first time", "table", t)
		w.done[t] = true
		done = append(done, t)
	}
	return done, nil
}
