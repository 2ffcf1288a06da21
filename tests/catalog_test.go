package tests

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// eventTypeOut is what the catalog answers about one event type.
type eventTypeOut struct {
	Name           string `json:"name"`
	Group          string `json:"group"`
	Validation     string `json:"validation"`
	LatestVersion  int    `json:"latest_version"`
	RecentWarnings []struct {
		Field   string `json:"field"`
		Message string `json:"message"`
	} `json:"recent_warnings"`
}

// ingestAnswer is POST /events' answer, success or error.
type ingestAnswer struct {
	ID            string `json:"id"`
	SchemaWarning string `json:"schema_warning"`
	Error         struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Field   string `json:"field"`
	} `json:"error"`
}

func postEvent(t *testing.T, api *client, body map[string]any) (int, ingestAnswer) {
	t.Helper()
	var a ingestAnswer
	return api.do("POST", "/events", body, &a), a
}

// TestCatalogValidatesIngest: a type with a schema in reject mode refuses
// bad data with 422 naming the path (batched and keyed ingest alike) and
// accepts good data; in warn mode bad data is accepted with the warning,
// which the type records; an OpenAPI 3.1 document's two webhooks import
// as two types.
func TestCatalogValidatesIngest(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, key := signUp(t, f, "cat@catalog.example")

	schema := map[string]any{"type": "object", "required": []string{"amount"},
		"properties": map[string]any{"amount": map[string]any{"type": "integer", "minimum": 0}}}
	var et eventTypeOut
	key.must(201, "POST", "/event-types", map[string]any{"name": "invoice.paid", "group": "invoices", "validation": "reject",
		"schema": schema, "examples": []any{map[string]any{"amount": 4200}}}, &et)
	if et.LatestVersion != 1 || et.Validation != "reject" {
		t.Fatalf("created %+v", et)
	}

	for _, idem := range []string{"", "key-1"} {
		status, a := postEvent(t, key, map[string]any{"type": "invoice.paid", "data": map[string]any{"amount": "4200"}, "idempotency_key": idem})
		if status != 422 || a.Error.Code != "invalid" || a.Error.Field != "data/amount" || !strings.Contains(a.Error.Message, "want integer") {
			t.Fatalf("bad data (key %q): %d %+v", idem, status, a.Error)
		}
	}
	if status, a := postEvent(t, key, map[string]any{"type": "invoice.paid", "data": map[string]any{}}); status != 422 || a.Error.Field != "data" {
		t.Fatalf("missing amount: %d %+v", status, a.Error)
	}
	status, a := postEvent(t, key, map[string]any{"type": "invoice.paid", "data": map[string]any{"amount": 4200}})
	if status != 202 || a.ID == "" || a.SchemaWarning != "" {
		t.Fatalf("good data: %d %+v", status, a)
	}
	// Other types are not checked.
	if status, _ := postEvent(t, key, map[string]any{"type": "invoice.voided", "data": "anything"}); status != 202 {
		t.Fatalf("uncatalogued type: %d", status)
	}

	key.must(200, "PATCH", "/event-types/invoice.paid", map[string]any{"validation": "warn"}, nil)
	status, a = postEvent(t, key, map[string]any{"type": "invoice.paid", "data": map[string]any{"amount": -1}})
	if status != 202 || a.ID == "" || !strings.HasPrefix(a.SchemaWarning, "data/amount: ") {
		t.Fatalf("warn: %d %+v", status, a)
	}
	key.must(200, "GET", "/event-types/invoice.paid", nil, &et)
	if len(et.RecentWarnings) != 1 || et.RecentWarnings[0].Field != "data/amount" {
		t.Fatalf("recent warnings: %+v", et.RecentWarnings)
	}

	// A new version is what ingest checks from now on.
	key.must(201, "POST", "/event-types/invoice.paid/versions", map[string]any{"schema": map[string]any{"type": "object"}}, nil)
	if status, a := postEvent(t, key, map[string]any{"type": "invoice.paid", "data": map[string]any{"amount": -1}}); status != 202 || a.SchemaWarning != "" {
		t.Fatalf("after version 2: %d %+v", status, a)
	}

	// Names may hold "/": the path escapes it.
	key.must(201, "POST", "/event-types", map[string]any{"name": "billing/invoice.created"}, nil)
	key.must(200, "GET", "/event-types/billing%2Finvoice.created", nil, &et)

	doc := map[string]any{
		"openapi": "3.1.0", "info": map[string]any{"title": "Acme", "version": "1"},
		"webhooks": map[string]any{
			"order.created": map[string]any{"post": map[string]any{"tags": []string{"orders"}, "requestBody": map[string]any{
				"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Order"},
					"example": map[string]any{"id": "o_1", "total": 10}}}}}},
			"order.refunded": map[string]any{"post": map[string]any{"tags": []string{"orders"}, "requestBody": map[string]any{
				"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"type": "object",
					"properties": map[string]any{"order": map[string]any{"$ref": "#/components/schemas/Order"}}}}}}}},
		},
		"components": map[string]any{"schemas": map[string]any{"Order": map[string]any{"type": "object", "required": []string{"id"},
			"properties": map[string]any{"id": map[string]any{"type": "string"}, "total": map[string]any{"type": "integer"}}}}},
	}
	var res struct {
		Created []string `json:"created"`
		Updated []string `json:"updated"`
		Skipped []any    `json:"skipped"`
	}
	key.must(200, "POST", "/event-types/import", doc, &res)
	if strings.Join(res.Created, ",") != "order.created,order.refunded" || len(res.Updated)+len(res.Skipped) != 0 {
		t.Fatalf("import: %+v", res)
	}
	key.must(200, "PATCH", "/event-types/order.refunded", map[string]any{"validation": "reject"}, nil)
	status, a = postEvent(t, key, map[string]any{"type": "order.refunded", "data": map[string]any{"order": map[string]any{"id": 7}}})
	if status != 422 || a.Error.Field != "data/order/id" {
		t.Fatalf("imported schema: %d %+v", status, a.Error)
	}
	var list struct {
		Data []eventTypeOut `json:"data"`
	}
	key.must(200, "GET", "/event-types", nil, &list)
	if len(list.Data) != 4 {
		t.Fatalf("list: %+v", list.Data)
	}

	// The same import in YAML, as OpenAPI documents often are.
	yamlDoc := []byte(`openapi: 3.1.0
info: {title: shop, version: "1"}
webhooks:
  invoice.voided:
    post:
      summary: An invoice was voided
      requestBody:
        content:
          application/json:
            schema: {type: object, required: [invoice], properties: {invoice: {type: string}}}
            example: {invoice: inv_1}
`)
	res2 := key.raw("POST", "/event-types/import", yamlDoc, map[string]string{"Content-Type": "application/yaml"})
	if res2.Status != 200 || !strings.Contains(string(res2.Body), `"invoice.voided"`) {
		t.Fatalf("YAML import: %d %s", res2.Status, res2.Body)
	}
	if res3 := key.raw("POST", "/event-types/import", []byte("openapi: [unclosed"), map[string]string{"Content-Type": "application/yaml"}); res3.Status != 400 {
		t.Fatalf("bad YAML: %d %s", res3.Status, res3.Body)
	}
}

