package dispatch

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/ferry-dev/ferry/delivery/internal/deliverytest"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// TestStateLoaderBatches: concurrent loads get each their own delivery's
// state (or not found), from far fewer queries than loads, whether each
// read is replanned on the shared pool or planned once on a pool of
// its own (pgval.OpenLookups).
func TestStateLoaderBatches(t *testing.T) {
	t.Parallel()
	for _, plannedOnce := range []bool{false, true} {
		t.Run(map[bool]string{false: "replanned", true: "planned once"}[plannedOnce], func(t *testing.T) {
			t.Parallel()
			testStateLoaderBatches(t, plannedOnce)
		})
	}
}

func testStateLoaderBatches(t *testing.T, plannedOnce bool) {
	db, url := deliverytest.DBAndURL(t)
	created := time.Now().UTC().Truncate(time.Millisecond)
	const n = 200
	seeds := make([]deliverytest.Seeded, n)
	for i := range seeds {
		seeds[i] = deliverytest.Seed(t, db, created)
	}
	finished := seeds[0].DeliveryID
	if err := db.Exec(`UPDATE deliveries SET status = 'succeeded', attempt_count = 3 WHERE id = ?`, finished).Error; err != nil {
		t.Fatal(err)
	}
	reads := db
	if plannedOnce {
		var err error
		if reads, err = pgval.OpenLookups(context.Background(), url, StateConns); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if sqlDB, err := reads.DB(); err == nil {
				sqlDB.Close()
			}
		})
	}
	var queries atomic.Int64
	l := newStateLoader(reads, plannedOnce, prometheus.ObserverFunc(func(float64) { queries.Add(1) }))

	type result struct {
		id    uuid.UUID
		st    deliveryState
		found bool
		err   error
	}
	results := make(chan result, 2*n)
	var wg sync.WaitGroup
	ask := func(id uuid.UUID) {
		defer wg.Done()
		st, found, err := l.prefetch(context.Background(), id, time.Time{}).wait(context.Background())
		results <- result{id, st, found, err}
	}
	missing := map[uuid.UUID]bool{}
	for i := 0; i < n; i++ {
		wg.Add(2)
		go ask(seeds[i].DeliveryID)
		unknown := uuid.New()
		missing[unknown] = true
		go ask(unknown)
	}
	wg.Wait()
	close(results)

	for r := range results {
		switch {
		case r.err != nil:
			t.Fatalf("load %s: %v", r.id, r.err)
		case missing[r.id]:
			if r.found {
				t.Errorf("unknown delivery %s found: %+v", r.id, r.st)
			}
		case !r.found:
			t.Errorf("delivery %s not found", r.id)
		case r.id == finished:
			if r.st.Status != model.StatusSucceeded || r.st.AttemptCount != 3 {
				t.Errorf("finished delivery read as %+v", r.st)
			}
		default:
			if r.st.Status != model.StatusPending || r.st.Type != "seed.created" || string(r.st.Data) != `{"n":1}` ||
				!r.st.CreatedAt.Equal(created) || r.st.FirstAttemptAt != nil {
				t.Errorf("delivery %s read as %+v", r.id, r.st)
			}
		}
	}
	if q := queries.Load(); q > n/2 {
		t.Errorf("%d loads took %d queries; want them batched", 2*n, q)
	}
	t.Logf("%d loads in %d queries", 2*n, queries.Load())
}
