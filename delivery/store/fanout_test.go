package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// TestInsertEventsFanOut writes events with and without deliveries and
// outbox rows in one statement, and checks that an event whose id or
// idempotency key is taken writes no delivery or outbox row.
func TestInsertEventsFanOut(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	ctx := context.Background()
	tx := store.Gorm(db)
	at := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	seeded := deliverytest.Seed(t, db, at) // a tenant, an endpoint and a taken event id
	key := "order-7"

	event := func(id uuid.UUID, key *string) store.Event {
		return store.Event{ID: id, TenantID: seeded.TenantID, Type: "order.created", Data: `{"n":2}`, IdempotencyKey: key, CreatedAt: at}
	}
	// fanOut gives each event a delivery and, with jobs, an outbox row.
	fanOut := func(events []store.Event, deliveries, jobs bool) store.FanOut {
		var f store.FanOut
		for _, ev := range events {
			if !deliveries {
				break
			}
			d := store.Delivery{ID: uuid.New(), TenantID: seeded.TenantID, EventID: ev.ID, EndpointID: seeded.EndpointID, CreatedAt: at}
			f.Deliveries = append(f.Deliveries, d)
			if jobs {
				f.Jobs = append(f.Jobs, model.Job{DeliveryID: d.ID, EventID: ev.ID, EndpointID: seeded.EndpointID,
					TenantID: seeded.TenantID, Attempt: 1, Trigger: model.TriggerInitial, AcceptedAt: at, OutboxAt: at})
			}
		}
		return f
	}
	keyed := event(uuid.New(), &key)
	if n, err := store.InsertEventsFanOut(ctx, tx, []store.Event{keyed}, store.FanOut{}); err != nil || n != 1 {
		t.Fatalf("first keyed event: %d new, %v", n, err)
	}

	tests := []struct {
		name       string
		events     []store.Event
		deliveries bool
		jobs       bool
		wantNew    int
		wantRows   bool // deliveries (and, with jobs, outbox rows) written
	}{
		{"events alone", []store.Event{event(uuid.New(), nil), event(uuid.New(), nil)}, false, false, 2, false},
		{"events with queue deliveries", []store.Event{event(uuid.New(), nil)}, true, false, 1, true},
		{"events with deliveries and jobs", []store.Event{event(uuid.New(), nil), event(uuid.New(), nil)}, true, true, 2, true},
		{"a taken event id writes no delivery", []store.Event{event(uuid.New(), nil), event(seeded.EventID, nil)}, true, true, 1, false},
		{"a taken idempotency key writes no delivery", []store.Event{event(uuid.New(), &key)}, true, true, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := fanOut(tt.events, tt.deliveries, tt.jobs)
			got, err := store.InsertEventsFanOut(ctx, tx, tt.events, f)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.wantNew {
				t.Errorf("%d events new, want %d", got, tt.wantNew)
			}
			ids := make([]uuid.UUID, len(f.Deliveries))
			for i, d := range f.Deliveries {
				ids[i] = d.ID
			}
			var deliveries, outbox int
			rows, err := tx.Query(ctx, `SELECT (SELECT count(*) FROM deliveries WHERE id = ANY($1)), (SELECT count(*) FROM outbox WHERE delivery_id = ANY($1))`,
				pgval.Array(ids))
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			if !rows.Next() {
				t.Fatal("no counts")
			}
			if err := rows.Scan(&deliveries, &outbox); err != nil {
				t.Fatal(err)
			}
			wantDeliveries, wantOutbox := 0, 0
			if tt.wantRows {
				wantDeliveries = len(f.Deliveries)
				wantOutbox = len(f.Jobs)
			}
			if deliveries != wantDeliveries || outbox != wantOutbox {
				t.Errorf("%d deliveries and %d outbox rows written, want %d and %d", deliveries, outbox, wantDeliveries, wantOutbox)
			}
		})
	}
}

// TestDeleteOutboxAfterAPlanMadeEmpty: the relay's connection deletes
// from an empty outbox often enough for PostgreSQL to cache a generic
// plan (one that scans the table per key, as the table was empty), then
// a burst fills it. The delete must still take milliseconds, not the
// seconds a per-key scan of 20,000 rows for 10,000 keys takes.
func TestDeleteOutboxAfterAPlanMadeEmpty(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	ctx := context.Background()
	err := pgval.WithConn(ctx, db, func(pc *pgx.Conn) error {
		for _, q := range []string{`VACUUM ANALYZE outbox`, `SET plan_cache_mode = force_generic_plan`} {
			if _, err := pc.Exec(ctx, q); err != nil {
				return err
			}
		}
		for range 6 {
			if err := store.DeleteOutbox(ctx, pc, []uuid.UUID{uuid.New()}, []time.Time{time.Now()}); err != nil {
				return err
			}
		}
		if _, err := pc.Exec(ctx, `INSERT INTO outbox (delivery_id, job, created_at)
			SELECT gen_random_uuid(), '{}', now() + i * interval '1 ms' FROM generate_series(1, 20000) i`); err != nil {
			return err
		}
		ids, ats := outboxKeys(t, db, 10000)
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		return store.DeleteOutbox(ctx, pc, ids, ats)
	})
	if err != nil {
		t.Fatalf("delete 10,000 of 20,000 outbox rows: %v", err)
	}
	expectOutboxRows(t, db, 10000)
}

