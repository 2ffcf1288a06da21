package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// fakeFerry answers each request with the next of its handlers (the last
// one repeats) and records what it received.
type fakeFerry struct {
	mu       sync.Mutex
	handlers []http.HandlerFunc
	got      []*http.Request
}

func (f *fakeFerry) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	n := len(f.got)
	f.got = append(f.got, r.Clone(context.Background()))
	h := f.handlers[min(n, len(f.handlers)-1)]
	f.mu.Unlock()
	h(w, r)
}

func (f *fakeFerry) requests() []*http.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*http.Request(nil), f.got...)
}

func answer(status int, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}
}

// hangUp drops the connection without an answer: a network error.
func hangUp(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		conn.Close()
	}
}

const accepted = `{"id":"0190f1d2-8d3e-7c6a-9b1e-2f4a5c6d7e8f","type":"invoice.paid","created_at":"2026-01-02T03:04:05.000Z"}`

// testBundle is a Client on a fake Ferry whose waits are recorded, not
// slept.
type testBundle struct {
	client *Client
	fake   *fakeFerry
	slept  *[]time.Duration
}

func setup(t *testing.T, p RetryPolicy, handlers ...http.HandlerFunc) testBundle {
	t.Helper()
	fake := &fakeFerry{handlers: handlers}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	var slept []time.Duration
	hc := srv.Client()
	// net/http itself resends a request carrying Idempotency-Key once
	// when a reused connection drops; fresh connections keep hangUp's
	// error visible to the retrying layer under test.
	hc.Transport.(*http.Transport).DisableKeepAlives = true
	doer := newRetryingDoer(hc, p)
	clock := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	doer.now = func() time.Time { return clock }
	doer.sleep = func(_ context.Context, d time.Duration) error {
		slept = append(slept, d)
		clock = clock.Add(d)
		return nil
	}
	doer.jitter = func(n int64) int64 { return n / 2 }
	c, err := newClient(Config{BaseURL: srv.URL, APIKey: "fry_test"}, doer)
	if err != nil {
		t.Fatal(err)
	}
	return testBundle{client: c, fake: fake, slept: &slept}
}

func TestCreateRetries429AfterRetryAfterWithOneIdempotencyKey(t *testing.T) {
	t.Parallel()
	b := setup(t, RetryPolicy{},
		answer(429, `{"error":{"code":"rate_limited","message":"slow down"}}`, "Retry-After", "2"),
		hangUp,
		answer(202, accepted))
	ev, err := b.client.Events.Create(context.Background(), EventInput{Type: "invoice.paid", Data: map[string]any{"n": 1}})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Type != "invoice.paid" {
		t.Errorf("type %q", ev.Type)
	}
	reqs := b.fake.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	key := reqs[0].Header.Get("Idempotency-Key")
	if key == "" {
		t.Fatal("no Idempotency-Key on a creating POST")
	}
	for i, r := range reqs {
		if r.Header.Get("Idempotency-Key") != key || r.Header.Get("Authorization") != "Bearer fry_test" {
			t.Errorf("attempt %d: key %q auth %q, want %q and the API key", i+1, r.Header.Get("Idempotency-Key"), r.Header.Get("Authorization"), key)
		}
	}
	// Retry-After first; then the jittered backoff of attempt 2 (half
	// of 2×250 ms, as jitter is fixed at n/2 here).
	if want := []time.Duration{2 * time.Second, 250 * time.Millisecond}; fmt.Sprint(*b.slept) != fmt.Sprint(want) {
		t.Errorf("waited %v, want %v", *b.slept, want)
	}

	b2 := setup(t, RetryPolicy{}, answer(202, accepted))
	if _, err := b2.client.Events.Create(context.Background(), EventInput{Type: "a", Data: 1}, WithIdempotencyKey("order-42")); err != nil {
		t.Fatal(err)
	}
	if got := b2.fake.requests()[0].Header.Get("Idempotency-Key"); got != "order-42" {
		t.Errorf("Idempotency-Key %q, want the caller's order-42", got)
	}
}

func TestRetriesAreBounded(t *testing.T) {
	t.Parallel()
	limited := answer(429, `{"error":{"code":"rate_limited","message":"slow down"}}`, "Retry-After", "1", "X-Request-Id", "req-1")
	tests := []struct {
		name     string
		policy   RetryPolicy
		handler  http.HandlerFunc
		requests int
	}{
		{"attempts", RetryPolicy{MaxAttempts: 3}, limited, 3},
		{"total time", RetryPolicy{MaxElapsed: 1500 * time.Millisecond}, limited, 2},
		{"Retry-After beyond the budget", RetryPolicy{}, answer(429, `{"error":{"code":"quota_exceeded","message":"month"}}`, "Retry-After", "3600"), 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := setup(t, tt.policy, tt.handler)
			_, err := b.client.Endpoints.List(context.Background(), nil)
			var fe *Error
			if !errors.As(err, &fe) || fe.Status != 429 || fe.RetryAfter == 0 {
				t.Fatalf("err %v, want a 429 *Error with RetryAfter", err)
			}
			if n := len(b.fake.requests()); n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
			}
		})
	}
}

