package queue

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/internal/seal"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/delivery/dispatch"
	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/opevents"
	"github.com/ferry-dev/ferry/internal/clock"
)

type testBundle struct {
	db    *gorm.DB
	svc   *Service
	clock *clock.Manual
	seed  deliverytest.Seeded
	t0    time.Time
}

// setup seeds one queue endpoint with one pending delivery accepted at
// t0 (now), on a fresh database with attempt partitions.
func setup(t testing.TB) testBundle {
	t.Helper()
	if testing.Short() {
		t.Skip("needs PostgreSQL")
	}
	db := deliverytest.DB(t)
	t0 := time.Now().UTC().Truncate(time.Millisecond)
	clk := clock.NewManual(t0)
	ctx := context.Background()
	// Tests move the clock up to 144 h on, past midnight when t0 is late
	// in the day: partitions for every day they can reach.
	if err := attemptlog.NewPartitions(db, attemptlog.PartitionConfig{Ahead: 8}, deliverytest.Logger(), clk).Maintain(ctx); err != nil {
		t.Fatal(err)
	}
	seed := deliverytest.Seed(t, db, t0)
	if err := db.Exec(`UPDATE endpoints SET kind = 'queue', url = '' WHERE id = ?`, seed.EndpointID).Error; err != nil {
		t.Fatal(err)
	}
	cipher, err := seal.New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	attempts := attemptlog.New(db, attemptlog.Config{Events: opevents.NewEmitter(db, nil, nil, nil, deliverytest.Logger(), clk)}, deliverytest.Logger(), clk)
	svc, err := New(db, cipher, Config{DatabaseURL: "postgres://unused", Policy: dispatch.RetryPolicy{Scale: 1}, Attempts: attempts},
		deliverytest.Logger(), clk)
	if err != nil {
		t.Fatal(err)
	}
	return testBundle{db: db, svc: svc, clock: clk, seed: seed, t0: t0}
}

func (b testBundle) status(t *testing.T) (status string, leased bool) {
	t.Helper()
	var row struct {
		Status  string
		LeaseID *uuid.UUID
	}
	if err := b.db.Raw(`SELECT status, lease_id FROM deliveries WHERE id = ?`, b.seed.DeliveryID).Scan(&row).Error; err != nil {
		t.Fatal(err)
	}
	return row.Status, row.LeaseID != nil
}

func (b testBundle) pullOne(t *testing.T, visibility int) Message {
	t.Helper()
	msgs, err := b.svc.Pull(context.Background(), b.seed.TenantID, b.seed.EndpointID, PullInput{VisibilitySeconds: &visibility})
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 1 {
		t.Fatalf("pulled %d messages, want 1", len(msgs))
	}
	return msgs[0]
}

func TestSweepReturnsExpiredLeaseAsTimeout(t *testing.T) {
	t.Parallel()
	b := setup(t)
	b.pullOne(t, 30)
	b.clock.Set(b.t0.Add(31 * time.Second))
	if err := b.svc.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st, leased := b.status(t); st != "retrying" || leased {
		t.Fatalf("after the sweep: %s leased=%v, want retrying and free", st, leased)
	}
	var a struct {
		AttemptNumber int
		Outcome       string
		ErrorClass    string
		DurationMs    int
	}
	if err := b.db.Raw(`SELECT attempt_number, outcome, error_class, duration_ms FROM attempts WHERE delivery_id = ?`,
		b.seed.DeliveryID).Scan(&a).Error; err != nil {
		t.Fatal(err)
	}
	if a.AttemptNumber != 1 || a.Outcome != "retry" || a.ErrorClass != classTimeout || a.DurationMs != 30000 {
		t.Errorf("attempt: %+v, want attempt 1, retry, timeout, 30000 ms", a)
	}
	if m := b.pullOne(t, 30); m.Attempt != 2 {
		t.Errorf("pulled again as attempt %d, want 2", m.Attempt)
	}
}

func TestNackBeyondTheWindowExhausts(t *testing.T) {
	t.Parallel()
	b := setup(t)
	// The window runs from the first pull (t0); the lease of that one ran
	// out, the sweeper returned it, and the message was pulled again just
	// before the window ends.
	b.pullOne(t, 30)
	b.clock.Set(b.t0.Add(72*time.Hour - time.Minute))
	if err := b.svc.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	m := b.pullOne(t, 30)
	if m.Attempt != 2 {
		t.Fatalf("attempt %d, want 2", m.Attempt)
	}
	delay := 3600
	res, err := b.svc.Nack(context.Background(), b.seed.TenantID, b.seed.EndpointID, NackInput{Receipts: []string{m.Receipt}, DelaySeconds: &delay})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Status != ReceiptNacked {
		t.Fatalf("nack: %s", res[0].Status)
	}
	if st, _ := b.status(t); st != "exhausted" {
		t.Fatalf("status %s, want exhausted", st)
	}
}

func TestReceiptRoundTrip(t *testing.T) {
	t.Parallel()
	d, l := uuid.New(), uuid.New()
	gd, gl, ok := decodeReceipt(encodeReceipt(d, l))
	if !ok || gd != d || gl != l {
		t.Fatalf("round trip: %s %s %v", gd, gl, ok)
	}
	for _, bad := range []string{"", "x", "not base64!", encodeReceipt(d, l)[:20]} {
		if _, _, ok := decodeReceipt(bad); ok {
			t.Errorf("%q decoded as a receipt", bad)
		}
	}
}

