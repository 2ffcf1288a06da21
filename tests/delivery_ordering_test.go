package tests

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestOrderedEndpointReceivesInAcceptanceOrder sends 100 events one after
// another to a max_in_flight: 1 endpoint and checks they arrive strictly
// in acceptance order, one at a time.
func TestOrderedEndpointReceivesInAcceptanceOrder(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	rc := newHookServer(t, func(n int, h hit, w http.ResponseWriter) {
		time.Sleep(2 * time.Millisecond) // give a second concurrent request a chance to show
		w.WriteHeader(200)
	})
	_, api := signUp(t, f, "order@example.com")
	createEndpoint(t, api, map[string]any{"url": rc.URL, "max_in_flight": 1})
	var sent []string
	for i := 0; i < 100; i++ {
		sent = append(sent, sendEvent(t, api, "seq", map[string]any{"i": i}).ID)
	}
	testenv.Eventually(t, 60*time.Second, func() bool { return rc.count() >= 100 }, "received %d of 100", rc.count())
	hits := rc.all()
	if len(hits) != 100 {
		t.Fatalf("received %d requests, want 100 (no failures, so no duplicates)", len(hits))
	}
	for i, h := range hits {
		if h.EventID != sent[i] {
			t.Fatalf("request %d carried event %s, want %s (acceptance order broken)", i, h.EventID, sent[i])
		}
	}
	if m := rc.maxInFlight(); m != 1 {
		t.Errorf("%d requests were in flight at once, want 1", m)
	}
}

// TestEndpointConcurrencyBounded checks max_in_flight: 3 is never exceeded.
func TestEndpointConcurrencyBounded(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	rc := newHookServer(t, func(n int, h hit, w http.ResponseWriter) {
		time.Sleep(50 * time.Millisecond)
		w.WriteHeader(200)
	})
	_, api := signUp(t, f, "conc@example.com")
	createEndpoint(t, api, map[string]any{"url": rc.URL, "max_in_flight": 3})
	for i := 0; i < 30; i++ {
		sendEvent(t, api, "c", map[string]any{"i": i})
	}
	testenv.Eventually(t, 60*time.Second, func() bool { return rc.count() >= 30 }, "received %d of 30", rc.count())
	if m := rc.maxInFlight(); m != 3 {
		t.Errorf("max in flight %d, want exactly 3", m)
	}
}

// TestEndpointRateLimit checks rate_limit_per_second: 5 spreads 20
// deliveries over at least (20-5)/5 = 3 s (a burst of 5 is allowed).
func TestEndpointRateLimit(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	rc := newHookServer(t, nil)
	_, api := signUp(t, f, "rate@example.com")
	createEndpoint(t, api, map[string]any{"url": rc.URL, "rate_limit_per_second": 5})
	for i := 0; i < 20; i++ {
		sendEvent(t, api, "r", map[string]any{"i": i})
	}
	testenv.Eventually(t, 60*time.Second, func() bool { return rc.count() >= 20 }, "received %d of 20", rc.count())
	hits := rc.all()
	if span := hits[19].At.Sub(hits[0].At); span < 2700*time.Millisecond {
		t.Errorf("20 deliveries at 5/s took %s, want ≥ 2.7s", span)
	}
	for i := 10; i < len(hits); i++ {
		if w := hits[i].At.Sub(hits[i-10].At); w < 900*time.Millisecond {
			t.Errorf("11 deliveries within %s (requests %d-%d); at most burst 5 + 5/s", w, i-10, i)
		}
	}
}

// TestEndpointTimeout checks the per-endpoint timeout: a receiver that
// answers after 3 s against timeout_seconds: 1 is a timeout retry logged
// after about a second.
func TestEndpointTimeout(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	var rc *hookServer
	rc = newHookServer(t, func(n int, h hit, w http.ResponseWriter) {
		if n == 1 {
			select {
			case <-time.After(3 * time.Second):
			case <-rc.stop:
			}
		}
		w.WriteHeader(200)
	})
	_, api := signUp(t, f, "timeout@example.com")
	createEndpoint(t, api, map[string]any{"url": rc.URL, "timeout_seconds": 1})
	ev := sendEvent(t, api, "t", map[string]any{})
	waitStatus(t, api, ev.ID, "succeeded", 30*time.Second)
	a := eventAttempts(t, api, ev.ID)
	if len(a) != 2 {
		t.Fatalf("%d attempts, want 2", len(a))
	}
	if a[0].Outcome != "retry" || a[0].ErrorClass != "timeout" || a[0].DurationMs < 900 || a[0].DurationMs > 2000 || a[0].ResponseStatus != nil {
		t.Errorf("first attempt %+v, want a ~1s timeout", a[0])
	}
}

// TestSlowEndpointDoesNotDelayOthers puts a hanging endpoint (timeout 1 s,
// max_in_flight 1, a growing backlog of retries) and a healthy endpoint on
// the same single partition. Bound asserted: every healthy delivery
// arrives within 2 s of its 202, while the hanging endpoint's own backlog
// needs 30 s or more.
func TestSlowEndpointDoesNotDelayOthers(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.KafkaPartitions = 1
	f := startFerry(t, cfg)
	var rc *hookServer
	rc = newHookServer(t, func(n int, h hit, w http.ResponseWriter) {
		if h.Header.Get("X-Kind") == "slow" {
			select {
			case <-time.After(5 * time.Second):
			case <-rc.stop:
			}
		}
		w.WriteHeader(200)
	})
	_, api := signUp(t, f, "iso@example.com")
	createEndpoint(t, api, map[string]any{"url": rc.URL, "event_types": []string{"slow"}, "timeout_seconds": 1,
		"max_in_flight": 1, "headers": map[string]string{"X-Kind": "slow"}})
	createEndpoint(t, api, map[string]any{"url": rc.URL, "event_types": []string{"fast"}, "headers": map[string]string{"X-Kind": "fast"}})

	var mu sync.Mutex
	acceptedAt := map[string]time.Time{}
	for i := 0; i < 30; i++ {
		sendEvent(t, api, "slow", map[string]any{"i": i})
		before := time.Now() // the 202 comes later: a conservative start
		ev := sendEvent(t, api, "fast", map[string]any{"i": i})
		mu.Lock()
		acceptedAt[ev.ID] = before
		mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	testenv.Eventually(t, 30*time.Second, func() bool {
		n := 0
		for _, h := range rc.all() {
			if h.Header.Get("X-Kind") == "fast" {
				n++
			}
		}
		return n >= 30
	}, "fast deliveries missing")
	for _, h := range rc.all() {
		if h.Header.Get("X-Kind") != "fast" {
			continue
		}
		mu.Lock()
		at := acceptedAt[h.EventID]
		mu.Unlock()
		if lat := h.At.Sub(at); lat > 2*time.Second {
			t.Errorf("healthy delivery of %s arrived %s after its 202, want ≤ 2s", h.EventID, lat)
		}
	}
}
