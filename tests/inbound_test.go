package tests

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/delivery/webhook"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// sourceView is a source as the API answers it.
type sourceView struct {
	ID               string     `json:"id"`
	IngestURL        string     `json:"ingest_url"`
	Enabled          bool       `json:"enabled"`
	RejectedUnstored int64      `json:"rejected_unstored"`
	LastRequestAt    *time.Time `json:"last_request_at"`
}

// captured is a captured request as the API details it.
type captured struct {
	ID          string              `json:"id"`
	Status      string              `json:"status"`
	Reason      string              `json:"reason"`
	Method      string              `json:"method"`
	Path        string              `json:"path"`
	Query       string              `json:"query"`
	ContentType string              `json:"content_type"`
	BodySize    int                 `json:"body_size"`
	DedupeKey   *string             `json:"dedupe_key"`
	EventID     *string             `json:"event_id"`
	Headers     map[string][]string `json:"headers"`
	BodyBase64  string              `json:"body_base64"`
	BodyText    *string             `json:"body_text"`
	Event       *struct {
		ID         string          `json:"id"`
		Type       string          `json:"type"`
		Data       json.RawMessage `json:"data"`
		Deliveries []struct {
			EndpointID string `json:"endpoint_id"`
			Status     string `json:"status"`
		} `json:"deliveries"`
	} `json:"event"`
}

func createSource(t *testing.T, c *client, body map[string]any) sourceView {
	t.Helper()
	var s sourceView
	c.must(201, "POST", "/sources", body, &s)
	if !strings.Contains(s.IngestURL, "/in/src_") {
		t.Fatalf("ingest url %q", s.IngestURL)
	}
	return s
}

// listCaptured lists a source's captures (only those with status, unless
// empty) once none of them is received any more: a capture's event is
// made after its request has been answered.
func listCaptured(t *testing.T, c *client, sourceID, status string) []captured {
	t.Helper()
	list := func(status string) []captured {
		var out struct {
			Data []captured `json:"data"`
		}
		path := "/sources/" + sourceID + "/requests?limit=200"
		if status != "" {
			path += "&status=" + status
		}
		c.must(200, "GET", path, nil, &out)
		return out.Data
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return len(list("received")) == 0 },
		"captures of source %s still received: their events were not made", sourceID)
	return list(status)
}

func capturedDetail(t *testing.T, c *client, sourceID, requestID string) captured {
	t.Helper()
	var d captured
	c.must(200, "GET", "/sources/"+sourceID+"/requests/"+requestID, nil, &d)
	return d
}

type endpointCreated struct {
	ID     string `json:"id"`
	Secret string `json:"secret"`
}

// verifyFerrySignature checks Ferry's webhook-* headers over body with
// the endpoint's secret.
func verifyFerrySignature(t *testing.T, secret string, h http.Header, body []byte) {
	t.Helper()
	key, err := webhook.SecretKey(secret)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := strconv.ParseInt(h.Get("Webhook-Timestamp"), 10, 64)
	if err != nil {
		t.Fatalf("webhook-timestamp %q", h.Get("Webhook-Timestamp"))
	}
	if !webhook.Verify(key, h.Get("Webhook-Id"), ts, body, h.Get("Webhook-Signature")) {
		t.Errorf("Ferry's signature does not verify over the body it sent")
	}
}

