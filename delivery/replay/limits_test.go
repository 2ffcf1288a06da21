package replay

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/clock"
	"github.com/ferry-dev/ferry/page"
)

// secondLimits is a fake Limits with a plan of perSecond events per
// second, counted per wall-clock second across all callers, and an
// optional monthly quota.
type secondLimits struct {
	perSecond int
	quota     int64 // 0 = none
	// now is the clock the seconds are counted on (nil: the system's).
	now func() time.Time

	mu       sync.Mutex
	second   int64
	inSecond int
	metered  atomic.Int64
}

var (
	_ Limits         = (*secondLimits)(nil)
	_ delivery.Meter = (*secondLimits)(nil)
)

func (l *secondLimits) Meter(dbtx.Tx) delivery.Meter       { return l }
func (l *secondLimits) Pipeline() delivery.PipelineMeter   { return l }
func (l *secondLimits) QueuePlans(*pgx.Batch, []uuid.UUID) {}
func (l *secondLimits) QueueConsumeEvents(b *pgx.Batch, tenantID uuid.UUID, n int) func() (int, error) {
	err := l.ConsumeEvents(context.Background(), tenantID, n)
	if err != nil {
		// As billing's statement does: the refusal aborts the transaction.
		b.Queue(`DO $$ BEGIN RAISE EXCEPTION 'refused'; END $$`)
	}
	return func() (int, error) { return 0, err }
}
func (l *secondLimits) AttemptRetention(context.Context, uuid.UUID) (time.Duration, error) {
	return 0, nil
}
func (l *secondLimits) EventsPerSecond(context.Context, uuid.UUID) (int, error) {
	return l.perSecond, nil
}
func (l *secondLimits) CheckEndpointLimit(context.Context, uuid.UUID) error { return nil }
func (l *secondLimits) ConsumeEvents(_ context.Context, _ uuid.UUID, n int) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	clock := l.now
	if clock == nil {
		clock = time.Now
	}
	if now := clock().Unix(); now != l.second {
		l.second, l.inSecond = now, 0
	}
	if l.quota > 0 && l.metered.Load()+int64(n) > l.quota {
		return &ferry.Error{Code: ferry.EQUOTA, Message: "the plan's events for this month are used up"}
	}
	if l.inSecond+n > l.perSecond {
		return &ferry.Error{Code: ferry.ERATELIMIT, RetryAfterSeconds: 1, Message: "slow down"}
	}
	l.inSecond += n
	l.metered.Add(int64(n))
	return nil
}

// TestReplayBurstIsRateLimited: a tenant on a 10 events/s plan replays
// one event 60 times at once; replays beyond the plan's second are
// refused with rate_limited and Retry-After, and each accepted replay is
// metered.
func TestReplayBurstIsRateLimited(t *testing.T) {
	t.Parallel()
	limits := &secondLimits{perSecond: 1000}
	b := setupReplayWithLimits(t, limits)
	ev := b.ingest(t, "invoice.failed", model.StatusExhausted, 1)
	limits.mu.Lock()
	limits.perSecond, limits.inSecond, limits.second = 10, 0, 0
	limits.mu.Unlock()
	limits.metered.Store(0)

	var ok, limited atomic.Int64
	var wg sync.WaitGroup
	for range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := b.replays.ReplayEvent(context.Background(), b.tenantID, ev.ID, nil, "ann@example.com")
			var fe *ferry.Error
			switch {
			case err == nil:
				ok.Add(1)
			case ferry.ErrorCode(err) == ferry.ERATELIMIT:
				if errors.As(err, &fe); fe.RetryAfterSeconds < 1 {
					t.Errorf("rate_limited without Retry-After: %+v", fe)
				}
				limited.Add(1)
			default:
				t.Errorf("replay: %v", err)
			}
		}()
	}
	wg.Wait()
	// The burst may straddle a second boundary: at most two windows.
	if ok.Load() > 20 || limited.Load() < 40 {
		t.Fatalf("%d replays accepted, %d refused; want at most 20 accepted of 60", ok.Load(), limited.Load())
	}
	if got := limits.metered.Load(); got != ok.Load() {
		t.Errorf("metered %d events for %d accepted replays", got, ok.Load())
	}
	if got := int64(len(b.outbox(t))); got != ok.Load() {
		t.Errorf("%d outbox rows for %d accepted replays", got, ok.Load())
	}
}

