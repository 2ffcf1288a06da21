package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/seal"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/migrations"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// collectingRelay records enqueued jobs.
type collectingRelay struct {
	mu   sync.Mutex
	jobs []model.Job
}

func (r *collectingRelay) Enqueue(jobs []model.Job) {
	r.mu.Lock()
	r.jobs = append(r.jobs, jobs...)
	r.mu.Unlock()
}

// refusingLimits refuses every event of one tenant.
type refusingLimits struct{ refuse uuid.UUID }

func (l refusingLimits) Meter(dbtx.Tx) Meter              { return l }
func (l refusingLimits) Pipeline() PipelineMeter          { return l }
func (refusingLimits) QueuePlans(*pgx.Batch, []uuid.UUID) {}
func (l refusingLimits) QueueConsumeEvents(b *pgx.Batch, tenantID uuid.UUID, n int) func() (int, error) {
	err := l.ConsumeEvents(context.Background(), tenantID, n)
	if err != nil {
		// As billing's statement does: the refusal aborts the transaction.
		b.Queue(`DO $$ BEGIN RAISE EXCEPTION 'refused'; END $$`)
	}
	return func() (int, error) { return 0, err }
}
func (l refusingLimits) AttemptRetention(context.Context, uuid.UUID) (time.Duration, error) {
	return 0, nil
}
func (l refusingLimits) CheckEndpointLimit(context.Context, uuid.UUID) error     { return nil }
func (l refusingLimits) EventsPerSecond(context.Context, uuid.UUID) (int, error) { return 0, nil }
func (l refusingLimits) ConsumeEvents(_ context.Context, tenantID uuid.UUID, _ int) error {
	if tenantID == l.refuse {
		return ferry.Errorf(ferry.EQUOTA, "quota used up")
	}
	return nil
}

var (
	_ Limits        = refusingLimits{}
	_ Meter         = refusingLimits{}
	_ PipelineMeter = refusingLimits{}
)

func openTestDB(tb testing.TB) *gorm.DB {
	tb.Helper()
	db, err := gorm.Open(postgres.Open(testenv.Postgres(tb)), &gorm.Config{Logger: logger.Discard, SkipDefaultTransaction: true})
	if err != nil {
		tb.Fatal(err)
	}
	sqlDB, _ := db.DB()
	sqlDB.SetMaxOpenConns(20)
	tb.Cleanup(func() { sqlDB.Close() })
	if err := migrations.Up(context.Background(), sqlDB); err != nil {
		tb.Fatal(err)
	}
	return db
}

// seedTenant creates a tenant with endpoints subscribed to the given
// event types (nil: all types).
func seedTenant(tb testing.TB, db *gorm.DB, subscriptions ...[]string) (uuid.UUID, []uuid.UUID) {
	tb.Helper()
	tenantID := uuid.New()
	if err := db.Exec(`INSERT INTO tenants (id, name) VALUES (?, 'bench')`, tenantID).Error; err != nil {
		tb.Fatal(err)
	}
	var eps []uuid.UUID
	for _, types := range subscriptions {
		id := uuid.New()
		typesJSON := "[]"
		if len(types) > 0 {
			typesJSON = fmt.Sprintf(`["%s"]`, types[0])
		}
		if err := db.Exec(`INSERT INTO endpoints (id, tenant_id, url, event_types) VALUES (?, ?, 'http://127.0.0.1:1/', ?::jsonb)`,
			id, tenantID, typesJSON).Error; err != nil {
			tb.Fatal(err)
		}
		eps = append(eps, id)
	}
	return tenantID, eps
}

