package tests

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/page"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// rowCounts counts what a tenant owns, to show a refused request wrote
// nothing.
func rowCounts(t *testing.T, db *sql.DB) string {
	t.Helper()
	var out []string
	for _, table := range []string{"tenants", "users", "api_keys", "endpoints", "endpoint_secrets", "events", "deliveries", "outbox", "replay_jobs", "audit_log"} {
		var n int
		if err := db.QueryRowContext(context.Background(), "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			t.Fatalf("count %s: %v", table, err)
		}
		out = append(out, fmt.Sprintf("%s=%d", table, n))
	}
	return strings.Join(out, " ")
}

// TestBadInput: each malformed request gets the error shape with the
// right status, code and field, and writes nothing.
func TestBadInput(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	db := testenv.DB(t, f.Cfg.DatabaseURL)
	session, key := signUp(t, f, "ann@bad.example")
	var ep idOnly
	key.must(201, "POST", "/endpoints", map[string]string{"url": "http://127.0.0.1:9/hook"}, &ep)
	anon := newClient(t, f.URL+"/api/v1")

	big := strings.Repeat("a", delivery.MaxPayloadBytes)
	cases := []struct {
		name   string
		c      *client
		method string
		path   string
		body   string
		header map[string]string
		status int
		code   string
		field  string
	}{
		{"malformed JSON", key, "POST", "/endpoints", `{"url":`, nil, 400, "bad_request", ""},
		{"not an object", key, "POST", "/endpoints", `[1,2]`, nil, 422, "invalid", ""},
		{"two values", key, "POST", "/events", `{"type":"a","data":1} {}`, nil, 400, "bad_request", ""},
		{"empty body", key, "POST", "/endpoints", ``, nil, 400, "bad_request", ""},
		{"wrong content type", key, "POST", "/endpoints", `{"url":"http://127.0.0.1:9/x"}`, map[string]string{"Content-Type": "text/plain"}, 400, "bad_request", ""},
		{"invalid UTF-8 body", key, "POST", "/endpoints", "{\"url\":\"http://127.0.0.1:9/x\",\"description\":\"\xff\xfe\"}", nil, 400, "bad_request", ""},
		{"url wrong type", key, "POST", "/endpoints", `{"url":5}`, nil, 422, "invalid", "url"},
		{"url missing", key, "POST", "/endpoints", `{"description":"no url"}`, nil, 422, "invalid", "url"},
		{"url not http", key, "POST", "/endpoints", `{"url":"ftp://example.com/x"}`, nil, 422, "invalid", "url"},
		{"url javascript", key, "POST", "/endpoints", `{"url":"javascript:alert(1)"}`, nil, 422, "invalid", "url"},
		{"url relative", key, "POST", "/endpoints", `{"url":"/hook"}`, nil, 422, "invalid", "url"},
		{"url not a url", key, "POST", "/endpoints", `{"url":"not a url"}`, nil, 422, "invalid", "url"},
		{"url metadata address", key, "POST", "/endpoints", `{"url":"http://169.254.169.254/latest"}`, nil, 422, "invalid", "url"},
		{"url overlong", key, "POST", "/endpoints", `{"url":"http://127.0.0.1:9/` + strings.Repeat("a", 3000) + `"}`, nil, 422, "invalid", "url"},
		{"description overlong", key, "POST", "/endpoints", `{"url":"http://127.0.0.1:9/x","description":"` + strings.Repeat("é", 501) + `"}`, nil, 422, "invalid", "description"},
		{"timeout wrong type", key, "POST", "/endpoints", `{"url":"http://127.0.0.1:9/x","timeout_seconds":"ten"}`, nil, 422, "invalid", "timeout_seconds"},
		{"timeout too long", key, "POST", "/endpoints", `{"url":"http://127.0.0.1:9/x","timeout_seconds":31}`, nil, 422, "invalid", "timeout_seconds"},
		{"event types wrong type", key, "POST", "/endpoints", `{"url":"http://127.0.0.1:9/x","event_types":"all"}`, nil, 422, "invalid", "event_types"},
		{"reserved header", key, "POST", "/endpoints", `{"url":"http://127.0.0.1:9/x","headers":{"webhook-signature":"x"}}`, nil, 422, "invalid", "headers"},
		{"header injection", key, "POST", "/endpoints", `{"url":"http://127.0.0.1:9/x","headers":{"X-A":"a\r\nX-B: b"}}`, nil, 422, "invalid", "headers"},
		{"patch wrong type", key, "PATCH", "/endpoints/" + ep.ID, `{"enabled":"yes"}`, nil, 422, "invalid", "enabled"},
		{"patch bad url", key, "PATCH", "/endpoints/" + ep.ID, `{"url":"gopher://x"}`, nil, 422, "invalid", "url"},
		{"event type missing", key, "POST", "/events", `{"data":{}}`, nil, 422, "invalid", "type"},
		{"event data missing", key, "POST", "/events", `{"type":"a.b"}`, nil, 422, "invalid", "data"},
		{"event type wrong type", key, "POST", "/events", `{"type":1,"data":{}}`, nil, 422, "invalid", "type"},
		{"event type SQL", key, "POST", "/events", `{"type":"x'; DROP TABLE events; --","data":{}}`, nil, 422, "invalid", "type"},
		{"event type overlong", key, "POST", "/events", `{"type":"` + strings.Repeat("t", 101) + `","data":{}}`, nil, 422, "invalid", "type"},
		{"idempotency key overlong", key, "POST", "/events", `{"type":"a","data":{},"idempotency_key":"` + strings.Repeat("k", 256) + `"}`, nil, 422, "invalid", "idempotency_key"},
		{"idempotency key mismatch", key, "POST", "/events", `{"type":"a","data":{},"idempotency_key":"one"}`, map[string]string{"Idempotency-Key": "two"}, 422, "invalid", "idempotency_key"},
		{"data over 256 KiB", key, "POST", "/events", `{"type":"a","data":"` + big + `"}`, nil, 413, "payload_too_large", "data"},
		{"body over the limit", key, "POST", "/events", `{"type":"a","data":"` + big + big + `"}`, nil, 413, "payload_too_large", ""},
		{"api key name overlong", session, "POST", "/api-keys", `{"name":"` + strings.Repeat("n", 101) + `"}`, nil, 422, "invalid", "name"},
		{"api key name missing", session, "POST", "/api-keys", `{}`, nil, 422, "invalid", "name"},
		{"signup email wrong type", anon, "POST", "/auth/signup", `{"email":["a"],"password":"correct horse battery","organization":"o"}`, nil, 422, "invalid", "email"},
		{"signup bad email", anon, "POST", "/auth/signup", `{"email":"not-an-email","password":"correct horse battery","organization":"o"}`, nil, 422, "invalid", "email"},
		{"signup short password", anon, "POST", "/auth/signup", `{"email":"x@bad.example","password":"short","organization":"o"}`, nil, 422, "invalid", "password"},
		{"signup org overlong", anon, "POST", "/auth/signup", `{"email":"x@bad.example","password":"correct horse battery","organization":"` + strings.Repeat("o", 201) + `"}`, nil, 422, "invalid", "organization"},
		{"signup SQL email", anon, "POST", "/auth/signup", `{"email":"' OR 1=1; --","password":"correct horse battery","organization":"o"}`, nil, 422, "invalid", "email"},
		{"login SQL email", anon, "POST", "/auth/login", `{"email":"admin'--@x.example","password":"' OR '1'='1"}`, nil, 401, "unauthorized", ""},
		{"member bad role", session, "POST", "/members", `{"email":"m@bad.example","role":"god"}`, nil, 422, "invalid", "role"},
		{"member role missing", session, "PATCH", "/members/" + ep.ID, `{}`, nil, 422, "invalid", "role"},
		{"replay bad endpoint id", key, "POST", "/replays", `{"endpoint_id":"'; DELETE FROM deliveries; --"}`, nil, 422, "invalid", "endpoint_id"},
		{"replay bad since", key, "POST", "/replays", `{"since":"yesterday"}`, nil, 422, "invalid", "since"},
		{"replay bad status", key, "POST", "/replays", `{"status":"lost"}`, nil, 422, "invalid", "status"},
		{"replay since after until", key, "POST", "/replays", `{"since":"2026-11-22T05:00:00Z","until":"2026-11-21T05:00:00Z"}`, nil, 422, "invalid", "until"},
		{"list bad limit", key, "GET", "/events?limit=abc", ``, nil, 422, "invalid", "limit"},
		{"list limit too big", key, "GET", "/endpoints?limit=1000", ``, nil, 422, "invalid", "limit"},
		{"list bad cursor", key, "GET", "/events?cursor=!!!", ``, nil, 422, "invalid", "cursor"},
		// Every list reads cursors alike (package page), including one
		// that decodes but names no time for a time-ordered list.
		{"list cursor without a time", key, "GET", "/events?cursor=" + page.Cursor{Seq: 5}.Encode(), ``, nil, 422, "invalid", "cursor"},
		{"endpoints bad cursor", key, "GET", "/endpoints?cursor=bm90IGpzb24", ``, nil, 422, "invalid", "cursor"},
		{"attempts bad cursor", key, "GET", "/endpoints/" + ep.ID + "/attempts?cursor=!!!", ``, nil, 422, "invalid", "cursor"},
		{"replays bad cursor", key, "GET", "/replays?cursor=!!!", ``, nil, 422, "invalid", "cursor"},
		{"invoices bad cursor", session, "GET", "/billing/invoices?cursor=2026-10", ``, nil, 422, "invalid", "cursor"},
		{"list bad since", key, "GET", "/events?since=yesterday", ``, nil, 422, "invalid", "since"},
		{"list bad status", key, "GET", "/events?status=lost", ``, nil, 422, "invalid", "status"},
		{"malformed id", key, "GET", "/endpoints/1%20OR%201=1", ``, nil, 404, "not_found", ""},
		{"unknown route", key, "GET", "/nothing-here", ``, nil, 404, "not_found", ""},
	}

	before := rowCounts(t, db)
	for _, tc := range cases {
		var body []byte
		if tc.body != "" || tc.method != "GET" {
			body = []byte(tc.body)
		}
		r := tc.c.raw(tc.method, tc.path, body, tc.header)
		if r.Status != tc.status {
			t.Errorf("%s: status %d, want %d: %.300s", tc.name, r.Status, tc.status, r.Body)
			continue
		}
		e := r.apiError(t)
		if e.Error.Code != tc.code || e.Error.Field != tc.field {
			t.Errorf("%s: error %+v, want code %q field %q", tc.name, e.Error, tc.code, tc.field)
		}
	}
	if after := rowCounts(t, db); after != before {
		t.Errorf("refused requests wrote rows:\nbefore %s\nafter  %s", before, after)
	}

	// SQL-looking strings in valid fields and queries are plain data.
	sqlish := `Robert'); DROP TABLE endpoints;--`
	var created struct {
		Description string `json:"description"`
	}
	key.must(201, "POST", "/endpoints", map[string]string{"url": "http://127.0.0.1:9/x", "description": sqlish}, &created)
	if created.Description != sqlish {
		t.Errorf("description stored as %q", created.Description)
	}
	var events struct {
		Data []idOnly `json:"data"`
	}
	key.must(200, "GET", "/events?type="+strings.ReplaceAll("' OR '1'='1", " ", "%20"), nil, &events)
	if len(events.Data) != 0 {
		t.Errorf("SQL-looking filter matched %d events", len(events.Data))
	}
	key.must(200, "GET", "/endpoints", nil, nil) // the table is still there
}

