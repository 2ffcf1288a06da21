// Package deliverytest gives delivery's packages their integration-test
// fixtures: a fresh migrated database, a seeded delivery, a logger
// (tests take their clock from internal/clock.NewManual).
package deliverytest

import (
	"context"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/migrations"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// DB returns a migrated, fresh database for one test.
func DB(t testing.TB) *gorm.DB {
	t.Helper()
	db, _ := DBAndURL(t)
	return db
}

// DBAndURL returns a migrated, fresh database for one test and its URL,
// for a second pool on it.
func DBAndURL(t testing.TB) (*gorm.DB, string) {
	t.Helper()
	url := testenv.Postgres(t)
	db, err := gorm.Open(postgres.Open(url), &gorm.Config{Logger: logger.Discard, SkipDefaultTransaction: true})
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
	return db, url
}

// Logger logs warnings and errors to stderr.
func Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// Seeded is one tenant with one endpoint, one event and one delivery.
type Seeded struct {
	TenantID, EndpointID, EventID, DeliveryID uuid.UUID
}

// Seed inserts a tenant, endpoint, event and delivery created at createdAt.
func Seed(t testing.TB, db *gorm.DB, createdAt time.Time) Seeded {
	t.Helper()
	s := Seeded{TenantID: uuid.New(), EndpointID: uuid.New(), EventID: uuid.New(), DeliveryID: uuid.New()}
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO tenants (id, name) VALUES (?, 'seed')`, []any{s.TenantID}},
		{`INSERT INTO endpoints (id, tenant_id, url) VALUES (?, ?, 'http://127.0.0.1:1/hook')`, []any{s.EndpointID, s.TenantID}},
		{`INSERT INTO events (id, tenant_id, type, data, created_at) VALUES (?, ?, 'seed.created', '{"n":1}', ?)`, []any{s.EventID, s.TenantID, createdAt}},
	} {
		if err := db.Exec(q.sql, q.args...).Error; err != nil {
			t.Fatalf("seed: %v", err)
		}
	}
	if err := store.InsertFanOut(context.Background(), store.Gorm(db), store.FanOut{Deliveries: []store.Delivery{{ID: s.DeliveryID,
		TenantID: s.TenantID, EventID: s.EventID, EndpointID: s.EndpointID, CreatedAt: createdAt}}}); err != nil {
		t.Fatalf("seed: %v", err)
	}
	return s
}

// Run runs a component's Run method until the test ends, then cancels it
// and waits for it to return, so nothing outlives the test's database.
func Run(t testing.TB, ctx context.Context, run func(context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
}
