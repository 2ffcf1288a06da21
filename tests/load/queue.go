package load

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// QueueScenario measures pull queues (g-queue): pull+ack throughput of
// Consumers consumers per queue draining a backlog in batches of Batch,
// then end-to-end latency from an event's 202 to its pull while the
// consumers long-poll and events arrive at Rate per second.
type QueueScenario struct {
	Name      string `json:"name"`
	Queues    int    `json:"queues"`
	Consumers int    `json:"consumers_per_queue"`
	Batch     int    `json:"batch"`
	// Backlog is the events sent before the consumers start (spread over
	// the queues), for the throughput phase.
	Backlog int `json:"backlog"`
	// Rate and Duration drive the latency phase.
	Rate     float64       `json:"rate"`
	Duration time.Duration `json:"duration"`
}

type queuePulled struct {
	Data []struct {
		Receipt string `json:"receipt"`
		Event   struct {
			ID string `json:"id"`
		} `json:"event"`
	} `json:"data"`
}

// RunQueue runs sc and returns two outcomes: "<name>/drain" (Report.
// DeliveredPerS is messages pulled and acked per second) and
// "<name>/latency" (Report.Latency from 202 to pull).
func (b *Bench) RunQueue(ctx context.Context, sc QueueScenario) []Outcome {
	drain := Outcome{Scenario: Scenario{Name: sc.Name + "/drain", OK: sc.Queues, Plan: Plan{Events: int64(sc.Backlog)}}}
	lat := Outcome{Scenario: Scenario{Name: sc.Name + "/latency", OK: sc.Queues, Plan: Plan{Rate: sc.Rate, Duration: sc.Duration}}}
	fail := func(err error) []Outcome {
		drain.Error, lat.Error = err.Error(), err.Error()
		return []Outcome{drain, lat}
	}
	t, err := Setup(ctx, b.FerryURL, fmt.Sprintf("bench-queue-%d@example.com", time.Now().UnixNano()), 64, b.FerryDB)
	if err != nil {
		return fail(err)
	}
	queues := make([]string, sc.Queues)
	for i := range queues {
		var out struct {
			ID string `json:"id"`
		}
		body := map[string]any{"kind": "queue", "event_types": []string{fmt.Sprintf("%s.%d", sc.Name, i)}}
		if _, err := t.call(ctx, t.http, http.MethodPost, "/api/v1/endpoints", body, http.StatusCreated, &out); err != nil {
			return fail(err)
		}
		queues[i] = out.ID
	}
	// send posts event n to queue n % Queues and returns its id.
	send := func(n int) (string, error) {
		var ev struct {
			ID string `json:"id"`
		}
		body := map[string]any{"type": fmt.Sprintf("%s.%d", sc.Name, n%sc.Queues), "data": map[string]int{"n": n}}
		_, err := t.call(ctx, t.http, http.MethodPost, "/api/v1/events", body, http.StatusAccepted, &ev)
		return ev.ID, err
	}
	// consume pulls and acks from q until stop says so; seen gets each id.
	// Acks go out in the background (at most two at a time), so the
	// consumer pulls again at once, as a consumer that hands messages to
	// workers would.
	consume := func(q string, wait int, stop func(got int) bool, seen func(id string)) error {
		var acks sync.WaitGroup
		slots := make(chan struct{}, 2)
		var ackErr atomic.Value
		defer acks.Wait()
		for {
			if err, _ := ackErr.Load().(error); err != nil {
				return err
			}
			var p queuePulled
			in := map[string]any{"max": sc.Batch, "wait_seconds": wait, "visibility_seconds": 60}
			if _, err := t.call(ctx, t.http, http.MethodPost, "/api/v1/queues/"+q+"/pull", in, http.StatusOK, &p); err != nil {
				return err
			}
			receipts := make([]string, len(p.Data))
			for i, m := range p.Data {
				receipts[i] = m.Receipt
				seen(m.Event.ID)
			}
			if len(receipts) > 0 {
				slots <- struct{}{}
				acks.Add(1)
				go func() {
					defer func() { <-slots; acks.Done() }()
					if _, err := t.call(ctx, t.http, http.MethodPost, "/api/v1/queues/"+q+"/ack", map[string]any{"receipts": receipts}, http.StatusOK, nil); err != nil {
						ackErr.Store(err)
					}
				}()
			}
			if stop(len(p.Data)) {
				return nil
			}
		}
	}
	// run measures a phase; stages adds Ferry's per-stage breakdown
	// (meaningful for the latency phase only: the drain's messages waited
	// in a backlog on purpose).
	run := func(phase *Outcome, stages bool, f func() error) {
		m := b.startMeasuring(ctx, stages)
		if err := f(); err != nil {
			phase.Error = err.Error()
		}
		phase.Ferry = m.stop()
		if stages {
			phase.Stages = b.stages(ctx, m)
		}
		phase.Statements = b.statements(ctx)
	}

	// Phase 1: a backlog, then Consumers per queue drain it.
	var sent atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for w := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := w; n < sc.Backlog; n += 32 {
				if _, err := send(n); err != nil {
					errs <- err
					return
				}
				sent.Add(1)
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return fail(err)
	}
	drain.Report.Accepted = int(sent.Load())
	// The bench's database was created a minute ago: PostgreSQL has not
	// yet looked at the backlog (autovacuum analyzes at most once a
	// minute), so the first leases would be planned for empty tables.
	// A queue in service meets tables with statistics; measure that.
	if err := analyze(ctx, b.FerryDB, "deliveries", "events"); err != nil {
		return fail(err)
	}
	var pulled atomic.Int64
	var dupMu sync.Mutex
	seenIDs := make(map[string]bool, sc.Backlog)
	start := time.Now()
	run(&drain, false, func() error {
		var cg sync.WaitGroup
		cerr := make(chan error, sc.Queues*sc.Consumers)
		for _, q := range queues {
			for range sc.Consumers {
				cg.Add(1)
				go func() {
					defer cg.Done()
					cerr <- consume(q, 0, func(got int) bool { return got == 0 }, func(id string) {
						dupMu.Lock()
						if seenIDs[id] {
							drain.Report.Duplicates++
						}
						seenIDs[id] = true
						dupMu.Unlock()
						pulled.Add(1)
					})
				}()
			}
		}
		cg.Wait()
		close(cerr)
		for err := range cerr {
			if err != nil {
				return err
			}
		}
		return nil
	})
	elapsed := time.Since(start).Seconds()
	drain.Report.Delivered = len(seenIDs)
	drain.Report.Expected = drain.Report.Accepted
	drain.Report.Missing = drain.Report.Accepted - len(seenIDs)
	drain.Report.DurationS = elapsed
	drain.Report.DeliveredPerS = float64(pulled.Load()) / elapsed
	drain.Report.Balanced = drain.Report.Missing == 0
	drain.Note = fmt.Sprintf("%d queue(s) × %d consumers, batches of %d: %.0f messages/s pulled and acked", sc.Queues, sc.Consumers, sc.Batch, drain.Report.DeliveredPerS)
	b.logf("  %s", drain.Note)

	// Phase 2: consumers long-poll while events arrive at Rate.
	var mu sync.Mutex
	acceptedAt := map[string]time.Time{}
	pulledAt := map[string]time.Time{}
	run(&lat, true, func() error {
		lctx, stopConsumers := context.WithCancel(ctx)
		defer stopConsumers()
		var cg sync.WaitGroup
		for _, q := range queues {
			for range sc.Consumers {
				cg.Add(1)
				go func() {
					defer cg.Done()
					_ = consume(q, 5, func(int) bool { return lctx.Err() != nil }, func(id string) {
						mu.Lock()
						if _, ok := pulledAt[id]; !ok {
							pulledAt[id] = time.Now()
						}
						mu.Unlock()
					})
				}()
			}
		}
		gap := time.Duration(float64(time.Second) / sc.Rate)
		begin := time.Now()
		end := begin.Add(sc.Duration)
		var sg sync.WaitGroup
		// Event n is due at begin + n·gap: paced by the clock, not by
		// sleeps that add up, so the rate holds.
		for n := 0; time.Now().Before(end) && ctx.Err() == nil; n++ {
			sg.Add(1)
			go func() {
				defer sg.Done()
				id, err := send(n)
				at := time.Now()
				if err == nil {
					mu.Lock()
					acceptedAt[id] = at
					mu.Unlock()
				}
			}()
			time.Sleep(time.Until(begin.Add(time.Duration(n+1) * gap)))
		}
		sg.Wait()
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			mu.Lock()
			done := len(pulledAt) >= len(acceptedAt)
			mu.Unlock()
			if done {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		stopConsumers()
		cg.Wait()
		return nil
	})
	var us []int64
	for id, at := range acceptedAt {
		if p, ok := pulledAt[id]; ok {
			// A pull may return before the sender has read its 202.
			us = append(us, max(0, p.Sub(at).Microseconds()))
		}
	}
	lat.Report.Accepted = len(acceptedAt)
	lat.Report.Expected = len(acceptedAt)
	lat.Report.Delivered = len(us)
	lat.Report.Missing = len(acceptedAt) - len(us)
	lat.Report.Balanced = lat.Report.Missing == 0
	lat.Report.AcceptedPerS = float64(len(acceptedAt)) / sc.Duration.Seconds()
	lat.Report.Latency = Summarise(us)
	lat.Note = fmt.Sprintf("202 → pull with long-polling consumers, %.0f events/s over %d queue(s)", sc.Rate, sc.Queues)
	return []Outcome{drain, lat}
}

// analyze updates PostgreSQL's statistics of tables in Ferry's database.
func analyze(ctx context.Context, dbURL string, tables ...string) error {
	db, err := sql.Open("pgx", dbURL)
	if err != nil {
		return fmt.Errorf("open %s: %w", dbURL, err)
	}
	defer db.Close()
	for _, table := range tables {
		if _, err := db.ExecContext(ctx, "ANALYZE "+table); err != nil {
			return fmt.Errorf("analyze %s: %w", table, err)
		}
	}
	return nil
}
