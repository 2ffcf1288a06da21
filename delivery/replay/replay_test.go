package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/internal/seal"

	"github.com/google/uuid"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery/egress"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/migrations"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// fakeEnqueuer records what would go to the relay.
type fakeEnqueuer struct {
	mu   sync.Mutex
	jobs []model.Job
}

var _ delivery.Enqueuer = (*fakeEnqueuer)(nil)

func (f *fakeEnqueuer) Enqueue(jobs []model.Job) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.jobs = append(f.jobs, jobs...)
}

func (f *fakeEnqueuer) all() []model.Job {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]model.Job(nil), f.jobs...)
}

type replayBundle struct {
	db       *gorm.DB
	svc      *delivery.Service
	replays  *Service
	relay    *fakeEnqueuer
	tenantID uuid.UUID
	endpoint delivery.Endpoint
}

func setupReplay(t *testing.T) replayBundle {
	t.Helper()
	return setupReplayWithLimits(t, nil)
}

// setupReplayWithLimits is setupReplay with plan limits (nil: none).
func setupReplayWithLimits(t *testing.T, limits delivery.Limits) replayBundle {
	t.Helper()
	ctx := context.Background()
	db, err := gorm.Open(postgres.Open(testenv.Postgres(t)), &gorm.Config{Logger: logger.Discard, SkipDefaultTransaction: true})
	if err != nil {
		t.Fatalf("open db: %v", err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sqlDB.Close() })
	if err := migrations.Up(ctx, sqlDB); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	cipher, err := seal.New(bytes.Repeat([]byte{1}, 32))
	if err != nil {
		t.Fatal(err)
	}
	relay := &fakeEnqueuer{}
	svc, err := delivery.NewService(db, cipher, relay, limits, delivery.Config{AllowHTTP: true, AddressPolicy: egress.AddressPolicy{AllowPrivate: true}},
		slog.New(slog.DiscardHandler), nil)
	if err != nil {
		t.Fatal(err)
	}
	b := replayBundle{db: db, svc: svc, replays: New(db, svc, limits, relay, slog.New(slog.DiscardHandler), nil), relay: relay,
		tenantID: uuid.New()}
	if err := db.Exec(`INSERT INTO tenants (id, name) VALUES (?, 'replay test')`, b.tenantID).Error; err != nil {
		t.Fatal(err)
	}
	b.endpoint = b.newEndpoint(t)
	return b
}

func (b replayBundle) newEndpoint(t *testing.T) delivery.Endpoint {
	t.Helper()
	ep, _, err := b.svc.CreateEndpoint(context.Background(), b.tenantID, delivery.EndpointInput{URL: "http://127.0.0.1:9/hook"})
	if err != nil {
		t.Fatalf("create endpoint: %v", err)
	}
	return ep
}

// ingest sends an event and marks its deliveries with status after n
// attempts, as if the dispatcher had worked on them.
func (b replayBundle) ingest(t *testing.T, typ string, status model.Status, n int) delivery.Event {
	t.Helper()
	ev, _, err := b.svc.Ingest(context.Background(), b.tenantID, delivery.EventInput{Type: typ, Data: json.RawMessage(`{"n":1}`)})
	if err != nil {
		t.Fatalf("ingest: %v", err)
	}
	if err := b.db.Exec(`UPDATE deliveries SET status = ?, attempt_count = ?, first_attempt_at = now() - interval '3 days'
		WHERE event_id = ?`, string(status), n, ev.ID).Error; err != nil {
		t.Fatal(err)
	}
	// Forget the initial jobs: the tests look at replays only.
	if err := b.db.Exec(`DELETE FROM outbox`).Error; err != nil {
		t.Fatal(err)
	}
	b.relay.mu.Lock()
	b.relay.jobs = nil
	b.relay.mu.Unlock()
	return ev
}

type outboxRow struct {
	DeliveryID uuid.UUID
	Job        string
	CreatedAt  time.Time
}

func (b replayBundle) outbox(t *testing.T) []outboxRow {
	t.Helper()
	var rows []outboxRow
	if err := b.db.Raw(`SELECT delivery_id, job::text AS job, created_at FROM outbox ORDER BY created_at`).Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	return rows
}

func (b replayBundle) delivery(t *testing.T, eventID uuid.UUID) delivery.Delivery {
	t.Helper()
	d, err := b.svc.Event(context.Background(), b.tenantID, eventID)
	if err != nil || len(d.Deliveries) != 1 {
		t.Fatalf("event %s: %v (%d deliveries)", eventID, err, len(d.Deliveries))
	}
	return d.Deliveries[0]
}

