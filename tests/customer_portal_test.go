package tests

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// portalSession mints a session of customer uid with body, exchanges its
// code as the portal page does, and returns a client holding the token
// and the session id.
func portalSession(t *testing.T, f *ferry, api *client, uid string, body map[string]any) (*client, string) {
	t.Helper()
	var minted struct {
		SessionID string `json:"session_id"`
		URL       string `json:"url"`
	}
	api.must(201, "POST", "/customers/"+uid+"/portal-sessions", body, &minted)
	if !strings.HasPrefix(minted.URL, f.URL+"/embed/"+minted.SessionID+"#code=") {
		t.Fatalf("session url %q: want %s/embed/<id>#code=…", minted.URL, f.URL)
	}
	_, code, _ := strings.Cut(minted.URL, "#code=")
	page := newClient(t, f.URL+"/api/v1")
	var ex struct {
		Token string `json:"token"`
	}
	page.must(200, "POST", "/portal/exchange", map[string]string{"session_id": minted.SessionID, "code": code}, &ex)
	page.must(401, "POST", "/portal/exchange", map[string]string{"session_id": minted.SessionID, "code": code}, nil) // single use
	page.apiKey = ex.Token
	return page, minted.SessionID
}

// TestCustomerPortalIsolation attacks the customer portal as a customer
// would: customer A's token reaching B's or the tenant's endpoints and
// messages by id, actions beyond the session's capabilities, a narrowed
// or read-only session, tokens on the wrong routes, and revocation by
// session, by external user, by customer and by deleting the customer,
// each effective on the next request. The tenant sees every action in the
// audit, and the embed page may be framed by the tenant's origins only.
func TestCustomerPortalIsolation(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	hooks := newHookServer(t, nil)
	_, api := signUp(t, f, "tess@portal.example")
	api.must(201, "PUT", "/customers/alpha", map[string]any{"name": "Alpha"}, nil)
	api.must(201, "PUT", "/customers/beta", map[string]any{"name": "Beta"}, nil)
	epA := createEndpoint(t, api, map[string]any{"url": hooks.URL + "/a", "customer": "alpha"})
	epA2 := createEndpoint(t, api, map[string]any{"url": hooks.URL + "/a2", "customer": "alpha"})
	epB := createEndpoint(t, api, map[string]any{"url": hooks.URL + "/b", "customer": "beta"})
	epT := createEndpoint(t, api, map[string]any{"url": hooks.URL + "/t"})
	opsHooks := newHookServer(t, nil)
	createEndpoint(t, api, map[string]any{"url": opsHooks.URL + "/ops", "event_types": []string{"ferry.*"}})
	var evA, evB, evT acceptedEvent
	api.must(202, "POST", "/events", map[string]any{"type": "x.y", "data": map[string]int{"n": 1}, "customer": "alpha"}, &evA)
	api.must(202, "POST", "/events", map[string]any{"type": "x.y", "data": map[string]int{"n": 2}, "customer": "beta"}, &evB)
	api.must(202, "POST", "/events", map[string]any{"type": "x.y", "data": map[string]int{"n": 3}}, &evT)

	a, sessA := portalSession(t, f, api, "alpha", map[string]any{"capabilities": []string{"manage_endpoints", "view_secret", "replay"},
		"external_user": map[string]string{"id": "ann", "email": "ann@alpha.example"}})

	var eps struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	a.must(200, "GET", "/portal/endpoints", nil, &eps)
	if len(eps.Data) != 2 {
		t.Errorf("alpha sees %d endpoints, want its 2", len(eps.Data))
	}
	for _, id := range []string{epB.ID, epT.ID} {
		a.must(404, "GET", "/portal/endpoints/"+id, nil, nil)
		a.must(404, "PATCH", "/portal/endpoints/"+id, map[string]any{"enabled": false}, nil)
		a.must(404, "DELETE", "/portal/endpoints/"+id, nil, nil)
		a.must(404, "GET", "/portal/endpoints/"+id+"/secret", nil, nil)
		a.must(404, "GET", "/portal/endpoints/"+id+"/attempts", nil, nil)
	}
	var evs struct {
		Data []struct {
			ID         string `json:"id"`
			Deliveries []struct {
				EndpointID string `json:"endpoint_id"`
			} `json:"deliveries"`
		} `json:"data"`
	}
	a.must(200, "GET", "/portal/events", nil, &evs)
	if len(evs.Data) != 1 || evs.Data[0].ID != evA.ID {
		t.Errorf("alpha's messages = %+v, want only its event %s", evs.Data, evA.ID)
	}
	for _, d := range evs.Data[0].Deliveries {
		if d.EndpointID == epT.ID {
			t.Errorf("alpha sees the delivery to the tenant's own endpoint %s", epT.ID)
		}
	}
	for _, id := range []string{evB.ID, evT.ID} {
		a.must(404, "GET", "/portal/events/"+id, nil, nil)
		a.must(404, "POST", "/portal/events/"+id+"/replay", nil, nil)
	}
	a.must(404, "POST", "/portal/events/"+evA.ID+"/replay", map[string]string{"endpoint_id": epB.ID}, nil)
	a.must(202, "POST", "/portal/events/"+evA.ID+"/replay", map[string]string{"endpoint_id": epA.ID}, nil)
	a.must(200, "GET", "/portal/endpoints/"+epA.ID+"/secret", nil, nil)

	// Capabilities the session lacks, and routing without manage_routing.
	a.must(403, "POST", "/portal/endpoints/"+epA.ID+"/secret/rotate", nil, nil)
	a.must(403, "POST", "/portal/endpoints/"+epA.ID+"/test", nil, nil)
	a.must(403, "POST", "/portal/endpoints", map[string]any{"url": hooks.URL + "/f", "filter": "true"}, nil)
	a.must(403, "PATCH", "/portal/endpoints/"+epA.ID, map[string]any{"transformation": "function handler(w) { return w }"}, nil)
	var created struct {
		ID string `json:"id"`
	}
	a.must(201, "POST", "/portal/endpoints", map[string]any{"url": hooks.URL + "/new"}, &created)
	var asTenant struct {
		Customer *string `json:"customer"`
	}
	api.must(200, "GET", "/endpoints/"+created.ID, nil, &asTenant)
	if asTenant.Customer == nil || *asTenant.Customer != "alpha" {
		t.Errorf("an endpoint created in alpha's portal belongs to %v, want alpha", asTenant.Customer)
	}
	// The tenant hears of it as an operational event, naming the user.
	testenv.Eventually(t, 30*time.Second, func() bool {
		for _, h := range opsHooks.all() {
			b := string(h.Body)
			if strings.Contains(b, `"type":"ferry.customer.endpoint.created"`) && strings.Contains(b, created.ID) &&
				strings.Contains(b, `"id":"ann"`) {
				return true
			}
		}
		return false
	}, "the tenant's ferry.* endpoint got no ferry.customer.endpoint.created for %s", created.ID)

	// A test event of a customer's endpoint is the customer's message.
	tester, _ := portalSession(t, f, api, "alpha", map[string]any{"capabilities": []string{"send_test"},
		"external_user": map[string]string{"id": "tim"}})
	var test acceptedEvent
	tester.must(202, "POST", "/portal/endpoints/"+epA.ID+"/test", nil, &test)
	tester.must(200, "GET", "/portal/events/"+test.ID, nil, nil)
	tester.must(200, "GET", "/portal/events/"+test.ID+"/attempts", nil, nil)
	// Or one of the catalog's examples, with its type and data.
	api.must(201, "POST", "/event-types", map[string]any{"name": "invoice.paid", "schema": map[string]any{"type": "object"},
		"examples": []any{map[string]any{"amount": 4200}}}, nil)
	tester.must(200, "GET", "/portal/event-types/invoice.paid", nil, nil)
	var sample acceptedEvent
	tester.must(202, "POST", "/portal/endpoints/"+epA.ID+"/test", map[string]any{"event_type": "invoice.paid"}, &sample)
	var sent struct {
		Type string          `json:"type"`
		Data json.RawMessage `json:"data"`
	}
	tester.must(200, "GET", "/portal/events/"+sample.ID, nil, &sent)
	if sent.Type != "invoice.paid" || string(sent.Data) != `{"amount":4200}` {
		t.Errorf("the example sent = %s %s", sent.Type, sent.Data)
	}

	// Tokens stay on their side.
	a.must(401, "GET", "/endpoints", nil, nil)
	tenantAsPortal := newClient(t, f.URL+"/api/v1")
	tenantAsPortal.apiKey = api.apiKey
	tenantAsPortal.must(401, "GET", "/portal/session", nil, nil)
	newClient(t, f.URL+"/api/v1").must(401, "GET", "/portal/endpoints", nil, nil)

	// A read-only session, and one narrowed to an endpoint.
	ro, _ := portalSession(t, f, api, "alpha", map[string]any{"read_only": true, "capabilities": []string{"manage_endpoints"},
		"external_user": map[string]string{"id": "ray"}})
	ro.must(403, "POST", "/portal/endpoints", map[string]any{"url": hooks.URL + "/ro"}, nil)
	ro.must(200, "GET", "/portal/endpoints", nil, nil)
	narrow, _ := portalSession(t, f, api, "alpha", map[string]any{"capabilities": []string{"manage_endpoints"}, "endpoint_ids": []string{epA2.ID},
		"external_user": map[string]string{"id": "nia"}})
	narrow.must(200, "GET", "/portal/endpoints", nil, &eps)
	if len(eps.Data) != 1 || eps.Data[0].ID != epA2.ID {
		t.Errorf("a session narrowed to %s sees %+v", epA2.ID, eps.Data)
	}
	narrow.must(404, "GET", "/portal/endpoints/"+epA.ID, nil, nil)
	narrow.must(403, "POST", "/portal/endpoints", map[string]any{"url": hooks.URL + "/n"}, nil)

	// The tenant sees what was done, by whom.
	var audit struct {
		Data []struct {
			Action       string `json:"action"`
			ExternalUser struct {
				ID string `json:"id"`
			} `json:"external_user"`
		} `json:"data"`
	}
	api.must(200, "GET", "/portal-audit?customer=alpha", nil, &audit)
	seen := map[string]bool{}
	for _, e := range audit.Data {
		seen[e.Action+" by "+e.ExternalUser.ID] = true
	}
	for _, want := range []string{"session.opened by ann", "endpoint.created by ann", "endpoint.secret.revealed by ann", "event.replayed by ann"} {
		if !seen[want] {
			t.Errorf("audit lacks %q: %+v", want, audit.Data)
		}
	}

	// Revocation takes effect on the next request: by session, by
	// external user (others' sessions live on), by customer, and by
	// deleting the customer.
	api.must(204, "DELETE", "/portal-sessions/"+sessA, nil, nil)
	a.must(401, "GET", "/portal/session", nil, nil)
	a.must(401, "POST", "/portal/renew", nil, nil)
	var n struct {
		Revoked int `json:"revoked"`
	}
	api.must(200, "POST", "/customers/alpha/portal-sessions/revoke", map[string]string{"external_user_id": "ray"}, &n)
	ro.must(401, "GET", "/portal/endpoints", nil, nil)
	narrow.must(200, "GET", "/portal/session", nil, nil)
	api.must(200, "POST", "/customers/alpha/portal-sessions/revoke", nil, nil)
	narrow.must(401, "GET", "/portal/session", nil, nil)
	b, _ := portalSession(t, f, api, "beta", map[string]any{"external_user": map[string]string{"id": "bo"}})
	b.must(200, "GET", "/portal/session", nil, nil)
	api.must(204, "DELETE", "/customers/beta", nil, nil)
	b.must(401, "GET", "/portal/session", nil, nil)
	api.must(404, "POST", "/customers/beta/portal-sessions", map[string]any{"external_user": map[string]string{"id": "bo"}}, nil)
}

