package httpapi

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

// apiRoutes returns "METHOD /path" (document form) for every route the
// router registers under /api/v1.
func apiRoutes(t *testing.T) []string {
	t.Helper()
	app := New(Deps{Log: slog.New(slog.DiscardHandler)})
	var out []string
	for _, r := range app.GetRoutes(true) {
		if !strings.HasPrefix(r.Path, "/api/v1/") || r.Method == "HEAD" {
			continue
		}
		out = append(out, r.Method+" "+documentPath(r.Path))
	}
	if len(out) < 30 {
		t.Fatalf("only %d API routes found: %v", len(out), out)
	}
	return out
}

func TestOpenAPIDocumentIsValidAndComplete(t *testing.T) {
	t.Parallel()
	app := New(Deps{Log: slog.New(slog.DiscardHandler)})
	res, err := app.Test(httptest.NewRequest("GET", "/api/v1/openapi.json", nil))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Fatalf("GET /api/v1/openapi.json: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}

	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(body)
	if err != nil {
		t.Fatalf("not an OpenAPI document: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("OpenAPI 3 validation: %v", err)
	}

	documented := map[string]bool{}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			documented[method+" "+path] = true
		}
	}
	registered := map[string]bool{}
	for _, r := range apiRoutes(t) {
		registered[r] = true
		if !documented[r] {
			t.Errorf("route %s is registered but missing from the OpenAPI document", r)
		}
	}
	for d := range documented {
		if !registered[d] {
			t.Errorf("the OpenAPI document describes %s, which is not a registered route", d)
		}
	}
}

// documentPath turns a Fiber path ("/api/v1/events/:id") into the
// document's form ("/events/{id}").
func documentPath(fiberPath string) string {
	p := strings.TrimPrefix(fiberPath, "/api/v1")
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if strings.HasPrefix(s, ":") {
			segs[i] = "{" + s[1:] + "}"
		}
	}
	return strings.Join(segs, "/")
}

func TestDocumentPath(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"/api/v1/events":                             "/events",
		"/api/v1/events/:id/replay":                  "/events/{id}/replay",
		"/api/v1/staff/tenants/:id/events/:event_id": "/staff/tenants/{id}/events/{event_id}",
	} {
		if got := documentPath(in); got != want {
			t.Errorf("documentPath(%q) = %q, want %q", in, got, want)
		}
	}
}
