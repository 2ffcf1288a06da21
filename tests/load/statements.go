package load

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
)

// StatementStat is what one statement cost PostgreSQL over a scenario,
// from pg_stat_statements: the work Ferry asked of the database.
type StatementStat struct {
	Query    string  `json:"query"`
	Calls    int64   `json:"calls"`
	Rows     int64   `json:"rows"`
	ExecMS   float64 `json:"exec_ms"`
	WALBytes int64   `json:"wal_bytes"`
}

// Statements reads and resets pg_stat_statements for Ferry's database:
// the bench resets it when a scenario's measurement starts and reads it
// when it ends, so each scenario's statements are its own (and those of
// anything sharing its window, such as a bystander). The database must
// track statements (BENCH_PG_STATEMENTS=1 in scripts/bench.sh).
type Statements struct {
	db *sql.DB
}

// OpenStatements connects to the database at url, whose statements are
// read, and checks that pg_stat_statements answers there.
func OpenStatements(ctx context.Context, url string) (*Statements, error) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", url, err)
	}
	db.SetMaxOpenConns(1)
	s := &Statements{db: db}
	if err := s.Reset(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Close closes the connection.
func (s *Statements) Close() error { return s.db.Close() }

// Reset forgets the statements of this database so far.
func (s *Statements) Reset(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, `SELECT pg_stat_statements_reset(0, (SELECT oid FROM pg_database WHERE datname = current_database()), 0)`)
	if err != nil {
		return fmt.Errorf("reset pg_stat_statements (is it preloaded, and created in this database?): %w", err)
	}
	return nil
}

// Read returns this database's statements since the last Reset, the
// costliest first (by execution time).
func (s *Statements) Read(ctx context.Context) ([]StatementStat, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT query, calls, rows, total_exec_time, wal_bytes
		FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
			AND query NOT LIKE '%pg_stat_statements%'
		ORDER BY total_exec_time DESC`)
	if err != nil {
		return nil, fmt.Errorf("read pg_stat_statements: %w", err)
	}
	defer rows.Close()
	var out []StatementStat
	for rows.Next() {
		var st StatementStat
		var wal sql.NullFloat64
		if err := rows.Scan(&st.Query, &st.Calls, &st.Rows, &st.ExecMS, &wal); err != nil {
			return nil, fmt.Errorf("read pg_stat_statements: %w", err)
		}
		st.WALBytes = int64(wal.Float64)
		out = append(out, st)
	}
	return out, rows.Err()
}

var spaces = regexp.MustCompile(`\s+`)

// PrintStatements writes the top statements of sts as a table of what
// each cost per request (n requests: a scenario's accepted events or
// inbound requests), with its share of all the statements' time, and
// the total of all of them.
func PrintStatements(w io.Writer, sts []StatementStat, n, top int) {
	if len(sts) == 0 || n <= 0 {
		return
	}
	var all StatementStat
	for _, st := range sts {
		all.Calls, all.Rows, all.ExecMS, all.WALBytes = all.Calls+st.Calls, all.Rows+st.Rows, all.ExecMS+st.ExecMS, all.WALBytes+st.WALBytes
	}
	all.Query = fmt.Sprintf("(all %d statements)", len(sts))
	per := func(v float64) float64 { return v / float64(n) }
	fmt.Fprintf(w, "    PostgreSQL statements per request (%d requests; pg_stat_statements, by execution time):\n", n)
	fmt.Fprintf(w, "      %6s %9s %9s %9s %10s  %s\n", "share", "calls/req", "rows/req", "µs/req", "WAL B/req", "statement")
	for _, st := range append(slices.Clone(sts[:min(top, len(sts))]), all) {
		q := strings.TrimSpace(spaces.ReplaceAllString(st.Query, " "))
		if len(q) > 90 {
			q = q[:90] + "…"
		}
		fmt.Fprintf(w, "      %5.1f%% %9.2f %9.2f %9.1f %10.0f  %s\n", 100*st.ExecMS/all.ExecMS,
			per(float64(st.Calls)), per(float64(st.Rows)), per(1000*st.ExecMS), per(float64(st.WALBytes)), q)
	}
}
