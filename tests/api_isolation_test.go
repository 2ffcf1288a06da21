package tests

import (
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// isoRequest is one request tenant B makes against tenant A's data.
type isoRequest struct {
	method, path string
	body         any
	// want is the status for B; 0 means "any 2xx" (B's own data).
	want int
}

// notTenantScoped are routes with no tenant data to isolate: sign-up,
// login, logout, the emailed-link routes (a token names one account), the
// caller's own password, TOTP and notification preferences, the OpenAPI documents
// and the staff
// console (which
// tenants cannot reach at all: every staff route answers them 404, see
// TestRoleRouteTable).
var notTenantScoped = map[string]bool{
	"POST /auth/signup": true, "POST /auth/signup/confirm": true, "POST /me/verify-email": true, "POST /auth/login": true, "POST /auth/logout": true, "GET /openapi.json": true, "GET /openapi-internal.json": true,
	"POST /auth/password-reset": true, "POST /auth/password-reset/confirm": true, "POST /auth/invites/accept": true,
	"POST /auth/verify-email": true, "POST /me/password": true, "POST /me/totp": true, "POST /me/totp/confirm": true,
	"GET /staff/tenants": true, "GET /staff/tenants/:id": true, "GET /staff/tenants/:id/events": true,
	"GET /staff/tenants/:id/events/:event_id": true, "POST /staff/tenants/:id/replays": true,
	"GET /staff/tenants/:id/replays/:replay_id": true, "GET /staff/audit": true,
	"GET /staff/tenants/:id/billing": true, "POST /staff/tenants/:id/billing/lift-restriction": true,
	"GET /me/notifications": true, "PUT /me/notifications": true, "GET /staff/events/:event_id": true,
	"POST /staff/tenants/:id/replays/preview": true, "GET /staff/tenants/:id/endpoints/:endpoint_id/attempts": true,
}

// TestTenantIsolation: for every tenant-scoped route, a second tenant —
// with its own session and with its own API key — gets 404 for the first
// tenant's ids, its lists show nothing of the first tenant, and nothing of
// the first tenant changes. A registered route without a case fails.
func TestTenantIsolation(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	rc := newReceiver(t, func(int, received) int { return 400 }) // dropped at once
	rcB := newReceiver(t, nil)
	aSession, aKey := signUp(t, f, "ann@a.example")
	bSession, bKey := signUp(t, f, "bob@b.example")

	// Tenant A's objects.
	var ep struct {
		ID     string `json:"id"`
		Secret string `json:"secret"`
	}
	aKey.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/a", "headers": map[string]string{"Authorization": "Bearer a-receiver-token"}}, &ep)
	var ev idOnly
	aKey.must(202, "POST", "/events", map[string]any{"type": "a.secret", "data": map[string]string{"a": "private"}, "idempotency_key": "shared-key"}, &ev)
	var detail struct {
		Deliveries []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"deliveries"`
	}
	testenv.Eventually(t, 30*time.Second, func() bool {
		aKey.must(200, "GET", "/events/"+ev.ID, nil, &detail)
		return len(detail.Deliveries) == 1 && detail.Deliveries[0].Status == "dropped"
	}, "tenant A's delivery was not attempted")
	delivery := detail.Deliveries[0].ID
	var keys struct {
		Data []idOnly `json:"data"`
	}
	aSession.must(200, "GET", "/api-keys", nil, &keys)
	aKeyID := keys.Data[0].ID
	var job idOnly
	aKey.must(202, "POST", "/replays", map[string]string{"endpoint_id": ep.ID, "status": "succeeded"}, &job)
	_, aMember := member(t, f, aSession, "vic@a.example", "viewer")
	var aMe struct {
		Tenant idOnly `json:"tenant"`
	}
	aSession.must(200, "GET", "/me", nil, &aMe)
	// A's pull queue, its consumer token and a leased message.
	var aQueue, aToken idOnly
	aKey.must(201, "POST", "/endpoints", map[string]any{"kind": "queue", "event_types": []string{"a.queued"}}, &aQueue)
	aKey.must(201, "POST", "/endpoints/"+aQueue.ID+"/consumer-tokens", map[string]string{"name": "a-consumer"}, &aToken)
	aKey.must(202, "POST", "/events", map[string]any{"type": "a.queued", "data": 1}, nil)
	var aPulled struct {
		Data []struct {
			Receipt string `json:"receipt"`
		} `json:"data"`
	}
	aKey.must(200, "POST", "/queues/"+aQueue.ID+"/pull", map[string]any{"wait_seconds": 10, "visibility_seconds": 600}, &aPulled)
	if len(aPulled.Data) != 1 {
		t.Fatalf("tenant A pulled %d messages", len(aPulled.Data))
	}
	aReceipt := aPulled.Data[0].Receipt

	// A's inbound source and a request it captured.
	var aSource struct {
		ID        string `json:"id"`
		IngestURL string `json:"ingest_url"`
	}
	aKey.must(201, "POST", "/sources", map[string]any{"name": "a-source", "verification": map[string]string{"type": "github", "secret": "a-github-secret"},
		"event_type": map[string]string{"value": "a.inbound"}}, &aSource)
	aIngest := signedGitHubPost(t, aSource.IngestURL, "a-github-secret", []byte(`{"a":"inbound-private"}`), nil)
	if aIngest.StatusCode != 200 {
		t.Fatalf("tenant A's source answered %d", aIngest.StatusCode)
	}
	var aRequests struct {
		Data []idOnly `json:"data"`
	}
	aKey.must(200, "GET", "/sources/"+aSource.ID+"/requests", nil, &aRequests)
	if len(aRequests.Data) != 1 {
		t.Fatalf("tenant A's source captured %d requests", len(aRequests.Data))
	}
	aRequest := aRequests.Data[0].ID
	aSourceToken := aSource.IngestURL[strings.LastIndex(aSource.IngestURL, "/")+1:]

	// A's catalog: an event type that refuses data without "a".
	aKey.must(201, "POST", "/event-types", map[string]any{"name": "a.catalog.type", "description": "a-catalog-private", "validation": "reject",
		"schema": map[string]any{"required": []string{"a"}}}, nil)

	// Nothing of A may appear in any answer to B.
	aKey.must(201, "PUT", "/customers/a-customer-acme", map[string]any{"name": "Acme of A", "metadata": map[string]string{"plan": "a-gold"}}, nil)
	var aCustomerEndpoint idOnly
	aKey.must(201, "POST", "/endpoints", map[string]any{"url": rcB.URL + "/a-customer", "customer": "a-customer-acme"}, &aCustomerEndpoint)
	aKey.must(200, "PUT", "/portal-settings", map[string]any{"allowed_origins": []string{"https://a-origin.example"}}, nil)
	var aPortal struct {
		SessionID string `json:"session_id"`
	}
	aKey.must(201, "POST", "/customers/a-customer-acme/portal-sessions", map[string]any{"external_user": map[string]string{"id": "a-user-7"}}, &aPortal)
	aMarks := []string{"a.catalog.type", "a-catalog-private", aPortal.SessionID, "https://a-origin.example", "a-user-7", aCustomerEndpoint.ID, "a-customer-acme", "Acme of A", "a-gold", ep.ID, ep.Secret, ev.ID, delivery, aKeyID, job.ID, aMember, aMe.Tenant.ID,
		aQueue.ID, aToken.ID, aReceipt, "ann@a.example", "vic@a.example", "a-receiver-token", "a.secret", "private", rc.URL + "/a",
		aSource.ID, aSourceToken, aRequest, "a-source", "a-github-secret"}

	cases := map[string][]isoRequest{
		"GET /me":              {{"GET", "/me", nil, 0}},
		"POST /api-keys":       {{"POST", "/api-keys", map[string]string{"name": "b"}, 0}},
		"GET /api-keys":        {{"GET", "/api-keys", nil, 0}},
		"DELETE /api-keys/:id": {{"DELETE", "/api-keys/" + aKeyID, nil, 404}},
		"POST /endpoints": {{"POST", "/endpoints", map[string]string{"url": rcB.URL + "/b"}, 0},
			// A's customer uid names nothing of B's: refused as unknown.
			{"POST", "/endpoints", map[string]string{"url": rcB.URL + "/b", "customer": "a-customer-acme"}, 422}},
		"POST /customers": {{"POST", "/customers", map[string]string{"uid": "b-own"}, 0}},
		"POST /customers/:uid/portal-sessions": {{"POST", "/customers/a-customer-acme/portal-sessions",
			map[string]any{"external_user": map[string]string{"id": "b"}}, 404}},
		"POST /customers/:uid/portal-sessions/revoke": {{"POST", "/customers/a-customer-acme/portal-sessions/revoke", map[string]string{}, 404}},
		"GET /portal-sessions":                        {{"GET", "/portal-sessions", nil, 0}, {"GET", "/portal-sessions?customer=a-customer-acme", nil, 0}},
		"DELETE /portal-sessions/:id":                 {{"DELETE", "/portal-sessions/" + aPortal.SessionID, nil, 404}},
		"GET /portal-settings":                        {{"GET", "/portal-settings", nil, 0}},
		"PUT /portal-settings":                        {{"PUT", "/portal-settings", map[string]any{"allowed_origins": []string{"https://b.example"}}, 0}},
		"GET /portal-audit":                           {{"GET", "/portal-audit", nil, 0}},
		"GET /customers":                              {{"GET", "/customers", nil, 0}},
		"GET /customers/:uid":                         {{"GET", "/customers/a-customer-acme", nil, 404}},
		"PUT /customers/:uid":                         {{"PUT", "/customers/b-put", map[string]string{"name": "B's"}, 0}},
		"PATCH /customers/:uid":                       {{"PATCH", "/customers/a-customer-acme", map[string]string{"name": "taken"}, 404}},
		"DELETE /customers/:uid":                      {{"DELETE", "/customers/a-customer-acme", nil, 404}},
		"GET /endpoints":                              {{"GET", "/endpoints", nil, 0}},
		"GET /endpoints/:id":                          {{"GET", "/endpoints/" + ep.ID, nil, 404}},
		"PATCH /endpoints/:id":                        {{"PATCH", "/endpoints/" + ep.ID, map[string]any{"description": "taken", "enabled": false}, 404}},
		"DELETE /endpoints/:id":                       {{"DELETE", "/endpoints/" + ep.ID, nil, 404}},
		"GET /endpoints/:id/secret":                   {{"GET", "/endpoints/" + ep.ID + "/secret", nil, 404}},
		"POST /endpoints/:id/secret/rotate":           {{"POST", "/endpoints/" + ep.ID + "/secret/rotate", nil, 404}},
		"GET /endpoints/:id/attempts":                 {{"GET", "/endpoints/" + ep.ID + "/attempts", nil, 404}},
		"GET /endpoints/:id/stats":                    {{"GET", "/endpoints/" + ep.ID + "/stats", nil, 404}},
		"GET /stats":                                  {{"GET", "/stats", nil, 0}, {"GET", "/stats?window=7d", nil, 0}},
		"POST /endpoints/:id/test":                    {{"POST", "/endpoints/" + ep.ID + "/test", nil, 404}},
		"POST /endpoints/:id/test-routing": {{"POST", "/endpoints/" + ep.ID + "/test-routing",
			map[string]any{"event": map[string]any{"type": "order.created", "data": map[string]any{"amount": 1}}}, 404}},
		// The same idempotency key in another tenant is another event.
		"POST /events": {{"POST", "/events", map[string]any{"type": "b.event", "data": 1, "idempotency_key": "shared-key"}, 0}},
		"GET /events": {{"GET", "/events", nil, 0}, {"GET", "/events?type=a.secret", nil, 0},
			{"GET", "/events?status=dropped", nil, 0}, {"GET", "/events?endpoint_id=" + ep.ID, nil, 0}},
		"GET /events/:id":          {{"GET", "/events/" + ev.ID, nil, 404}},
		"GET /events/:id/attempts": {{"GET", "/events/" + ev.ID + "/attempts", nil, 404}},
		"POST /events/:id/replay": {{"POST", "/events/" + ev.ID + "/replay", map[string]string{}, 404},
			{"POST", "/events/" + ev.ID + "/replay", map[string]string{"endpoint_id": ep.ID}, 404}},
		"POST /deliveries/:id/replay": {{"POST", "/deliveries/" + delivery + "/replay", nil, 404}},
		"POST /replays":               {{"POST", "/replays", map[string]string{"endpoint_id": ep.ID}, 404}},
		"POST /replays/preview":       {{"POST", "/replays/preview", map[string]string{"endpoint_id": ep.ID}, 404}, {"POST", "/replays/preview", map[string]string{}, 0}},
		"GET /replays":                {{"GET", "/replays", nil, 0}},
		"GET /replays/:id":            {{"GET", "/replays/" + job.ID, nil, 404}},
		"POST /replays/:id/cancel":    {{"POST", "/replays/" + job.ID + "/cancel", nil, 404}},
		"GET /members":                {{"GET", "/members", nil, 0}},
		"POST /members":               {{"POST", "/members", map[string]string{"email": "new@b.example", "role": "viewer"}, 0}},
		"PATCH /members/:id":          {{"PATCH", "/members/" + aMember, map[string]string{"role": "owner"}, 404}},
		"DELETE /members/:id":         {{"DELETE", "/members/" + aMember, nil, 404}},
		"POST /members/:id/invite":    {{"POST", "/members/" + aMember + "/invite", nil, 404}},
		"GET /billing":                {{"GET", "/billing", nil, 0}},
		"GET /billing/invoices":       {{"GET", "/billing/invoices", nil, 0}},
		"PUT /billing/plan":           {{"PUT", "/billing/plan", map[string]string{"plan": "pro"}, 0}},
		"GET /queues/:endpoint_id":    {{"GET", "/queues/" + aQueue.ID, nil, 404}},
		"POST /queues/:endpoint_id/pull": {{"POST", "/queues/" + aQueue.ID + "/pull", map[string]any{"max": 10}, 404},
			{"POST", "/queues/" + ep.ID + "/pull", map[string]any{}, 404}},
		"POST /queues/:endpoint_id/ack":                   {{"POST", "/queues/" + aQueue.ID + "/ack", map[string]any{"receipts": []string{aReceipt}}, 404}},
		"POST /queues/:endpoint_id/nack":                  {{"POST", "/queues/" + aQueue.ID + "/nack", map[string]any{"receipts": []string{aReceipt}}, 404}},
		"POST /queues/:endpoint_id/reject":                {{"POST", "/queues/" + aQueue.ID + "/reject", map[string]any{"receipts": []string{aReceipt}}, 404}},
		"GET /queues/:endpoint_id/stream":                 {{"GET", "/queues/" + aQueue.ID + "/stream", nil, 404}},
		"POST /endpoints/:id/consumer-tokens":             {{"POST", "/endpoints/" + aQueue.ID + "/consumer-tokens", map[string]string{"name": "stolen"}, 404}},
		"GET /endpoints/:id/consumer-tokens":              {{"GET", "/endpoints/" + aQueue.ID + "/consumer-tokens", nil, 404}},
		"DELETE /endpoints/:id/consumer-tokens/:token_id": {{"DELETE", "/endpoints/" + aQueue.ID + "/consumer-tokens/" + aToken.ID, nil, 404}},
		"POST /sources": {{"POST", "/sources", map[string]any{"name": "b-source", "verification": map[string]string{"type": "none"},
			"event_type": map[string]string{"value": "b.inbound"}}, 0}},
		"GET /sources":                   {{"GET", "/sources", nil, 0}},
		"GET /sources/:id":               {{"GET", "/sources/" + aSource.ID, nil, 404}},
		"PATCH /sources/:id":             {{"PATCH", "/sources/" + aSource.ID, map[string]any{"name": "taken", "enabled": false}, 404}},
		"DELETE /sources/:id":            {{"DELETE", "/sources/" + aSource.ID, nil, 404}},
		"POST /sources/:id/rotate-token": {{"POST", "/sources/" + aSource.ID + "/rotate-token", nil, 404}},
		"GET /sources/:id/requests": {{"GET", "/sources/" + aSource.ID + "/requests", nil, 404},
			{"GET", "/sources/" + aSource.ID + "/requests?status=verified", nil, 404}},
		"GET /sources/:id/requests/:request_id":         {{"GET", "/sources/" + aSource.ID + "/requests/" + aRequest, nil, 404}},
		"POST /sources/:id/requests/:request_id/replay": {{"POST", "/sources/" + aSource.ID + "/requests/" + aRequest + "/replay", nil, 404}},
		// B's own types (named per caller below); A's by name are not found.
		"POST /event-types":                {{"POST", "/event-types", map[string]any{"name": "b.own.type"}, 0}},
		"GET /event-types":                 {{"GET", "/event-types", nil, 0}},
		"GET /event-types/:name":           {{"GET", "/event-types/a.catalog.type", nil, 404}},
		"PATCH /event-types/:name":         {{"PATCH", "/event-types/a.catalog.type", map[string]any{"validation": "off"}, 404}},
		"DELETE /event-types/:name":        {{"DELETE", "/event-types/a.catalog.type", nil, 404}},
		"POST /event-types/:name/versions": {{"POST", "/event-types/a.catalog.type/versions", map[string]any{"schema": true}, 404}},
		"POST /event-types/import": {{"POST", "/event-types/import", map[string]any{"openapi": "3.1.0", "webhooks": map[string]any{"b.hook": map[string]any{
			"post": map[string]any{"requestBody": map[string]any{"content": map[string]any{"application/json": map[string]any{"schema": true}}}}}}}, 0}},
	}

	n := 0
	for _, route := range apiRoutes(f.App) {
		if notTenantScoped[route] || isCustomerPortalRoute(route) {
			continue
		}
		reqs, ok := cases[route]
		if !ok {
			t.Errorf("route %s has no isolation case: add one to TestTenantIsolation (or to notTenantScoped if it holds no tenant data)", route)
			continue
		}
		delete(cases, route)
		sessionOnly := roleTable[route][3] == '-'
		for _, r := range reqs {
			for _, b := range []struct {
				name string
				c    *client
			}{{"session", bSession}, {"api key", bKey}} {
				n++
				body := r.body
				if m, ok := body.(map[string]string); ok && m["email"] != "" {
					body = map[string]string{"email": strings.Replace(m["email"], "@", "+"+b.name[:3]+"@", 1), "role": m["role"]}
				}
				if m, ok := body.(map[string]any); ok && m["name"] == "b.own.type" {
					body = map[string]any{"name": "b.own.type." + b.name[:3]}
				}
				res := b.c.raw(r.method, r.path, mustJSON(t, body), nil)
				switch {
				case sessionOnly && b.name == "api key":
					if res.Status != 403 {
						t.Errorf("%s %s with B's API key: %d, want 403 (session-only route)", r.method, r.path, res.Status)
					}
				case r.want == 0:
					if res.Status/100 != 2 {
						t.Errorf("%s %s as B (%s): %d, want 2xx: %s", r.method, r.path, b.name, res.Status, res.Body)
					}
				default:
					if res.Status != r.want {
						t.Errorf("%s %s as B (%s): %d, want %d: %s", r.method, r.path, b.name, res.Status, r.want, res.Body)
					} else if r.want == 404 && res.apiError(t).Error.Code != "not_found" {
						t.Errorf("%s %s as B: code %s, want not_found", r.method, r.path, res.Body)
					}
				}
				for _, mark := range aMarks {
					if strings.Contains(string(res.Body), mark) {
						t.Errorf("%s %s as B (%s) shows tenant A's %q: %s", r.method, r.path, b.name, mark, res.Body)
					}
				}
			}
		}
	}
	for route := range cases {
		t.Errorf("isolation case %s matches no registered route", route)
	}

	// A is untouched.
	var acked struct {
		Data []struct {
			Status string `json:"status"`
		} `json:"data"`
	}
	aKey.must(200, "POST", "/queues/"+aQueue.ID+"/ack", map[string]any{"receipts": []string{aReceipt}}, &acked)
	if len(acked.Data) != 1 || acked.Data[0].Status != "acked" {
		t.Errorf("tenant A's lease changed: %+v", acked.Data)
	}
	var epNow struct {
		Description string `json:"description"`
		Enabled     bool   `json:"enabled"`
	}
	aKey.must(200, "GET", "/endpoints/"+ep.ID, nil, &epNow)
	if epNow.Description != "" || !epNow.Enabled {
		t.Errorf("tenant A's endpoint changed: %+v", epNow)
	}
	var secret struct {
		Secret string `json:"secret"`
	}
	aKey.must(200, "GET", "/endpoints/"+ep.ID+"/secret", nil, &secret)
	if secret.Secret != ep.Secret {
		t.Error("tenant A's secret was rotated")
	}
	var members struct {
		Data []struct {
			ID   string `json:"id"`
			Role string `json:"role"`
		} `json:"data"`
	}
	aSession.must(200, "GET", "/members", nil, &members)
	if len(members.Data) != 2 || members.Data[1].ID != aMember || members.Data[1].Role != "viewer" {
		t.Errorf("tenant A's members changed: %+v", members.Data)
	}
	var jobNow struct {
		State string `json:"state"`
	}
	aKey.must(200, "GET", "/replays/"+job.ID, nil, &jobNow)
	if jobNow.State == "cancelled" {
		t.Error("tenant B cancelled tenant A's replay")
	}
	var evNow struct {
		Deliveries []struct {
			AttemptCount int `json:"attempt_count"`
		} `json:"deliveries"`
	}
	aKey.must(200, "GET", "/events/"+ev.ID, nil, &evNow)
	if evNow.Deliveries[0].AttemptCount != 1 {
		t.Errorf("tenant A's delivery was replayed by B: %+v", evNow)
	}
	// A's endpoint also got the event queued for A's pull queue, once.
	got := 0
	for _, r := range rc.requests() {
		if r.Header.Get("Webhook-Id") == ev.ID {
			got++
		}
	}
	if got != 1 {
		t.Errorf("receiver got event %s %d times; B's replays must not reach A's endpoint", ev.ID, got)
	}
	// B's own source cannot reach A's request, and A's source is intact:
	// its token still works and nothing was replayed into an event of B.
	var bSources struct {
		Data []idOnly `json:"data"`
	}
	bKey.must(200, "GET", "/sources", nil, &bSources)
	for _, bs := range bSources.Data {
		if status := bKey.do("GET", "/sources/"+bs.ID+"/requests/"+aRequest, nil, nil); status != 404 {
			t.Errorf("tenant B reached A's request through its own source %s: %d", bs.ID, status)
		}
		if status := bKey.do("POST", "/sources/"+bs.ID+"/requests/"+aRequest+"/replay", nil, nil); status != 404 {
			t.Errorf("tenant B replayed A's request through its own source %s: %d", bs.ID, status)
		}
	}
	var aSourceNow struct {
		Name      string `json:"name"`
		Enabled   bool   `json:"enabled"`
		IngestURL string `json:"ingest_url"`
	}
	aKey.must(200, "GET", "/sources/"+aSource.ID, nil, &aSourceNow)
	if aSourceNow.Name != "a-source" || !aSourceNow.Enabled || aSourceNow.IngestURL != aSource.IngestURL {
		t.Errorf("tenant A's source changed: %+v", aSourceNow)
	}
	t.Logf("%d cross-tenant requests checked", n)
}