// TestReplayJobLimitPerTenant: at most three bulk replays per tenant are
// queued or running, even when the fourth and fifth are asked for in
// parallel; another tenant is unaffected; a cancelled job frees a slot.
func TestReplayJobLimitPerTenant(t *testing.T) {
	t.Parallel()
	b := setupReplay(t)
	ctx := context.Background()
	var created, refused atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := b.replays.CreateReplayJob(ctx, b.tenantID, ReplayFilter{}, "ann@example.com", "")
			switch ferry.ErrorCode(err) {
			case "":
				created.Add(1)
			case ferry.EREPLAYLIMIT:
				refused.Add(1)
			default:
				t.Errorf("create: %v", err)
			}
		}()
	}
	wg.Wait()
	if created.Load() != MaxOpenReplayJobs || refused.Load() != 8-MaxOpenReplayJobs {
		t.Fatalf("created %d, refused %d; want %d and %d", created.Load(), refused.Load(), MaxOpenReplayJobs, 8-MaxOpenReplayJobs)
	}
	other := b.otherTenant(t)
	if _, err := b.replays.CreateReplayJob(ctx, other.tenantID, ReplayFilter{}, "bob@example.com", ""); err != nil {
		t.Fatalf("another tenant refused: %v", err)
	}
	jobs, _, err := b.replays.ListReplayJobs(ctx, b.tenantID, page.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.replays.CancelReplayJob(ctx, b.tenantID, jobs[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := b.replays.CreateReplayJob(ctx, b.tenantID, ReplayFilter{}, "ann@example.com", ""); err != nil {
		t.Errorf("after a cancel: %v", err)
	}
}

// otherTenant returns a bundle for a second tenant on the same database.
func (b replayBundle) otherTenant(t *testing.T) replayBundle {
	t.Helper()
	o := b
	o.tenantID = uuid.New()
	if err := b.db.Exec(`INSERT INTO tenants (id, name) VALUES (?, 'other tenant')`, o.tenantID).Error; err != nil {
		t.Fatal(err)
	}
	o.endpoint = o.newEndpoint(t)
	return o
}

// TestReplayWorkerFairAcrossTenants: tenant A queues three large bulk
// replays, then tenant B one small one. Claiming first-come-first-served
// would make B wait for all of A's; taking turns per tenant, B's job is
// done after A's first turn and B's own two.
func TestReplayWorkerFairAcrossTenants(t *testing.T) {
	t.Parallel()
	a := setupReplay(t)
	ctx := context.Background()
	for range 60 {
		a.ingest(t, "invoice.failed", model.StatusExhausted, 1)
	}
	var aJobs []uuid.UUID
	for range 3 {
		j, err := a.replays.CreateReplayJob(ctx, a.tenantID, ReplayFilter{}, "ann@example.com", "")
		if err != nil {
			t.Fatal(err)
		}
		aJobs = append(aJobs, j.ID)
	}
	b := a.otherTenant(t)
	for range 5 {
		b.ingest(t, "order.created", model.StatusExhausted, 1)
	}
	small, err := b.replays.CreateReplayJob(ctx, b.tenantID, ReplayFilter{}, "bob@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	w := NewWorker(a.replays, WorkerConfig{RatePerSecond: 100000, PageSize: 5, TurnPages: 1}, slog.New(slog.DiscardHandler))
	turns := 0
	for b.job(t, small.ID).State != ReplayCompleted {
		if worked, err := w.RunOnce(ctx); !worked || err != nil {
			t.Fatalf("turn %d: %v %v", turns, worked, err)
		}
		if turns++; turns > 6 {
			t.Fatalf("tenant B's job not done after %d turns: %+v", turns, b.job(t, small.ID))
		}
	}
	if turns > 4 {
		t.Errorf("tenant B waited %d turns, want at most 4", turns)
	}
	for _, id := range aJobs {
		if j := a.job(t, id); j.State == ReplayCompleted {
			t.Errorf("tenant A's job %s finished before B's small one: %+v", id, j)
		}
	}
	// Everyone finishes.
	for worked := true; worked; {
		if worked, err = w.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, id := range aJobs {
		if j := a.job(t, id); j.State != ReplayCompleted || j.Done != 60 {
			t.Errorf("job %s = %+v, want completed 60", id, j)
		}
	}
}

// TestReplayWorkerMetersAndWaitsForTheRateLimit: bulk pages are never
// larger than the plan's events per second, every replayed delivery is
// metered, a refused page hands the job back until the next second, and a
// job whose monthly quota runs out fails with the plan's reason.
func TestReplayWorkerMetersAndWaitsForTheRateLimit(t *testing.T) {
	t.Parallel()
	limits := &secondLimits{perSecond: 1000}
	b := setupReplayWithLimits(t, limits)
	ctx := context.Background()
	for range 12 {
		b.ingest(t, "invoice.failed", model.StatusExhausted, 1)
	}
	limits.mu.Lock()
	limits.perSecond = 5
	limits.mu.Unlock()
	limits.metered.Store(0)
	// The plan's seconds and the job's hold-backs run on one clock, which
	// the test moves on instead of waiting for the next second.
	clk := clock.NewManual(time.Now())
	limits.mu.Lock()
	limits.now = clk.Now
	limits.mu.Unlock()
	replays := New(b.db, b.svc, limits, b.relay, slog.New(slog.DiscardHandler), clk.Now)
	job, err := replays.CreateReplayJob(ctx, b.tenantID, ReplayFilter{}, "ann@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	w := NewWorker(replays, WorkerConfig{RatePerSecond: 100000, PageSize: 100}, slog.New(slog.DiscardHandler))
	for round := 0; b.job(t, job.ID).State != ReplayCompleted; round++ {
		if round == 20 {
			t.Fatalf("job did not complete in 20 rounds: %+v", b.job(t, job.ID))
		}
		worked, err := w.RunOnce(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !worked { // held back until the next second
			var nb *time.Time
			b.db.Raw(`SELECT not_before FROM replay_jobs WHERE id = ?`, job.ID).Scan(&nb)
			if nb == nil {
				t.Fatal("no job claimable but none waiting either")
			}
			clk.Advance(time.Second)
		}
	}
	if got := limits.metered.Load(); got != 12 {
		t.Errorf("metered %d, want 12", got)
	}
	if n := len(b.relay.all()); n != 12 {
		t.Errorf("re-queued %d, want 12", n)
	}

	limits.mu.Lock()
	limits.perSecond, limits.quota = 1000, 15
	limits.mu.Unlock()
	over, err := replays.CreateReplayJob(ctx, b.tenantID, ReplayFilter{}, "ann@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	for worked := true; worked; {
		if worked, err = w.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if j := b.job(t, over.ID); j.State != ReplayFailed || j.Error == "" || j.FinishedAt == nil {
		t.Errorf("job over quota = %+v, want failed with the reason", j)
	}
}