// TestInboundForwardRawAndEnvelope: a GitHub source forwards a signed
// request to a raw endpoint (the original bytes and content type, signed
// by Ferry) and an envelope endpoint (the JSON body as data); a filter
// over the request decides a third; the capture shows its event and
// deliveries.
func TestInboundForwardRawAndEnvelope(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "in-forward@example.com")
	raw, env, issues := newReceiver(t, nil), newReceiver(t, nil), newReceiver(t, nil)
	var rawEp, envEp, issuesEp endpointCreated
	key.must(201, "POST", "/endpoints", map[string]any{"url": raw.URL + "/raw", "format": "raw", "event_types": []string{"github.*"}}, &rawEp)
	key.must(201, "POST", "/endpoints", map[string]any{"url": env.URL + "/env", "event_types": []string{"github.push"}}, &envEp)
	key.must(201, "POST", "/endpoints", map[string]any{"url": issues.URL + "/issues", "event_types": []string{"github.*"},
		"filter": `request.headers["x-github-event"] == "github.issues" && request.query.env == "prod"`}, &issuesEp)
	src := createSource(t, key, map[string]any{"name": "GitHub", "verification": map[string]string{"type": "github", "secret": "gh-secret"},
		"event_type": map[string]string{"header": "X-GitHub-Event"}})
	key.must(200, "PATCH", "/sources/"+src.ID, map[string]any{"event_type": map[string]string{"header": "X-GitHub-Event", "default": "github.unknown"}}, nil)
	// The type is github.<event>: a prefix rule is the portal's job, so
	// the sender names it here through the header itself.
	body := []byte("{\n  \"ref\": \"refs/heads/main\",\n  \"commits\": [ {\"id\": \"abc\"} ]\n}")
	res := signedGitHubPost(t, src.IngestURL+"?env=prod", "gh-secret", body, map[string]string{"X-GitHub-Event": "github.push"})
	if res.StatusCode != 200 || string(res.Body) != "{}" || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("ingest answered %d %q %q", res.StatusCode, res.Header.Get("Content-Type"), res.Body)
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return len(raw.requests()) == 1 && len(env.requests()) == 1 },
		"the capture was not forwarded to both endpoints")

	got := raw.requests()[0]
	if !bytes.Equal(got.Body, body) {
		t.Errorf("raw endpoint got %q, want the original bytes %q", got.Body, body)
	}
	if got.Header.Get("Content-Type") != "application/json" {
		t.Errorf("raw endpoint content type %q", got.Header.Get("Content-Type"))
	}
	verifyFerrySignature(t, rawEp.Secret, got.Header, got.Body)
	if src.LastRequestAt != nil {
		t.Errorf("a new source shows a last request at %s", src.LastRequestAt)
	}
	var listed struct {
		Data []sourceView `json:"data"`
	}
	key.must(200, "GET", "/sources", nil, &listed)
	if len(listed.Data) != 1 || listed.Data[0].LastRequestAt == nil || time.Since(*listed.Data[0].LastRequestAt) > time.Minute {
		t.Errorf("sources list after a request: %+v", listed.Data)
	}

	e := env.requests()[0]
	var envelope struct {
		ID   string          `json:"id"`
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(e.Body, &envelope); err != nil {
		t.Fatalf("envelope endpoint got %q: %v", e.Body, err)
	}
	if envelope.Type != "github.push" || string(envelope.Data) != `{"ref":"refs/heads/main","commits":[{"id":"abc"}]}` {
		t.Errorf("envelope %s", e.Body)
	}
	verifyFerrySignature(t, envEp.Secret, e.Header, e.Body)
	if len(issues.requests()) != 0 {
		t.Errorf("the filtered endpoint got the push")
	}

	// An issues event passes the third endpoint's filter.
	res = signedGitHubPost(t, src.IngestURL+"?env=prod", "gh-secret", []byte(`{"action":"opened"}`), map[string]string{"X-GitHub-Event": "github.issues"})
	if res.StatusCode != 200 {
		t.Fatalf("second ingest: %d %s", res.StatusCode, res.Body)
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return len(issues.requests()) == 1 }, "the filter over request did not route the issues event")

	caps := listCaptured(t, key, src.ID, "verified")
	if len(caps) != 2 {
		t.Fatalf("captured %d verified requests", len(caps))
	}
	d := capturedDetail(t, key, src.ID, caps[1].ID)
	if d.Method != "POST" || d.Path != "/in/{token}" || d.Query != "env=prod" || d.EventID == nil || d.Event == nil {
		t.Fatalf("capture detail %+v", d)
	}
	if strings.Contains(d.Path+d.Query, strings.TrimPrefix(src.IngestURL[strings.LastIndex(src.IngestURL, "/"):], "/")) {
		t.Errorf("the capture reveals the token: %s?%s", d.Path, d.Query)
	}
	if d.Headers["X-Hub-Signature-256"] == nil || d.Headers["X-Github-Event"][0] != "github.push" {
		t.Errorf("headers %v", d.Headers)
	}
	if d.Event.Type != "github.push" || len(d.Event.Deliveries) != 2 {
		t.Errorf("event %+v", d.Event)
	}

	// test-routing takes a sample request for filters over request, and
	// shows a raw endpoint's payload as the data itself.
	var tr struct {
		Matched     bool            `json:"matched"`
		FilterError string          `json:"filter_error"`
		Payload     json.RawMessage `json:"payload"`
	}
	sample := map[string]any{"type": "github.issues", "data": map[string]any{"action": "opened"}}
	key.must(200, "POST", "/endpoints/"+issuesEp.ID+"/test-routing", map[string]any{"event": sample,
		"request": map[string]any{"method": "POST", "headers": map[string]string{"x-github-event": "github.issues"}, "query": map[string]string{"env": "prod"}}}, &tr)
	if !tr.Matched || tr.FilterError != "" {
		t.Errorf("test-routing with a matching request: %+v", tr)
	}
	tr.Matched = true
	key.must(200, "POST", "/endpoints/"+issuesEp.ID+"/test-routing", map[string]any{"event": sample}, &tr)
	if tr.Matched || !strings.Contains(tr.FilterError, "x-github-event") {
		t.Errorf("test-routing without a request (a missing header is an error, not a match): %+v", tr)
	}
	key.must(200, "POST", "/endpoints/"+rawEp.ID+"/test-routing", map[string]any{"event": sample}, &tr)
	if !tr.Matched || string(tr.Payload) != `{"action":"opened"}` {
		t.Errorf("test-routing a raw endpoint: %+v %s", tr, tr.Payload)
	}
}

