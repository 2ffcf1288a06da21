package httpapi

import (
	"bytes"
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

// TestOpenAPIDocumentsAreValidAndComplete fetches both documents as
// served and checks that each is valid OpenAPI 3.1 and that every route
// the router registers is in exactly one of them.
func TestOpenAPIDocumentsAreValidAndComplete(t *testing.T) {
	t.Parallel()
	app := New(Deps{Log: slog.New(slog.DiscardHandler)})
	documented := map[string]string{}
	for _, name := range []string{"openapi.json", "openapi-internal.json"} {
		b, err := documentBytes(name)
		if err != nil {
			t.Fatal(err)
		}
		if name == "openapi.json" {
			res, err := app.Test(httptest.NewRequest("GET", "/api/v1/openapi.json", nil))
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || !bytes.Equal(body, b) {
				t.Fatalf("GET /api/v1/openapi.json: %d %s, not the document", res.StatusCode, res.Header.Get("Content-Type"))
			}
		}
		doc, err := openapi3.NewLoader().LoadFromData(b)
		if err != nil {
			t.Fatalf("%s is not an OpenAPI document: %v", name, err)
		}
		if doc.OpenAPI != "3.1.0" {
			t.Errorf("%s: openapi %q, want 3.1.0", name, doc.OpenAPI)
		}
		if err := doc.Validate(context.Background()); err != nil {
			t.Fatalf("%s: OpenAPI validation (examples included): %v", name, err)
		}
		for path, item := range doc.Paths.Map() {
			for method := range item.Operations() {
				route := method + " " + path
				if other, ok := documented[route]; ok {
					t.Errorf("%s is in both %s and %s", route, other, name)
				}
				documented[route] = name
			}
		}
	}
	registered := map[string]bool{}
	for _, r := range apiRoutes(t) {
		registered[r] = true
		if documented[r] == "" {
			t.Errorf("route %s is registered but in neither OpenAPI document", r)
		}
	}
	for d, name := range documented {
		if !registered[d] {
			t.Errorf("%s describes %s, which is not a registered route", name, d)
		}
	}
}

// TestInternalDocumentNeedsASession: the internal document is for the
// portal's own members and staff, not an anonymous caller.
func TestInternalDocumentNeedsASession(t *testing.T) {
	t.Parallel()
	app := New(Deps{Log: slog.New(slog.DiscardHandler)})
	res, err := app.Test(httptest.NewRequest("GET", "/api/v1/openapi-internal.json", nil))
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != 401 {
		t.Errorf("anonymous GET /api/v1/openapi-internal.json: %d, want 401", res.StatusCode)
	}
}

// documentBytes returns a document by the name it is served under.
func documentBytes(name string) ([]byte, error) {
	if name == "openapi-internal.json" {
		return OpenAPIInternalDocument()
	}
	return OpenAPIDocument()
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