// TestQueueEventsFanOutFailsOnATakenKey: the queued form, sent with its
// COMMIT in one batch, writes everything, or, when an event's
// idempotency key is taken, fails and leaves the transaction aborted so
// that the COMMIT commits nothing.
func TestQueueEventsFanOutFailsOnATakenKey(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)
	seeded := deliverytest.Seed(t, db, at)
	key := "order-8"
	send := func(events ...store.Event) (deliveries []uuid.UUID, err error) {
		var f store.FanOut
		for _, ev := range events {
			d := store.Delivery{ID: uuid.New(), TenantID: seeded.TenantID, EventID: ev.ID, EndpointID: seeded.EndpointID, CreatedAt: at}
			f.Deliveries = append(f.Deliveries, d)
			f.Jobs = append(f.Jobs, model.Job{DeliveryID: d.ID, EventID: ev.ID, EndpointID: seeded.EndpointID,
				TenantID: seeded.TenantID, Attempt: 1, Trigger: model.TriggerInitial, AcceptedAt: at, OutboxAt: at})
			deliveries = append(deliveries, d.ID)
		}
		err = pgval.WithConn(ctx, db, func(pc *pgx.Conn) error {
			b := &pgx.Batch{}
			b.Queue("BEGIN")
			if err := store.QueueEventsFanOut(b, events, f); err != nil {
				return err
			}
			b.Queue("COMMIT")
			err := pc.SendBatch(ctx, b).Close()
			if pc.PgConn().TxStatus() != 'I' {
				if _, rbErr := pc.Exec(ctx, "ROLLBACK"); rbErr != nil {
					return rbErr
				}
			}
			return err
		})
		return deliveries, err
	}
	event := func(key *string) store.Event {
		return store.Event{ID: uuid.New(), TenantID: seeded.TenantID, Type: "order.created", Data: `{"n":3}`, IdempotencyKey: key, CreatedAt: at}
	}
	count := func(ids []uuid.UUID) (deliveries, outbox int64) {
		db.Raw(`SELECT count(*) FROM deliveries WHERE id = ANY(?)`, pgval.Array(ids)).Scan(&deliveries)
		db.Raw(`SELECT count(*) FROM outbox WHERE delivery_id = ANY(?)`, pgval.Array(ids)).Scan(&outbox)
		return deliveries, outbox
	}

	ids, err := send(event(&key), event(nil))
	if err != nil {
		t.Fatalf("new events: %v", err)
	}
	if d, o := count(ids); d != 2 || o != 2 {
		t.Fatalf("%d deliveries and %d outbox rows committed, want 2 and 2", d, o)
	}
	fresh := event(nil)
	ids, err = send(fresh, event(&key))
	if err == nil {
		t.Fatal("a taken idempotency key did not fail the statement")
	}
	var events int64
	db.Raw(`SELECT count(*) FROM events WHERE id = ?`, fresh.ID).Scan(&events)
	if d, o := count(ids); d != 0 || o != 0 || events != 0 {
		t.Errorf("after the failure: %d events, %d deliveries, %d outbox rows committed, want none", events, d, o)
	}
}

// TestDeleteOutboxWhenStatisticsSayEmpty deletes half of a burst of
// outbox rows while the table's statistics still say it is empty (as
// after an ANALYZE between bursts) and the plan is generic, as a cached
// statement's becomes. A plan that compares every key with every row
// takes minutes here; the per-key lookup takes milliseconds.
func TestDeleteOutboxWhenStatisticsSayEmpty(t *testing.T) {
	t.Parallel()
	db := deliverytest.DB(t)
	ctx := context.Background()
	for _, q := range []string{
		`INSERT INTO outbox (delivery_id, job, created_at) SELECT gen_random_uuid(), '{}', now() FROM generate_series(1, 600)`,
		`ANALYZE outbox`,
		`DELETE FROM outbox`,
		`ANALYZE outbox`,
		`INSERT INTO outbox (delivery_id, job, created_at) SELECT gen_random_uuid(), '{}', now() FROM generate_series(1, 20000)`,
	} {
		if err := db.Exec(q).Error; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	ids, ats := outboxKeys(t, db, 10000)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec(`SET LOCAL plan_cache_mode = force_generic_plan`).Error; err != nil {
			return err
		}
		return store.DeleteOutbox(ctx, store.Gorm(tx), ids, ats)
	})
	if err != nil {
		t.Fatalf("delete 10,000 of 20,000 outbox rows: %v", err)
	}
	expectOutboxRows(t, db, 10000)
}

// outboxKeys returns the keys of n outbox rows.
func outboxKeys(t *testing.T, db *gorm.DB, n int) ([]uuid.UUID, []time.Time) {
	t.Helper()
	var keys []struct {
		DeliveryID uuid.UUID
		CreatedAt  time.Time
	}
	if err := db.Raw(`SELECT delivery_id, created_at FROM outbox LIMIT ?`, n).Scan(&keys).Error; err != nil {
		t.Fatal(err)
	}
	ids, ats := make([]uuid.UUID, len(keys)), make([]time.Time, len(keys))
	for i, k := range keys {
		ids[i], ats[i] = k.DeliveryID, k.CreatedAt
	}
	return ids, ats
}

// expectOutboxRows checks that the outbox holds want rows.
func expectOutboxRows(t *testing.T, db *gorm.DB, want int64) {
	t.Helper()
	var left int64
	if err := db.Raw(`SELECT count(*) FROM outbox`).Scan(&left).Error; err != nil {
		t.Fatal(err)
	}
	if left != want {
		t.Errorf("%d outbox rows left, want %d", left, want)
	}
}