// TestInboundRawBytes: bodies that are not JSON, not UTF-8, or empty are
// captured byte for byte, become {"raw_base64"} events, and reach a raw
// endpoint unchanged with their content type (none when none was sent).
func TestInboundRawBytes(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "in-bytes@example.com")
	rc := newReceiver(t, nil)
	var ep endpointCreated
	key.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/raw", "format": "raw"}, &ep)
	src := createSource(t, key, map[string]any{"name": "bytes", "verification": map[string]string{"type": "none"},
		"event_type": map[string]string{"value": "bytes.received"}})

	cases := []struct {
		name, contentType string
		body              []byte
	}{
		{"form", "application/x-www-form-urlencoded", []byte("a=1&b=%20two&c")},
		{"binary", "application/octet-stream", []byte{0xff, 0xfe, 0x00, 0x01, 'x', 0x80, '\r', '\n'}},
		{"latin1 text", "text/plain; charset=iso-8859-1", []byte("caf\xe9 cr\xe8me")},
		{"empty", "", []byte{}},
		{"json with spaces", "application/json", []byte(" {\"b\": 1,\n\"a\": [ ] } ")},
	}
	for _, tc := range cases {
		h := map[string]string{}
		if tc.contentType != "" {
			h["Content-Type"] = tc.contentType
		}
		if res := postIngest(t, src.IngestURL, tc.body, h); res.StatusCode != 200 {
			t.Fatalf("%s: %d %s", tc.name, res.StatusCode, res.Body)
		}
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return len(rc.requests()) == len(cases) }, "not every capture was forwarded")
	caps := listCaptured(t, key, src.ID, "")
	if len(caps) != len(cases) {
		t.Fatalf("captured %d", len(caps))
	}
	byBody := map[string]received{}
	for _, r := range rc.requests() {
		byBody[string(r.Body)] = r
		verifyFerrySignature(t, ep.Secret, r.Header, r.Body)
	}
	for i, tc := range cases {
		c := caps[len(cases)-1-i] // newest first
		d := capturedDetail(t, key, src.ID, c.ID)
		b, err := base64.StdEncoding.DecodeString(d.BodyBase64)
		if err != nil || !bytes.Equal(b, tc.body) || d.BodySize != len(tc.body) {
			t.Errorf("%s: captured %q (size %d), want %q", tc.name, b, d.BodySize, tc.body)
		}
		if isText := d.BodyText != nil; isText != (tc.name != "binary" && tc.name != "latin1 text") {
			t.Errorf("%s: body_text %v", tc.name, d.BodyText)
		} else if isText && *d.BodyText != string(tc.body) {
			t.Errorf("%s: body_text %q", tc.name, *d.BodyText)
		}
		if d.ContentType != tc.contentType {
			t.Errorf("%s: content type %q", tc.name, d.ContentType)
		}
		if d.Event == nil {
			t.Fatalf("%s: no event", tc.name)
		}
		wantData := `{"raw_base64":"` + base64.StdEncoding.EncodeToString(tc.body) + `"}`
		if tc.name == "json with spaces" {
			wantData = `{"b":1,"a":[]}`
		}
		if string(d.Event.Data) != wantData {
			t.Errorf("%s: event data %s, want %s", tc.name, d.Event.Data, wantData)
		}
		fwd, ok := byBody[string(tc.body)]
		if !ok {
			t.Errorf("%s: the raw endpoint never got these bytes", tc.name)
			continue
		}
		if fwd.Header.Get("Content-Type") != tc.contentType {
			t.Errorf("%s: forwarded content type %q", tc.name, fwd.Header.Get("Content-Type"))
		}
	}

	// A raw endpoint gets an ordinary event's data as its body.
	key.must(202, "POST", "/events", map[string]any{"type": "plain.event", "data": map[string]int{"n": 7}}, nil)
	testenv.Eventually(t, 30*time.Second, func() bool { return len(rc.requests()) == len(cases)+1 }, "the plain event was not delivered")
	last := rc.requests()[len(cases)]
	if string(last.Body) != `{"n":7}` || last.Header.Get("Content-Type") != "application/json" {
		t.Errorf("raw endpoint got %q (%s) for a plain event", last.Body, last.Header.Get("Content-Type"))
	}

	// format: envelope by default, patchable, never raw for a queue.
	var e apiError
	if status := key.do("POST", "/endpoints", map[string]any{"kind": "queue", "format": "raw"}, &e); status != 422 || e.Error.Field != "format" {
		t.Errorf("raw queue endpoint: %d %+v", status, e)
	}
	if status := key.do("POST", "/endpoints", map[string]any{"url": rc.URL + "/x", "format": "xml"}, &e); status != 422 || e.Error.Field != "format" {
		t.Errorf("format xml: %d %+v", status, e)
	}
	var fmtView struct {
		Format string `json:"format"`
	}
	key.must(200, "PATCH", "/endpoints/"+ep.ID, map[string]any{"format": "envelope"}, &fmtView)
	if fmtView.Format != "envelope" {
		t.Errorf("patched format %q", fmtView.Format)
	}
	var plain endpointCreated
	key.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/default"}, &plain)
	key.must(200, "GET", "/endpoints/"+plain.ID, nil, &fmtView)
	if fmtView.Format != "envelope" {
		t.Errorf("default format %q", fmtView.Format)
	}

	// A raw endpoint forwards the body as received: no transformation,
	// whichever of the two is set first.
	const reshape = `function handler(w) { w.payload = {ok: true}; return w }`
	if status := key.do("POST", "/endpoints", map[string]any{"url": rc.URL + "/y", "format": "raw", "transformation": reshape}, &e); status != 422 || e.Error.Field != "transformation" {
		t.Errorf("raw endpoint with a transformation: %d %+v", status, e)
	}
	key.must(200, "PATCH", "/endpoints/"+plain.ID, map[string]any{"transformation": reshape}, nil)
	if status := key.do("PATCH", "/endpoints/"+plain.ID, map[string]any{"format": "raw"}, &e); status != 422 || e.Error.Field != "transformation" {
		t.Errorf("transformed endpoint made raw: %d %+v", status, e)
	}
	key.must(200, "PATCH", "/endpoints/"+plain.ID, map[string]any{"format": "raw", "transformation": ""}, &fmtView)
	if fmtView.Format != "raw" {
		t.Errorf("raw once the transformation is removed: %q", fmtView.Format)
	}
}

