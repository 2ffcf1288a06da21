package firstanalyze

import (
	"context"
	"log/slog"
	"slices"
	"testing"
	"time"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// The watcher analyzes a table that has never been analyzed once it
// holds MinRows, leaves smaller ones, and analyzes nothing twice.
func TestFirstAnalyzeOfFilledTables(t *testing.T) {
	db, err := gorm.Open(postgres.Open(testenv.Postgres(t)), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	exec := func(q string) {
		t.Helper()
		if err := db.WithContext(ctx).Exec(q).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// Autovacuum off for these tables: only the watcher may analyze them.
	exec(`CREATE TABLE hot (id bigint PRIMARY KEY, payload text) WITH (autovacuum_enabled = false)`)
	exec(`CREATE TABLE cold (id bigint PRIMARY KEY) WITH (autovacuum_enabled = false)`)
	exec(`CREATE TABLE "odd ""name""" (id bigint) WITH (autovacuum_enabled = false)`)
	exec(`INSERT INTO hot SELECT g, repeat('x', 200) FROM generate_series(1, 20000) g`)
	exec(`INSERT INTO cold SELECT g FROM generate_series(1, 10) g`)
	exec(`INSERT INTO "odd ""name""" SELECT g FROM generate_series(1, 600) g`)

	w := New(db, Config{}, slog.New(slog.DiscardHandler))
	var analyzed []string
	// The statistics views see other sessions' inserts within a second.
	testenv.Eventually(t, 10*time.Second, func() bool {
		got, err := w.Once(ctx)
		if err != nil {
			t.Fatal(err)
		}
		analyzed = append(analyzed, got...)
		return slices.Contains(analyzed, "hot") && slices.Contains(analyzed, `odd "name"`)
	}, "the watcher did not analyze the filled tables (analyzed %v)", analyzed)
	if slices.Contains(analyzed, "cold") {
		t.Errorf("a table of 10 rows was analyzed: %v", analyzed)
	}
	var stats []struct {
		Relname string
		N       int64
	}
	if err := db.Raw(`SELECT relname, analyze_count AS n FROM pg_stat_user_tables WHERE relname IN ('hot', 'cold')
		ORDER BY relname`).Scan(&stats).Error; err != nil {
		t.Fatal(err)
	}
	if len(stats) != 2 || stats[0].N != 0 || stats[1].N != 1 {
		t.Errorf("analyze counts (cold, hot): %+v", stats)
	}
	// Another process's watcher sees them analyzed in the catalog.
	if again, err := New(db, Config{}, slog.New(slog.DiscardHandler)).Once(ctx); err != nil || len(again) != 0 {
		t.Errorf("another watcher analyzed %v (%v); later analyzes are autovacuum's", again, err)
	}
}