// TestAPIRateLimit: past the per-tenant rate a tenant gets 429 with
// Retry-After and RateLimit headers; another tenant is unaffected and
// sees its own bucket.
func TestAPIRateLimit(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.APIRateLimitPerSecond = 5
	f := startFerry(t, cfg)
	_, key := signUp(t, f, "ann@rate.example")
	_, other := signUp(t, f, "bob@rate.example")
	// Thirty at once, so a slow machine cannot spread them over seconds.
	var mu sync.Mutex
	var limited []response
	var wg sync.WaitGroup
	for range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r := key.raw("GET", "/endpoints", nil, nil); r.Status == 429 {
				mu.Lock()
				limited = append(limited, r)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(limited) == 0 {
		t.Fatal("30 requests at once were never limited at 5/s")
	}
	r := limited[0]
	if r.Header.Get("Retry-After") == "" || r.apiError(t).Error.Code != "rate_limited" {
		t.Errorf("429 without Retry-After or code: %v %s", r.Header, r.Body)
	}
	if r.Header.Get("RateLimit-Limit") != "5" || r.Header.Get("RateLimit-Remaining") != "0" || r.Header.Get("RateLimit-Reset") == "" {
		t.Errorf("429 RateLimit headers: limit %q remaining %q reset %q", r.Header.Get("RateLimit-Limit"),
			r.Header.Get("RateLimit-Remaining"), r.Header.Get("RateLimit-Reset"))
	}
	r = other.raw("GET", "/endpoints", nil, nil)
	if r.Status != 200 {
		t.Errorf("another tenant was limited too: %d", r.Status)
	}
	// Its own bucket, with its own count (sign-up's requests and this one).
	if rem, err := strconv.Atoi(r.Header.Get("RateLimit-Remaining")); r.Header.Get("RateLimit-Limit") != "5" || err != nil || rem < 0 || rem > 4 {
		t.Errorf("the bystander's RateLimit headers: limit %q remaining %q", r.Header.Get("RateLimit-Limit"), r.Header.Get("RateLimit-Remaining"))
	}
}

// TestIdempotencyUnderConcurrency: twenty concurrent requests with one
// key create one event and one set of deliveries, and all get its id.
func TestIdempotencyUnderConcurrency(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	db := testenv.DB(t, f.Cfg.DatabaseURL)
	rc := newReceiver(t, nil)
	_, key := signUp(t, f, "ann@idem.example")
	for i := range 2 {
		key.must(201, "POST", "/endpoints", map[string]string{"url": fmt.Sprintf("%s/%d", rc.URL, i)}, nil)
	}
	const n = 20
	ids := make([]string, n)
	statuses := make([]int, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			hdr := map[string]string{}
			body := `{"type":"order.created","data":{"n":1},"idempotency_key":"order-42"}`
			if i%2 == 1 { // half send the key as a header
				hdr["Idempotency-Key"] = "order-42"
				body = `{"type":"order.created","data":{"n":1}}`
			}
			r := key.raw("POST", "/events", []byte(body), hdr)
			statuses[i] = r.Status
			var ev idOnly
			_ = jsonUnmarshal(r.Body, &ev)
			ids[i] = ev.ID
		}()
	}
	close(start)
	wg.Wait()
	for i := range n {
		if statuses[i] != 202 || ids[i] == "" || ids[i] != ids[0] {
			t.Errorf("request %d: %d id %q, want 202 and %q", i, statuses[i], ids[i], ids[0])
		}
	}
	var events, deliveries int
	db.QueryRow(`SELECT count(*) FROM events`).Scan(&events)
	db.QueryRow(`SELECT count(*) FROM deliveries`).Scan(&deliveries)
	if events != 1 || deliveries != 2 {
		t.Errorf("%d events and %d deliveries, want 1 and 2", events, deliveries)
	}
	// Sent later, the same request still returns the original.
	r := key.raw("POST", "/events", []byte(`{"type":"order.created","data":{"n":1},"idempotency_key":"order-42"}`), nil)
	var ev idOnly
	_ = jsonUnmarshal(r.Body, &ev)
	if r.Status != 202 || ev.ID != ids[0] || r.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("repeat: %d %s %v", r.Status, r.Body, r.Header)
	}
	// The same key for a different event is the caller's mistake: refused.
	for _, body := range []string{
		`{"type":"order.created","data":{"n":2},"idempotency_key":"order-42"}`,
		`{"type":"order.updated","data":{"n":1},"idempotency_key":"order-42"}`,
	} {
		r := key.raw("POST", "/events", []byte(body), nil)
		if r.Status != 422 || r.apiError(t).Error.Code != "idempotency_key_reused" || r.apiError(t).Error.Field != "idempotency_key" {
			t.Errorf("reused key with %s: %d %s", body, r.Status, r.Body)
		}
	}
	db.QueryRow(`SELECT count(*) FROM events`).Scan(&events)
	if events != 1 {
		t.Errorf("%d events after the reused keys, want 1", events)
	}
}

