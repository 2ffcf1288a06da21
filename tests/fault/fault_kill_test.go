package fault

import (
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/load"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// inFlightWindow is how far before a crash a delivery may have arrived
// without its Kafka offset being committed yet: attempt-log batch, the
// consumer's 100 ms commit tick and the commit round trip, with a wide
// margin for a loaded 2-core machine. Only those can be delivered twice.
const inFlightWindow = 2 * time.Second

// TestFaultKillFerry: kill -9 the only Ferry process mid-load and restart
// it; every accepted event is delivered, and duplicates are bounded by
// what was in flight at the crash: deliveries that had arrived but whose
// success was not yet in the attempt log.
func TestFaultKillFerry(t *testing.T) {
	w := newWorld(t)
	p := startFerry(t, w, "A")
	r := newRig(t, p, 2)
	run := testenv.Name("run")
	var inFlight int
	rep, _ := r.run(t, load.Plan{Run: run, Rate: 100, Duration: 10 * time.Second, Concurrency: 16}, 90*time.Second,
		fault{at: 3 * time.Second, do: func() {
			killed := time.Now()
			p.kill9()
			inFlight = r.unloggedArrivals(t, w, run)
			t.Logf("kill -9 ferry at %s; %d deliveries had arrived without a logged success (the in-flight bound); %d arrived in the %s before",
				killed.Format("15:04:05.000"), inFlight, r.arrivedBetween(run, killed.Add(-inFlightWindow), killed), inFlightWindow)
			time.Sleep(time.Second)
			start := time.Now()
			p.restart()
			t.Logf("ferry restarted and ready in %s", time.Since(start).Round(time.Millisecond))
		}})
	t.Logf("duplicates %d, in-flight bound %d", rep.Duplicates, inFlight)
	if rep.Duplicates > inFlight {
		t.Errorf("%d duplicates exceed the %d deliveries in flight at the crash", rep.Duplicates, inFlight)
	}
	if rep.Failed+rep.Refused == 0 {
		t.Logf("note: no request hit the dead process")
	}
}

// TestFaultTwoReplicasKillOne: two Ferry processes share the consumer
// group; kill -9 one mid-load and the survivor takes over its partitions
// and delivers everything.
func TestFaultTwoReplicasKillOne(t *testing.T) {
	w := newWorld(t)
	a := startFerry(t, w, "A")
	b := startFerry(t, w, "B")
	// Events go to B's API; both consume. 16 endpoints (one per event)
	// spread the endpoint keys over the partitions, so both replicas own
	// some of the work (all 16 landing on B's partitions: 1 in 65,536).
	r := newRoutedRig(t, b, 16)
	run := testenv.Name("run")
	var killed time.Time
	var inFlight int
	rep, _ := r.run(t, load.Plan{Run: run, Rate: 100, Duration: 12 * time.Second, Concurrency: 16}, 90*time.Second,
		fault{at: 2 * time.Second, do: func() {
			// Wait until both replicas deliver, so A owns partitions.
			testenv.Eventually(t, 30*time.Second, func() bool {
				by := map[string]int{}
				for _, x := range r.sink.Ledger(run).Arrivals {
					by[x.UserAgent]++
				}
				return by["Ferry/A"] > 0 && by["Ferry/B"] > 0
			}, "both replicas never delivered (the group did not split the partitions)")
			killed = time.Now()
			a.kill9()
			inFlight = r.arrivedBetween(run, killed.Add(-inFlightWindow), killed)
			t.Logf("kill -9 replica A at %s; %d deliveries arrived in the %s before", killed.Format("15:04:05.000"), inFlight, inFlightWindow)
		}})
	after := 0
	for _, x := range r.sink.Ledger(run).Arrivals {
		if x.At > killed.UnixMilli()+100 {
			after++
			if x.UserAgent != "Ferry/B" {
				t.Errorf("delivery %d arrived from %q after replica A was killed", x.Seq, x.UserAgent)
			}
		}
	}
	t.Logf("%d deliveries arrived after the kill, all from B; duplicates %d, in-flight bound %d", after, rep.Duplicates, inFlight)
	if after == 0 {
		t.Errorf("nothing was delivered after the kill")
	}
	if rep.Duplicates > inFlight {
		t.Errorf("%d duplicates exceed the %d deliveries in flight at the crash", rep.Duplicates, inFlight)
	}
}
