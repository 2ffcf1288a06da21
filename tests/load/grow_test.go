package load

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/migrations"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestGrowWritesConsistentHistory grows a migrated database in chunks and
// checks that every table got its share, that the rows agree with each
// other, and that none of them is work Ferry would pick up.
func TestGrowWritesConsistentHistory(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	url := testenv.Postgres(t)
	db := testenv.DB(t, url)
	if err := migrations.Up(ctx, db); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	gdb, err := gorm.Open(postgres.Open(url), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if sqlDB, err := gdb.DB(); err == nil {
		t.Cleanup(func() { sqlDB.Close() })
	}
	// Ferry makes the attempt log's partitions when it starts; Grow runs after.
	if err := attemptlog.NewPartitions(gdb, attemptlog.PartitionConfig{}, slog.New(slog.DiscardHandler), nil).Maintain(ctx); err != nil {
		t.Fatalf("partitions: %v", err)
	}

	var progress []string
	if err := grow(ctx, db, 250, 100, func(f string, a ...any) { progress = append(progress, fmt.Sprintf(f, a...)) }); err != nil {
		t.Fatalf("grow: %v", err)
	}
	if len(progress) != 4 {
		t.Errorf("want a line per chunk (3) and a last one; got %q", progress)
	}
	if err := grow(ctx, db, 0, 100, func(string, ...any) { t.Error("nothing to grow: want no progress") }); err != nil {
		t.Fatalf("grow nothing: %v", err)
	}

	for _, c := range []struct {
		what  string
		query string
		want  int
	}{
		{"events", `SELECT count(*) FROM events`, 250},
		{"deliveries of those events, succeeded", `SELECT count(*) FROM deliveries d JOIN events e ON e.id = d.event_id AND e.tenant_id = d.tenant_id WHERE d.status = 'succeeded'`, 250},
		{"attempts of those deliveries", `SELECT count(*) FROM attempts a JOIN deliveries d ON d.id = a.delivery_id AND d.event_id = a.event_id WHERE a.outcome = 'success'`, 250},
		{"captures that made those events", `SELECT count(*) FROM source_requests r JOIN events e ON e.id = r.event_id WHERE r.status = 'verified'`, 125},
		{"raw bodies", `SELECT count(*) FROM event_raw_bodies b JOIN events e ON e.id = b.event_id`, 125},
		{"dedupe keys of those captures", `SELECT count(*) FROM source_dedupe k JOIN source_requests r ON r.id = k.request_id AND r.source_id = k.source_id`, 125},
		{"tenants", `SELECT count(DISTINCT tenant_id) FROM events`, growTenants},
		{"work left for Ferry (pending captures, outbox rows, queued deliveries)", `SELECT (SELECT count(*) FROM source_requests_pending) +
			(SELECT count(*) FROM outbox) + (SELECT count(*) FROM deliveries WHERE status IN ('pending', 'retrying'))`, 0},
		{"analyzed tables", `SELECT count(*) FROM pg_stat_user_tables WHERE relname IN ('events', 'deliveries', 'source_requests') AND last_analyze IS NOT NULL`, 3},
	} {
		var got int
		if err := db.QueryRowContext(ctx, c.query).Scan(&got); err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		if got != c.want {
			t.Errorf("%s: got %d, want %d", c.what, got, c.want)
		}
	}
}