func TestReplayDeliveryRequeuesWithNextAttemptInOneTransaction(t *testing.T) {
	t.Parallel()
	b := setupReplay(t)
	ctx := context.Background()
	ev := b.ingest(t, "invoice.paid", model.StatusExhausted, 3)
	d := b.delivery(t, ev.ID)

	res, err := b.replays.ReplayDelivery(ctx, b.tenantID, d.ID, "ann@example.com")
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if res.EventID != ev.ID || len(res.Deliveries) != 1 || res.Deliveries[0] != d.ID {
		t.Fatalf("result = %+v", res)
	}
	after := b.delivery(t, ev.ID)
	if after.Status != model.StatusPending || after.AttemptCount != 3 || after.FirstAttemptAt != nil || after.NextAttemptAt != nil {
		t.Errorf("delivery after replay = %+v, want pending, 3 attempts, retry window reset", after)
	}
	rows := b.outbox(t)
	if len(rows) != 1 || rows[0].DeliveryID != d.ID {
		t.Fatalf("outbox = %+v, want one row for the delivery", rows)
	}
	var job model.Job
	if err := json.Unmarshal([]byte(rows[0].Job), &job); err != nil {
		t.Fatal(err)
	}
	want := model.Job{DeliveryID: d.ID, EventID: ev.ID, EndpointID: b.endpoint.ID, TenantID: b.tenantID, Attempt: 4,
		Trigger: model.TriggerReplay, Actor: "ann@example.com"}
	if job.DeliveryID != want.DeliveryID || job.EventID != want.EventID || job.EndpointID != want.EndpointID ||
		job.TenantID != want.TenantID || job.Attempt != 4 || job.Trigger != model.TriggerReplay || job.Actor != want.Actor {
		t.Errorf("outbox job = %+v, want %+v", job, want)
	}
	enq := b.relay.all()
	if len(enq) != 1 || !enq[0].OutboxAt.Equal(rows[0].CreatedAt) {
		t.Errorf("enqueued %+v; want one job whose OutboxAt is the row's created_at %s", enq, rows[0].CreatedAt)
	}

	if _, err := b.replays.ReplayDelivery(ctx, uuid.New(), d.ID, "x"); ferry.ErrorCode(err) != ferry.ENOTFOUND {
		t.Errorf("another tenant's replay: %v, want not_found", err)
	}
}

func TestReplayEventAllOrOneEndpoint(t *testing.T) {
	t.Parallel()
	b := setupReplay(t)
	ctx := context.Background()
	ev := b.ingest(t, "order.created", model.StatusSucceeded, 1)
	late := b.newEndpoint(t) // created after the event: no delivery yet

	res, err := b.replays.ReplayEvent(ctx, b.tenantID, ev.ID, nil, "staff:sam@ferry.dev")
	if err != nil || len(res.Deliveries) != 1 {
		t.Fatalf("replay to all: %+v, %v", res, err)
	}
	res, err = b.replays.ReplayEvent(ctx, b.tenantID, ev.ID, &late.ID, "fry_live_abcdef")
	if err != nil || len(res.Deliveries) != 1 {
		t.Fatalf("replay to the new endpoint: %+v, %v", res, err)
	}
	detail, err := b.svc.Event(ctx, b.tenantID, ev.ID)
	if err != nil || len(detail.Deliveries) != 2 {
		t.Fatalf("event now has %d deliveries (%v), want 2", len(detail.Deliveries), err)
	}
	jobs := b.relay.all()
	if len(jobs) != 2 || jobs[1].EndpointID != late.ID || jobs[1].Attempt != 1 || jobs[1].Actor != "fry_live_abcdef" {
		t.Errorf("jobs = %+v", jobs)
	}
	other := uuid.New()
	if _, err := b.replays.ReplayEvent(ctx, b.tenantID, ev.ID, &other, "x"); ferry.ErrorCode(err) != ferry.ENOTFOUND {
		t.Errorf("unknown endpoint: %v, want not_found", err)
	}
	if _, err := b.replays.ReplayEvent(ctx, uuid.New(), ev.ID, nil, "x"); ferry.ErrorCode(err) != ferry.ENOTFOUND {
		t.Errorf("another tenant's event: %v, want not_found", err)
	}
	orphan, _, err := b.svc.Ingest(ctx, b.tenantID, delivery.EventInput{Type: "nobody.listens", Data: json.RawMessage(`1`)})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.db.Exec(`DELETE FROM deliveries WHERE event_id = ?`, orphan.ID).Error; err != nil {
		t.Fatal(err)
	}
	if _, err := b.replays.ReplayEvent(ctx, b.tenantID, orphan.ID, nil, "x"); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("event without deliveries: %v, want invalid", err)
	}
	disabled := false
	if _, err := b.svc.UpdateEndpoint(ctx, b.tenantID, late.ID, delivery.EndpointPatch{Enabled: &disabled}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.replays.ReplayEvent(ctx, b.tenantID, ev.ID, &late.ID, "x"); ferry.ErrorCode(err) != ferry.EINVALID {
		t.Errorf("disabled endpoint: %v, want invalid", err)
	}
}

