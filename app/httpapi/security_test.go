package httpapi

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func testServer(t *testing.T, d Deps) func(method, path string) *http.Response {
	t.Helper()
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	if d.Ready == nil {
		d.Ready = func(context.Context) error { return nil }
	}
	app := New(d)
	return func(method, path string) *http.Response {
		t.Helper()
		res, err := app.Test(httptest.NewRequest(method, path, nil), -1)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		t.Cleanup(func() { res.Body.Close() })
		return res
	}
}

// TestSecurityHeaders checks that every kind of response (portal page,
// API route, API error, unknown API route, health) carries the hardening
// headers, that API responses are never cacheable, and HSTS only when
// asked for.
func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	portal := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>Ferry</title>")}}
	for _, hsts := range []bool{false, true} {
		get := testServer(t, Deps{Portal: portal, HSTS: hsts})
		for _, c := range []struct {
			path   string
			api    bool
			status int
		}{
			{"/", false, 200},
			{"/events/123", false, 200},
			{"/api/v1/openapi.json", true, 200},
			{"/api/v1/endpoints/00000000-0000-0000-0000-000000000001/secret", true, 401},
			{"/api/v1/no-such-route", true, 404},
			{"/readyz", true, 200},
			{"/metrics", true, 404},
		} {
			res := get("GET", c.path)
			if res.StatusCode != c.status {
				t.Errorf("GET %s: status %d, want %d", c.path, res.StatusCode, c.status)
			}
			h := res.Header
			want := map[string]string{
				"X-Content-Type-Options": "nosniff",
				"X-Frame-Options":        "DENY",
				"Referrer-Policy":        "strict-origin-when-cross-origin",
			}
			for k, v := range want {
				if h.Get(k) != v {
					t.Errorf("GET %s: %s = %q, want %q", c.path, k, h.Get(k), v)
				}
			}
			csp := h.Get("Content-Security-Policy")
			if !strings.Contains(csp, "frame-ancestors 'none'") {
				t.Errorf("GET %s: CSP %q lacks frame-ancestors 'none'", c.path, csp)
			}
			if !c.api && !strings.Contains(csp, "script-src 'self'") {
				t.Errorf("GET %s: CSP %q lacks script-src 'self'", c.path, csp)
			}
			if c.api && h.Get("Cache-Control") != "no-store" {
				t.Errorf("GET %s: Cache-Control %q, want no-store", c.path, h.Get("Cache-Control"))
			}
			if got := h.Get("Strict-Transport-Security"); (got != "") != hsts {
				t.Errorf("GET %s (hsts %v): Strict-Transport-Security %q", c.path, hsts, got)
			}
		}
	}
}

// TestReadyzHidesErrors: the cause of unreadiness is logged, never
// shown to whoever asks.
func TestReadyzHidesErrors(t *testing.T) {
	t.Parallel()
	const secret = "postgres://ferry:hunter2@db.internal:5432"
	get := testServer(t, Deps{Ready: func(context.Context) error {
		return errors.New("postgres: dial " + secret + ": connection refused")
	}})
	res := get("GET", "/readyz")
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", res.StatusCode)
	}
	if strings.Contains(string(body), "hunter2") || strings.Contains(string(body), "db.internal") ||
		strings.Contains(string(body), "refused") {
		t.Errorf("/readyz shows the error: %s", body)
	}
}
