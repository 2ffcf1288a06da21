package tests

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// noisyCase is one shape of the noisy-neighbour test.
type noisyCase struct {
	// Noisy tenant: endpoints (max_in_flight 1, timeout_seconds 30, all
	// at a tarpit) and events, each delivered to every endpoint.
	endpoints, events int
	// Victim tenant: events sent one every gap to one healthy endpoint.
	victimEvents int
	gap          time.Duration
	// maxP99 is the victim's allowed p99, from each event's scheduled
	// send time to its arrival.
	maxP99 time.Duration
	// drain bounds how long every delivery of both tenants may take to
	// succeed once the tarpit answers.
	drain time.Duration
}

// TestNoisyNeighbourDoesNotDelayVictim is the reference case of fair
// dispatch. Tenant N (Pro, with an operator's override of its events/s
// limit so it can send fast) has 50 endpoints with max_in_flight 1 and a
// 30 s timeout, all at a receiver that accepts and never answers, and
// sends 1,100 events: 55,000 deliveries held in Ferry. Tenant V then
// sends 20 events, one every 150 ms, to a healthy endpoint; V's p99 from
// each scheduled send to its arrival must be ≤ 1 s. Then the tarpit
// answers 200 to everything and every delivery of both tenants must
// succeed (nothing lost, nothing exhausted) within the drain budget.
//
// Before fair admission this fails on the victim's latency: the noisy
// tenant's jobs fill the worker's shared pool of queued jobs and the
// Kafka fetch loop blocks, so V's jobs are not even fetched until the
// tarpit lets go.
func TestNoisyNeighbourDoesNotDelayVictim(t *testing.T) {
	runNoisyNeighbour(t, noisyCase{endpoints: 50, events: 1100, victimEvents: 20, gap: 150 * time.Millisecond,
		maxP99: time.Second, drain: 150 * time.Second})
}

