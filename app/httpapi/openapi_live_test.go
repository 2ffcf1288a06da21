package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"github.com/ferry-dev/ferry/app"
	"github.com/ferry-dev/ferry/app/httpapi"
	"github.com/ferry-dev/ferry/tenants"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestOpenAPIDescribesLiveResponses drives every documented operation of
// the real app (PostgreSQL and Kafka) and validates each answer against
// the document: its status must be documented for the operation and its
// body must fit the schema. Where TestOpenAPIResponsesMatchGoTypes proves
// each Go type fits its schema, this proves the route table names the
// types the handlers really send.
func TestOpenAPIDescribesLiveResponses(t *testing.T) {
	if testing.Short() {
		t.Skip("needs PostgreSQL and Kafka")
	}
	a, dbURL := startApp(t)
	v := newValidator(t)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }))
	t.Cleanup(receiver.Close)

	anon := v.client(a.URL())
	anon.call(401, "GET /me", nil)
	owner := v.client(a.URL())
	ownerEmail := testenv.Name("owner") + "@example.com"
	owner.call(202, "POST /auth/signup", map[string]string{"email": ownerEmail, "password": "correct horse battery", "organization": "Acme"})
	owner.call(422, "POST /auth/signup/confirm", map[string]string{"token": "not-a-token", "password": "correct horse battery"})
	signupToken := mailedToken(t, ownerEmail, "finish-signup")
	owner.call(422, "POST /auth/signup/confirm", map[string]string{"token": signupToken, "password": "someone else's pick"})
	owner.call(201, "POST /auth/signup/confirm", map[string]string{"token": signupToken, "password": "correct horse battery"})
	owner.call(401, "POST /auth/login", map[string]string{"email": ownerEmail, "password": "wrong password!"})
	owner.call(200, "POST /auth/login", map[string]string{"email": ownerEmail, "password": "correct horse battery"})
	me := owner.call(200, "GET /me", nil)
	tenantID := me.str(t, "tenant", "id")

	created := owner.call(201, "POST /api-keys", map[string]string{"name": "backend"})
	key := v.client(a.URL())
	key.apiKey = created.str(t, "key")
	owner.call(200, "GET /api-keys", nil)
	spare := owner.call(201, "POST /api-keys", map[string]string{"name": "spare"}).str(t, "id")
	owner.call(204, "DELETE /api-keys/{id}", nil, spare)

	key.call(422, "POST /endpoints", map[string]any{})
	ep := key.call(201, "POST /endpoints", map[string]any{"url": receiver.URL + "/hook", "description": "orders",
		"event_types": []string{"order.paid"}, "headers": map[string]string{"X-Team": "billing"}, "rate_limit_per_second": 50}).str(t, "id")
	key.call(200, "GET /endpoints", nil)
	key.call(404, "GET /endpoints/{id}", nil, "0196a6c2-5b1f-7d3e-9a4b-1c2d3e4f5a6b")
	key.call(200, "GET /endpoints/{id}", nil, ep)
	key.call(200, "PATCH /endpoints/{id}", map[string]any{"description": "paid orders"}, ep)
	key.call(200, "GET /endpoints/{id}/secret", nil, ep)
	key.call(200, "POST /endpoints/{id}/secret/rotate", nil, ep)
	key.call(422, "PATCH /endpoints/{id}", map[string]any{"filter": "event.data.id >"}, ep)
	key.call(202, "POST /endpoints/{id}/test", nil, ep)
	key.call(404, "POST /endpoints/{id}/test", nil, uuid.NewString())
	key.call(200, "POST /endpoints/{id}/test-routing", map[string]any{"event": map[string]any{"type": "order.paid", "data": map[string]any{"id": 42}},
		"filter": "event.data.id > 40"}, ep)
	key.call(200, "POST /endpoints/{id}/test-routing", map[string]any{"event": map[string]any{"type": "order.paid", "data": map[string]any{"id": 42}},
		"filter": "event.data.nope"}, ep)
	key.call(422, "PATCH /endpoints/{id}", map[string]any{"transformation": "function handler(w) {"}, ep)
	key.call(200, "POST /endpoints/{id}/test-routing", map[string]any{"event": map[string]any{"type": "order.paid", "data": map[string]any{"id": 42}},
		"transformation": "function handler(w) { w.payload = {id: w.event.data.id}; w.headers['X-Id'] = '42'; return w }"}, ep)
	key.call(200, "POST /endpoints/{id}/test-routing", map[string]any{"event": map[string]any{"type": "order.paid", "data": map[string]any{"id": 42}},
		"transformation": "function handler(w) { w.cancel = true; return w }"}, ep)

	ev := key.call(202, "POST /events", map[string]any{"type": "order.paid", "data": map[string]any{"id": 42}}).str(t, "id")
	var delivery string
	testenv.Eventually(t, 30*time.Second, func() bool {
		d := key.call(200, "GET /events/{id}", nil, ev)
		deliveries, _ := d["deliveries"].([]any)
		if len(deliveries) != 1 {
			return false
		}
		first := deliveries[0].(map[string]any)
		delivery, _ = first["id"].(string)
		return first["status"] == "succeeded"
	}, "the event was not delivered")
	key.call(200, "GET /events", nil)
	key.call(200, "GET /events/{id}/attempts", nil, ev)
	key.call(200, "GET /endpoints/{id}/attempts", nil, ep)
	key.call(200, "GET /endpoints/{id}/stats", nil, ep)
	key.call(404, "GET /endpoints/{id}/stats", nil, "0196a6c2-5b1f-7d3e-9a4b-1c2d3e4f5a6b")
	key.call(200, "GET /stats", nil)

	key.call(202, "POST /events/{id}/replay", map[string]any{}, ev)
	key.call(202, "POST /deliveries/{id}/replay", nil, delivery)
	key.call(200, "POST /replays/preview", map[string]any{"endpoint_id": ep, "status": "succeeded"})
	key.call(422, "POST /replays/preview", map[string]any{"status": "nope"})
	job := key.call(202, "POST /replays", map[string]any{"endpoint_id": ep, "status": "succeeded"}).str(t, "id")
	key.call(200, "GET /replays", nil)
	key.call(200, "GET /replays/{id}", nil, job)
	key.call(200, "POST /replays/{id}/cancel", nil, job)

	// Pull queues.
	q := key.call(201, "POST /endpoints", map[string]any{"kind": "queue", "event_types": []string{"order.queued"}}).str(t, "id")
	key.call(201, "POST /endpoints/{id}/consumer-tokens", map[string]string{"name": "worker"}, q)
	tokens := key.call(200, "GET /endpoints/{id}/consumer-tokens", nil, q)
	token := tokens["data"].([]any)[0].(map[string]any)["id"].(string)
	key.call(202, "POST /events", map[string]any{"type": "order.queued", "data": map[string]any{"id": 43}})
	key.call(200, "GET /queues/{endpoint_id}", nil, q)
	key.call(422, "POST /queues/{endpoint_id}/pull", map[string]any{"max": 0}, q)
	receiptOf := func(o object) string {
		data, _ := o["data"].([]any)
		if len(data) != 1 {
			t.Fatalf("pulled %v", o)
		}
		return data[0].(map[string]any)["receipt"].(string)
	}
	r1 := receiptOf(key.call(200, "POST /queues/{endpoint_id}/pull", map[string]any{"wait_seconds": 10}, q))
	key.call(200, "POST /queues/{endpoint_id}/nack", map[string]any{"receipts": []string{r1}, "delay_seconds": 0}, q)
	r2 := receiptOf(key.call(200, "POST /queues/{endpoint_id}/pull", map[string]any{"wait_seconds": 10}, q))
	key.call(200, "POST /queues/{endpoint_id}/reject", map[string]any{"receipts": []string{r2}, "reason": "no"}, q)
	key.call(200, "POST /queues/{endpoint_id}/ack", map[string]any{"receipts": []string{r2}}, q)
	key.call(404, "GET /queues/{endpoint_id}/stream", nil, "0196a6c2-5b1f-7d3e-9a4b-1c2d3e4f5a6b")
	key.call(204, "DELETE /endpoints/{id}/consumer-tokens/{token_id}", nil, q, token)

	// Inbound sources: a source, a captured request and its replay.
	key.call(422, "POST /sources", map[string]any{"name": "github"})
	src := key.call(201, "POST /sources", map[string]any{"name": "github",
		"verification": map[string]any{"type": "none"}, "event_type": map[string]any{"header": "X-GitHub-Event", "default": "github.unknown"},
		"dedupe": map[string]any{"header": "X-GitHub-Delivery"}, "response": map[string]any{"status": 202, "body": "ok", "content_type": "text/plain"}})
	srcID := src.str(t, "id")
	key.call(200, "GET /sources", nil)
	key.call(200, "GET /sources/{id}", nil, srcID)
	key.call(404, "GET /sources/{id}", nil, uuid.NewString())
	key.call(200, "PATCH /sources/{id}", map[string]any{"name": "GitHub", "response": nil}, srcID)
	ingest := key.call(200, "POST /sources/{id}/rotate-token", nil, srcID).str(t, "ingest_url")
	res, err := http.Post(ingest, "application/json", strings.NewReader(`{"zen":"Keep it logically awesome."}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("POST %s: %d", ingest, res.StatusCode)
	}
	reqs := key.call(200, "GET /sources/{id}/requests", nil, srcID)
	captured, _ := reqs["data"].([]any)
	if len(captured) != 1 {
		t.Fatalf("captured %v", reqs)
	}
	rid := captured[0].(map[string]any)["id"].(string)
	// The event is made right after the answer; a replay waits for it.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if key.call(200, "GET /sources/{id}/requests/{request_id}", nil, srcID, rid)["status"] != "received" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("request %s still received after 10 s", rid)
		}
	}
	key.call(202, "POST /sources/{id}/requests/{request_id}/replay", nil, srcID, rid)
	key.call(404, "POST /sources/{id}/requests/{request_id}/replay", nil, srcID, uuid.NewString())
	key.call(204, "DELETE /sources/{id}", nil, srcID)

	// The event-type catalog: a schema in reject mode, then warn, and an
	// OpenAPI import.
	schema := map[string]any{"type": "object", "required": []string{"amount"}, "properties": map[string]any{"amount": map[string]any{"type": "integer"}}}
	key.call(422, "POST /event-types", map[string]any{"name": "invoice.paid", "schema": map[string]any{"type": "nope"}})
	key.call(201, "POST /event-types", map[string]any{"name": "invoice.paid", "group": "invoices", "validation": "reject",
		"schema": schema, "examples": []any{map[string]any{"amount": 1}}})
	key.call(200, "GET /event-types", nil)
	key.call(200, "GET /event-types/{name}", nil, "invoice.paid")
	key.call(404, "GET /event-types/{name}", nil, "nope")
	key.call(422, "POST /events", map[string]any{"type": "invoice.paid", "data": map[string]any{"amount": "x"}})
	key.call(201, "POST /event-types/{name}/versions", map[string]any{"schema": schema}, "invoice.paid")
	key.call(200, "PATCH /event-types/{name}", map[string]any{"validation": "warn", "deprecated": true}, "invoice.paid")
	if w := key.call(202, "POST /events", map[string]any{"type": "invoice.paid", "data": map[string]any{"amount": "x"}}); w["schema_warning"] == nil {
		t.Errorf("no schema_warning in %v", w)
	}
	key.call(200, "POST /event-types/import", map[string]any{"openapi": "3.1.0", "info": map[string]any{"title": "t", "version": "1"},
		"webhooks": map[string]any{"order.shipped": map[string]any{"post": map[string]any{"requestBody": map[string]any{
			"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"type": "object"}}}}}}}})
	key.call(204, "DELETE /event-types/{name}", nil, "invoice.paid")

	owner.call(200, "GET /members", nil)
	// An account from before sign-up proved addresses invites nobody
	// until it has verified its address.
	verified := func(v bool) {
		t.Helper()
		if _, err := testenv.DB(t, dbURL).Exec(`UPDATE users SET email_verified_at = CASE WHEN $2 THEN now() END WHERE email = $1`, ownerEmail, v); err != nil {
			t.Fatal(err)
		}
	}
	verified(false)
	owner.call(403, "POST /members", map[string]string{"email": "viewer@example.com", "role": "viewer"})
	owner.call(202, "POST /me/verify-email", nil)
	owner.call(204, "POST /auth/verify-email", map[string]string{"token": mailedToken(t, ownerEmail, "verify-email")})
	invited := owner.call(201, "POST /members", map[string]string{"email": "viewer@example.com", "role": "viewer"}).str(t, "id")
	owner.call(202, "POST /members/{id}/invite", nil, invited)
	anon.call(422, "POST /auth/invites/accept", map[string]string{"token": "not-a-token", "password": "a long new password"})
	anon.call(202, "POST /auth/password-reset", map[string]string{"email": ownerEmail})
	anon.call(422, "POST /auth/password-reset/confirm", map[string]string{"token": "not-a-token", "new_password": "a long new password"})
	anon.call(422, "POST /auth/verify-email", map[string]string{"token": "not-a-token"})
	owner.call(200, "PATCH /members/{id}", map[string]string{"role": "admin"}, invited)
	owner.call(204, "DELETE /members/{id}", nil, invited)

	owner.call(200, "GET /billing", nil)
	owner.call(200, "PUT /billing/plan", map[string]string{"plan": "pro"})
	owner.call(200, "GET /billing/invoices", nil)
	owner.call(200, "GET /me/notifications", nil)
	owner.call(422, "PUT /me/notifications", map[string]any{"quota": false})
	owner.call(200, "PUT /me/notifications", map[string]bool{"endpoint_health": true, "quota": false, "invoices": true})

	if _, err := a.Tenants.CreateStaff(context.Background(), tenants.StaffInput{Email: "staff@ferry.example", Password: "staff password 123"}); err != nil {
		t.Fatalf("create staff: %v", err)
	}
	staff := v.client(a.URL())
	staff.call(200, "POST /auth/login", map[string]string{"email": "staff@ferry.example", "password": "staff password 123"})
	staff.call(200, "GET /staff/tenants", nil)
	staff.call(201, "POST /me/totp", nil)
	staff.call(422, "POST /me/totp/confirm", map[string]string{"code": "000000"})
	staff.call(200, "GET /staff/tenants/{id}", nil, tenantID)
	staff.call(200, "GET /staff/tenants/{id}/events", nil, tenantID)
	staff.call(200, "GET /staff/tenants/{id}/events/{event_id}", nil, tenantID, ev)
	staff.call(200, "GET /staff/events/{event_id}", nil, ev)
	staff.call(404, "GET /staff/events/{event_id}", nil, uuid.NewString())
	staff.call(202, "POST /staff/tenants/{id}/replays", map[string]string{"reason": "ticket 1", "event_id": ev}, tenantID)
	staffJob := staff.call(202, "POST /staff/tenants/{id}/replays", map[string]string{"reason": "ticket 2", "status": "succeeded"}, tenantID).str(t, "id")
	staff.call(200, "GET /staff/tenants/{id}/replays/{replay_id}", nil, tenantID, staffJob)
	staff.call(200, "POST /staff/tenants/{id}/replays/preview", map[string]string{"status": "succeeded"}, tenantID)
	staff.call(200, "GET /staff/tenants/{id}/endpoints/{endpoint_id}/attempts", nil, tenantID, ep)
	staff.call(404, "GET /staff/tenants/{id}/endpoints/{endpoint_id}/attempts", nil, tenantID, uuid.NewString())
	staff.call(200, "GET /staff/audit", nil)
	staff.call(200, "GET /staff/tenants/{id}/billing", nil, tenantID)
	staff.call(200, "POST /staff/tenants/{id}/billing/lift-restriction", map[string]string{"reason": "ticket 3"}, tenantID)

	// Customers: endpoints and events of one customer.
	key.call(201, "POST /customers", map[string]any{"uid": "acme", "name": "Acme", "metadata": map[string]string{"tier": "gold"}})
	key.call(201, "PUT /customers/{uid}", map[string]any{"name": "Globex"}, "globex")
	key.call(200, "PUT /customers/{uid}", map[string]any{"name": "Globex Corp"}, "globex")
	key.call(200, "POST /customers", map[string]any{"uid": "acme", "name": "Acme", "metadata": map[string]string{"tier": "gold"}})
	key.call(200, "PATCH /customers/{uid}", map[string]any{"name": "Acme Inc"}, "acme")
	key.call(200, "GET /customers", nil)
	key.call(200, "GET /customers/{uid}", nil, "acme")
	key.call(201, "POST /endpoints", map[string]any{"url": "http://127.0.0.1:9/acme", "customer": "acme"})
	key.call(202, "POST /events", map[string]any{"type": "invoice.paid", "data": map[string]any{"n": 1}, "customer": "acme"})
	key.call(422, "POST /customers", map[string]any{"uid": ""})

	// The customer portal: the tenant mints a session, the page exchanges
	// its code for a token and works as the customer.
	key.call(200, "GET /portal-settings", nil)
	key.call(200, "PUT /portal-settings", map[string]any{"allowed_origins": []string{"https://app.example.com"},
		"theme": map[string]any{"primary_color": "#0a7"}})
	key.call(422, "PUT /portal-settings", map[string]any{"allowed_origins": []string{"javascript:alert(1)"}})
	minted := key.call(201, "POST /customers/{uid}/portal-sessions", map[string]any{
		"capabilities":  []string{"manage_endpoints", "view_secret", "rotate_secret", "replay", "send_test"},
		"external_user": map[string]string{"id": "u_1", "email": "dana@acme.example"}}, "acme")
	key.call(422, "POST /customers/{uid}/portal-sessions", map[string]any{"external_user": map[string]string{}}, "acme")
	key.call(404, "POST /customers/{uid}/portal-sessions", map[string]any{"external_user": map[string]string{"id": "u"}}, "nobody")
	sessionID := minted.str(t, "session_id")
	_, code, _ := strings.Cut(minted.str(t, "url"), "#code=")
	anon = v.client(a.URL())
	anon.call(401, "POST /portal/exchange", map[string]string{"session_id": sessionID, "code": "wrong"})
	exchanged := anon.call(200, "POST /portal/exchange", map[string]string{"session_id": sessionID, "code": code})
	anon.call(401, "POST /portal/exchange", map[string]string{"session_id": sessionID, "code": code}) // single use
	cust := v.client(a.URL())
	cust.apiKey = exchanged.str(t, "token")
	cust.call(200, "GET /portal/session", nil)
	cust.apiKey = cust.call(200, "POST /portal/renew", nil).str(t, "token")
	pep := cust.call(201, "POST /portal/endpoints", map[string]any{"url": receiver.URL + "/portal", "event_types": []string{"invoice.paid"}}).str(t, "id")
	cust.call(403, "POST /portal/endpoints", map[string]any{"url": receiver.URL + "/f", "filter": "true"})
	cust.call(200, "GET /portal/endpoints", nil)
	cust.call(200, "GET /portal/endpoints/{id}", nil, pep)
	cust.call(404, "GET /portal/endpoints/{id}", nil, ep) // the tenant's own
	cust.call(200, "PATCH /portal/endpoints/{id}", map[string]any{"description": "billing"}, pep)
	cust.call(200, "GET /portal/endpoints/{id}/secret", nil, pep)
	cust.call(200, "POST /portal/endpoints/{id}/secret/rotate", nil, pep)
	cust.call(202, "POST /portal/endpoints/{id}/test", nil, pep)
	key.call(201, "POST /event-types", map[string]any{"name": "invoice.paid", "group": "billing", "schema": map[string]any{"type": "object"},
		"examples": []any{map[string]any{"amount": 4200}}})
	cust.call(200, "GET /portal/event-types", nil)
	cust.call(200, "GET /portal/event-types/{name}", nil, "invoice.paid")
	cust.call(404, "GET /portal/event-types/{name}", nil, "no.such.type")
	cust.call(202, "POST /portal/endpoints/{id}/test", map[string]any{"event_type": "invoice.paid"}, pep)
	cust.call(422, "POST /portal/endpoints/{id}/test", map[string]any{"event_type": "invoice.paid", "example": 3}, pep)
	cust.call(200, "GET /portal/endpoints/{id}/attempts", nil, pep)
	cust.call(200, "GET /portal/endpoints/{id}/stats", nil, pep)
	pev := key.call(202, "POST /events", map[string]any{"type": "invoice.paid", "data": map[string]any{"n": 2}, "customer": "acme"}).str(t, "id")
	cust.call(200, "GET /portal/events", nil)
	cust.call(200, "GET /portal/events/{id}", nil, pev)
	cust.call(404, "GET /portal/events/{id}", nil, ev) // the tenant's own event
	cust.call(200, "GET /portal/events/{id}/attempts", nil, pev)
	cust.call(202, "POST /portal/events/{id}/replay", map[string]any{"endpoint_id": pep}, pev)
	since := time.Now().Add(-time.Hour).UTC().Format(time.RFC3339)
	cust.call(200, "POST /portal/recover/preview", map[string]any{"endpoint_id": pep, "since": since})
	cust.call(202, "POST /portal/recover", map[string]any{"endpoint_id": pep, "since": since})
	cust.call(204, "DELETE /portal/endpoints/{id}", nil, pep)
	key.call(200, "GET /portal-sessions", nil)
	key.call(200, "GET /portal-audit", nil)
	key.call(200, "POST /customers/{uid}/portal-sessions/revoke", map[string]any{"external_user_id": "u_2"}, "acme")
	key.call(204, "DELETE /portal-sessions/{id}", nil, sessionID)
	key.call(404, "DELETE /portal-sessions/{id}", nil, "0196a6c2-5b1f-7d3e-9a4b-1c2d3e4f5a6b")
	cust.call(401, "GET /portal/session", nil) // revoked: the next request ends it
	key.call(204, "DELETE /customers/{uid}", nil, "globex")
	key.call(404, "GET /customers/{uid}", nil, "globex")

	key.call(204, "DELETE /endpoints/{id}", nil, ep)
	anon.call(200, "GET /openapi.json", nil)
	anon.call(401, "GET /openapi-internal.json", nil)
	owner.call(200, "GET /openapi-internal.json", nil)
	owner.call(204, "POST /me/password", map[string]string{"current_password": "correct horse battery", "new_password": "another horse battery"})
	owner.call(204, "POST /auth/logout", nil)

	for _, op := range v.documented() {
		if !v.called[op] {
			t.Errorf("%s is documented but this test never calls it", op)
		}
	}
}

// validator checks answers against the document.
// validator checks answers against the two documents: the tenant API's
// and the internal routes'. Every route is in exactly one of them.
type validator struct {
	t *testing.T
	// ops maps "METHOD /path" to its operation, from whichever document
	// describes it.
	ops    map[string]*openapi3.Operation
	called map[string]bool
}

func newValidator(t *testing.T) *validator {
	v := &validator{t: t, ops: map[string]*openapi3.Operation{}, called: map[string]bool{}}
	for _, document := range []func() ([]byte, error){httpapi.OpenAPIDocument, httpapi.OpenAPIInternalDocument} {
		b, err := document()
		if err != nil {
			t.Fatal(err)
		}
		doc, err := openapi3.NewLoader().LoadFromData(b)
		if err != nil {
			t.Fatal(err)
		}
		for path, item := range doc.Paths.Map() {
			for method, op := range item.Operations() {
				route := method + " " + path
				if v.ops[route] != nil {
					t.Fatalf("%s is in both documents", route)
				}
				v.ops[route] = op
			}
		}
	}
	return v
}

func (v *validator) documented() []string {
	var out []string
	for route := range v.ops {
		out = append(out, route)
	}
	slices.Sort(out)
	return out
}

// check validates one answer to op ("METHOD /template").
func (v *validator) check(op string, status int, header http.Header, body []byte) {
	t := v.t
	t.Helper()
	v.called[op] = true
	operation := v.ops[op]
	if operation == nil {
		t.Fatalf("%s is in neither document", op)
	}
	res := operation.Responses.Status(status)
	if res == nil {
		t.Errorf("%s answered %d, which the document does not list: %s", op, status, body)
		return
	}
	media := res.Value.Content.Get("application/json")
	if media == nil {
		if len(body) > 0 {
			t.Errorf("%s %d: the document says no body, got %s", op, status, body)
		}
		return
	}
	if ct := header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s %d: Content-Type %q", op, status, ct)
	}
	var decoded any
	if err := json.Unmarshal(body, &decoded); err != nil {
		t.Errorf("%s %d: body is not JSON: %v", op, status, err)
		return
	}
	if err := media.Schema.Value.VisitJSON(decoded, openapi3.MultiErrors(), openapi3.VisitAsResponse(),
		openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562))); err != nil {
		t.Errorf("%s %d: the body does not fit the document:\n%s\n%v", op, status, body, err)
	}
}

// client calls the API with a session (cookies and CSRF token) or an API
// key.
type client struct {
	v      *validator
	base   string
	http   *http.Client
	apiKey string
}

func (v *validator) client(base string) *client {
	jar, err := cookiejar.New(nil)
	if err != nil {
		v.t.Fatal(err)
	}
	return &client{v: v, base: base + "/api/v1", http: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

// object is a decoded JSON object.
type object map[string]any

// str returns the string at keys, failing the test when there is none.
func (o object) str(t *testing.T, keys ...string) string {
	t.Helper()
	var cur any = map[string]any(o)
	for _, k := range keys {
		m, _ := cur.(map[string]any)
		cur = m[k]
	}
	s, ok := cur.(string)
	if !ok || s == "" {
		t.Fatalf("no string at %v in %v", keys, o)
	}
	return s
}

// call sends op ("METHOD /template") with the template's parameters filled
// by args in order, fails unless the status is want, validates the
// answer and returns it decoded (nil unless an object).
func (c *client) call(want int, op string, body any, args ...string) object {
	t := c.v.t
	t.Helper()
	method, path, _ := strings.Cut(op, " ")
	for _, arg := range args {
		start, end := strings.Index(path, "{"), strings.Index(path, "}")
		if start < 0 || end < start {
			t.Fatalf("%s: more arguments than parameters", op)
		}
		path = path[:start] + arg + path[end+1:]
	}
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	for _, ck := range c.http.Jar.Cookies(req.URL) {
		if ck.Name == "ferry_csrf" {
			req.Header.Set("X-CSRF-Token", ck.Value)
		}
	}
	res, err := c.http.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("read %s %s: %v", method, path, err)
	}
	if res.StatusCode != want {
		t.Fatalf("%s %s: status %d, want %d: %s", method, path, res.StatusCode, want, raw)
	}
	c.v.check(op, res.StatusCode, res.Header, raw)
	var out object
	_ = json.Unmarshal(raw, &out) // not every answer is an object
	return out
}

// startApp runs the whole app, dev mode, on its own database, topics and
// consumer groups until the test ends.
func startApp(t *testing.T) (*app.App, string) {
	t.Helper()
	brokers := testenv.Kafka(t)
	cfg := app.Config{
		Dev:                   true,
		HTTPAddr:              "127.0.0.1:0",
		DatabaseURL:           testenv.Postgres(t),
		DBMaxConns:            10,
		KafkaBrokers:          brokers,
		KafkaTopicPrefix:      testenv.TopicPrefix(t, brokers),
		KafkaGroup:            testenv.Name("g"),
		KafkaPartitions:       2,
		KafkaReplication:      1,
		MasterKey:             bytes.Repeat([]byte{7}, 32),
		JWTSecret:             bytes.Repeat([]byte("j"), 32),
		SessionTTL:            time.Hour,
		AllowPrivateEndpoints: true,
		AllowHTTPEndpoints:    true,
		RetryScale:            0.001,
		Roles:                 map[string]bool{app.RoleAPI: true, app.RoleWorker: true},
		LogFormat:             "text",
		LogLevel:              "warn",
		ShutdownGrace:         5 * time.Second,
		OutboxSweepAfter:      2 * time.Second,
		AttemptRetention:      30 * 24 * time.Hour,
		BcryptCost:            bcrypt.MinCost,
		APIRateLimitPerSecond: 100000,
		Version:               "test",
		SMTPURL:               os.Getenv("FERRY_TEST_SMTP_URL"),
		MailFrom:              "Ferry <no-reply@ferry.test>",
	}
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	a, err := app.New(ctx, cfg, log)
	if err != nil {
		cancel()
		t.Fatalf("start ferry: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ferry run: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("ferry did not shut down within 30s")
		}
		a.Close()
	})
	return a, cfg.DatabaseURL
}

// mailedToken waits for a mail to to with a link to page and returns the
// link's token, read from the mail catcher (scripts/mail.sh) as the
// recipient would.
func mailedToken(t *testing.T, to, page string) string {
	t.Helper()
	api := os.Getenv("FERRY_TEST_MAIL_API")
	if api == "" || os.Getenv("FERRY_TEST_SMTP_URL") == "" {
		t.Fatal(`no mail catcher: start it with  eval "$(bash scripts/mail.sh start)"  (make test does), which sets FERRY_TEST_SMTP_URL and FERRY_TEST_MAIL_API`)
	}
	re := regexp.MustCompile(`/` + regexp.QuoteMeta(page) + `#token=([A-Za-z0-9_-]+)`)
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var found struct {
			Messages []struct {
				ID string `json:"ID"`
			} `json:"messages"`
		}
		getMailJSON(t, api+"/api/v1/search?query="+url.QueryEscape(`to:"`+to+`"`), &found)
		for _, m := range found.Messages {
			var full struct {
				Text string `json:"Text"`
			}
			getMailJSON(t, api+"/api/v1/message/"+m.ID, &full)
			if sub := re.FindStringSubmatch(full.Text); sub != nil {
				return sub[1]
			}
		}
	}
	t.Fatalf("no %s mail to %s within 15 s", page, to)
	return ""
}

func getMailJSON(t *testing.T, u string, out any) {
	t.Helper()
	res, err := http.Get(u)
	if err != nil {
		t.Fatalf("mail catcher: %v", err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatalf("mail catcher %s: %v", u, err)
	}
}