// TestInboundVerificationOverHTTP: valid, tampered, expired and missing
// signatures through the ingest URL; rejected requests are answered 401,
// kept as rejected with their reason, and never forwarded; beyond the
// per-minute cap they are counted, not stored.
func TestInboundVerificationOverHTTP(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "in-verify@example.com")
	rc := newReceiver(t, nil)
	key.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/hook"}, nil)
	const secret = "whsec_stripe_endpoint_secret"
	src := createSource(t, key, map[string]any{"name": "Stripe", "verification": map[string]string{"type": "stripe", "secret": secret},
		"event_type": map[string]string{"json_path": "type"}, "dedupe": map[string]string{"json_path": "id"}})
	body := []byte(`{"id":"evt_1","type":"charge.succeeded","data":{"object":{"amount":100}}}`)
	sign := func(ts int64, b []byte) string {
		return fmt.Sprintf("t=%d,v1=%s", ts, strings.TrimPrefix(githubSignature(secret, []byte(fmt.Sprintf("%d.%s", ts, b))), "sha256="))
	}
	now := time.Now().Unix()
	for _, tc := range []struct {
		name   string
		header string
		body   []byte
		want   int
		reason string
	}{
		{"valid", sign(now, body), body, 200, ""},
		{"tampered", sign(now, body), bytes.Replace(body, []byte("100"), []byte("999"), 1), 401, "signature does not match"},
		{"expired", sign(now-600, body), body, 401, "timestamp outside the 5 minute tolerance"},
		{"missing", "", body, 401, "missing Stripe-Signature header"},
	} {
		h := map[string]string{"Content-Type": "application/json"}
		if tc.header != "" {
			h["Stripe-Signature"] = tc.header
		}
		res := postIngest(t, src.IngestURL, tc.body, h)
		if res.StatusCode != tc.want {
			t.Fatalf("%s: %d %s", tc.name, res.StatusCode, res.Body)
		}
		if tc.want == 401 {
			var e apiError
			if err := json.Unmarshal(res.Body, &e); err != nil || e.Error.Code != "unauthorized" {
				t.Errorf("%s: body %s", tc.name, res.Body)
			}
		}
	}
	rejected := listCaptured(t, key, src.ID, "rejected")
	if len(rejected) != 3 {
		t.Fatalf("%d rejected captures", len(rejected))
	}
	reasons := map[string]bool{}
	for _, r := range rejected {
		reasons[r.Reason] = true
		if r.EventID != nil {
			t.Errorf("rejected request %s made event %s", r.ID, *r.EventID)
		}
	}
	for _, want := range []string{"signature does not match", "timestamp outside the 5 minute tolerance", "missing Stripe-Signature header"} {
		if !reasons[want] {
			t.Errorf("no rejected capture with reason %q: %v", want, reasons)
		}
	}
	verified := listCaptured(t, key, src.ID, "verified")
	if len(verified) != 1 || verified[0].DedupeKey == nil || *verified[0].DedupeKey != "evt_1" {
		t.Fatalf("verified: %+v", verified)
	}
	d := capturedDetail(t, key, src.ID, verified[0].ID)
	if d.Event == nil || d.Event.Type != "charge.succeeded" {
		t.Errorf("event %+v", d.Event)
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return len(rc.requests()) == 1 }, "the verified request was not forwarded")

	// A flood of bad signatures: the cap (60 a minute, 3 used) stores a
	// few dozen more, the rest is counted.
	const flood = 100
	for i := 0; i < flood; i++ {
		if res := postIngest(t, src.IngestURL, body, map[string]string{"Stripe-Signature": "t=1,v1=00"}); res.StatusCode != 401 {
			t.Fatalf("flood %d: %d", i, res.StatusCode)
		}
	}
	stored := len(listCaptured(t, key, src.ID, "rejected"))
	if stored < 60 || stored > 70 {
		t.Errorf("%d rejected requests stored after a flood of %d; the cap is 60 a minute", stored, flood)
	}
	testenv.Eventually(t, 30*time.Second, func() bool {
		var s sourceView
		key.must(200, "GET", "/sources/"+src.ID, nil, &s)
		return s.RejectedUnstored == int64(flood+3-stored)
	}, "the unstored rejected requests were not counted")
	if n := len(rc.requests()); n != 1 {
		t.Errorf("the receiver got %d requests; rejected ones must never be forwarded", n)
	}
}

