package tests

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// Every creating route takes an Idempotency-Key: a retry gets the first
// answer and creates nothing more; the key with another body is refused
// 422; a failed request leaves its key free. A hostile tenant (and a
// customer portal) using the same keys as a bystander reaches none of
// the bystander's answers.
func TestIdempotencyKeysOnCreatingRoutes(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	hooks := newHookServer(t, nil)
	session, api := signUp(t, f, "idem@example.com")
	_, hostile := signUp(t, f, "idem-hostile@example.com")

	post := func(c *client, path, key string, body any) response {
		t.Helper()
		b, _ := json.Marshal(body)
		return c.raw("POST", path, b, map[string]string{"Idempotency-Key": key})
	}
	endpoint := map[string]any{"url": hooks.URL + "/a", "description": "first"}
	first := post(api, "/endpoints", "create-endpoint-1", endpoint)
	if first.Status != http.StatusCreated || first.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("first create: %d %s", first.Status, first.Body)
	}
	again := post(api, "/endpoints", "create-endpoint-1", endpoint)
	if again.Status != http.StatusCreated || string(again.Body) != string(first.Body) || again.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("retry: %d %q (replayed %q), want the first answer %s", again.Status, again.Body, again.Header.Get("Idempotent-Replayed"), first.Body)
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	api.must(200, "GET", "/endpoints", nil, &list)
	if len(list.Data) != 1 {
		t.Errorf("%d endpoints after a retried create, want 1", len(list.Data))
	}
	reused := post(api, "/endpoints", "create-endpoint-1", map[string]any{"url": hooks.URL + "/b"})
	if reused.Status != 422 || reused.apiError(t).Error.Code != "idempotency_key_reused" {
		t.Errorf("same key, other body: %d %s", reused.Status, reused.Body)
	}

	// The hostile tenant's same key is its own: it creates its endpoint
	// and sees nothing of the bystander's (whose answer holds a secret).
	theirs := post(hostile, "/endpoints", "create-endpoint-1", endpoint)
	if theirs.Status != http.StatusCreated || theirs.Header.Get("Idempotent-Replayed") != "" || string(theirs.Body) == string(first.Body) {
		t.Errorf("another tenant's same key: %d replayed=%q", theirs.Status, theirs.Header.Get("Idempotent-Replayed"))
	}

	// A failed request (here: invalid) keeps nothing; the corrected retry
	// under the same key runs.
	if bad := post(api, "/endpoints", "create-endpoint-2", map[string]any{"url": "not a url"}); bad.Status != 422 {
		t.Fatalf("invalid endpoint: %d %s", bad.Status, bad.Body)
	}
	if ok := post(api, "/endpoints", "create-endpoint-2", map[string]any{"url": "not a url"}); ok.Status != 422 || ok.Header.Get("Idempotent-Replayed") != "" {
		t.Errorf("the failed request was stored: %d %q", ok.Status, ok.Header.Get("Idempotent-Replayed"))
	}

	// Other creating routes, sessions included.
	for _, tc := range []struct {
		c    *client
		path string
		body any
	}{
		{session, "/api-keys", map[string]any{"name": "ci"}},
		{api, "/customers", map[string]any{"uid": "acme", "name": "Acme"}},
		{api, "/sources", map[string]any{"name": "gh", "verification": map[string]any{"type": "github", "secret": "s3cret"}, "event_type": map[string]string{"value": "github.push"}}},
		{api, "/event-types", map[string]any{"name": "order.paid", "description": "an order was paid"}},
	} {
		a := post(tc.c, tc.path, "k-"+tc.path, tc.body)
		b := post(tc.c, tc.path, "k-"+tc.path, tc.body)
		if a.Status/100 != 2 || b.Status != a.Status || string(a.Body) != string(b.Body) || b.Header.Get("Idempotent-Replayed") != "true" {
			t.Errorf("POST %s twice: %d %s / %d %s", tc.path, a.Status, a.Body, b.Status, b.Body)
		}
	}

	// Two customers' portals generating the same key get their own
	// endpoints.
	api.must(201, "PUT", "/customers/alpha", map[string]any{"name": "Alpha"}, nil)
	api.must(201, "PUT", "/customers/beta", map[string]any{"name": "Beta"}, nil)
	mint := func(user string) map[string]any {
		return map[string]any{"capabilities": []string{"manage_endpoints"}, "external_user": map[string]string{"id": user}}
	}
	alpha, _ := portalSession(t, f, api, "alpha", mint("ann"))
	beta, _ := portalSession(t, f, api, "beta", mint("bob"))
	pa := post(alpha, "/portal/endpoints", "portal-key", map[string]any{"url": hooks.URL + "/p"})
	pb := post(beta, "/portal/endpoints", "portal-key", map[string]any{"url": hooks.URL + "/p"})
	if pa.Status != http.StatusCreated || pb.Status != http.StatusCreated || pb.Header.Get("Idempotent-Replayed") != "" || string(pa.Body) == string(pb.Body) {
		t.Errorf("two customers' same key: %d %s / %d %s", pa.Status, pa.Body, pb.Status, pb.Body)
	}

	if long := post(api, "/endpoints", strings.Repeat("k", 300), endpoint); long.Status != 422 {
		t.Errorf("a 300-byte key: %d %s", long.Status, long.Body)
	}
}
