package tests

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/delivery/dispatch"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestDeliveryRetriesThroughTiersUntilSuccess drives one delivery through
// the real retry topics at FERRY_RETRY_SCALE 0.0005: the receiver fails
// three times (500, 429 with Retry-After, 503) and then succeeds. It
// checks the attempt count, the attempt log, the gaps (at least 80 % of
// the scaled delay, or the scaled Retry-After), and that the body and
// signature are byte-identical on every attempt.
func TestDeliveryRetriesThroughTiersUntilSuccess(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.RetryScale = 0.0005
	f := startFerry(t, cfg)
	rc := newHookServer(t, func(n int, h hit, w http.ResponseWriter) {
		switch n {
		case 1:
			w.WriteHeader(500)
			_, _ = w.Write([]byte("boom"))
		case 2:
			w.Header().Set("Retry-After", "600") // 10 min, scaled: 300 ms, longer than the 1 min tier (30 ms)
			w.WriteHeader(429)
		case 3:
			w.WriteHeader(503)
		default:
			w.WriteHeader(204)
		}
	})
	_, api := signUp(t, f, "retry@example.com")
	ep := createEndpoint(t, api, map[string]any{"url": rc.URL + "/hook"})
	ev := sendEvent(t, api, "order.created", map[string]any{"n": 1})

	d := waitStatus(t, api, ev.ID, "succeeded", 60*time.Second)
	if d.AttemptCount != 4 || d.EndpointID != ep.ID || d.NextAttemptAt != nil {
		t.Errorf("delivery %+v, want 4 attempts and no next attempt", d)
	}
	hits := rc.all()
	if len(hits) != 4 {
		t.Fatalf("receiver got %d requests, want 4", len(hits))
	}
	for i, h := range hits[1:] {
		if !bytes.Equal(h.Body, hits[0].Body) {
			t.Errorf("attempt %d body differs:\n%s\n%s", i+2, h.Body, hits[0].Body)
		}
		for _, k := range []string{"Webhook-Id", "Webhook-Timestamp", "Webhook-Signature", "X-Webhook-Id"} {
			if h.Header.Get(k) != hits[0].Header.Get(k) {
				t.Errorf("attempt %d header %s = %q, attempt 1 had %q", i+2, k, h.Header.Get(k), hits[0].Header.Get(k))
			}
		}
	}
	policy := dispatch.RetryPolicy{Scale: cfg.RetryScale}
	minGap := []time.Duration{policy.BaseDelay(1) * 8 / 10, 600 * time.Second / 2000, policy.BaseDelay(3) * 8 / 10}
	for i := 1; i < len(hits); i++ {
		if gap := hits[i].At.Sub(hits[i-1].At); gap < minGap[i-1] {
			t.Errorf("gap before attempt %d = %s, want ≥ %s", i+1, gap, minGap[i-1])
		}
	}

	var attempts []attemptOut
	testenv.Eventually(t, 10*time.Second, func() bool {
		attempts = eventAttempts(t, api, ev.ID)
		return len(attempts) >= 4
	}, "attempts logged %+v, want 4", &attempts)
	if len(attempts) != 4 {
		t.Fatalf("%d attempts logged, want 4", len(attempts))
	}
	wantStatus := []int{500, 429, 503, 204}
	wantOutcome := []string{"retry", "retry", "retry", "success"}
	wantTrigger := []string{"initial", "retry", "retry", "retry"}
	for i, a := range attempts {
		if a.AttemptNumber != i+1 || a.ResponseStatus == nil || *a.ResponseStatus != wantStatus[i] || a.Outcome != wantOutcome[i] ||
			a.Trigger != wantTrigger[i] || a.EventID != ev.ID || a.EndpointID != ep.ID || a.DeliveryID != d.ID {
			t.Errorf("attempt %d = %+v", i+1, a)
		}
		if (a.NextAttemptAt != nil) != (i < 3) {
			t.Errorf("attempt %d next_attempt_at = %v", i+1, a.NextAttemptAt)
		}
		//lint:ignore SA1008 the attempt log records header names as sent, and Ferry sends Standard Webhooks' in lower case.
		if len(a.RequestHeaders["webhook-signature"]) != 1 || a.RequestHeaders.Get("User-Agent") != "Ferry/test" {
			t.Errorf("attempt %d request headers %v", i+1, a.RequestHeaders)
		}
	}
	if attempts[0].ResponseBody != "boom" {
		t.Errorf("response body logged as %q", attempts[0].ResponseBody)
	}
	if attempts[1].ResponseHeaders.Get("Retry-After") != "600" {
		t.Errorf("response headers logged as %v", attempts[1].ResponseHeaders)
	}
	if next := attempts[1].NextAttemptAt; next == nil || next.Sub(attempts[1].StartedAt) < 300*time.Millisecond {
		t.Errorf("Retry-After not honoured: next %v after start %v", next, attempts[1].StartedAt)
	}

	res, err := http.Get(f.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{
		`ferry_delivery_attempts_total{outcome="retry",reason="500"} 1`,
		`ferry_delivery_attempts_total{outcome="retry",reason="429"} 1`,
		`ferry_delivery_attempts_total{outcome="success",reason="204"} 1`,
		`ferry_delivery_tier_lag_seconds{topic="deliveries"}`,
		`ferry_delivery_tier_lag_seconds{topic="retry-30s"}`,
		`ferry_delivery_tier_lag_seconds{topic="retry-2m"}`,
		`ferry_delivery_first_attempt_seconds_count 1`,
		`ferry_delivery_success_seconds_count 1`,
		`ferry_outbox_backlog `,
	} {
		if !strings.Contains(string(metrics), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// TestDeliveryExhaustsAfterWindow lets a receiver fail every attempt at
// FERRY_RETRY_SCALE 0.0002 (the 72 h window is 51.8 s) and checks the
// delivery becomes exhausted after the whole schedule: 18 attempts
// without jitter, more when jitter shortens delays, every gap at least
// 80 % of its scaled delay, no attempt past the window, and the delivery
// on the dead topic.
func TestDeliveryExhaustsAfterWindow(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.RetryScale = 0.0002
	f := startFerry(t, cfg)
	rc := newHookServer(t, func(n int, h hit, w http.ResponseWriter) { w.WriteHeader(500) })
	_, api := signUp(t, f, "exhaust@example.com")
	createEndpoint(t, api, map[string]any{"url": rc.URL + "/hook"})
	ev := sendEvent(t, api, "order.created", map[string]any{"n": 1})

	d := waitStatus(t, api, ev.ID, "exhausted", 150*time.Second)
	policy := dispatch.RetryPolicy{Scale: cfg.RetryScale}
	hits := rc.all()
	if d.AttemptCount != len(hits) || len(hits) < 16 || len(hits) > 23 {
		t.Errorf("%d attempts (delivery says %d), want 16-23 (18 without jitter)", len(hits), d.AttemptCount)
	}
	for i := 1; i < len(hits); i++ {
		if gap, min := hits[i].At.Sub(hits[i-1].At), policy.BaseDelay(i)*8/10; gap < min {
			t.Errorf("gap before attempt %d = %s, want ≥ %s", i+1, gap, min)
		}
	}
	if span := hits[len(hits)-1].At.Sub(hits[0].At); span > policy.Window()+time.Second {
		t.Errorf("last attempt %s after the first, beyond the %s window", span, policy.Window())
	}
	attempts := eventAttempts(t, api, ev.ID)
	if len(attempts) != len(hits) {
		t.Fatalf("%d attempts logged, receiver got %d", len(attempts), len(hits))
	}
	if last := attempts[len(attempts)-1]; last.Outcome != "retry" || last.NextAttemptAt != nil {
		t.Errorf("last attempt %+v, want a failure with no next attempt", last)
	}
	dead := topicJobs(t, f, model.TopicDead)
	if len(dead) != 1 || dead[0].DeliveryID.String() != d.ID {
		t.Errorf("dead topic holds %+v, want delivery %s", dead, d.ID)
	}
}
