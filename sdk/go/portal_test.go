package ferrywebhooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
)

// TestPortalSession: the request Ferry receives (route, key, body) and
// both kinds of answer.
func TestPortalSession(t *testing.T) {
	t.Parallel()
	var got struct {
		Path, Auth string
		Body       map[string]any
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Path, got.Auth = r.URL.EscapedPath(), r.Header.Get("Authorization")
		_ = json.NewDecoder(r.Body).Decode(&got.Body)
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/api/v1/customers/nobody/portal-sessions" {
			w.WriteHeader(404)
			_, _ = w.Write([]byte(`{"error":{"code":"not_found","message":"customer not found"}}`))
			return
		}
		w.WriteHeader(201)
		_, _ = w.Write([]byte(`{"session_id":"s1","url":"https://ferry.example/embed/s1#code=abc","expires_at":"2026-11-26T10:00:00Z"}`))
	}))
	defer srv.Close()
	c := &ferrywebhooks.PortalClient{BaseURL: srv.URL + "/", APIKey: "fry_live_x"}
	s, err := c.PortalSession(context.Background(), "acme co", ferrywebhooks.PortalSessionOptions{
		Capabilities: []string{"manage_endpoints"}, TTL: 30 * time.Minute, ExternalUserID: "u_1", ExternalUserEmail: "u@acme.example"})
	if err != nil {
		t.Fatal(err)
	}
	if s.URL != "https://ferry.example/embed/s1#code=abc" || s.SessionID != "s1" || s.ExpiresAt.IsZero() {
		t.Errorf("session = %+v", s)
	}
	if got.Path != "/api/v1/customers/acme%20co/portal-sessions" || got.Auth != "Bearer fry_live_x" {
		t.Errorf("request %s with %q", got.Path, got.Auth)
	}
	if got.Body["ttl_seconds"] != float64(1800) || got.Body["external_user"].(map[string]any)["id"] != "u_1" ||
		got.Body["capabilities"].([]any)[0] != "manage_endpoints" {
		t.Errorf("body = %v", got.Body)
	}
	_, err = c.PortalSession(context.Background(), "nobody", ferrywebhooks.PortalSessionOptions{ExternalUserID: "u"})
	var apiErr *ferrywebhooks.APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 404 || apiErr.Code != "not_found" {
		t.Errorf("unknown customer: %v", err)
	}
}
