package fault

import (
	"context"
	"database/sql"
	"fmt"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/load"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// rig is a tenant on a Ferry process with healthy endpoints on an
// in-process sink.
type rig struct {
	sink    *load.Sink
	sinkURL string
	tenant  *load.Tenant
	healthy []string
	// routed: endpoint i subscribes to event type "fault.<i>" only, and
	// events cycle through the types (one endpoint per event).
	routed bool
}

// newRig creates endpoints that each receive every event.
func newRig(t *testing.T, p *proc, endpoints int) *rig {
	return setupRig(t, p, endpoints, false)
}

// newRoutedRig creates endpoints that each receive every n-th event, so
// many endpoint keys spread over the partitions at a modest delivery rate.
func newRoutedRig(t *testing.T, p *proc, endpoints int) *rig {
	return setupRig(t, p, endpoints, true)
}

func setupRig(t *testing.T, p *proc, endpoints int, routed bool) *rig {
	t.Helper()
	sink := load.NewSink()
	srv := httptest.NewServer(sink)
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tenant, err := load.Setup(ctx, p.URL(), testenv.Name("fault")+"@example.com", 32, p.w.dbURL)
	if err != nil {
		t.Fatalf("set up tenant: %v", err)
	}
	r := &rig{sink: sink, sinkURL: srv.URL, tenant: tenant, routed: routed}
	for i := range endpoints {
		name := fmt.Sprintf("ok-%d", i)
		spec := load.EndpointSpec{URL: srv.URL + "/hook/" + name, TimeoutSeconds: 5}
		if routed {
			spec.EventTypes = []string{fmt.Sprintf("fault.%d", i)}
		}
		if _, err := tenant.CreateEndpoint(ctx, spec); err != nil {
			t.Fatalf("create endpoint: %v", err)
		}
		r.healthy = append(r.healthy, name)
	}
	return r
}

// fault is something done to the system at a moment of the run.
type fault struct {
	at time.Duration
	do func()
}

// run sends events by plan, injecting faults at their times (measured from
// the start of sending), then waits up to settle for every accepted event
// to arrive at every healthy endpoint and closes the ledger.
func (r *rig) run(t *testing.T, plan load.Plan, settle time.Duration, faults ...fault) (load.Report, load.Result) {
	t.Helper()
	if plan.Run == "" {
		plan.Run = testenv.Name("run")
	}
	route := func(int64) []string { return r.healthy }
	if r.routed {
		for i := range r.healthy {
			plan.EventTypes = append(plan.EventTypes, fmt.Sprintf("fault.%d", i))
		}
		route = func(seq int64) []string { return []string{r.healthy[seq%int64(len(r.healthy))]} }
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var res load.Result
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		res = load.Generate(ctx, r.tenant, plan, load.Hooks{})
	}()
	start := time.Now()
	for _, f := range faults {
		if d := time.Until(start.Add(f.at)); d > 0 {
			time.Sleep(d)
		}
		f.do()
	}
	wg.Wait()
	sendEnd := time.Now()
	var rep load.Report
	deadline := sendEnd.Add(settle)
	for {
		rep = load.CloseRouted(t.Name(), res, r.sink.Ledger(plan.Run), route, time.Since(sendEnd))
		if rep.Missing == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	t.Logf("ledger: sent %d = accepted %d + refused %d + transport errors %d; expected deliveries %d = delivered %d + missing %d; duplicates %d; unacked-but-delivered %d; settle %.1fs; latency p50 %.0fms p99 %.0fms max %.0fms; by sender %v",
		rep.Sent, rep.Accepted, rep.Refused, rep.Failed, rep.Expected, rep.Delivered, rep.Missing, rep.Duplicates,
		rep.Unacked, rep.DrainS, rep.Latency.P50, rep.Latency.P99, rep.Latency.Max, rep.ByUserAgent)
	if !rep.Balanced {
		t.Errorf("ledger does not balance: %+v", rep)
	}
	if rep.Accepted == 0 {
		t.Fatalf("no event was accepted")
	}
	if rep.Missing > 0 {
		t.Errorf("%d accepted deliveries never arrived within %s after sending stopped", rep.Missing, settle)
	}
	return rep, res
}

// arrivedBetween counts first arrivals of run at the sink in (from, to].
func (r *rig) arrivedBetween(run string, from, to time.Time) int {
	n := 0
	for _, a := range r.sink.Ledger(run).Arrivals {
		if a.At > from.UnixMilli() && a.At <= to.UnixMilli() {
			n++
		}
	}
	return n
}

// unloggedArrivals is, while no Ferry process of w runs, how many of run's
// deliveries reached the sink without a success in the attempt log: the
// only ones a restarted Ferry may send again (a logged success is never
// repeated). It first waits for requests already on the wire to land.
func (r *rig) unloggedArrivals(t *testing.T, w world, run string) int {
	t.Helper()
	count := func() int { return len(r.sink.Ledger(run).Arrivals) }
	last, stableSince := count(), time.Now()
	for time.Since(stableSince) < 300*time.Millisecond {
		time.Sleep(20 * time.Millisecond)
		if n := count(); n != last {
			last, stableSince = n, time.Now()
		}
	}
	db, err := sql.Open("pgx", w.dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var logged int
	if err := db.QueryRowContext(ctx, `SELECT count(DISTINCT delivery_id) FROM attempts WHERE outcome = 'success'`).Scan(&logged); err != nil {
		t.Fatalf("count logged successes: %v", err)
	}
	return max(last-logged, 0)
}
