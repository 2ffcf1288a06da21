package tests

import (
	"sync"
	"testing"

	"github.com/ferry-dev/ferry/app"
)

// TestReplayAbuseIsLimited plays a Free tenant (10 events/s) trying to
// get around its limits with replays: 60 replays of one event in a burst
// are mostly refused with 429 rate_limited and a Retry-After, the ones
// accepted are metered as usage, and a fourth bulk replay while three are
// open is refused with 429 replay_limit.
func TestReplayAbuseIsLimited(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	// No workers: bulk jobs stay queued, so the job limit is what refuses.
	cfg.Roles = map[string]bool{app.RoleAPI: true}
	f := startFerry(t, cfg)
	session, key := signUpLimited(t, f, "eve@replay-abuse.example")
	var ep idOnly
	key.must(201, "POST", "/endpoints", map[string]any{"url": "http://127.0.0.1:9/hook"}, &ep)
	var ev idOnly
	key.must(202, "POST", "/events", map[string]any{"type": "abuse.test", "data": map[string]int{"n": 1}}, &ev)

	var mu sync.Mutex
	statuses := map[int]int{}
	var wg sync.WaitGroup
	for range 60 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := key.raw("POST", "/events/"+ev.ID+"/replay", nil, nil)
			mu.Lock()
			defer mu.Unlock()
			statuses[r.Status]++
			if r.Status == 429 {
				if code := r.apiError(t).Error.Code; code != "rate_limited" || r.Header.Get("Retry-After") == "" {
					t.Errorf("429 with code %q, Retry-After %q", code, r.Header.Get("Retry-After"))
				}
			} else if r.Status != 202 {
				t.Errorf("replay: %d %s", r.Status, r.Body)
			}
		}()
	}
	wg.Wait()
	// The burst may straddle a second boundary (two windows of 10, the
	// original event taking one place).
	if statuses[202] > 20 || statuses[429] < 40 {
		t.Fatalf("replay burst: %v; want at most 20 accepted of 60", statuses)
	}
	var bill billingView
	session.must(200, "GET", "/billing", nil, &bill)
	if bill.Usage.Events != int64(1+statuses[202]) {
		t.Errorf("usage %d events, want 1 + %d replays", bill.Usage.Events, statuses[202])
	}

	for range 3 {
		key.must(202, "POST", "/replays", map[string]any{"endpoint_id": ep.ID}, nil)
	}
	r := key.raw("POST", "/replays", mustJSON(t, map[string]any{"endpoint_id": ep.ID}), nil)
	if r.Status != 429 || r.apiError(t).Error.Code != "replay_limit" {
		t.Fatalf("4th bulk replay: %d %s, want 429 replay_limit", r.Status, r.Body)
	}
}
