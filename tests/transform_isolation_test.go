package tests

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// builtinLoop loops inside a native builtin, where goja never looks at
// its interrupt flag: in the ingest process it ran for tens of seconds,
// past every limit, while the batch that held it waited.
const builtinLoop = `function handler(w) { Array.prototype.join.call({length: 2e8}, ''); return w }`

// bystanderBound is how long a bystander's POST /events may take while a
// hostile tenant's transformations hang: far above its usual tens of
// milliseconds, for a 2-CPU machine the hostile workers keep busy, and
// far below the minute it hung before.
const bystanderBound = 1500 * time.Millisecond

// TestHostileTransformationStallsNobody: a hostile tenant's endpoint
// loops inside a builtin; several of its events are queued at once. A
// bystander tenant meanwhile sends 20 events to a plain endpoint and one
// with a transformation of its own: each POST /events answers within
// bystanderBound and every event is delivered within seconds. The
// hostile events are accepted too, each once its transformation is
// stopped, and their deliveries end as transformation_error.
func TestHostileTransformationStallsNobody(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, hostile := signUp(t, f, "hostile@isolation.example")
	_, bystander := signUp(t, f, "bystander@isolation.example")
	sink := newHookServer(t, nil)
	createEndpoint(t, hostile, map[string]any{"url": sink.URL, "event_types": []string{"hostile.*"}, "transformation": builtinLoop})
	plain := newHookServer(t, nil)
	shaped := newHookServer(t, nil)
	createEndpoint(t, bystander, map[string]any{"url": plain.URL, "event_types": []string{"order.*"}})
	createEndpoint(t, bystander, map[string]any{"url": shaped.URL, "event_types": []string{"order.*"},
		"transformation": `function handler(w) { w.payload = {order: w.event.data.i}; return w }`})

	const hostileEvents = 6
	hostilePoster := newEventPoster(f, hostile, hostileEvents)
	hostileIDs := make(chan string, hostileEvents)
	hostileErrs := make(chan error, hostileEvents)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range hostileEvents {
		wg.Go(func() {
			id, err := hostilePoster.post(context.Background(), "hostile.loop", map[string]any{"i": i})
			if err != nil {
				hostileErrs <- err
				return
			}
			hostileIDs <- id
		})
	}
	// Let the hostile events reach their transformations.
	time.Sleep(300 * time.Millisecond)

	bystanderPoster := newEventPoster(f, bystander, 4)
	var ids []string
	var slowest time.Duration
	for i := range 20 {
		t0 := time.Now()
		id, err := bystanderPoster.post(context.Background(), "order.paid", map[string]any{"i": i})
		took := time.Since(t0)
		if err != nil {
			t.Fatalf("bystander event %d: %v", i, err)
		}
		if took > bystanderBound {
			t.Errorf("bystander event %d took %s to be accepted (bound %s)", i, took, bystanderBound)
		}
		slowest = max(slowest, took)
		ids = append(ids, id)
	}
	t.Logf("bystander: 20 events accepted, slowest %s", slowest)
	testenv.Eventually(t, 10*time.Second, func() bool { return plain.count() == 20 && shaped.count() == 20 },
		"bystander deliveries: %d plain, %d transformed of 20", plain.count(), shaped.count())
	for _, h := range shaped.all() {
		if !strings.HasPrefix(string(h.Body), `{"order":`) {
			t.Errorf("bystander's transformed delivery: %s", h.Body)
		}
	}

	wg.Wait()
	close(hostileIDs)
	close(hostileErrs)
	for err := range hostileErrs {
		t.Errorf("hostile event refused: %v", err)
	}
	t.Logf("hostile: %d events accepted after %s", hostileEvents, time.Since(start))
	for id := range hostileIDs {
		var drop deliveryOut
		testenv.Eventually(t, 30*time.Second, func() bool {
			for _, d := range eventDeliveries(t, hostile, id) {
				if d.Status == "dropped" {
					drop = d
					return true
				}
			}
			return false
		}, "hostile event %s: no dropped delivery", id)
		atts := eventAttempts(t, hostile, id)
		if len(atts) != 1 || atts[0].ErrorClass != "transformation_error" || !strings.Contains(atts[0].ErrorMessage, "ran longer than") {
			t.Errorf("hostile event %s: delivery %+v, attempts %+v; want one transformation_error", id, drop, atts)
		}
	}
	if sink.count() != 0 {
		t.Errorf("the hostile endpoint got %d requests, want none", sink.count())
	}
}

// routingTestResult is the body of POST /endpoints/{id}/test-routing.
type routingTestResult struct {
	Matched   bool              `json:"matched"`
	Payload   json.RawMessage   `json:"payload"`
	Headers   map[string]string `json:"headers"`
	Cancelled bool              `json:"cancelled"`
	Error     string            `json:"error"`
}

