package tests

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// opEvent is an operational event as a receiver gets it.
type opEvent struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	Data struct {
		EndpointID string `json:"endpoint_id"`
		URL        string `json:"url"`
		DeliveryID string `json:"delivery_id"`
		Percent    int    `json:"percent"`
		Used       int64  `json:"used"`
		Limit      int64  `json:"limit"`
	} `json:"data"`
}

// opEvents decodes what rc received, by type.
func opEvents(t *testing.T, rc *hookServer) map[string][]opEvent {
	t.Helper()
	out := map[string][]opEvent{}
	for _, h := range rc.all() {
		var ev opEvent
		if err := json.Unmarshal(h.Body, &ev); err != nil {
			t.Fatalf("decode %s: %v", h.Body, err)
		}
		out[ev.Type] = append(out[ev.Type], ev)
	}
	return out
}

// TestOperationalEventsDeliveredAndSigned runs at FERRY_RETRY_SCALE
// 0.00002 (failing after 18 ms of failures, disabled after 8.6 s) with
// one endpoint that always fails and one subscribed to ferry.*: the
// subscriber gets ferry.endpoint.failing, ferry.delivery.exhausted and
// ferry.endpoint.disabled about the other endpoint, each once and signed
// with its own secret; the operational events are not metered; and a
// tenant may not send ferry.* events itself.
func TestOperationalEventsDeliveredAndSigned(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.RetryScale = 0.00002
	f := startFerry(t, cfg)
	failing := newHookServer(t, func(n int, h hit, w http.ResponseWriter) { w.WriteHeader(500) })
	ops := newHookServer(t, nil)
	session, api := signUp(t, f, "ops@example.com")
	bad := createEndpoint(t, api, map[string]any{"url": failing.URL, "event_types": []string{"order.created"}})
	sub := createEndpoint(t, api, map[string]any{"url": ops.URL, "event_types": []string{"ferry.*"}})

	sent := 0
	start := time.Now()
	for time.Since(start) < 40*time.Second && len(opEvents(t, ops)["ferry.endpoint.disabled"]) == 0 {
		if sent < 30 {
			sendEvent(t, api, "order.created", map[string]any{"n": sent})
			sent++
		}
		time.Sleep(300 * time.Millisecond)
	}
	got := opEvents(t, ops)
	if len(got["ferry.endpoint.disabled"]) != 1 {
		t.Fatalf("subscriber got %d ferry.endpoint.disabled in 40s; all: %v", len(got["ferry.endpoint.disabled"]), got)
	}
	// Let stragglers arrive, then count: once per transition.
	time.Sleep(2 * time.Second)
	got = opEvents(t, ops)
	for _, typ := range []string{"ferry.endpoint.failing", "ferry.endpoint.disabled"} {
		if len(got[typ]) != 1 || got[typ][0].Data.EndpointID != bad.ID || got[typ][0].Data.URL != failing.URL {
			t.Errorf("%s: got %+v, want one about %s", typ, got[typ], bad.ID)
		}
	}
	if len(got["ferry.endpoint.recovered"]) != 0 {
		t.Errorf("recovered without a success: %+v", got["ferry.endpoint.recovered"])
	}
	if len(got["ferry.delivery.exhausted"]) == 0 {
		t.Error("no ferry.delivery.exhausted for the failing endpoint's deliveries")
	}
	seen := map[string]bool{}
	for _, ev := range got["ferry.delivery.exhausted"] {
		if seen[ev.Data.DeliveryID] {
			t.Errorf("delivery %s exhausted twice", ev.Data.DeliveryID)
		}
		seen[ev.Data.DeliveryID] = true
	}

	wh, err := standardwebhooks.NewWebhook(sub.Secret)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range ops.all() {
		if err := wh.Verify(h.Body, h.Header); err != nil {
			t.Errorf("operational event %s does not verify with the subscriber's secret: %v", h.Body, err)
		}
	}
	// The failing endpoint never got an operational event.
	for _, h := range failing.all() {
		var ev opEvent
		if err := json.Unmarshal(h.Body, &ev); err == nil && ev.Type != "order.created" {
			t.Errorf("the failing endpoint got %s", ev.Type)
		}
	}

	// The events list shows them (with deliveries), and the usage meter
	// counts only what the tenant sent.
	var list struct {
		Data []struct {
			Type       string        `json:"type"`
			Deliveries []deliveryOut `json:"deliveries"`
		} `json:"data"`
	}
	api.must(200, "GET", "/events?type=ferry.endpoint.disabled", nil, &list)
	if len(list.Data) != 1 || len(list.Data[0].Deliveries) != 1 || list.Data[0].Deliveries[0].EndpointID != sub.ID {
		t.Errorf("events list of ferry.endpoint.disabled: %+v", list.Data)
	}
	var b billingView
	session.must(200, "GET", "/billing", nil, &b)
	if b.Usage.Events != int64(sent) {
		t.Errorf("usage counts %d events, the tenant sent %d: operational events were metered", b.Usage.Events, sent)
	}

	r := api.raw("POST", "/events", []byte(`{"type":"ferry.endpoint.disabled","data":{}}`), nil)
	if r.Status != 422 || r.apiError(t).Error.Field != "type" {
		t.Errorf("tenant sent a ferry.* event: %d %s", r.Status, r.Body)
	}
}

