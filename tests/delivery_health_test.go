package tests

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestEndpointAutoDisabledAndReenabled runs at FERRY_RETRY_SCALE 0.00002
// (5 days = 8.6 s, the 72 h window = 5.2 s) against an endpoint that
// always fails: it must be disabled automatically once it has failed for
// the scaled 5 days, with the reason shown by GET; the delivery queued at
// that point ends exhausted (replayable); re-enabling via PATCH works and
// new events are delivered again.
func TestEndpointAutoDisabledAndReenabled(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.RetryScale = 0.00002
	f := startFerry(t, cfg)
	var healthy atomic.Bool
	rc := newHookServer(t, func(n int, h hit, w http.ResponseWriter) {
		if healthy.Load() {
			w.WriteHeader(200)
			return
		}
		w.WriteHeader(500)
	})
	_, api := signUp(t, f, "health@example.com")
	ep := createEndpoint(t, api, map[string]any{"url": rc.URL})

	start := time.Now()
	var last acceptedEvent
	for time.Since(start) < 30*time.Second {
		var got endpointOut
		api.must(200, "GET", "/endpoints/"+ep.ID, nil, &got)
		if !got.Enabled {
			if !strings.Contains(got.DisabledReason, "disabled automatically") {
				t.Errorf("disabled_reason %q", got.DisabledReason)
			}
			if since := time.Since(start); since < 8*time.Second {
				t.Errorf("disabled after %s, before the scaled 5 days (8.6s) of failures", since)
			}
			break
		}
		if last.ID == "" || time.Since(start) > 3*time.Second && len(eventDeliveries(t, api, last.ID)) == 1 &&
			eventDeliveries(t, api, last.ID)[0].Status == "exhausted" {
			last = sendEvent(t, api, "keep.failing", map[string]any{})
		}
		time.Sleep(100 * time.Millisecond)
	}
	var got endpointOut
	api.must(200, "GET", "/endpoints/"+ep.ID, nil, &got)
	if got.Enabled {
		t.Fatal("endpoint not disabled after 30s of failures")
	}
	d := waitStatus(t, api, last.ID, "exhausted", 20*time.Second)
	if d.NextAttemptAt != nil {
		t.Errorf("exhausted delivery still has a next attempt: %+v", d)
	}

	healthy.Store(true)
	var patched, fetched endpointOut
	api.must(200, "PATCH", "/endpoints/"+ep.ID, map[string]any{"enabled": true}, &patched)
	api.must(200, "GET", "/endpoints/"+ep.ID, nil, &fetched)
	if !patched.Enabled || patched.DisabledReason != "" || !fetched.Enabled || fetched.DisabledReason != "" {
		t.Errorf("after re-enabling: PATCH gave %+v, GET %+v", patched, fetched)
	}
	// Dispatchers cache endpoints for up to 2 s: one that loaded the
	// endpoint while it was disabled (to exhaust the last delivery) would
	// exhaust an event sent at once as well.
	time.Sleep(2500 * time.Millisecond)
	ev := sendEvent(t, api, "back", map[string]any{})
	waitStatus(t, api, ev.ID, "succeeded", 20*time.Second)
}

// TestDisablingEndpointExhaustsQueuedDeliveries disables an endpoint while
// a delivery to it is retrying: the delivery becomes exhausted without
// further requests, and goes to the dead topic (replayable).
func TestDisablingEndpointExhaustsQueuedDeliveries(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.RetryScale = 0.01 // retries every 0.3 s, 0.6 s, 1.2 s, …
	f := startFerry(t, cfg)
	rc := newHookServer(t, func(n int, h hit, w http.ResponseWriter) { w.WriteHeader(503) })
	_, api := signUp(t, f, "disable@example.com")
	ep := createEndpoint(t, api, map[string]any{"url": rc.URL})
	ev := sendEvent(t, api, "x", map[string]any{})
	testenv.Eventually(t, 30*time.Second, func() bool {
		d := eventDeliveries(t, api, ev.ID)
		return len(d) == 1 && d[0].Status == "retrying" && d[0].AttemptCount >= 2
	}, "delivery not retrying")
	var got endpointOut
	api.must(200, "PATCH", "/endpoints/"+ep.ID, map[string]any{"enabled": false}, &got)
	if got.Enabled || got.DisabledReason != "disabled by user" {
		t.Errorf("after disabling: %+v", got)
	}
	d := waitStatus(t, api, ev.ID, "exhausted", 30*time.Second)
	// The dead topic is the delivery's last step: once its job is there,
	// no job for it is left anywhere, and every request the receiver got
	// belongs to a logged attempt.
	testenv.Eventually(t, 30*time.Second, func() bool {
		for _, j := range topicJobs(t, f, model.TopicDead) {
			if j.DeliveryID.String() == d.ID {
				return true
			}
		}
		return false
	}, "exhausted delivery not on the dead topic")
	// The last attempt's log write may trail its next step by a moment.
	testenv.Eventually(t, 10*time.Second, func() bool { return rc.count() == len(eventAttempts(t, api, ev.ID)) },
		"the receiver got requests that are not logged attempts")
	if final := eventDeliveries(t, api, ev.ID); len(final) != 1 || final[0].Status != "exhausted" || final[0].AttemptCount != rc.count() {
		t.Errorf("receiver got %d requests, delivery now %+v: requests continued after the delivery was exhausted", rc.count(), final)
	}
	if d.AttemptCount > 6 {
		t.Errorf("%d attempts: disabling did not stop the retries", d.AttemptCount)
	}
}