// TestCatalogHostileTenant: tenant A's catalog never reaches tenant B's
// ingest (B sends A's type name freely), and A's pathological schema
// neither passes creation when over the bounds nor costs unbounded
// work on ingest.
func TestCatalogHostileTenant(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, aKey := signUp(t, f, "a@hostile-catalog.example")
	_, bKey := signUp(t, f, "b@hostile-catalog.example")

	aKey.must(201, "POST", "/event-types", map[string]any{"name": "shared.type", "validation": "reject",
		"schema": map[string]any{"required": []string{"a"}}}, nil)
	if status, _ := postEvent(t, aKey, map[string]any{"type": "shared.type", "data": map[string]any{}}); status != 422 {
		t.Fatalf("A's own event: %d", status)
	}
	if status, _ := postEvent(t, bKey, map[string]any{"type": "shared.type", "data": map[string]any{}}); status != 202 {
		t.Fatalf("B's event of A's type name: %d", status)
	}
	// B may catalogue the same name; A's stays as it was.
	bKey.must(201, "POST", "/event-types", map[string]any{"name": "shared.type"}, nil)
	var et eventTypeOut
	aKey.must(200, "GET", "/event-types/shared.type", nil, &et)
	if et.Validation != "reject" {
		t.Fatalf("A's type changed: %+v", et)
	}

	// Schemas over the bounds, or reaching outside themselves, are refused.
	for name, schema := range map[string]any{
		"huge":     map[string]any{"description": strings.Repeat("x", 70<<10)},
		"remote":   map[string]any{"$ref": "https://example.com/schema.json"},
		"file":     map[string]any{"$ref": "file:///etc/passwd"},
		"metaref":  map[string]any{"$ref": "https://json-schema.org/draft/2020-12/schema"},
		"invalid":  map[string]any{"type": 12},
		"oldDraft": map[string]any{"$schema": "http://json-schema.org/draft-04/schema#"},
	} {
		status := aKey.do("POST", "/event-types", map[string]any{"name": "bomb." + name, "schema": schema}, nil)
		if status != 422 && status != 413 {
			t.Errorf("schema %s: %d, want 422 (or 413 for the body)", name, status)
		}
	}

	// A schema whose evaluations double at every level of nesting: the
	// validation of one event stops at its budget, in bounded time.
	bomb := map[string]any{"type": "object", "required": []string{"a"}, "properties": map[string]any{
		"a": map[string]any{"anyOf": []any{map[string]any{"$ref": "#"}, map[string]any{"$ref": "#"}, map[string]any{"type": "string"}}}}}
	aKey.must(201, "POST", "/event-types", map[string]any{"name": "bomb.nested", "validation": "reject", "schema": bomb}, nil)
	deep := strings.Repeat(`{"a":`, 60) + `0` + strings.Repeat(`}`, 60)
	start := time.Now()
	res := aKey.raw("POST", "/events", []byte(`{"type":"bomb.nested","data":`+deep+`}`), nil)
	if res.Status != 422 || !strings.Contains(res.apiError(t).Error.Message, "too costly") {
		t.Fatalf("bomb: %d %s", res.Status, res.Body)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("bomb took %s", d)
	}
	// B meanwhile is served as ever.
	if status, _ := postEvent(t, bKey, map[string]any{"type": "bomb.nested", "data": map[string]any{}}); status != 202 {
		t.Fatalf("B after A's bomb: %d", status)
	}
	// A request body over the limit never reaches the catalog.
	if res := aKey.raw("POST", "/event-types/import", []byte(`{"openapi":"3.1.0","x":"`+strings.Repeat("x", 300<<10)+`"}`), nil); res.Status != http.StatusRequestEntityTooLarge {
		t.Fatalf("oversized import: %d", res.Status)
	}
}
