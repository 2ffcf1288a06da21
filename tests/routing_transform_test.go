package tests

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// slackTransformation turns invoice.paid into a Slack message and adds a
// header.
const slackTransformation = `function handler(webhook) {
  const d = webhook.event.data;
  webhook.payload = {text: "Invoice " + d.invoice + " paid: " + d.amount + " " + d.currency};
  webhook.headers["X-Slack-Channel"] = "#billing";
  return webhook;
}`

// TestTransformationEndToEnd creates an endpoint with a transformation
// through the API and sends an event: the receiver, failing the first
// attempt, gets the transformed body on the retry and on a replay byte
// for byte, each signature verifying over that body; editing the
// transformation afterwards changes nothing for the stored delivery.
// Invalid transformations are refused with 422 and goja's position; a
// transformation on a queue endpoint is refused. A replay to an endpoint
// that never had the event runs that endpoint's transformation.
func TestTransformationEndToEnd(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.RetryScale = 0.0005
	f := startFerry(t, cfg)
	_, api := signUp(t, f, "transform@example.com")
	rc := newHookServer(t, func(n int, _ hit, w http.ResponseWriter) {
		if n == 1 {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
	})

	var bad apiError
	if code := api.do("POST", "/endpoints", map[string]any{"url": rc.URL, "transformation": "function handler(w) {\n  return w +;\n}"}, &bad); code != 422 ||
		bad.Error.Field != "transformation" || !strings.Contains(bad.Error.Message, "Line 2:") {
		t.Fatalf("syntax error: %d %+v", code, bad)
	}
	if code := api.do("POST", "/endpoints", map[string]any{"url": rc.URL, "transformation": "function other(w) { return w }"}, &bad); code != 422 ||
		bad.Error.Field != "transformation" || !strings.Contains(bad.Error.Message, "handler") {
		t.Fatalf("no handler: %d %+v", code, bad)
	}
	if code := api.do("POST", "/endpoints", map[string]any{"kind": "queue", "transformation": slackTransformation}, &bad); code != 422 ||
		bad.Error.Field != "transformation" {
		t.Fatalf("queue endpoint: %d %+v", code, bad)
	}

	ep := createEndpoint(t, api, map[string]any{"url": rc.URL, "event_types": []string{"invoice.*"},
		"headers": map[string]string{"X-Team": "finance"}, "transformation": slackTransformation})
	var got struct {
		Transformation string `json:"transformation"`
	}
	api.must(200, "GET", "/endpoints/"+ep.ID, nil, &got)
	if got.Transformation != slackTransformation {
		t.Fatalf("endpoint transformation = %q", got.Transformation)
	}

	ev := sendEvent(t, api, "invoice.paid", map[string]any{"invoice": "INV-7", "amount": 1500, "currency": "EUR"})
	waitStatus(t, api, ev.ID, "succeeded", 30*time.Second)
	hits := rc.all()
	if len(hits) != 2 {
		t.Fatalf("receiver got %d requests, want a failed one and its retry", len(hits))
	}
	const want = `{"text":"Invoice INV-7 paid: 1500 EUR"}`
	wh, err := standardwebhooks.NewWebhook(ep.Secret)
	if err != nil {
		t.Fatal(err)
	}
	check := func(h hit, what string) {
		t.Helper()
		if string(h.Body) != want {
			t.Errorf("%s: body %s, want %s", what, h.Body, want)
		}
		if err := wh.Verify(h.Body, h.Header); err != nil {
			t.Errorf("%s: signature does not verify over the transformed body: %v", what, err)
		}
		if h.Header.Get("X-Slack-Channel") != "#billing" || h.Header.Get("X-Team") != "finance" {
			t.Errorf("%s: headers %v", what, h.Header)
		}
	}
	check(hits[0], "first attempt")
	check(hits[1], "retry")
	if !bytes.Equal(hits[0].Body, hits[1].Body) || hits[0].Header.Get("Webhook-Signature") != hits[1].Header.Get("Webhook-Signature") {
		t.Errorf("retry differs: %s %s / %s %s", hits[0].Body, hits[0].Header.Get("Webhook-Signature"), hits[1].Body, hits[1].Header.Get("Webhook-Signature"))
	}

	// The stored result outlives an edit of the transformation.
	api.must(200, "PATCH", "/endpoints/"+ep.ID, map[string]any{"transformation": `function handler(w) { w.payload = {edited: true}; return w }`}, nil)
	api.must(202, "POST", "/events/"+ev.ID+"/replay", nil, nil)
	testenv.Eventually(t, 30*time.Second, func() bool { return rc.count() == 3 }, "replay not delivered")
	replayed := rc.all()[2]
	check(replayed, "replay")
	if !bytes.Equal(replayed.Body, hits[0].Body) || replayed.Header.Get("Webhook-Signature") != hits[0].Header.Get("Webhook-Signature") {
		t.Errorf("replay differs from the original: %s / %s", replayed.Body, hits[0].Body)
	}
	// A new event gets the edited transformation.
	ev2 := sendEvent(t, api, "invoice.paid", map[string]any{"invoice": "INV-8"})
	waitStatus(t, api, ev2.ID, "succeeded", 30*time.Second)
	if last := rc.all()[rc.count()-1]; string(last.Body) != `{"edited":true}` {
		t.Errorf("after the edit: %s", last.Body)
	}

	// Replaying the event to an endpoint that never had it makes a new
	// delivery, and that endpoint's transformation runs for it.
	rc2 := newHookServer(t, nil)
	ep2 := createEndpoint(t, api, map[string]any{"url": rc2.URL, "event_types": []string{"other.type"},
		"transformation": `function handler(w) { w.payload = {second: w.event.data.invoice}; return w }`})
	api.must(202, "POST", "/events/"+ev.ID+"/replay", map[string]string{"endpoint_id": ep2.ID}, nil)
	testenv.Eventually(t, 30*time.Second, func() bool { return rc2.count() == 1 }, "replay to the second endpoint not delivered")
	if h := rc2.all()[0]; string(h.Body) != `{"second":"INV-7"}` {
		t.Errorf("replay to a new endpoint: %s", h.Body)
	}
}

// TestTransformationDropsWithoutSending: a transformation that cancels,
// throws, loops forever, allocates without bound or sets a signature
// header drops its delivery without a request, with an attempt saying
// why (transformation_cancelled or transformation_error), and is never
// retried; an endpoint without a transformation next to them gets the
// same events at once. test-routing shows the same outcomes.
func TestTransformationDropsWithoutSending(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, api := signUp(t, f, "transform-drop@example.com")
	plain := newHookServer(t, nil)
	createEndpoint(t, api, map[string]any{"url": plain.URL, "event_types": []string{"*"}})
	cases := []struct {
		typ, src, class, msg string
	}{
		{"t.cancel", `function handler(w) { if (w.event.data.n < 10) w.cancel = true; return w }`, "transformation_cancelled", "cancelled"},
		{"t.throw", "function handler(w) {\n  throw new Error('no invoice number');\n}", "transformation_error", "no invoice number"},
		{"t.loop", `function handler(w) { while (true) {} }`, "transformation_error", "ran longer than"},
		// goja builds about 30 MB of strings in 50 ms: whichever bound comes
		// first stops it (the memory bound alone: routing's unit tests).
		{"t.alloc", `function handler(w) { let a = [], s = 'x'.repeat(1e6); while (true) a.push(s + a.length); }`, "transformation_error", "memory|ran longer than"},
		{"t.signature", `function handler(w) { w.headers["Webhook-Signature"] = "v1,forged"; return w }`, "transformation_error", "set by Ferry"},
	}
	sink := newHookServer(t, nil)
	for _, c := range cases {
		createEndpoint(t, api, map[string]any{"url": sink.URL, "event_types": []string{c.typ}, "transformation": c.src})
	}
	for _, c := range cases {
		start := time.Now()
		ev := sendEvent(t, api, c.typ, map[string]any{"n": 1})
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("%s: ingest took %s", c.typ, took)
		}
		var drop deliveryOut
		testenv.Eventually(t, 30*time.Second, func() bool {
			for _, d := range eventDeliveries(t, api, ev.ID) {
				if d.Status == "dropped" {
					drop = d
					return true
				}
			}
			return false
		}, "%s: no dropped delivery", c.typ)
		var att *attemptOut
		for _, a := range eventAttempts(t, api, ev.ID) {
			if a.DeliveryID == drop.ID {
				att = &a
			}
		}
		matches := func(msg string) bool {
			for _, m := range strings.Split(c.msg, "|") {
				if strings.Contains(msg, m) {
					return true
				}
			}
			return false
		}
		if att == nil || att.ErrorClass != c.class || !matches(att.ErrorMessage) || att.Outcome != "dropped" ||
			att.ResponseStatus != nil || drop.AttemptCount != 1 {
			t.Errorf("%s: delivery %+v, attempt %+v; want one dropped attempt %s containing %q", c.typ, drop, att, c.class, c.msg)
		}
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return plain.count() == len(cases) }, "plain endpoint got %d", plain.count())
	if sink.count() != 0 {
		t.Errorf("the transformed endpoints got %d requests, want none", sink.count())
	}

	// test-routing runs an unsaved transformation on a sample event.
	ep := createEndpoint(t, api, map[string]any{"url": sink.URL, "event_types": []string{"invoice.*"}, "headers": map[string]string{"X-Team": "finance"}})
	type result struct {
		Matched   bool              `json:"matched"`
		Payload   json.RawMessage   `json:"payload"`
		Headers   map[string]string `json:"headers"`
		Cancelled bool              `json:"cancelled"`
		Error     string            `json:"error"`
	}
	sample := map[string]any{"type": "invoice.paid", "data": map[string]any{"invoice": "INV-1", "amount": 5, "currency": "EUR"}}
	var res result
	api.must(200, "POST", "/endpoints/"+ep.ID+"/test-routing", map[string]any{"event": sample, "transformation": slackTransformation}, &res)
	if !res.Matched || string(res.Payload) != `{"text":"Invoice INV-1 paid: 5 EUR"}` || res.Headers["X-Slack-Channel"] != "#billing" ||
		res.Headers["X-Team"] != "finance" || res.Cancelled || res.Error != "" {
		t.Errorf("test-routing slack: %+v", res)
	}
	res = result{}
	api.must(200, "POST", "/endpoints/"+ep.ID+"/test-routing", map[string]any{"event": sample, "transformation": `function handler(w) { w.cancel = w.event.data.amount < 10; return w }`}, &res)
	if !res.Cancelled || res.Error != "" {
		t.Errorf("test-routing cancel: %+v", res)
	}
	res = result{}
	api.must(200, "POST", "/endpoints/"+ep.ID+"/test-routing", map[string]any{"event": sample, "transformation": cases[1].src}, &res)
	if res.Cancelled || !strings.Contains(res.Error, "no invoice number") || !strings.Contains(res.Error, "transformation.js:2") {
		t.Errorf("test-routing throw: %+v", res)
	}
	res = result{}
	api.must(200, "POST", "/endpoints/"+ep.ID+"/test-routing", map[string]any{"event": sample, "transformation": "function handler(w) {"}, &res)
	if !strings.Contains(res.Error, "SyntaxError") {
		t.Errorf("test-routing syntax error: %+v", res)
	}
}