// TestInboundDedupeAndReplay: a resend with the same dedupe key makes no
// second event (kept as duplicate, answered 200 with the custom
// response); replaying a capture makes a new event; a rejected capture
// cannot be replayed.
func TestInboundDedupeAndReplay(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "in-dedupe@example.com")
	rc := newReceiver(t, nil)
	key.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/hook", "format": "raw"}, nil)
	src := createSource(t, key, map[string]any{"name": "GitHub", "verification": map[string]string{"type": "github", "secret": "s3cret"},
		"event_type": map[string]string{"value": "github.push"}, "dedupe": map[string]string{"header": "X-GitHub-Delivery"},
		"response": map[string]any{"status": 202, "content_type": "text/plain", "body": "thanks"}})
	body := []byte(`{"zen":"Design for failure."}`)
	for i := 0; i < 3; i++ {
		res := signedGitHubPost(t, src.IngestURL, "s3cret", body, map[string]string{"X-GitHub-Delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958"})
		if res.StatusCode != 202 || string(res.Body) != "thanks" || res.Header.Get("Content-Type") != "text/plain" {
			t.Fatalf("send %d: %d %q %q", i, res.StatusCode, res.Header.Get("Content-Type"), res.Body)
		}
	}
	if res := signedGitHubPost(t, src.IngestURL, "s3cret", body, map[string]string{"X-GitHub-Delivery": "another"}); res.StatusCode != 202 {
		t.Fatalf("other delivery: %d", res.StatusCode)
	}
	if dups := listCaptured(t, key, src.ID, "duplicate"); len(dups) != 2 || dups[0].EventID != nil {
		t.Fatalf("duplicates: %+v", dups)
	}
	verified := listCaptured(t, key, src.ID, "verified")
	if len(verified) != 2 {
		t.Fatalf("verified: %+v", verified)
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return len(rc.requests()) == 2 }, "the two distinct deliveries were not forwarded")

	// Concurrent resends (committed together or not) still make one event.
	var wg sync.WaitGroup
	for i := 0; i < 12; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if res := signedGitHubPost(t, src.IngestURL, "s3cret", body, map[string]string{"X-GitHub-Delivery": "concurrent"}); res.StatusCode != 202 {
				t.Errorf("concurrent resend: %d %s", res.StatusCode, res.Body)
			}
		}()
	}
	wg.Wait()
	verified = listCaptured(t, key, src.ID, "verified")
	if len(verified) != 3 || len(listCaptured(t, key, src.ID, "duplicate")) != 2+11 {
		t.Fatalf("after 12 concurrent resends: %d verified", len(verified))
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return len(rc.requests()) == 3 }, "the concurrent delivery was not forwarded")
	verified = verified[1:] // the oldest two, as before

	var replay struct {
		RequestID string `json:"request_id"`
		EventID   string `json:"event_id"`
	}
	first := verified[1]
	key.must(202, "POST", "/sources/"+src.ID+"/requests/"+first.ID+"/replay", nil, &replay)
	if replay.EventID == "" || replay.EventID == *first.EventID || replay.RequestID != first.ID {
		t.Fatalf("replay %+v of %+v", replay, first)
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return len(rc.requests()) == 4 }, "the replayed event was not forwarded")
	if got := rc.requests()[3]; !bytes.Equal(got.Body, body) || got.Header.Get("Webhook-Id") != replay.EventID {
		t.Errorf("replay forwarded %q as %s", got.Body, got.Header.Get("Webhook-Id"))
	}
	// A duplicate can be replayed on purpose; a rejected request never.
	dup := listCaptured(t, key, src.ID, "duplicate")[0]
	key.must(202, "POST", "/sources/"+src.ID+"/requests/"+dup.ID+"/replay", nil, nil)
	if res := postIngest(t, src.IngestURL, body, nil); res.StatusCode != 401 {
		t.Fatalf("unsigned: %d", res.StatusCode)
	}
	rej := listCaptured(t, key, src.ID, "rejected")[0]
	res := key.raw("POST", "/sources/"+src.ID+"/requests/"+rej.ID+"/replay", nil, nil)
	if res.Status != 422 {
		t.Errorf("replaying a rejected request: %d %s", res.Status, res.Body)
	}
}

