package catalog

import (
	"context"
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/internal/clock"
	"github.com/ferry-dev/ferry/migrations"
	"github.com/ferry-dev/ferry/page"
	"github.com/ferry-dev/ferry/tests/testenv"
)

type testBundle struct {
	ctx   context.Context
	db    *gorm.DB
	svc   *Service
	clock *clock.Manual
}

// setup gives a test a fresh, migrated database and a Service on it
// whose clock starts at 2026-11-22 12:00 UTC.
func setup(t *testing.T) *testBundle {
	t.Helper()
	ctx := context.Background()
	db, err := gorm.Open(postgres.Open(testenv.Postgres(t)), &gorm.Config{Logger: logger.Discard, SkipDefaultTransaction: true})
	require.NoError(t, err)
	sqlDB, err := db.DB()
	require.NoError(t, err)
	t.Cleanup(func() { sqlDB.Close() })
	require.NoError(t, migrations.Up(ctx, sqlDB))
	clk := clock.NewManual(time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	svc, err := New(db, Config{}, slog.New(slog.DiscardHandler), clk)
	require.NoError(t, err)
	return &testBundle{ctx: ctx, db: db, svc: svc, clock: clk}
}

func (b *testBundle) tenant(t *testing.T) uuid.UUID {
	t.Helper()
	id := uuid.New()
	require.NoError(t, b.db.Exec(`INSERT INTO tenants (id, name) VALUES (?, ?)`, id, "Org "+id.String()[:8]).Error)
	return id
}

const amountSchema = `{"type":"object","required":["amount"],"properties":{"amount":{"type":"integer"}}}`

func requireInvalid(t *testing.T, err error, field, msg string) {
	t.Helper()
	require.Error(t, err)
	fe, ok := err.(*ferry.Error)
	require.True(t, ok, "%T %v", err, err)
	require.Equal(t, ferry.EINVALID, fe.Code, fe.Error())
	require.Equal(t, field, fe.Field, fe.Error())
	require.Contains(t, fe.Message, msg)
}

func TestEventTypeLifecycle(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tid := b.tenant(t)
	et, err := b.svc.CreateEventType(b.ctx, tid, EventTypeInput{Name: "invoice.paid", Group: "invoices", Description: "An invoice was paid",
		Schema: json.RawMessage(amountSchema), Examples: []json.RawMessage{json.RawMessage(`{"amount": 4200}`)}})
	require.NoError(t, err)
	require.Equal(t, ModeOff, et.Validation)
	require.Equal(t, 1, et.LatestVersion)
	require.Len(t, et.Versions, 1)
	require.JSONEq(t, `[{"amount":4200}]`, mustJSON(t, et.Versions[0].Examples))

	_, err = b.svc.CreateEventType(b.ctx, tid, EventTypeInput{Name: "invoice.paid"})
	require.Equal(t, ferry.ECONFLICT, ferry.ErrorCode(err))
	for _, tt := range []struct {
		in           EventTypeInput
		field, error string
	}{
		{EventTypeInput{Name: "bad name"}, "name", "letters, digits"},
		{EventTypeInput{Name: "ferry.test"}, "name", "reserved"},
		{EventTypeInput{Name: "a", Validation: "strict"}, "validation", "off, warn or reject"},
		{EventTypeInput{Name: "a", Validation: ModeReject}, "validation", "needs a schema"},
		{EventTypeInput{Name: "a", Schema: json.RawMessage(`{"type":7}`)}, "schema", "not a valid JSON Schema"},
		{EventTypeInput{Name: "a", Schema: json.RawMessage(amountSchema), Examples: []json.RawMessage{json.RawMessage(`{"amount":"x"}`)}},
			"examples/0", "data/amount"},
	} {
		_, err := b.svc.CreateEventType(b.ctx, tid, tt.in)
		requireInvalid(t, err, tt.field, tt.error)
	}

	mode := ModeReject
	yes := true
	et, err = b.svc.UpdateEventType(b.ctx, tid, "invoice.paid", EventTypePatch{Validation: &mode, Deprecated: &yes})
	require.NoError(t, err)
	require.Equal(t, ModeReject, et.Validation)
	require.True(t, et.Deprecated)
	require.NotNil(t, et.DeprecatedAt)

	v, err := b.svc.AddVersion(b.ctx, tid, "invoice.paid", VersionInput{Schema: json.RawMessage(`{"type":"object"}`)})
	require.NoError(t, err)
	require.Equal(t, 2, v.Version)
	et, err = b.svc.EventType(b.ctx, tid, "invoice.paid")
	require.NoError(t, err)
	require.Equal(t, []int{2, 1}, []int{et.Versions[0].Version, et.Versions[1].Version})

	// Another tenant sees none of it.
	other := b.tenant(t)
	_, err = b.svc.EventType(b.ctx, other, "invoice.paid")
	require.Equal(t, ferry.ENOTFOUND, ferry.ErrorCode(err))
	require.Equal(t, ferry.ENOTFOUND, ferry.ErrorCode(b.svc.DeleteEventType(b.ctx, other, "invoice.paid")))
	_, err = b.svc.AddVersion(b.ctx, other, "invoice.paid", VersionInput{Schema: json.RawMessage(`true`)})
	require.Equal(t, ferry.ENOTFOUND, ferry.ErrorCode(err))
	list, _, err := b.svc.ListEventTypes(b.ctx, other, page.Request{})
	require.NoError(t, err)
	require.Empty(t, list)

	// Paging.
	for _, n := range []string{"a.one", "a.two", "a.three"} {
		b.clock.Advance(time.Second)
		_, err := b.svc.CreateEventType(b.ctx, tid, EventTypeInput{Name: n})
		require.NoError(t, err)
	}
	first, next, err := b.svc.ListEventTypes(b.ctx, tid, page.Request{Limit: 3})
	require.NoError(t, err)
	require.Equal(t, []string{"a.three", "a.two", "a.one"}, names(first))
	rest, next2, err := b.svc.ListEventTypes(b.ctx, tid, page.Request{Limit: 3, Cursor: next})
	require.NoError(t, err)
	require.Equal(t, []string{"invoice.paid"}, names(rest))
	require.Empty(t, next2)

	require.NoError(t, b.svc.DeleteEventType(b.ctx, tid, "invoice.paid"))
	_, err = b.svc.EventType(b.ctx, tid, "invoice.paid")
	require.Equal(t, ferry.ENOTFOUND, ferry.ErrorCode(err))
}

func names(ets []EventType) []string {
	out := make([]string, len(ets))
	for i, et := range ets {
		out[i] = et.Name
	}
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// TestCheck: ingest's check in each mode, its cache dropped by a change
// in this process, and a tenant's catalog never reaching another's
// events.
func TestCheck(t *testing.T) {
	t.Parallel()
	b := setup(t)
	a, other := b.tenant(t), b.tenant(t)
	bad := json.RawMessage(`{"amount":"12"}`)
	good := json.RawMessage(`{"amount":12}`)

	// Not in the catalog: nothing checked.
	w, err := b.svc.Check(b.ctx, a, "invoice.paid", bad)
	require.NoError(t, err)
	require.Empty(t, w)

	_, err = b.svc.CreateEventType(b.ctx, a, EventTypeInput{Name: "invoice.paid", Validation: ModeReject, Schema: json.RawMessage(amountSchema)})
	require.NoError(t, err)
	_, err = b.svc.Check(b.ctx, a, "invoice.paid", bad)
	requireInvalid(t, err, "data/amount", "got string, want integer")
	require.Contains(t, err.(*ferry.Error).Message, "invoice.paid version 1")
	_, err = b.svc.Check(b.ctx, a, "invoice.paid", json.RawMessage(`{}`))
	requireInvalid(t, err, "data", "missing property 'amount'")
	w, err = b.svc.Check(b.ctx, a, "invoice.paid", good)
	require.NoError(t, err)
	require.Empty(t, w)

	// The other tenant sends the same type freely.
	w, err = b.svc.Check(b.ctx, other, "invoice.paid", bad)
	require.NoError(t, err)
	require.Empty(t, w)

	// Warn: accepted with the warning, which the type records (sampled).
	mode := ModeWarn
	_, err = b.svc.UpdateEventType(b.ctx, a, "invoice.paid", EventTypePatch{Validation: &mode})
	require.NoError(t, err)
	for range 3 {
		w, err = b.svc.Check(b.ctx, a, "invoice.paid", bad)
		require.NoError(t, err)
		require.Contains(t, w, "data/amount: got string, want integer")
	}
	b.clock.Advance(2 * time.Second)
	_, err = b.svc.Check(b.ctx, a, "invoice.paid", bad)
	require.NoError(t, err)
	et, err := b.svc.EventType(b.ctx, a, "invoice.paid")
	require.NoError(t, err)
	require.Len(t, et.RecentWarnings, 2, "one per second")
	require.Equal(t, "data/amount", et.RecentWarnings[0].Field)

	// Recent warnings are bounded.
	for range recentWarnings + 5 {
		b.clock.Advance(2 * time.Second)
		_, err = b.svc.Check(b.ctx, a, "invoice.paid", bad)
		require.NoError(t, err)
	}
	var n int64
	require.NoError(t, b.db.Raw(`SELECT count(*) FROM event_type_warnings WHERE tenant_id = ?`, a).Scan(&n).Error)
	require.EqualValues(t, recentWarnings, n)

	// A new version takes effect at once in this process.
	_, err = b.svc.AddVersion(b.ctx, a, "invoice.paid", VersionInput{Schema: json.RawMessage(`{"properties":{"amount":{"type":"string"}}}`)})
	require.NoError(t, err)
	w, err = b.svc.Check(b.ctx, a, "invoice.paid", bad)
	require.NoError(t, err)
	require.Empty(t, w)

	// Off: nothing checked.
	off := ModeOff
	_, err = b.svc.UpdateEventType(b.ctx, a, "invoice.paid", EventTypePatch{Validation: &off})
	require.NoError(t, err)
	w, err = b.svc.Check(b.ctx, a, "invoice.paid", good)
	require.NoError(t, err)
	require.Empty(t, w)
}

func TestImportOpenAPI(t *testing.T) {
	t.Parallel()
	b := setup(t)
	tid := b.tenant(t)
	doc := `{
	  "openapi": "3.1.0",
	  "info": {"title": "Acme webhooks", "version": "1"},
	  "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
	  "webhooks": {
	    "invoice.paid": {"post": {"tags": ["invoices"], "summary": "An invoice was paid",
	      "requestBody": {"content": {"application/json": {
	        "schema": {"$ref": "#/components/schemas/Invoice"},
	        "examples": {"small": {"value": {"id": "in_1", "amount": 100, "customer": {"id": "c_1"}}},
	                     "shared": {"$ref": "#/components/examples/Big"}}}}}}},
	    "customer.created": {"post": {"requestBody": {"$ref": "#/components/requestBodies/Customer"}}},
	    "no.body": {"post": {"responses": {"200": {"description": "ok"}}}},
	    "bad name!": {"post": {"requestBody": {"content": {"application/json": {"schema": {"type": "object"}}}}}},
	    "remote.ref": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "https://example.com/s.json"}}}}}},
	    "bad.example": {"post": {"requestBody": {"content": {"application/json": {"schema": {"type": "object"}, "example": [1]}}}}}
	  },
	  "components": {
	    "schemas": {
	      "Invoice": {"type": "object", "required": ["id", "amount"], "properties": {
	        "id": {"type": "string"}, "amount": {"type": "integer"}, "customer": {"$ref": "#/components/schemas/Customer"}}},
	      "Customer": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}, "discriminator": {"propertyName": "id"}},
	      "Unused": {"type": "string"}
	    },
	    "requestBodies": {"Customer": {"content": {"application/json; charset=utf-8": {"schema": {"$ref": "#/components/schemas/Customer"}}}}},
	    "examples": {"Big": {"value": {"id": "in_2", "amount": 100000}}}
	  }
	}`
	res, err := b.svc.ImportOpenAPI(b.ctx, tid, json.RawMessage(doc))
	require.NoError(t, err)
	require.Equal(t, []string{"customer.created", "invoice.paid"}, res.Created)
	require.Empty(t, res.Updated)
	skipped := map[string]string{}
	for _, s := range res.Skipped {
		skipped[s.Name] = s.Reason
	}
	require.Len(t, skipped, 4, "%v", skipped)
	require.Contains(t, skipped["no.body"], "requestBody")
	require.Contains(t, skipped["bad name!"], "letters, digits")
	require.Contains(t, skipped["remote.ref"], "unsupported $ref")
	require.Contains(t, skipped["bad.example"], "does not match")

	et, err := b.svc.EventType(b.ctx, tid, "invoice.paid")
	require.NoError(t, err)
	require.Equal(t, "invoices", et.Group)
	require.Equal(t, "An invoice was paid", et.Description)
	require.Len(t, et.Versions[0].Examples, 2)
	var schema map[string]any
	require.NoError(t, json.Unmarshal(et.Versions[0].Schema, &schema))
	require.Equal(t, "#/$defs/Invoice", schema["$ref"])
	require.Equal(t, Dialect, schema["$schema"])
	defs := schema["$defs"].(map[string]any)
	require.Contains(t, defs, "Invoice")
	require.Contains(t, defs, "Customer")
	require.NotContains(t, defs, "Unused")

	// The imported schema validates, nested refs included.
	mode := ModeReject
	_, err = b.svc.UpdateEventType(b.ctx, tid, "invoice.paid", EventTypePatch{Validation: &mode})
	require.NoError(t, err)
	_, err = b.svc.Check(b.ctx, tid, "invoice.paid", json.RawMessage(`{"id":"in_3","amount":1,"customer":{}}`))
	requireInvalid(t, err, "data/customer", "missing property 'id'")

	// Importing again changes nothing; a changed schema is a new version.
	res, err = b.svc.ImportOpenAPI(b.ctx, tid, json.RawMessage(doc))
	require.NoError(t, err)
	require.Empty(t, res.Created)
	require.Empty(t, res.Updated)
	changed := json.RawMessage(`{"openapi":"3.1.1","info":{"title":"t","version":"2"},"webhooks":{"invoice.paid":{"post":{"requestBody":
		{"content":{"application/json":{"schema":{"type":"object"}}}}}}}}`)
	res, err = b.svc.ImportOpenAPI(b.ctx, tid, changed)
	require.NoError(t, err)
	require.Equal(t, []string{"invoice.paid"}, res.Updated)
	et, err = b.svc.EventType(b.ctx, tid, "invoice.paid")
	require.NoError(t, err)
	require.Equal(t, 2, et.LatestVersion)
	require.Equal(t, ModeReject, et.Validation, "an import never changes the mode")

	for _, tt := range []struct{ doc, field, msg string }{
		{`[]`, "openapi", "OpenAPI 3.1"},
		{`{"openapi":"3.0.3","paths":{}}`, "openapi", "3.1"},
		{`{"openapi":"3.1.0","paths":{}}`, "webhooks", "no webhooks"},
	} {
		_, err := b.svc.ImportOpenAPI(b.ctx, tid, json.RawMessage(tt.doc))
		requireInvalid(t, err, tt.field, tt.msg)
	}
}

// TestSchemaCacheBoundedPerTenant: a tenant filling the cache evicts
// its own schemas, never another tenant's within its share.
func TestSchemaCacheBoundedPerTenant(t *testing.T) {
	t.Parallel()
	cs, err := compileSchema("schema", []byte(amountSchema))
	require.NoError(t, err)
	cost := schemaCost(cs.size)
	c := newSchemaCache(10*cost, 4*cost)
	quiet, noisy := uuid.New(), uuid.New()
	c.put(schemaKey{tenant: quiet, sum: [32]byte{1}}, cs)
	for i := range 100 {
		c.put(schemaKey{tenant: noisy, sum: [32]byte{byte(i)}}, cs)
		total, held, _ := c.stats(noisy)
		require.LessOrEqual(t, held, 4*cost)
		require.LessOrEqual(t, total, 10*cost)
	}
	_, ok := c.get(schemaKey{tenant: quiet, sum: [32]byte{1}})
	require.True(t, ok, "the quiet tenant's schema was evicted")
}