func TestUnavailableAndNetworkErrorsRetryOnlyWhenRepeatable(t *testing.T) {
	t.Parallel()
	unavailable := answer(503, `{"error":{"code":"unavailable","message":"database unreachable"}}`)
	ok := answer(200, `{"matched":3,"until":"2026-01-02T03:04:05Z"}`)

	// A POST without an idempotency key (replays.preview) is not repeated.
	b := setup(t, RetryPolicy{}, unavailable, ok)
	r, err := b.client.API.ReplaysPreviewWithResponse(context.Background(), BulkReplayInput{})
	if err != nil || r.StatusCode() != 503 || len(b.fake.requests()) != 1 {
		t.Errorf("POST without a key: status %v err %v after %d requests, want one 503", r.StatusCode(), err, len(b.fake.requests()))
	}
	b = setup(t, RetryPolicy{}, hangUp, ok)
	if _, err := b.client.API.ReplaysPreviewWithResponse(context.Background(), BulkReplayInput{}); err == nil || len(b.fake.requests()) != 1 {
		t.Errorf("POST without a key after a network error: err %v after %d requests, want the error after one", err, len(b.fake.requests()))
	}

	// A GET is.
	b = setup(t, RetryPolicy{}, unavailable, hangUp, answer(200, `{"data":[],"next_cursor":null}`))
	if _, err := b.client.Events.List(context.Background(), nil); err != nil || len(b.fake.requests()) != 3 {
		t.Errorf("GET: err %v after %d requests, want success after 3", err, len(b.fake.requests()))
	}
}

func TestErrorsCarryFerrysShape(t *testing.T) {
	t.Parallel()
	b := setup(t, RetryPolicy{}, answer(422, `{"error":{"code":"invalid","message":"type is required","field":"type"}}`, "X-Request-Id", "req-abc"))
	_, err := b.client.Events.Create(context.Background(), EventInput{Data: 1})
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("err %v, want *Error", err)
	}
	want := Error{Status: 422, Code: "invalid", Message: "type is required", Field: "type", RequestID: "req-abc"}
	if *fe != want {
		t.Errorf("got %+v, want %+v", *fe, want)
	}
	if len(b.fake.requests()) != 1 {
		t.Errorf("a 422 was retried")
	}

	b = setup(t, RetryPolicy{}, answer(502, `<html>bad gateway</html>`))
	_, err = b.client.Events.Get(context.Background(), "0190f1d2-8d3e-7c6a-9b1e-2f4a5c6d7e8f")
	if !errors.As(err, &fe) || fe.Status != 502 || fe.Code != "http_502" {
		t.Errorf("err %v, want a 502 *Error", err)
	}
}

func TestAllFollowsNextCursor(t *testing.T) {
	t.Parallel()
	ev := func(id string) string {
		return `{"id":"` + id + `","type":"t","created_at":"2026-01-02T03:04:05Z","data":{},"deliveries":[]}`
	}
	b := setup(t, RetryPolicy{},
		answer(200, `{"data":[`+ev("00000000-0000-0000-0000-000000000001")+`,`+ev("00000000-0000-0000-0000-000000000002")+`],"next_cursor":"c1"}`),
		answer(200, `{"data":[`+ev("00000000-0000-0000-0000-000000000003")+`],"next_cursor":null}`))
	limit := 2
	var ids []string
	for e, err := range b.client.Events.All(context.Background(), &EventsListParams{Limit: &limit}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.Id.String()[35:])
	}
	if fmt.Sprint(ids) != "[1 2 3]" {
		t.Errorf("ids %v", ids)
	}
	reqs := b.fake.requests()
	if len(reqs) != 2 || reqs[0].URL.Query().Get("cursor") != "" || reqs[1].URL.Query().Get("cursor") != "c1" || reqs[1].URL.Query().Get("limit") != "2" {
		t.Errorf("requests %v", reqs)
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"0": 0, "7": 7 * time.Second,
		now.Add(90 * time.Second).Format(http.TimeFormat): 90 * time.Second,
		now.Add(-time.Minute).Format(http.TimeFormat):     0,
	} {
		if got, ok := retryAfter(v, now); !ok || got != want {
			t.Errorf("retryAfter(%q) = %v %v, want %v", v, got, ok, want)
		}
	}
	for _, v := range []string{"", "-1", "soon"} {
		if _, ok := retryAfter(v, now); ok {
			t.Errorf("retryAfter(%q) accepted", v)
		}
	}
}