func TestPullInputValidation(t *testing.T) {
	t.Parallel()
	n := func(v int) *int { return &v }
	tests := []struct {
		name  string
		in    PullInput
		field string
	}{
		{"defaults", PullInput{}, ""},
		{"max 0", PullInput{Max: n(0)}, "max"},
		{"max 101", PullInput{Max: n(101)}, "max"},
		{"max 100", PullInput{Max: n(100)}, ""},
		{"wait 31", PullInput{WaitSeconds: n(31)}, "wait_seconds"},
		{"wait -1", PullInput{WaitSeconds: n(-1)}, "wait_seconds"},
		{"visibility 0", PullInput{VisibilitySeconds: n(0)}, "visibility_seconds"},
		{"visibility -1", PullInput{VisibilitySeconds: n(-1)}, "visibility_seconds"},
		{"visibility 43200", PullInput{VisibilitySeconds: n(43200)}, ""},
		{"visibility 43201", PullInput{VisibilitySeconds: n(43201)}, "visibility_seconds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.in.validate()
			if tt.field == "" {
				if err != nil {
					t.Fatalf("unexpected error %v", err)
				}
				return
			}
			fe, ok := err.(*ferry.Error)
			if !ok || fe.Code != ferry.EINVALID || fe.Field != tt.field {
				t.Fatalf("error %v, want invalid %s", err, tt.field)
			}
		})
	}
}

func TestTriggerOf(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		status model.Status
		n      int
		want   model.Trigger
	}{
		{model.StatusPending, 1, model.TriggerInitial},
		{model.StatusRetrying, 2, model.TriggerRetry},
		{model.StatusPending, 3, model.TriggerReplay},
	} {
		if got := triggerOf(tt.status, tt.n); got != tt.want {
			t.Errorf("triggerOf(%s, %d) = %s, want %s", tt.status, tt.n, got, tt.want)
		}
	}
}

// TestSigningTargetCachedUntilItsFingerprintChanges: pulls reuse the
// decrypted signing state until the endpoint (or a secret) changes.
func TestSigningTargetCachedUntilItsFingerprintChanges(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	redeliver := func(m Message) {
		t.Helper()
		zero := 0
		if _, err := b.svc.Nack(ctx, b.seed.TenantID, b.seed.EndpointID, NackInput{Receipts: []string{m.Receipt}, DelaySeconds: &zero}); err != nil {
			t.Fatal(err)
		}
	}
	redeliver(b.pullOne(t, 30))
	redeliver(b.pullOne(t, 30))
	if n := counted(b.svc.cfg.Metrics.SigningLoads); n != 1 {
		t.Fatalf("two pulls loaded the signing target %d times, want 1", n)
	}
	if err := b.db.Exec(`UPDATE endpoints SET updated_at = updated_at + interval '1 second' WHERE id = ?`, b.seed.EndpointID).Error; err != nil {
		t.Fatal(err)
	}
	b.pullOne(t, 30)
	if n := counted(b.svc.cfg.Metrics.SigningLoads); n != 2 {
		t.Fatalf("a pull after an edit loaded the signing target %d times in all, want 2", n)
	}
}

// TestReleaseHandsALeaseBackAsIfNeverLeased: a lease whose consumer has
// gone returns the message as it was, due at once, with no attempt.
func TestReleaseHandsALeaseBackAsIfNeverLeased(t *testing.T) {
	t.Parallel()
	b := setup(t)
	ctx := context.Background()
	ep, err := b.svc.queueEndpoint(ctx, b.seed.TenantID, b.seed.EndpointID)
	if err != nil {
		t.Fatal(err)
	}
	msgs, rows, err := b.svc.lease(ctx, b.seed.TenantID, ep, pullParams{max: 1, visibility: time.Hour})
	if err != nil || len(msgs) != 1 {
		t.Fatalf("lease: %d messages, %v", len(msgs), err)
	}
	b.svc.release(ctx, b.seed.TenantID, b.seed.EndpointID, rows)
	var row struct {
		Status         string
		AttemptCount   int
		FirstAttemptAt *time.Time
		LeaseID        *uuid.UUID
	}
	if err := b.db.Raw(`SELECT status, attempt_count, first_attempt_at, lease_id FROM deliveries WHERE id = ?`, b.seed.DeliveryID).
		Scan(&row).Error; err != nil {
		t.Fatal(err)
	}
	if row.Status != "pending" || row.AttemptCount != 0 || row.FirstAttemptAt != nil || row.LeaseID != nil {
		t.Fatalf("after release: %+v, want pending, no attempt, no lease", row)
	}
	if m := b.pullOne(t, 30); m.Attempt != 1 {
		t.Errorf("pulled again as attempt %d, want 1", m.Attempt)
	}
	var attempts int64
	if err := b.db.Raw(`SELECT count(*) FROM attempts WHERE delivery_id = ?`, b.seed.DeliveryID).Scan(&attempts).Error; err != nil {
		t.Fatal(err)
	}
	if attempts != 0 {
		t.Errorf("%d attempts logged for a released lease, want none", attempts)
	}
}
