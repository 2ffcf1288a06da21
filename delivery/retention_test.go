package delivery_test

import (
	"context"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/internal/clock"
	"github.com/ferry-dev/ferry/internal/seal"

	"github.com/ferry-dev/ferry/delivery"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"

	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/page"
)

// discardRelay drops what ingest would publish.
type discardRelay struct{}

func (discardRelay) Enqueue([]model.Job) {}

// unlimited meters nothing and refuses nothing.
type unlimited struct{}

func (unlimited) ConsumeEvents(context.Context, uuid.UUID, int) error { return nil }
func (unlimited) CheckEndpointLimit(context.Context, uuid.UUID) error { return nil }

// planLimits is a fake delivery.Limits that reports an attempt retention
// and limits nothing else.
type planLimits struct {
	RetentionFunc func(tenantID uuid.UUID) time.Duration
}

var (
	_ delivery.Limits = (*planLimits)(nil)
	_ delivery.Meter  = unlimited{}
)

func (planLimits) Meter(dbtx.Tx) delivery.Meter      { return unlimited{} }
func (planLimits) Pipeline() delivery.PipelineMeter  { return unlimited{} }
func (unlimited) QueuePlans(*pgx.Batch, []uuid.UUID) {}
func (unlimited) QueueConsumeEvents(_ *pgx.Batch, _ uuid.UUID, n int) func() (int, error) {
	return func() (int, error) { return n, nil }
}
func (planLimits) EventsPerSecond(context.Context, uuid.UUID) (int, error) { return 0, nil }
func (p planLimits) AttemptRetention(_ context.Context, tenantID uuid.UUID) (time.Duration, error) {
	return p.RetentionFunc(tenantID), nil
}

// TestAttemptsHiddenPastPlanRetention checks a tenant on a 3-day plan no
// longer sees a 5-day-old attempt, while a tenant without a limit does.
func TestAttemptsHiddenPastPlanRetention(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	ctx := context.Background()
	if err := attemptlog.NewPartitions(db, attemptlog.PartitionConfig{}, deliverytest.Logger(), clock.NewManual(time.Now().Add(-5*24*time.Hour))).Maintain(ctx); err != nil {
		t.Fatal(err)
	}
	if err := attemptlog.NewPartitions(db, attemptlog.PartitionConfig{}, deliverytest.Logger(), nil).Maintain(ctx); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	short, long := deliverytest.Seed(t, db, now), deliverytest.Seed(t, db, now)
	for _, s := range []deliverytest.Seeded{short, long} {
		for i, at := range []time.Time{now.Add(-5 * 24 * time.Hour), now.Add(-time.Hour)} {
			if err := db.Exec(`INSERT INTO attempts (id, tenant_id, delivery_id, event_id, endpoint_id, attempt_number, trigger,
				started_at, duration_ms, request_headers, outcome) VALUES (?, ?, ?, ?, ?, ?, 'initial', ?, 1, '{}', 'retry')`,
				uuid.New(), s.TenantID, s.DeliveryID, s.EventID, s.EndpointID, i+1, at).Error; err != nil {
				t.Fatal(err)
			}
		}
	}
	limits := planLimits{RetentionFunc: func(id uuid.UUID) time.Duration {
		if id == short.TenantID {
			return 3 * 24 * time.Hour
		}
		return 0
	}}
	svc, err := delivery.NewService(db, &seal.Cipher{}, discardRelay{}, limits, delivery.Config{}, deliverytest.Logger(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		s    deliverytest.Seeded
		want int
	}{{short, 1}, {long, 2}} {
		got, err := svc.EventAttempts(ctx, c.s.TenantID, c.s.EventID)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != c.want {
			t.Errorf("event attempts: %d visible, want %d", len(got), c.want)
		}
		page, _, err := svc.EndpointAttempts(ctx, c.s.TenantID, c.s.EndpointID, "", page.Request{})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) != c.want {
			t.Errorf("endpoint attempts: %d visible, want %d", len(page), c.want)
		}
	}
}
