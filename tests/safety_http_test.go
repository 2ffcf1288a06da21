package tests

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestHTTPHardening drives the running app: the portal sends its
// Content-Security-Policy and frame protection; the signing-secret route
// (the most sensitive response Ferry gives) and every other API answer
// say Cache-Control: no-store; /metrics moves to its own listener when
// FERRY_METRICS_ADDR is set and is then absent from the public one.
func TestHTTPHardening(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.MetricsAddr = "127.0.0.1:0"
	f := startFerry(t, cfg)
	_, key := signUp(t, f, "ann@headers.example")
	var ep idOnly
	key.must(201, "POST", "/endpoints", map[string]any{"url": "http://127.0.0.1:9/hook"}, &ep)

	for _, path := range []string{"/endpoints/" + ep.ID + "/secret", "/endpoints", "/nope"} {
		r := key.raw("GET", path, nil, nil)
		if got := r.Header.Get("Cache-Control"); got != "no-store" {
			t.Errorf("GET %s (%d): Cache-Control %q, want no-store", path, r.Status, got)
		}
		if r.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: no nosniff", path)
		}
	}

	res, err := http.Get(f.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	csp := res.Header.Get("Content-Security-Policy")
	for _, want := range []string{"script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("portal CSP %q lacks %q", csp, want)
		}
	}
	if res.Header.Get("X-Frame-Options") != "DENY" || res.Header.Get("Referrer-Policy") == "" {
		t.Errorf("portal headers: %v", res.Header)
	}
	if res.Header.Get("Strict-Transport-Security") != "" {
		t.Error("HSTS in dev mode (plain http)")
	}

	res, err = http.Get("http://" + f.App.MetricsAddr() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "go_goroutines") {
		t.Errorf("metrics listener: %d %.200s", res.StatusCode, body)
	}
	res, err = http.Get(f.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 404 || strings.Contains(string(body), "go_goroutines") {
		t.Errorf("public /metrics with FERRY_METRICS_ADDR set: %d %.200s", res.StatusCode, body)
	}
}
