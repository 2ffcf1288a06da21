package tests

import (
	"strconv"
	"sync"
	"testing"
)

// TestBillingQuotas drives the plan limits over HTTP: the free plan's
// monthly hard cap (429 quota_exceeded, Retry-After to next month), an
// immediate upgrade lifting it, and the per-second limit (429
// rate_limited, Retry-After 1).
func TestBillingQuotas(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))

	owner, api := signUpLimited(t, f, "quota@example.com")
	tid := tenantID(t, owner)
	setOverride(t, f, tid, "free", 5, 1000)
	for i := range 5 {
		if status, code, _ := sendEventStatus(t, api, "order.created"); status != 202 {
			t.Fatalf("event %d: status %d (%s), want 202", i+1, status, code)
		}
	}
	status, code, retryAfter := sendEventStatus(t, api, "order.created")
	if status != 429 || code != "quota_exceeded" {
		t.Fatalf("over the cap: status %d code %q, want 429 quota_exceeded", status, code)
	}
	secs, err := strconv.Atoi(retryAfter)
	if want := secondsToNextMonth(); err != nil || secs < want-60 || secs > want+60 {
		t.Errorf("Retry-After = %q, want about %d (seconds until next month)", retryAfter, want)
	}
	var view billingView
	owner.must(200, "GET", "/billing", nil, &view)
	if view.Usage.Events != 5 || !view.QuotaExhausted || !view.Plan.Custom {
		t.Errorf("billing = %+v, want 5 events, quota exhausted, custom terms", view)
	}

	// Upgrading lifts the cap at once; usage carries over.
	owner.must(200, "PUT", "/billing/plan", map[string]string{"plan": "pro"}, &view)
	if view.Plan.Name != "pro" || view.QuotaExhausted {
		t.Errorf("after upgrade: %+v", view)
	}
	if status, code, _ := sendEventStatus(t, api, "order.created"); status != 202 {
		t.Fatalf("after upgrade: status %d (%s), want 202", status, code)
	}
	owner.must(200, "GET", "/billing", nil, &view)
	if view.Usage.Events != 6 {
		t.Errorf("usage after upgrade = %d, want 6", view.Usage.Events)
	}

	// Events per second: a burst over the limit is partly refused.
	owner2, api2 := signUpLimited(t, f, "burst@example.com")
	tid2 := tenantID(t, owner2)
	setOverride(t, f, tid2, "free", 10000, 1)
	var mu sync.Mutex
	accepted, limited := 0, 0
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			status, code, retryAfter := sendEventStatus(t, api2, "burst")
			mu.Lock()
			defer mu.Unlock()
			switch {
			case status == 202:
				accepted++
			case status == 429 && code == "rate_limited" && retryAfter == "1":
				limited++
			default:
				t.Errorf("burst: status %d code %q Retry-After %q", status, code, retryAfter)
			}
		}()
	}
	wg.Wait()
	if limited == 0 || accepted == 0 {
		t.Errorf("burst of 20 at 1 event/s: %d accepted, %d rate limited; want both", accepted, limited)
	}
	owner2.must(200, "GET", "/billing", nil, &view)
	if view.Usage.Events != int64(accepted) {
		t.Errorf("usage = %d, want the %d accepted", view.Usage.Events, accepted)
	}
}