// TestInboundLimits: bodies over 1 MiB are refused with 413 and not
// captured; a source's rate limit answers 429 with Retry-After before
// capturing, and every request answered 200 became exactly one event.
func TestInboundLimits(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "in-limits@example.com")
	src := createSource(t, key, map[string]any{"name": "limited", "verification": map[string]string{"type": "none"},
		"event_type": map[string]string{"value": "limited.event"}, "rate_limit_per_second": 5})

	exact := bytes.Repeat([]byte("a"), 1<<20)
	if res := postIngest(t, src.IngestURL, exact, map[string]string{"Content-Type": "text/plain"}); res.StatusCode != 200 {
		t.Fatalf("1 MiB body: %d %s", res.StatusCode, res.Body)
	}
	over := append(exact, 'b')
	res := postIngest(t, src.IngestURL, over, map[string]string{"Content-Type": "text/plain"})
	if res.StatusCode != 413 {
		t.Fatalf("1 MiB + 1 byte: %d %s", res.StatusCode, res.Body)
	}
	var e apiError
	if err := json.Unmarshal(res.Body, &e); err != nil || e.Error.Code != "payload_too_large" {
		t.Errorf("413 body %s", res.Body)
	}
	if n := len(listCaptured(t, key, src.ID, "")); n != 1 {
		t.Fatalf("%d captures after the refused body", n)
	}

	// A burst of 40 at a source limited to 5 a second.
	var mu sync.Mutex
	statuses := map[int]int{}
	retryAfter := ""
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res := postIngest(t, src.IngestURL, []byte(fmt.Sprintf(`{"n":%d}`, i)), map[string]string{"Content-Type": "application/json"})
			mu.Lock()
			defer mu.Unlock()
			statuses[res.StatusCode]++
			if res.StatusCode == 429 {
				retryAfter = res.Header.Get("Retry-After")
			}
		}(i)
	}
	wg.Wait()
	if statuses[429] == 0 || statuses[200] == 0 || statuses[200]+statuses[429] != 40 {
		t.Fatalf("statuses %v", statuses)
	}
	if n, err := strconv.Atoi(retryAfter); err != nil || n < 1 {
		t.Errorf("Retry-After %q", retryAfter)
	}
	caps := listCaptured(t, key, src.ID, "verified")
	if len(caps) != statuses[200]+1 {
		t.Errorf("%d requests answered 200 but %d captured", statuses[200]+1, len(caps))
	}
	events := map[string]bool{}
	for _, c := range caps {
		if c.EventID == nil {
			t.Errorf("accepted capture %s has no event", c.ID)
			continue
		}
		events[*c.EventID] = true
	}
	var evs struct {
		Data []idOnly `json:"data"`
	}
	key.must(200, "GET", "/events?type=limited.event&limit=200", nil, &evs)
	if len(evs.Data) != len(caps) || len(events) != len(caps) {
		t.Errorf("%d events for %d accepted captures", len(evs.Data), len(caps))
	}

	// Forged requests never use up the rate: they are 401, and the
	// provider's signed request right after them is accepted.
	signed := createSource(t, key, map[string]any{"name": "signed", "verification": map[string]string{"type": "github", "secret": "k"},
		"event_type": map[string]string{"value": "limited.signed"}, "rate_limit_per_second": 2})
	for i := 0; i < 10; i++ {
		if res := postIngest(t, signed.IngestURL, []byte(`{}`), map[string]string{"X-Hub-Signature-256": "sha256=00"}); res.StatusCode != 401 {
			t.Fatalf("forged request %d: %d", i, res.StatusCode)
		}
	}
	if res := signedGitHubPost(t, signed.IngestURL, "k", []byte(`{}`), nil); res.StatusCode != 200 {
		t.Errorf("signed request after forged ones: %d %s", res.StatusCode, res.Body)
	}
}

