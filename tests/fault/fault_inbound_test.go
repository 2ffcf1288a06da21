package fault

import (
	"context"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/load"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestFaultKillFerryInbound: kill -9 the only Ferry process while a
// provider sends signed requests to a source that forwards them to a raw
// endpoint, and restart it. Every request answered 200 is forwarded:
// its capture had committed, and if its event had not been made yet the
// restarted process's sweeper makes it. Duplicates are bounded by what
// was in flight at the crash, as for the event API.
func TestFaultKillFerryInbound(t *testing.T) {
	w := newWorld(t)
	p := startFerry(t, w, "inbound-kill")
	r := newRig(t, p, 0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	const secret = "fault-github-secret"
	if _, err := r.tenant.CreateEndpoint(ctx, load.EndpointSpec{URL: r.sinkURL + "/hook/raw-0", Format: "raw", TimeoutSeconds: 5}); err != nil {
		t.Fatalf("create raw endpoint: %v", err)
	}
	r.healthy = append(r.healthy, "raw-0")
	ingestURL, err := r.tenant.CreateGitHubSource(ctx, secret, 10000)
	if err != nil {
		t.Fatalf("create source: %v", err)
	}
	run := testenv.Name("run")
	var inFlight int
	rep, _ := r.run(t, load.Plan{Run: run, Rate: 200, Duration: 8 * time.Second, Concurrency: 32,
		Ingest: &load.Ingest{URL: ingestURL, Secret: secret}}, 90*time.Second,
		fault{at: 3 * time.Second, do: func() {
			p.kill9()
			inFlight = r.unloggedArrivals(t, w, run)
			t.Logf("kill -9 ferry; %d forwarded requests had no logged success (the in-flight bound)", inFlight)
			time.Sleep(time.Second)
			p.restart()
		}})
	t.Logf("duplicates %d, in-flight bound %d", rep.Duplicates, inFlight)
	if rep.Duplicates > inFlight {
		t.Errorf("%d duplicates exceed the %d forwards in flight at the crash", rep.Duplicates, inFlight)
	}
}