// TestOversizedBodyGetsAnAnswer: a client still writing a body over the
// limit gets our 413, not a connection reset, every time.
func TestOversizedBodyGetsAnAnswer(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "oz@bad.example")
	body := []byte(`{"type":"a","data":"` + strings.Repeat("a", 1<<20) + `"}`)
	for i := 0; i < 30; i++ {
		r := key.raw("POST", "/events", body, nil)
		if r.Status != 413 {
			t.Fatalf("try %d: status %d, want 413: %.300s", i, r.Status, r.Body)
		}
		if e := r.apiError(t); e.Error.Code != "payload_too_large" {
			t.Fatalf("try %d: error %+v", i, e.Error)
		}
	}
}

// TestRequestIDs: every response names its request in X-Request-Id: the
// caller's id when well formed, a fresh one otherwise (never a header or
// log line a caller could forge), errors and unknown routes included.
func TestRequestIDs(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "rid@example.com")
	r := key.raw("GET", "/endpoints", nil, map[string]string{"X-Request-Id": "caller-42.a_b"})
	if got := r.Header.Get("X-Request-Id"); r.Status != 200 || got != "caller-42.a_b" {
		t.Errorf("a well-formed caller id: %d, X-Request-Id %q", r.Status, got)
	}
	seen := map[string]bool{}
	for _, id := range []string{"", "has space", strings.Repeat("x", 200), "line\\nbreak"} {
		r := key.raw("GET", "/endpoints/not-a-uuid", nil, map[string]string{"X-Request-Id": id})
		got := r.Header.Get("X-Request-Id")
		if got == "" || got == id || len(got) != 32 || seen[got] {
			t.Errorf("caller id %q: X-Request-Id %q, want a fresh 32-hex id", id, got)
		}
		seen[got] = true
	}
}