func (b replayBundle) job(t *testing.T, id uuid.UUID) ReplayJob {
	t.Helper()
	j, err := b.replays.ReplayJob(context.Background(), b.tenantID, id)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestReplayJobFiltersProgressCancelAndResume(t *testing.T) {
	t.Parallel()
	b := setupReplay(t)
	ctx := context.Background()
	for range 25 {
		b.ingest(t, "invoice.failed", model.StatusExhausted, 5)
	}
	b.ingest(t, "invoice.failed", model.StatusSucceeded, 1) // status filtered out
	b.ingest(t, "other.type", model.StatusExhausted, 5)     // type filtered out
	worker := NewWorker(b.replays, WorkerConfig{RatePerSecond: 10000, PageSize: 10, Lease: time.Minute}, slog.New(slog.DiscardHandler))

	// Cancelled before a worker claims it: nothing is replayed.
	f := ReplayFilter{EndpointID: &b.endpoint.ID, EventType: "invoice.failed", Status: string(model.StatusExhausted)}
	cancelled, err := b.replays.CreateReplayJob(ctx, b.tenantID, f, "ann@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	if j, err := b.replays.CancelReplayJob(ctx, b.tenantID, cancelled.ID); err != nil || j.State != ReplayCancelled {
		t.Fatalf("cancel: %+v, %v", j, err)
	}
	if worked, err := worker.RunOnce(ctx); worked || err != nil {
		t.Fatalf("worker claimed a cancelled job: %v, %v", worked, err)
	}

	job, err := b.replays.CreateReplayJob(ctx, b.tenantID, f, "ann@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	if job.State != ReplayQueued || job.Filter.Until == nil {
		t.Fatalf("new job = %+v, want queued with until defaulted to now", job)
	}
	// A worker that dies after one page: claim, replay a page, stop.
	claimed, ok, err := worker.claim(ctx)
	if err != nil || !ok || claimed.Total != 25 {
		t.Fatalf("claim: %+v %v %v, want total 25", claimed, ok, err)
	}
	if more, err := worker.page(ctx, &claimed); err != nil || !more {
		t.Fatalf("page: %v %v", more, err)
	}
	if j := b.job(t, job.ID); j.State != ReplayRunning || j.Done != 10 || j.Total != 25 {
		t.Fatalf("after one page: %+v", j)
	}
	// While its lease holds, no other worker takes it.
	if worked, _ := worker.RunOnce(ctx); worked {
		t.Fatal("a running job with a live lease was claimed again")
	}
	if err := b.db.Exec(`UPDATE replay_jobs SET claimed_until = now() - interval '1 hour' WHERE id = ?`, job.ID).Error; err != nil {
		t.Fatal(err)
	}
	if worked, err := worker.RunOnce(ctx); !worked || err != nil {
		t.Fatalf("resume: %v %v", worked, err)
	}
	j := b.job(t, job.ID)
	if j.State != ReplayCompleted || j.Done != 25 || j.Total != 25 || j.FinishedAt == nil {
		t.Fatalf("after resume: %+v, want completed 25/25", j)
	}
	jobs := b.relay.all()
	seen := map[uuid.UUID]bool{}
	for _, jb := range jobs {
		if seen[jb.DeliveryID] {
			t.Errorf("delivery %s replayed twice", jb.DeliveryID)
		}
		seen[jb.DeliveryID] = true
		if jb.Attempt != 6 || jb.Trigger != model.TriggerReplay || jb.Actor != "ann@example.com" {
			t.Errorf("job %+v, want attempt 6 replay by ann", jb)
		}
	}
	if len(seen) != 25 {
		t.Errorf("replayed %d deliveries, want 25", len(seen))
	}
	var outbox int64
	b.db.Raw(`SELECT count(*) FROM outbox`).Scan(&outbox)
	if outbox != 25 {
		t.Errorf("outbox rows = %d, want 25", outbox)
	}

	// Cancelling a running job stops it before its next page.
	job2, err := b.replays.CreateReplayJob(ctx, b.tenantID, ReplayFilter{}, "ann@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	claimed, ok, err = worker.claim(ctx)
	if err != nil || !ok || claimed.ID != job2.ID {
		t.Fatalf("claim job2: %v %v", ok, err)
	}
	if _, err := b.replays.CancelReplayJob(ctx, b.tenantID, job2.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := worker.page(ctx, &claimed); err != errReplayStopped {
		t.Fatalf("page after cancel: %v, want stopped", err)
	}
	if j := b.job(t, job2.ID); j.State != ReplayCancelled || j.Done != 0 {
		t.Errorf("cancelled job = %+v", j)
	}
}

func TestReplayJobValidation(t *testing.T) {
	t.Parallel()
	b := setupReplay(t)
	ctx := context.Background()
	since := time.Now()
	until := since.Add(-time.Hour)
	missing := uuid.New()
	for name, tc := range map[string]struct {
		f    ReplayFilter
		code string
	}{
		"bad status":       {ReplayFilter{Status: "lost"}, ferry.EINVALID},
		"bad type":         {ReplayFilter{EventType: "no spaces allowed"}, ferry.EINVALID},
		"until before":     {ReplayFilter{Since: &since, Until: &until}, ferry.EINVALID},
		"unknown endpoint": {ReplayFilter{EndpointID: &missing}, ferry.ENOTFOUND},
	} {
		if _, err := b.replays.CreateReplayJob(ctx, b.tenantID, tc.f, "x", ""); ferry.ErrorCode(err) != tc.code {
			t.Errorf("%s: %v, want %s", name, err, tc.code)
		}
	}
	if _, err := b.replays.ReplayJob(ctx, uuid.New(), uuid.New()); ferry.ErrorCode(err) != ferry.ENOTFOUND {
		t.Errorf("unknown job: %v", err)
	}
}

func TestReplayWorkerRateLimit(t *testing.T) {
	t.Parallel()
	b := setupReplay(t)
	ctx := context.Background()
	for range 40 {
		b.ingest(t, "invoice.failed", model.StatusExhausted, 1)
	}
	worker := NewWorker(b.replays, WorkerConfig{RatePerSecond: 40, PageSize: 10}, slog.New(slog.DiscardHandler))
	job, err := b.replays.CreateReplayJob(ctx, b.tenantID, ReplayFilter{}, "ann@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if worked, err := worker.RunOnce(ctx); !worked || err != nil {
		t.Fatalf("run: %v %v", worked, err)
	}
	// A burst of one page, then 30 deliveries at 40/s: at least 0.7 s.
	if elapsed := time.Since(start); elapsed < 700*time.Millisecond {
		t.Errorf("40 deliveries at 40/s took %s", elapsed)
	}
	if j := b.job(t, job.ID); j.State != ReplayCompleted || j.Done != 40 {
		t.Errorf("job = %+v", j)
	}
}

func TestReplayJobStalledWorkerAndResumerNeverDuplicate(t *testing.T) {
	t.Parallel()
	b := setupReplay(t)
	ctx := context.Background()
	for range 20 {
		b.ingest(t, "invoice.failed", model.StatusDropped, 1)
	}
	cfg := WorkerConfig{RatePerSecond: 10000, PageSize: 5, Lease: time.Minute}
	stalled := NewWorker(b.replays, cfg, slog.New(slog.DiscardHandler))
	resumer := NewWorker(b.replays, cfg, slog.New(slog.DiscardHandler))
	job, err := b.replays.CreateReplayJob(ctx, b.tenantID, ReplayFilter{}, "ann@example.com", "")
	if err != nil {
		t.Fatal(err)
	}
	a, ok, err := stalled.claim(ctx)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if _, err := stalled.page(ctx, &a); err != nil {
		t.Fatal(err)
	}
	// The first worker stalls past its lease; another resumes the job.
	if err := b.db.Exec(`UPDATE replay_jobs SET claimed_until = now() - interval '1 hour' WHERE id = ?`, job.ID).Error; err != nil {
		t.Fatal(err)
	}
	r, ok, err := resumer.claim(ctx)
	if err != nil || !ok || r.ID != job.ID {
		t.Fatal(ok, err)
	}
	// Both carry on, taking turns on the job row.
	for done := false; !done; {
		for _, w := range []struct {
			w   *Worker
			job *replayJobRow
		}{{stalled, &a}, {resumer, &r}} {
			more, err := w.w.page(ctx, w.job)
			if errors.Is(err, errReplayStopped) || (err == nil && !more) {
				done = true
				break
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	seen := map[uuid.UUID]int{}
	for _, jb := range b.relay.all() {
		seen[jb.DeliveryID]++
	}
	if len(seen) != 20 {
		t.Errorf("replayed %d deliveries, want 20", len(seen))
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("delivery %s replayed %d times", id, n)
		}
	}
	if j := b.job(t, job.ID); j.Done != 20 || j.State != ReplayCompleted {
		t.Errorf("job = %+v", j)
	}
}