func runNoisyNeighbour(t *testing.T, nc noisyCase) {
	testStart := time.Now()
	f := startFerry(t, testConfig(t))
	db := testenv.DB(t, f.Cfg.DatabaseURL)

	// The noisy tenant: Pro, with custom terms (as an operator sets them
	// in plan_overrides) so the events/s limit does not pace the test.
	nSession, nAPI := signUpLimited(t, f, "noisy@example.com")
	nSession.must(200, "PUT", "/billing/plan", map[string]string{"plan": "pro"}, nil)
	nTenant := tenantID(t, nSession)
	setOverride(t, f, nTenant, "pro", 1_000_000_000, 1_000_000)
	tp := newTarpit(t)
	for i := 0; i < nc.endpoints; i++ {
		createEndpoint(t, nAPI, map[string]any{"url": fmt.Sprintf("%s/n/%d", tp.URL, i), "max_in_flight": 1, "timeout_seconds": 30})
	}

	vSession, vAPI := signUp(t, f, "victim@example.com")
	vTenant := tenantID(t, vSession)
	victim := newHookServer(t, nil)
	createEndpoint(t, vAPI, map[string]any{"url": victim.URL})

	// N floods.
	start := time.Now()
	nPoster := newEventPoster(f, nAPI, 16)
	nPoster.postMany(t, nc.events, 16, "noisy.flood")
	t.Logf("noisy tenant: %d events (%d deliveries) accepted in %s", nc.events, nc.events*nc.endpoints, time.Since(start).Round(time.Millisecond))
	// Let the relay hand every noisy job to Kafka, so the victim's jobs
	// queue behind them in the topic (what the test is about), not in the
	// outbox.
	testenv.Eventually(t, 60*time.Second, func() bool {
		var n int
		return db.QueryRow(`SELECT count(*) FROM outbox`).Scan(&n) == nil && n == 0
	}, "the outbox still holds jobs of the noisy tenant")
	held, _, received, _ := tp.stats()
	t.Logf("noisy jobs all in Kafka after %s; tarpit holds %d requests (%d received)", time.Since(start).Round(time.Millisecond), held, received)

	// V sends one event every gap; latency counts from the scheduled
	// send time, so a slow POST is not hidden.
	vPoster := newEventPoster(f, vAPI, 4)
	vStart := time.Now().Add(50 * time.Millisecond)
	sched := map[string]time.Time{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < nc.victimEvents; i++ {
		at := vStart.Add(time.Duration(i) * nc.gap)
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Until(at))
			id, err := vPoster.post(context.Background(), "victim.ping", map[string]any{"i": i})
			if err != nil {
				t.Errorf("victim event %d: %v", i, err)
				return
			}
			mu.Lock()
			sched[id] = at
			mu.Unlock()
		}()
	}
	wg.Wait()
	lastSched := vStart.Add(time.Duration(nc.victimEvents-1) * nc.gap)
	// Wait for every victim delivery, or long enough past the allowed
	// p99 to show by how much it was missed.
	waitUntil := lastSched.Add(nc.maxP99 + 4*time.Second)
	for time.Now().Before(waitUntil) && victim.count() < nc.victimEvents {
		time.Sleep(20 * time.Millisecond)
	}
	first := map[string]time.Time{}
	for _, h := range victim.all() {
		if _, seen := first[h.EventID]; !seen {
			first[h.EventID] = h.At
		}
	}
	var lat []time.Duration
	missing := 0
	for id, at := range sched {
		if got, ok := first[id]; ok {
			lat = append(lat, got.Sub(at))
		} else {
			missing++
			lat = append(lat, time.Since(at)) // a lower bound on its latency
		}
	}
	held, maxHeld, received, _ := tp.stats()
	t.Logf("victim: %d of %d arrived within %s of the last send; p50 %s p99 %s; latencies %s",
		nc.victimEvents-missing, nc.victimEvents, waitUntil.Sub(lastSched).Round(time.Millisecond),
		percentile(lat, 0.5).Round(time.Millisecond), percentile(lat, 0.99).Round(time.Millisecond), formatDurations(lat))
	t.Logf("tarpit meanwhile: %d held now, at most %d at once, %d received; Ferry's gauges: %s", held, maxHeld, received,
		scrapeMetrics(t, f, "ferry_delivery_queued", "ferry_delivery_in_flight", "ferry_delivery_jobs_parked_total"))
	if p99 := percentile(lat, 0.99); missing > 0 || p99 > nc.maxP99 {
		t.Errorf("victim p99 %s (%d of %d not arrived), want ≤ %s while the noisy tenant's %d hanging endpoints hold %d deliveries",
			p99.Round(time.Millisecond), missing, nc.victimEvents, nc.maxP99, nc.endpoints, nc.events*nc.endpoints)
	}

	// Release: every delivery of both tenants must now succeed.
	released := time.Now()
	tp.release()
	want := nc.events * nc.endpoints
	var nStatus, vStatus map[string]int
	nextLog := released.Add(10 * time.Second)
	for {
		nStatus, vStatus = deliveryStatuses(t, db, nTenant), deliveryStatuses(t, db, vTenant)
		done := nStatus["succeeded"] == want && vStatus["succeeded"] == nc.victimEvents
		if done || lost(nStatus) > 0 || lost(vStatus) > 0 || time.Since(released) > nc.drain {
			break
		}
		if time.Now().After(nextLog) {
			_, _, _, answered := tp.stats()
			t.Logf("draining: %s after release, noisy deliveries %v, tarpit answered %d", time.Since(released).Round(time.Second), nStatus, answered)
			nextLog = nextLog.Add(10 * time.Second)
		}
		time.Sleep(500 * time.Millisecond)
	}
	_, _, _, answered := tp.stats()
	t.Logf("after release: %s, noisy deliveries %v, victim deliveries %v, tarpit answered %d distinct deliveries; whole test %s",
		time.Since(released).Round(time.Millisecond), nStatus, vStatus, answered, time.Since(testStart).Round(time.Second))
	if lost(nStatus) > 0 || lost(vStatus) > 0 {
		t.Fatalf("deliveries lost (finished without success): noisy %v, victim %v", nStatus, vStatus)
	}
	if nStatus["succeeded"] != want || vStatus["succeeded"] != nc.victimEvents {
		t.Fatalf("within %s of the release: noisy %d of %d succeeded (%v), victim %d of %d (%v)",
			nc.drain, nStatus["succeeded"], want, nStatus, vStatus["succeeded"], nc.victimEvents, vStatus)
	}
	if answered != want {
		t.Errorf("the tarpit answered %d distinct deliveries, want %d", answered, want)
	}
}
