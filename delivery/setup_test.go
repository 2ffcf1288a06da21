package delivery

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/ferry-dev/ferry/migrations"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// testDB returns a migrated, fresh database for one test.
func testDB(t *testing.T) *gorm.DB {
	t.Helper()
	db, err := gorm.Open(postgres.Open(testenv.Postgres(t)), &gorm.Config{Logger: logger.Discard, SkipDefaultTransaction: true})
	if err != nil {
		t.Fatalf("open test database: %v", err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sqlDB.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := migrations.Up(ctx, sqlDB); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return db
}

func testLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// seeded is one tenant with one endpoint, one event and one delivery.
type seeded struct {
	TenantID, EndpointID, EventID, DeliveryID uuid.UUID
}

func seed(t *testing.T, db *gorm.DB, createdAt time.Time) seeded {
	t.Helper()
	s := seeded{TenantID: uuid.New(), EndpointID: uuid.New(), EventID: uuid.New(), DeliveryID: uuid.New()}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO tenants (id, name) VALUES (?, 'seed')`, []any{s.TenantID}},
		{`INSERT INTO endpoints (id, tenant_id, url) VALUES (?, ?, 'http://127.0.0.1:1/hook')`, []any{s.EndpointID, s.TenantID}},
		{`INSERT INTO events (id, tenant_id, type, data, created_at) VALUES (?, ?, 'seed.created', '{"n":1}', ?)`, []any{s.EventID, s.TenantID, createdAt}},
		{`INSERT INTO deliveries (id, tenant_id, event_id, endpoint_id, created_at) VALUES (?, ?, ?, ?, ?)`,
			[]any{s.DeliveryID, s.TenantID, s.EventID, s.EndpointID, createdAt}},
	} {
		if err := db.Exec(q.sql, q.args...).Error; err != nil {
			t.Fatalf("seed: %v", err)
		}
	}
	return s
}

// clock is a settable test clock, safe for concurrent use.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}