// TestInboundTokensAndHandshakes: unknown, disabled and rotated-out
// tokens are 404 in the error shape; the new token works; GET answers
// hub.challenge; Slack's url_verification is answered with its challenge.
func TestInboundTokensAndHandshakes(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "in-tokens@example.com")
	src := createSource(t, key, map[string]any{"name": "tokens", "verification": map[string]string{"type": "none"},
		"event_type": map[string]string{"value": "t.event"}})
	notFound := func(url, what string) {
		t.Helper()
		res := postIngest(t, url, []byte(`{}`), nil)
		var e apiError
		if res.StatusCode != 404 || json.Unmarshal(res.Body, &e) != nil || e.Error.Code != "not_found" {
			t.Errorf("%s: %d %s", what, res.StatusCode, res.Body)
		}
	}
	base := src.IngestURL[:strings.LastIndex(src.IngestURL, "/")+1]
	notFound(base+"src_unknown", "unknown token")
	if res := postIngest(t, src.IngestURL, []byte(`{}`), nil); res.StatusCode != 200 {
		t.Fatalf("live token: %d", res.StatusCode)
	}
	key.must(200, "PATCH", "/sources/"+src.ID, map[string]any{"enabled": false}, nil)
	notFound(src.IngestURL, "disabled source")
	key.must(200, "PATCH", "/sources/"+src.ID, map[string]any{"enabled": true}, nil)
	var rotated sourceView
	key.must(200, "POST", "/sources/"+src.ID+"/rotate-token", nil, &rotated)
	if rotated.IngestURL == src.IngestURL {
		t.Fatal("rotation kept the token")
	}
	notFound(src.IngestURL, "rotated-out token")
	if res := postIngest(t, rotated.IngestURL+"/sub/path", []byte(`{}`), nil); res.StatusCode != 200 {
		t.Fatalf("new token: %d %s", res.StatusCode, res.Body)
	}

	res, err := http.Get(rotated.IngestURL + "?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=meatyhamhock")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	_, _ = b.ReadFrom(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || b.String() != "1158201444" {
		t.Errorf("hub.challenge: %d %q", res.StatusCode, b.String())
	}
	sl := postIngest(t, rotated.IngestURL, []byte(`{"token":"Jhj5dZrVaK7ZwHHjRyZWjbDl","challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P","type":"url_verification"}`),
		map[string]string{"Content-Type": "application/json"})
	if sl.StatusCode != 200 || string(sl.Body) != `{"challenge":"3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"}` {
		t.Errorf("url_verification: %d %s", sl.StatusCode, sl.Body)
	}
	// Other methods are refused, never answered by the portal.
	req, _ := http.NewRequest(http.MethodDelete, rotated.IngestURL, nil)
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode/100 == 2 {
		t.Errorf("DELETE on an ingest URL: %v %v", res, err)
	}
	caps := listCaptured(t, key, src.ID, "")
	if len(caps) != 3 {
		t.Fatalf("%d captures", len(caps))
	}
	if caps[1].Path != "/in/{token}/sub/path" {
		t.Errorf("sub-path capture: %q", caps[1].Path)
	}
	var deleted sourceView
	key.must(204, "DELETE", "/sources/"+src.ID, nil, nil)
	notFound(rotated.IngestURL, "deleted source")
	if status := key.do("GET", "/sources/"+src.ID, nil, &deleted); status != 404 {
		t.Errorf("deleted source: %d", status)
	}
}

