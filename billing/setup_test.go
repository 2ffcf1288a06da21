package billing

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/internal/clock"
	"github.com/ferry-dev/ferry/internal/pgval"
	"github.com/ferry-dev/ferry/migrations"
	"github.com/ferry-dev/ferry/tenants"
	"github.com/ferry-dev/ferry/tests/testenv"
)

type testBundle struct {
	ctx   context.Context
	db    *gorm.DB
	svc   *Service
	clock *clock.Manual
	pay   *RecordingProvider
	// pipelined: consume meters through Pipeline, as a group commit
	// does, rather than Meter.
	pipelined bool
}

// setup gives a test a fresh, migrated database and a Service on it whose
// clock starts at 2026-11-22 12:00 UTC.
func setup(t *testing.T) *testBundle {
	t.Helper()
	ctx := context.Background()
	db, err := gorm.Open(postgres.Open(testenv.Postgres(t)), &gorm.Config{Logger: logger.Discard, SkipDefaultTransaction: true})
	require.NoError(t, err)
	sqlDB, err := db.DB()
	require.NoError(t, err)
	t.Cleanup(func() { sqlDB.Close() })
	require.NoError(t, migrations.Up(ctx, sqlDB))
	clock := clock.NewManual(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	pay := &RecordingProvider{}
	log := slog.New(slog.DiscardHandler)
	// The real tenants and delivery stores answer billing's questions, so
	// these tests also cover the boundary.
	ts, err := tenants.NewService(db, tenants.Config{BcryptCost: bcrypt.MinCost}, log, clock.Now)
	require.NoError(t, err)
	svc, err := NewService(db, Deps{Tenants: ts, Endpoints: delivery.EndpointCounter{}, Attempts: attemptlog.NewUsage(db)}, Config{Payments: pay}, log, clock)
	require.NoError(t, err)
	return &testBundle{ctx: ctx, db: db, svc: svc, clock: clock, pay: pay}
}

// tenant inserts a tenant on plan created at created.
func (b *testBundle) tenant(t *testing.T, plan string, created time.Time) uuid.UUID {
	t.Helper()
	id := uuid.New()
	require.NoError(t, b.db.Exec(`INSERT INTO tenants (id, name, plan, created_at) VALUES (?, ?, ?, ?)`,
		id, "Org "+id.String()[:8], plan, created).Error)
	return id
}

// override sets columns of the tenant's override for plan.
func (b *testBundle) override(t *testing.T, tenantID uuid.UUID, plan string, cols map[string]any) {
	t.Helper()
	row := map[string]any{"tenant_id": tenantID, "plan": plan}
	for k, v := range cols {
		row[k] = v
	}
	require.NoError(t, b.db.Table("plan_overrides").Create(row).Error)
}

// consume meters n events in a transaction of their own, as ingest
// does: with Meter.ConsumeEvents, or when b.pipelined with
// consumePipelined.
func (b *testBundle) consume(tenantID uuid.UUID, n int) error {
	if !b.pipelined {
		return b.db.WithContext(b.ctx).Transaction(func(tx *gorm.DB) error {
			return b.svc.Meter(dbtx.Wrap(tx)).ConsumeEvents(b.ctx, tenantID, n)
		})
	}
	_, err := b.consumePipelined(tenantID, n)
	return err
}

// consumePipelined meters n events as a group commit does, with
// Pipeline's two batches: the plan read, then BEGIN, the metering and
// COMMIT (rolled back when the metering refused), and returns how many
// would fit.
func (b *testBundle) consumePipelined(tenantID uuid.UUID, n int) (fits int, err error) {
	err = pgval.WithConn(b.ctx, b.db, func(pc *pgx.Conn) error {
		p := b.svc.Pipeline()
		reads := &pgx.Batch{}
		p.QueuePlans(reads, []uuid.UUID{tenantID})
		if err := pc.SendBatch(b.ctx, reads).Close(); err != nil {
			return err
		}
		writes := &pgx.Batch{}
		writes.Queue("BEGIN")
		check := p.QueueConsumeEvents(writes, tenantID, n)
		writes.Queue("COMMIT")
		sendErr := pc.SendBatch(b.ctx, writes).Close()
		if pc.PgConn().TxStatus() != 'I' {
			if _, err := pc.Exec(b.ctx, "ROLLBACK"); err != nil {
				return err
			}
		}
		var err error
		if fits, err = check(); err != nil {
			return err
		}
		return sendErr
	})
	return fits, err
}

// eachMeter runs test with consume metering either way.
func eachMeter(t *testing.T, test func(t *testing.T, b *testBundle)) {
	for _, pipelined := range []bool{false, true} {
		name := "meter"
		if pipelined {
			name = "pipeline"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b := setup(t)
			b.pipelined = pipelined
			test(t, b)
		})
	}
}

// addEndpoints inserts n live endpoints for the tenant.
func (b *testBundle) addEndpoints(t *testing.T, tenantID uuid.UUID, n int) []uuid.UUID {
	t.Helper()
	var ids []uuid.UUID
	for range n {
		id := uuid.New()
		require.NoError(t, b.db.Exec(`INSERT INTO endpoints (id, tenant_id, url) VALUES (?, ?, 'https://example.com/hook')`, id, tenantID).Error)
		ids = append(ids, id)
	}
	return ids
}

// setEvents sets the tenant's metered events for a month.
func (b *testBundle) setEvents(t *testing.T, tenantID uuid.UUID, period time.Time, events int64) {
	t.Helper()
	require.NoError(t, b.db.Exec(`INSERT INTO usage_counters (tenant_id, period, slot, events) VALUES (?, ?, 3, ?)
		ON CONFLICT (tenant_id, period, slot) DO UPDATE SET events = EXCLUDED.events`, tenantID, period, events).Error)
}
