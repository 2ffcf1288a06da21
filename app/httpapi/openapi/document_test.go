package openapi

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
)

// testError is the error body of the test documents.
type testError struct {
	Message string `json:"message"`
}

// widget is a response type exercising the required and nullable rules.
type widget struct {
	ID      uuid.UUID         `json:"id"`
	Name    string            `json:"name"`
	Note    *string           `json:"note"`
	Tags    []string          `json:"tags,omitempty"`
	Labels  map[string]string `json:"labels"`
	Always  []string          `json:"always" nullable:"false"`
	Count   int64             `json:"count,string"`
	private string
}

// widgetInput is a request body.
type widgetInput struct {
	Name string  `json:"name" required:"true" description:"the widget's name"`
	Note *string `json:"note"`
	Kind string  `json:"kind" enum:"small,large"`
}

// testAPI returns an API of one route with widget types.
func testAPI() API {
	return API{
		Operations: map[string]Operation{
			"POST /widgets/{id}": {Summary: "Make a widget", Tag: "widgets", Access: Key, Status: 201,
				Body: reflect.TypeFor[widgetInput](), Response: Types[widget](), Errors: []int{404}},
			"GET /widgets": {Summary: "List widgets", Tag: "widgets", Status: 200, Response: Types[[]widget](),
				Params: PageParams()},
		},
		Names:             map[reflect.Type]string{reflect.TypeFor[testError](): "Error"},
		Fields:            map[reflect.Type]map[string]FieldSpec{reflect.TypeFor[widget](): {"name": {Description: "shown in lists"}}},
		Error:             reflect.TypeFor[testError](),
		ErrorDescriptions: map[int]string{401: "unauthorized", 403: "forbidden", 404: "not found", 429: "rate limited"},
		SessionCookie:     "session",
	}
}

func TestDocumentReflectsTypes(t *testing.T) {
	t.Parallel()
	b, err := JSON(testAPI())
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(b)
	if err != nil {
		t.Fatalf("not an OpenAPI document: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("OpenAPI 3 validation: %v", err)
	}

	w := doc.Components.Schemas["Widget"].Value
	if want := []string{"always", "count", "id", "labels", "name", "note"}; !slices.Equal(w.Required, want) {
		t.Errorf("Widget required %v, want %v", w.Required, want)
	}
	for name, nullable := range map[string]bool{"id": false, "name": false, "note": true, "tags": false, "labels": true, "always": false} {
		if got := w.Properties[name].Value.Nullable; got != nullable {
			t.Errorf("Widget.%s nullable %v, want %v", name, got, nullable)
		}
	}
	if f := w.Properties["id"].Value.Format; f != "uuid" {
		t.Errorf("Widget.id format %q, want uuid", f)
	}
	if typ := w.Properties["count"].Value.Type; !typ.Is(openapi3.TypeString) {
		t.Errorf("Widget.count (,string) type %v, want string", typ)
	}
	if d := w.Properties["name"].Value.Description; d != "shown in lists" {
		t.Errorf("Widget.name description %q, want the one from API.Fields", d)
	}
	if _, ok := w.Properties["private"]; ok {
		t.Error("an unexported field is in the schema")
	}

	in := doc.Components.Schemas["WidgetInput"].Value
	if !slices.Equal(in.Required, []string{"name"}) {
		t.Errorf("WidgetInput required %v, want [name]", in.Required)
	}
	if !in.Properties["note"].Value.Nullable || in.Properties["name"].Value.Nullable {
		t.Error("on a request only pointer fields accept null")
	}
	if e := in.Properties["kind"].Value.Enum; !slices.Equal(e, []any{"small", "large"}) {
		t.Errorf("WidgetInput.kind enum %v", e)
	}

	op := doc.Paths.Find("/widgets/{id}").Post
	if op.OperationID != "MakeAWidget" {
		t.Errorf("operation id %q", op.OperationID)
	}
	if len(op.Parameters) != 1 || op.Parameters[0].Value.Name != "id" || op.Parameters[0].Value.In != "path" {
		t.Errorf("path parameters %v", op.Parameters)
	}
	for _, code := range []string{"201", "401", "403", "404", "429"} {
		if op.Responses.Value(code) == nil {
			t.Errorf("POST /widgets/{id}: no %s response", code)
		}
	}
	if list := doc.Paths.Find("/widgets").Get; list.Responses.Value("401") != nil || len(*list.Security) != 0 {
		t.Error("a public operation has security or a 401")
	}
}

func TestDocumentRefusesStaleFieldDescriptions(t *testing.T) {
	t.Parallel()
	a := testAPI()
	a.Fields = map[reflect.Type]map[string]FieldSpec{reflect.TypeFor[widget](): {"nmae": {Description: "typo"}}}
	if _, err := Document(a); err == nil || !strings.Contains(err.Error(), `"nmae"`) {
		t.Errorf("a description of a field that does not exist: err %v", err)
	}
}

// TestDomainFieldsNameRealFields keeps domain.go honest: a renamed or
// removed field of a domain type must not leave a stale entry behind.
func TestDomainFieldsNameRealFields(t *testing.T) {
	t.Parallel()
	if _, err := (API{}).FieldSpecs(); err != nil {
		t.Error(err)
	}
}

func TestSchemaNamesAreUnique(t *testing.T) {
	t.Parallel()
	names := map[reflect.Type]string{reflect.TypeFor[widgetInput](): "Widget"}
	s := newSchemaSet(names, nil)
	if _, err := s.schema(reflect.TypeFor[widgetInput](), responseSide); err != nil {
		t.Fatal(err)
	}
	if _, err := s.schema(reflect.TypeFor[widgetInput](), requestSide); err == nil {
		t.Error("one type served as both a request and a response schema of the same name")
	}
	s = newSchemaSet(names, nil)
	if _, err := s.schema(reflect.TypeFor[widgetInput](), responseSide); err != nil {
		t.Fatal(err)
	}
	if _, err := s.schema(reflect.TypeFor[widget](), responseSide); err == nil {
		t.Error("two Go types share the component name Widget")
	}
}

func TestDocumentRefusesNamesGivenTwice(t *testing.T) {
	t.Parallel()
	a := testAPI()
	for t2 := range domainNames() {
		a.Names = map[reflect.Type]string{t2: "Other"}
		break
	}
	if _, err := Document(a); err == nil {
		t.Error("a domain type named again by API.Names")
	}
}