// TestInboundRetention: captures older than the plan keeps (the free
// plan: 3 days) are pruned, rejected ones too; newer ones stay.
func TestInboundRetention(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "in-retention@example.com")
	src := createSource(t, key, map[string]any{"name": "old", "verification": map[string]string{"type": "basic_auth", "username": "u", "password": "p"},
		"event_type": map[string]string{"value": "old.event"}})
	auth := "Basic " + base64.StdEncoding.EncodeToString([]byte("u:p"))
	for i := 0; i < 3; i++ {
		if res := postIngest(t, src.IngestURL, []byte(`{}`), map[string]string{"Authorization": auth}); res.StatusCode != 200 {
			t.Fatalf("post: %d %s", res.StatusCode, res.Body)
		}
	}
	if res := postIngest(t, src.IngestURL, []byte(`{}`), map[string]string{"Authorization": "Basic dTp4"}); res.StatusCode != 401 {
		t.Fatalf("wrong password: %d", res.StatusCode)
	}
	caps := listCaptured(t, key, src.ID, "")
	db := testenv.DB(t, f.Cfg.DatabaseURL)
	age := func(id string, d time.Duration) {
		if _, err := db.Exec(`UPDATE source_requests SET received_at = received_at - $2::interval WHERE id = $1`, id, fmt.Sprintf("%d seconds", int(d.Seconds()))); err != nil {
			t.Fatal(err)
		}
	}
	// caps[0] is the rejected one (newest).
	age(caps[0].ID, 4*24*time.Hour)
	age(caps[1].ID, 4*24*time.Hour)
	age(caps[2].ID, 2*24*time.Hour)
	// Hidden at once, as attempts past retention are, and pruned later.
	if visible := listCaptured(t, key, src.ID, ""); len(visible) != 2 {
		t.Errorf("%d captures visible after aging two past retention", len(visible))
	}
	if status := key.do("GET", "/sources/"+src.ID+"/requests/"+caps[1].ID, nil, nil); status != 404 {
		t.Errorf("a capture past retention: %d", status)
	}
	n, err := f.App.Inbound.Prune(context.Background())
	if err != nil || n != 2 {
		t.Fatalf("pruned %d: %v", n, err)
	}
	left := listCaptured(t, key, src.ID, "")
	if len(left) != 2 || left[0].ID != caps[2].ID && left[1].ID != caps[2].ID {
		t.Errorf("left %+v", left)
	}
}