// TestQuotaWarningAt80Percent puts a free (hard-capped) tenant on 10
// events a month: its 8th event brings ferry.quota.warning at 80 % to
// its ferry.* endpoint, once; the 10th the 100 % one; the warnings are
// not metered, so the 11th event is the one refused.
func TestQuotaWarningAt80Percent(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	ops := newHookServer(t, nil)
	session, api := signUpLimited(t, f, "quota-warn@example.com")
	setOverride(t, f, tenantID(t, session), "free", 10, 100)
	sub := createEndpoint(t, api, map[string]any{"url": ops.URL, "event_types": []string{"ferry.quota.warning"}})

	for i := 0; i < 7; i++ {
		sendEvent(t, api, "order.created", map[string]any{"n": i})
	}
	time.Sleep(3 * time.Second) // longer than the warner's 2 s interval
	if n := ops.count(); n != 0 {
		t.Fatalf("%d warnings at 70 %%", n)
	}
	sendEvent(t, api, "order.created", map[string]any{"n": 8})
	sendEvent(t, api, "order.created", map[string]any{"n": 9})
	testenv.Eventually(t, 20*time.Second, func() bool { return ops.count() >= 1 }, "no quota warning at 80 %%")
	time.Sleep(3 * time.Second)
	warnings := opEvents(t, ops)["ferry.quota.warning"]
	if len(warnings) != 1 || warnings[0].Data.Percent != 80 || warnings[0].Data.Limit != 10 || warnings[0].Data.Used < 8 {
		t.Fatalf("warnings at 90 %%: %+v", warnings)
	}
	wh, err := standardwebhooks.NewWebhook(sub.Secret)
	if err != nil {
		t.Fatal(err)
	}
	if err := wh.Verify(ops.all()[0].Body, ops.all()[0].Header); err != nil {
		t.Errorf("warning does not verify: %v", err)
	}

	sendEvent(t, api, "order.created", map[string]any{"n": 10})
	testenv.Eventually(t, 20*time.Second, func() bool { return ops.count() >= 2 }, "no quota warning at 100 %%")
	warnings = opEvents(t, ops)["ferry.quota.warning"]
	if len(warnings) != 2 || warnings[1].Data.Percent != 100 || warnings[1].Data.Used != 10 {
		t.Errorf("warnings: %+v", warnings)
	}
	if status, code, _ := sendEventStatus(t, api, "order.created"); status != 429 || code != "quota_exceeded" {
		t.Errorf("11th event: %d %s, want 429 quota_exceeded", status, code)
	}
}

// TestStatsAPI checks the stats routes over HTTP: a delivered event shows
// in both, an unknown window is a 422 in the error shape, and another
// tenant's endpoint is a 404.
func TestStatsAPI(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	rc := newHookServer(t, nil)
	_, api := signUp(t, f, "stats@example.com")
	_, stranger := signUp(t, f, "stats-stranger@example.com")
	ep := createEndpoint(t, api, map[string]any{"url": rc.URL})
	ev := sendEvent(t, api, "order.created", map[string]any{})
	waitStatus(t, api, ev.ID, "succeeded", 20*time.Second)

	type stats struct {
		Attempts    int64    `json:"attempts"`
		Succeeded   int64    `json:"succeeded"`
		Failed      int64    `json:"failed"`
		SuccessRate *float64 `json:"success_rate"`
		ResponseMs  struct {
			P95 *int `json:"p95"`
		} `json:"response_ms"`
		Series []struct {
			Hour      time.Time `json:"hour"`
			Succeeded int64     `json:"succeeded"`
		} `json:"series"`
		Endpoints []struct {
			EndpointID string `json:"endpoint_id"`
		} `json:"endpoints"`
	}
	var one, all stats
	api.must(200, "GET", "/endpoints/"+ep.ID+"/stats?window=1h", nil, &one)
	if one.Attempts != 1 || one.Succeeded != 1 || one.Failed != 0 || one.SuccessRate == nil || *one.SuccessRate != 1 ||
		one.ResponseMs.P95 == nil || len(one.Series) != 2 || one.Series[1].Succeeded != 1 {
		t.Errorf("endpoint stats %+v", one)
	}
	api.must(200, "GET", "/stats?window=7d", nil, &all)
	if all.Attempts != 1 || all.Succeeded != 1 || len(all.Series) != 169 || len(all.Endpoints) != 1 || all.Endpoints[0].EndpointID != ep.ID {
		t.Errorf("tenant stats %+v", all)
	}
	for _, path := range []string{"/stats?window=2h", "/endpoints/" + ep.ID + "/stats?window=week"} {
		r := api.raw("GET", path, nil, nil)
		if e := r.apiError(t); r.Status != 422 || e.Error.Field != "window" {
			t.Errorf("GET %s: %d %s", path, r.Status, r.Body)
		}
	}
	if r := stranger.raw("GET", "/endpoints/"+ep.ID+"/stats", nil, nil); r.Status != 404 {
		t.Errorf("another tenant's endpoint stats: %d %s", r.Status, r.Body)
	}
	var theirs stats
	stranger.must(200, "GET", "/stats", nil, &theirs)
	if theirs.Attempts != 0 || len(theirs.Endpoints) != 0 {
		t.Errorf("another tenant sees %+v", theirs)
	}
}