// TestPortalEmbedFraming: the embed page of a session may be framed by
// the tenant's allowed origins only ('none' without any, for an ended or
// unknown session), sends no Referer and no X-Frame-Options, and the
// session URL comes from the public URL, not the request's Host.
func TestPortalEmbedFraming(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, api := signUp(t, f, "emma@embed.example")
	api.must(201, "PUT", "/customers/acme", map[string]any{}, nil)
	api.must(422, "PUT", "/portal-settings", map[string]any{"allowed_origins": []string{"https://app.example.com/path"}}, nil)
	api.must(200, "PUT", "/portal-settings", map[string]any{"allowed_origins": []string{"https://app.example.com", "http://localhost:5173"}}, nil)
	var minted struct {
		SessionID string `json:"session_id"`
		URL       string `json:"url"`
	}
	api.must(201, "POST", "/customers/acme/portal-sessions", map[string]any{"external_user": map[string]string{"id": "u"}}, &minted)
	if !strings.HasPrefix(minted.URL, f.URL+"/") {
		t.Errorf("session url %q does not start with the public URL %s", minted.URL, f.URL)
	}
	get := func(path string) http.Header {
		t.Helper()
		req, _ := http.NewRequest("GET", f.URL+path, nil)
		req.Host = "evil.example" // the URL never comes from the request
		res, err := (&http.Client{Timeout: 10 * time.Second}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.Header
	}
	h := get("/embed/" + minted.SessionID)
	if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors https://app.example.com http://localhost:5173") {
		t.Errorf("embed CSP %q lacks the tenant's origins", csp)
	}
	if h.Get("X-Frame-Options") != "" || h.Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("embed headers: X-Frame-Options %q, Referrer-Policy %q", h.Get("X-Frame-Options"), h.Get("Referrer-Policy"))
	}
	for _, path := range []string{"/embed/0196a6c2-5b1f-7d3e-9a4b-1c2d3e4f5a6b", "/embed/not-a-uuid", "/"} {
		if csp := get(path).Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: CSP %q, want frame-ancestors 'none'", path, csp)
		}
	}
	api.must(204, "DELETE", "/portal-sessions/"+minted.SessionID, nil, nil)
	if csp := get("/embed/" + minted.SessionID).Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("a revoked session's embed page may still be framed: %q", csp)
	}
}
