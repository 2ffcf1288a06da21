package fault

import (
	"net/http"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/load"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestFaultRestartKafka: kill -9 the (private) broker mid-load and start it
// again; the API keeps accepting (the outbox holds the jobs), and every
// accepted event is delivered once Kafka is back.
func TestFaultRestartKafka(t *testing.T) {
	w := newWorld(t)
	p := startFerry(t, w, "A")
	r := newRig(t, p, 2)
	run := testenv.Name("run")
	var inFlight int
	rep, _ := r.run(t, load.Plan{Run: run, Rate: 100, Duration: 10 * time.Second, Concurrency: 16}, 100*time.Second,
		fault{at: 3 * time.Second, do: func() {
			killed := time.Now()
			killKafka(t)
			inFlight = r.arrivedBetween(run, killed.Add(-inFlightWindow), killed)
			t.Logf("kill -9 kafka at %s; %d deliveries arrived in the %s before", killed.Format("15:04:05.000"), inFlight, inFlightWindow)
			time.Sleep(time.Second)
			mustServices(t, "kafka-start")
		}})
	t.Logf("duplicates %d, in-flight bound %d", rep.Duplicates, inFlight)
	if rep.Duplicates > inFlight {
		t.Errorf("%d duplicates exceed the %d deliveries in flight when Kafka died", rep.Duplicates, inFlight)
	}
}

// TestFaultStopPostgres: stop the (private) PostgreSQL mid-load; while it
// is down the API answers 503 and never 202; after it is back, every
// accepted event is delivered.
func TestFaultStopPostgres(t *testing.T) {
	w := newWorld(t)
	p := startFerry(t, w, "A")
	r := newRig(t, p, 2)
	run := testenv.Name("run")
	var down, up time.Time
	_, res := r.run(t, load.Plan{Run: run, Rate: 50, Duration: 12 * time.Second, Concurrency: 16}, 90*time.Second,
		fault{at: 3 * time.Second, do: func() {
			mustServices(t, "pg-stop")
			down = time.Now()
		}},
		fault{at: 8 * time.Second, do: func() {
			up = time.Now()
			mustServices(t, "pg-start")
		}})
	// Judge only requests sent after the stop finished and answered before
	// the start began: the database was certainly down for all of them.
	t.Logf("postgres down from %s to %s", down.Format("15:04:05.000"), up.Format("15:04:05.000"))
	judged, unavailable := 0, 0
	for _, s := range res.Sent {
		if s.Sched.Before(down) || s.Done.After(up) {
			continue
		}
		judged++
		switch s.Status {
		case http.StatusAccepted:
			t.Errorf("event %d got 202 while PostgreSQL was down", s.Seq)
		case http.StatusServiceUnavailable:
			unavailable++
		default:
			t.Errorf("event %d got %d (%s) while PostgreSQL was down, want 503", s.Seq, s.Status, s.Err)
		}
	}
	t.Logf("%d requests while PostgreSQL was down: %d answered 503", judged, unavailable)
	if judged == 0 {
		t.Errorf("no request was judged while PostgreSQL was down")
	}
}