func newTestService(tb testing.TB, db *gorm.DB, relay Enqueuer, limits Limits) *Service {
	tb.Helper()
	c, _ := seal.New(bytes.Repeat([]byte{1}, 32))
	s, err := NewService(db, c, relay, limits, Config{}, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestIngestGroupCommit: many concurrent ingests share transactions, yet
// each event gets exactly its own fan-out, deliveries and outbox rows, and
// a tenant refused by its limits never fails another tenant's events.
func TestIngestGroupCommit(t *testing.T) {
	db := openTestDB(t)
	a, aEps := seedTenant(t, db, nil, []string{"order.paid"}, []string{"user.created"})
	b, _ := seedTenant(t, db, nil)
	relay := &collectingRelay{}
	s := newTestService(t, db, relay, refusingLimits{refuse: b})

	const perTenant = 150
	type result struct {
		tenant uuid.UUID
		typ    string
		ev     Event
		err    error
	}
	results := make(chan result, 2*perTenant)
	var wg sync.WaitGroup
	for i := range perTenant {
		for _, tenant := range []uuid.UUID{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				typ := []string{"order.paid", "user.created", "other"}[i%3]
				ev, created, err := s.Ingest(context.Background(), tenant, EventInput{Type: typ, Data: []byte(fmt.Sprintf(`{"i": %d}`, i))})
				if err == nil && !created {
					err = errors.New("not created")
				}
				results <- result{tenant, typ, ev, err}
			}()
		}
	}
	wg.Wait()
	close(results)
	wantDeliveries := 0
	for r := range results {
		if r.tenant == b {
			var fe *ferry.Error
			if !errors.As(r.err, &fe) || fe.Code != ferry.EQUOTA {
				t.Fatalf("tenant b: want quota_exceeded, got %v", r.err)
			}
			continue
		}
		if r.err != nil {
			t.Fatalf("tenant a: %v", r.err)
		}
		want := 1 // the catch-all endpoint
		if r.typ != "other" {
			want = 2
		}
		wantDeliveries += want
		var n, outbox int64
		db.Raw(`SELECT count(*) FROM deliveries WHERE event_id = ?`, r.ev.ID).Scan(&n)
		db.Raw(`SELECT count(*) FROM outbox o JOIN deliveries d ON d.id = o.delivery_id WHERE d.event_id = ?`, r.ev.ID).Scan(&outbox)
		if n != int64(want) || outbox != int64(want) {
			t.Fatalf("event %s (%s): %d deliveries, %d outbox rows, want %d", r.ev.ID, r.typ, n, outbox, want)
		}
	}
	var events int64
	db.Raw(`SELECT count(*) FROM events WHERE tenant_id = ?`, b).Scan(&events)
	if events != 0 {
		t.Fatalf("refused tenant has %d events", events)
	}
	relay.mu.Lock()
	defer relay.mu.Unlock()
	if len(relay.jobs) != wantDeliveries {
		t.Fatalf("relay got %d jobs, want %d", len(relay.jobs), wantDeliveries)
	}
	for _, j := range relay.jobs {
		if j.TenantID != a || (j.EndpointID != aEps[0] && j.EndpointID != aEps[1] && j.EndpointID != aEps[2]) {
			t.Fatalf("job for the wrong tenant or endpoint: %+v", j)
		}
	}
}

// TestIngestGroupCommitBatches: without refusals, concurrent ingests are
// committed in shared transactions and nothing is lost or doubled.
func TestIngestGroupCommitBatches(t *testing.T) {
	db := openTestDB(t)
	a, _ := seedTenant(t, db, nil, nil)
	relay := &collectingRelay{}
	var shared atomic.Int64 // transactions that held more than one event
	c, _ := seal.New(bytes.Repeat([]byte{1}, 32))
	s, err := NewService(db, c, relay, nil, Config{IngestBatch: prometheus.ObserverFunc(func(events float64) {
		if events > 1 {
			shared.Add(1)
		}
	})}, slog.New(slog.DiscardHandler), nil)
	if err != nil {
		t.Fatal(err)
	}
	const n = 400
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, err := s.Ingest(context.Background(), a, EventInput{Type: "t", Data: []byte(fmt.Sprintf(`{"i":%d}`, i))})
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var events, deliveries, outbox int64
	db.Raw(`SELECT count(*) FROM events`).Scan(&events)
	db.Raw(`SELECT count(*) FROM deliveries`).Scan(&deliveries)
	db.Raw(`SELECT count(*) FROM outbox`).Scan(&outbox)
	if events != n || deliveries != 2*n || outbox != 2*n || len(relay.jobs) != 2*n {
		t.Fatalf("events %d, deliveries %d, outbox %d, jobs %d; want %d, %d, %d, %d", events, deliveries, outbox, len(relay.jobs), n, 2*n, 2*n, 2*n)
	}
	if shared.Load() == 0 {
		t.Fatalf("no transaction held more than one event")
	}
	t.Logf("%d shared transactions for %d events", shared.Load(), n)
}

// TestDrainWaitsForAbandonedIngests: a request whose client went away
// leaves its event queued for a batch; on shutdown Drain returns only
// once every queued event is committed, so nothing accepted into a batch
// is cut off by the database closing.
func TestDrainWaitsForAbandonedIngests(t *testing.T) {
	t.Parallel()
	db := openTestDB(t)
	tenantID, _ := seedTenant(t, db, nil)
	s := newTestService(t, db, &collectingRelay{}, nil)
	gone, cancel := context.WithCancel(context.Background())
	cancel() // every client has left before its answer
	const n = 200
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _, _ = s.Ingest(gone, tenantID, EventInput{Type: "drain.test", Data: []byte(fmt.Sprintf(`{"i":%d}`, i))})
		}()
	}
	wg.Wait()
	ctx, stop := context.WithTimeout(context.Background(), 30*time.Second)
	defer stop()
	if err := s.Drain(ctx); err != nil {
		t.Fatalf("drain: %v", err)
	}
	var committed int64
	if err := db.Raw(`SELECT count(*) FROM events WHERE tenant_id = ?`, tenantID).Scan(&committed).Error; err != nil {
		t.Fatal(err)
	}
	if committed != n {
		t.Errorf("%d of %d queued events committed when Drain returned", committed, n)
	}
}

