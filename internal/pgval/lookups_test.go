package pgval

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestOpenLookupsPlansIndexProbes: a batch lookup by primary key,
// prepared on a lookup connection while its tables hold three analyzed
// rows, is planned as index probes joined by nested loops, the plan that
// stays right as the tables grow. The same statement planned once on a
// plain connection scans the small tables whole, the plan the lookup
// pool exists to rule out.
func TestOpenLookupsPlansIndexProbes(t *testing.T) {
	t.Parallel()
	url := testenv.Postgres(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	lookups, err := OpenLookups(ctx, url, 2)
	if err != nil {
		t.Fatal(err)
	}
	lookupsDB, err := lookups.DB()
	if err != nil {
		t.Fatal(err)
	}
	defer lookupsDB.Close()
	plain, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()

	for _, q := range []string{
		`CREATE TABLE parents (id uuid PRIMARY KEY, name text NOT NULL)`,
		`CREATE TABLE children (id uuid PRIMARY KEY, parent_id uuid NOT NULL, note text)`,
		`INSERT INTO parents SELECT gen_random_uuid(), 'p' || i FROM generate_series(1, 3) i`,
		`INSERT INTO children SELECT gen_random_uuid(), id, 'c' FROM parents`,
		`ANALYZE parents`,
		`ANALYZE children`,
	} {
		if _, err := plain.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	plan := func(t *testing.T, db *sql.DB, session string) string {
		t.Helper()
		conn, err := db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		for _, q := range []string{
			session,
			`PREPARE lookup(uuid[]) AS SELECT c.id, c.note, p.name FROM children c JOIN parents p ON p.id = c.parent_id WHERE c.id = ANY($1)`,
		} {
			if _, err := conn.ExecContext(ctx, q); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		rows, err := conn.QueryContext(ctx, `EXPLAIN EXECUTE lookup(ARRAY[gen_random_uuid()])`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var lines []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, line)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return strings.Join(lines, "\n")
	}

	for _, tc := range []struct {
		name    string
		db      *sql.DB
		session string // on top of the pool's own settings
		scans   bool   // a whole-table scan or a hash join is in the plan
	}{
		{"lookup pool", lookupsDB, `SELECT 1`, false},
		{"plain pool, a generic plan", plain, `SET plan_cache_mode = force_generic_plan`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := plan(t, tc.db, tc.session)
			scans := strings.Contains(p, "Seq Scan") || strings.Contains(p, "Hash Join")
			if scans != tc.scans {
				t.Errorf("whole-table scans in the plan: %v, want %v:\n%s", scans, tc.scans, p)
			}
			if !tc.scans && (!strings.Contains(p, "Index") || !strings.Contains(p, "Nested Loop")) {
				t.Errorf("want index probes joined by a nested loop:\n%s", p)
			}
		})
	}

	var mode string
	if err := lookupsDB.QueryRowContext(ctx, `SHOW plan_cache_mode`).Scan(&mode); err != nil {
		t.Fatal(err)
	}
	if mode != "force_generic_plan" {
		t.Errorf("plan_cache_mode on a lookup connection = %q, want force_generic_plan", mode)
	}
	if got := lookupsDB.Stats().MaxOpenConnections; got != 2 {
		t.Errorf("lookup pool holds up to %d connections, want 2", got)
	}
}