// TestTestRoutingFloodStallsNobody: a viewer of the hostile tenant
// floods test-routing with the builtin loop, saved and unsaved, from
// many connections. Beyond the tenant's rate the answers are 429 in
// Ferry's error shape with Retry-After; those let through end within
// the sandbox's deadline with the timeout as their error. Meanwhile a
// bystander's events, to an endpoint with a transformation, are accepted
// within bystanderBound.
func TestTestRoutingFloodStallsNobody(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.TestRoutingPerSecond = 2
	f := startFerry(t, cfg)
	owner, hostile := signUp(t, f, "flood@isolation.example")
	viewer := addMember(t, f, tenantID(t, owner), "viewer@flood.example", "viewer")
	_, bystander := signUp(t, f, "calm@isolation.example")
	sink := newHookServer(t, nil)
	ep := createEndpoint(t, hostile, map[string]any{"url": sink.URL, "transformation": builtinLoop})
	shaped := newHookServer(t, nil)
	createEndpoint(t, bystander, map[string]any{"url": shaped.URL,
		"transformation": `function handler(w) { w.payload = {order: w.event.data.i}; return w }`})

	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[int]int{}
	var slowestRun time.Duration
	for c := range 8 {
		wg.Go(func() {
			body := map[string]any{"event": map[string]any{"type": "x.y", "data": map[string]int{"n": c}}}
			if c%2 == 0 {
				body["transformation"] = builtinLoop
			}
			for ctx.Err() == nil {
				t0 := time.Now()
				var res routingTestResult
				r := viewer.raw("POST", "/endpoints/"+ep.ID+"/test-routing", mustJSON(t, body), nil)
				took := time.Since(t0)
				mu.Lock()
				statuses[r.Status]++
				switch r.Status {
				case http.StatusOK:
					slowestRun = max(slowestRun, took)
					if err := json.Unmarshal(r.Body, &res); err != nil || (c%2 == 0 && !strings.Contains(res.Error, "ran longer than")) {
						t.Errorf("test-routing let through: %s %v", r.Body, err)
					}
				case http.StatusTooManyRequests:
					var e apiError
					if err := json.Unmarshal(r.Body, &e); err != nil || e.Error.Code != "rate_limited" || e.Error.Message == "" ||
						r.Header.Get("Retry-After") == "" {
						t.Errorf("429 without our error shape or Retry-After: %s %v", r.Body, r.Header)
					}
					// Flooding, not spinning: leave the 2 CPUs to Ferry.
					time.Sleep(10 * time.Millisecond)
				default:
					t.Errorf("test-routing: %d %s", r.Status, r.Body)
				}
				mu.Unlock()
			}
		})
	}
	time.Sleep(300 * time.Millisecond)
	bystanderPoster := newEventPoster(f, bystander, 2)
	var slowest time.Duration
	for i := range 20 {
		t0 := time.Now()
		if _, err := bystanderPoster.post(context.Background(), "order.paid", map[string]any{"i": i}); err != nil {
			t.Fatalf("bystander event %d: %v", i, err)
		}
		took := time.Since(t0)
		if took > bystanderBound {
			t.Errorf("bystander event %d took %s to be accepted (bound %s)", i, took, bystanderBound)
		}
		slowest = max(slowest, took)
	}
	stop()
	wg.Wait()
	t.Logf("bystander slowest %s; test-routing answers %v, slowest run %s", slowest, statuses, slowestRun)
	testenv.Eventually(t, 10*time.Second, func() bool { return shaped.count() == 20 }, "bystander got %d of 20", shaped.count())
	if statuses[http.StatusTooManyRequests] == 0 {
		t.Errorf("the flood was never limited: %v", statuses)
	}
	if slowestRun > 3*time.Second {
		t.Errorf("a test-routing run took %s", slowestRun)
	}
}