// TestIngestKeysInGroupCommit: events with idempotency keys share the
// group commit. Concurrent requests with one key make one event (every
// one gets its id; one is created), a different event under a taken key
// is refused, and a key older than the window is taken afresh.
func TestIngestKeysInGroupCommit(t *testing.T) {
	db := openTestDB(t)
	tenantID, _ := seedTenant(t, db, nil)
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	c, _ := seal.New(bytes.Repeat([]byte{1}, 32))
	var batched atomic.Int64 // transactions that held more than one event
	s, err := NewService(db, c, &collectingRelay{}, nil, Config{IngestBatch: prometheus.ObserverFunc(func(events float64) {
		if events > 1 {
			batched.Add(1)
		}
	})}, slog.New(slog.DiscardHandler), func() time.Time { return time.Unix(0, clock.Load()) })
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	const n = 200
	type answer struct {
		ev      Event
		created bool
		err     error
	}
	answers := make([]answer, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			// Half repeat one key, half each have their own.
			key := "order-42"
			if i%2 == 1 {
				key = fmt.Sprint("own-", i)
			}
			ev, created, err := s.Ingest(ctx, tenantID, EventInput{Type: "order.created", Data: []byte(`{"n":1}`), IdempotencyKey: key})
			answers[i] = answer{ev, created, err}
		})
	}
	wg.Wait()
	var shared uuid.UUID
	created := 0
	for i, a := range answers {
		if a.err != nil {
			t.Fatalf("request %d: %v", i, a.err)
		}
		if i%2 == 1 {
			if !a.created {
				t.Errorf("request %d with its own key: not created", i)
			}
			continue
		}
		if shared == uuid.Nil {
			shared = a.ev.ID
		}
		if a.ev.ID != shared || a.ev.IdempotencyKey == nil || *a.ev.IdempotencyKey != "order-42" {
			t.Errorf("request %d: event %s key %v, want %s with order-42", i, a.ev.ID, a.ev.IdempotencyKey, shared)
		}
		if a.created {
			created++
		}
	}
	if created != 1 {
		t.Errorf("%d requests created the shared key's event, want 1", created)
	}
	if batched.Load() == 0 {
		t.Errorf("no transaction held more than one keyed event")
	}
	var events, deliveries int64
	db.Raw(`SELECT count(*) FROM events WHERE tenant_id = ?`, tenantID).Scan(&events)
	db.Raw(`SELECT count(*) FROM deliveries WHERE tenant_id = ?`, tenantID).Scan(&deliveries)
	if events != n/2+1 || deliveries != n/2+1 {
		t.Errorf("%d events and %d deliveries, want %d of each", events, deliveries, n/2+1)
	}

	_, _, err = s.Ingest(ctx, tenantID, EventInput{Type: "order.created", Data: []byte(`{"n":2}`), IdempotencyKey: "order-42"})
	if ferry.ErrorCode(err) != ferry.EKEYREUSED {
		t.Errorf("a different event under a taken key: %v, want %s", err, ferry.EKEYREUSED)
	}

	clock.Add(int64(idempotencyKeyWindow + time.Minute))
	ev, isNew, err := s.Ingest(ctx, tenantID, EventInput{Type: "order.created", Data: []byte(`{"n":3}`), IdempotencyKey: "order-42"})
	if err != nil || !isNew || ev.ID == shared {
		t.Fatalf("the key after the window: %s created %v err %v, want a new event", ev.ID, isNew, err)
	}
	var holder string
	if err := db.Raw(`SELECT id::text FROM events WHERE tenant_id = ? AND idempotency_key = 'order-42'`, tenantID).Scan(&holder).Error; err != nil {
		t.Fatal(err)
	}
	if holder != ev.ID.String() {
		t.Errorf("order-42 is held by %s, want the new event %s", holder, ev.ID)
	}
}

// TestLeaveKeepsWhatFits: a refused tenant keeps, in the batch's order,
// as many events as its limits said would fit; its others are answered
// with the refusal, and other tenants' events all stay.
func TestLeaveKeepsWhatFits(t *testing.T) {
	a, b := uuid.New(), uuid.New()
	limited := ferry.Errorf(ferry.ERATELIMIT, "slow down")
	tests := []struct {
		name      string
		fits      int
		kept      []string
		answeredB int
	}{
		{"none fit", 0, []string{"a0", "a1", "a2"}, 3},
		{"two fit", 2, []string{"a0", "b0", "a1", "b1", "a2"}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var batch []*ingestRequest
			for i := range 3 {
				for _, tenant := range []struct {
					id   uuid.UUID
					name string
				}{{a, "a"}, {b, "b"}} {
					batch = append(batch, &ingestRequest{tenantID: tenant.id, in: EventInput{Type: fmt.Sprint(tenant.name, i)}})
				}
			}
			c := batchCommit{committed: batch}
			c.leave(map[uuid.UUID]refusal{b: {err: limited, fits: tc.fits}})
			var kept []string
			for _, r := range c.committed {
				kept = append(kept, r.in.Type)
			}
			if fmt.Sprint(kept) != fmt.Sprint(tc.kept) {
				t.Errorf("kept %v, want %v", kept, tc.kept)
			}
			if len(c.answered) != tc.answeredB {
				t.Fatalf("%d answered, want %d", len(c.answered), tc.answeredB)
			}
			for _, ans := range c.answered {
				if ans.r.tenantID != b || !errors.Is(ans.res.err, limited) {
					t.Errorf("answered %s with %v, want b's with the refusal", ans.r.in.Type, ans.res.err)
				}
			}
		})
	}
}