// TestTestRoutingRedactsSavedTransformationForViewers: an endpoint's
// saved transformation writes a credential into the payload (and
// another throws one). A viewer's test-routing shows neither the payload
// nor the error it made, as it shows none of the code; the owner sees
// both; a viewer trying their own code sees what it made.
func TestTestRoutingRedactsSavedTransformationForViewers(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	owner, key := signUp(t, f, "owner@testrouting-redact.example")
	viewer := addMember(t, f, tenantID(t, owner), "viewer@testrouting-redact.example", "viewer")
	const secret = "sk_live_5f1e2d"
	sink := newHookServer(t, nil)
	signs := createEndpoint(t, key, map[string]any{"url": sink.URL, "headers": map[string]string{"X-Team": "ops"},
		"transformation": `function handler(w) { w.payload = {auth: "` + secret + `", n: w.event.data.n}; return w }`})
	throws := createEndpoint(t, key, map[string]any{"url": sink.URL,
		"transformation": `function handler(w) { throw new Error("token ` + secret + `") }`})
	sample := map[string]any{"event": map[string]any{"type": "x.y", "data": map[string]int{"n": 7}}}

	for _, tc := range []struct {
		name string
		c    *client
		sees bool
	}{{"owner", owner, true}, {"api key", key, true}, {"viewer", viewer, false}} {
		t.Run(tc.name, func(t *testing.T) {
			var res routingTestResult
			tc.c.must(200, "POST", "/endpoints/"+signs.ID+"/test-routing", sample, &res)
			if got := strings.Contains(string(res.Payload), secret); got != tc.sees {
				t.Errorf("payload %s: secret visible %v, want %v", res.Payload, got, tc.sees)
			}
			if !tc.sees && (string(res.Payload) != `"[redacted]"` || res.Headers["X-Team"] != "[redacted]") {
				t.Errorf("viewer's result: %+v %s", res, res.Payload)
			}
			res = routingTestResult{}
			tc.c.must(200, "POST", "/endpoints/"+throws.ID+"/test-routing", sample, &res)
			if res.Error == "" || strings.Contains(res.Error, secret) != tc.sees {
				t.Errorf("error %q: secret visible %v, want %v", res.Error, !tc.sees, tc.sees)
			}
			// Their own code's result is theirs to see.
			res = routingTestResult{}
			tc.c.must(200, "POST", "/endpoints/"+signs.ID+"/test-routing", map[string]any{"event": sample["event"],
				"transformation": `function handler(w) { w.payload = {mine: w.event.data.n, team: w.headers["X-Team"]}; return w }`}, &res)
			team := "ops"
			if !tc.sees {
				team = "[redacted]"
			}
			if want := fmt.Sprintf(`{"mine":7,"team":%q}`, team); string(res.Payload) != want {
				t.Errorf("own transformation: %s, want %s", res.Payload, want)
			}
		})
	}
}

// TestInboundHostileTransformationStallsNobody: the event maker of
// inbound sources batches many tenants' captures in one transaction. A
// hostile tenant's source feeds an endpoint whose transformation loops
// inside a builtin; a bystander's source, captured at the same time,
// feeds a plain endpoint and one with a transformation. The bystander's
// deliveries all arrive within seconds, transformed where they should
// be; the hostile ones end as transformation_error.
func TestInboundHostileTransformationStallsNobody(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, hostile := signUp(t, f, "hostile@inbound-isolation.example")
	_, bystander := signUp(t, f, "bystander@inbound-isolation.example")
	source := func(c *client) sourceView {
		return createSource(t, c, map[string]any{"name": "in", "verification": map[string]string{"type": "none"},
			"event_type": map[string]string{"value": "in.event"}})
	}
	hostileSrc, bystanderSrc := source(hostile), source(bystander)
	sink := newHookServer(t, nil)
	createEndpoint(t, hostile, map[string]any{"url": sink.URL, "transformation": builtinLoop})
	plain := newHookServer(t, nil)
	shaped := newHookServer(t, nil)
	createEndpoint(t, bystander, map[string]any{"url": plain.URL})
	createEndpoint(t, bystander, map[string]any{"url": shaped.URL,
		"transformation": `function handler(w) { w.payload = {n: w.event.data.n}; return w }`})

	// 20 hostile captures hold the hostile tenant's 2 workers for 10 s:
	// the time a bystander's events waited when a batch ran them.
	const n, hostileN = 10, 20
	var wg sync.WaitGroup
	post := func(src sourceView, i int) {
		wg.Go(func() {
			if res := postIngest(t, src.IngestURL, fmt.Appendf(nil, `{"n":%d}`, i),
				map[string]string{"Content-Type": "application/json"}); res.StatusCode != http.StatusOK {
				t.Errorf("ingest: %d %s", res.StatusCode, res.Body)
			}
		})
	}
	for i := range hostileN {
		post(hostileSrc, i)
		if i < n {
			post(bystanderSrc, i)
		}
	}
	wg.Wait()
	start := time.Now()
	testenv.Eventually(t, 5*time.Second, func() bool { return plain.count() == n && shaped.count() == n },
		"bystander deliveries: %d plain, %d transformed of %d", plain.count(), shaped.count(), n)
	t.Logf("bystander's deliveries all arrived %s after its captures", time.Since(start))
	for _, h := range shaped.all() {
		if !strings.HasPrefix(string(h.Body), `{"n":`) {
			t.Errorf("bystander's transformed delivery: %s", h.Body)
		}
	}
	for _, c := range listCaptured(t, hostile, hostileSrc.ID, "") {
		if c.EventID == nil {
			t.Fatalf("hostile capture without its event: %+v", c)
		}
		testenv.Eventually(t, 60*time.Second, func() bool {
			atts := eventAttempts(t, hostile, *c.EventID)
			return len(atts) == 1 && atts[0].ErrorClass == "transformation_error" && strings.Contains(atts[0].ErrorMessage, "ran longer than")
		}, "hostile event %s: no transformation_error", *c.EventID)
	}
	if sink.count() != 0 {
		t.Errorf("the hostile endpoint got %d requests, want none", sink.count())
	}
}
