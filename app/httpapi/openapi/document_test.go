package openapi

import (
	"context"
	"encoding/json"
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
			"POST /widgets/{id}": {ID: "widgets.create", Summary: "Make a widget", Description: "Makes one.", Tag: "widgets", Access: Key, Status: 201,
				Body: reflect.TypeFor[widgetInput](), Response: Types[widget](), Errors: []int{404},
				RequestExample: widgetInput{Name: "w", Kind: "small"}},
			"GET /widgets": {ID: "widgets.list", Summary: "List widgets", Description: "Lists them.", Tag: "widgets", Status: 200, Response: Types[[]widget](),
				Params: PageParams()},
		},
		Tags: []Tag{{Name: "widgets", Description: "Widgets."}, {Name: "webhooks", Description: "Sent to you."}},
		Webhooks: []Webhook{{Type: "widget.made", Summary: "A widget was made", Description: "Sent when one is made.",
			TypeEnum: []string{"widget.made"}, Data: reflect.TypeFor[widget](), Example: map[string]any{"id": "0196a6c2-5b1f-7d3e-9a4b-1c2d3e4f5a6b", "type": "widget.made",
				"created_at": "2026-11-23T14:05:06.789Z", "data": widget{Always: []string{}}}}},
		Names:             map[reflect.Type]string{reflect.TypeFor[testError](): "Error"},
		Fields:            map[reflect.Type]map[string]FieldSpec{reflect.TypeFor[widget](): {"name": {Description: "shown in lists"}}},
		Error:             reflect.TypeFor[testError](),
		ErrorDescriptions: map[int]string{401: "unauthorized", 403: "forbidden", 404: "not found", 429: "rate limited"},
		ErrorExamples: map[int]any{401: testError{Message: "who?"}, 403: testError{Message: "no"}, 404: testError{Message: "none"},
			429: testError{Message: "slow down"}},
		SessionCookie: "session",
		Title:         "Widgets",
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
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi %q, want 3.1.0", doc.OpenAPI)
	}
	for name, nullable := range map[string]bool{"id": false, "name": false, "note": true, "tags": false, "labels": true, "always": false} {
		p := w.Properties[name].Value
		if p.Nullable {
			t.Errorf("Widget.%s: nullable is OpenAPI 3.0; 3.1 puts null among the types", name)
		}
		if got := p.Type.Includes(openapi3.TypeNull); got != nullable {
			t.Errorf("Widget.%s type %v: null included %v, want %v", name, *p.Type, got, nullable)
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
	if !in.Properties["note"].Value.Type.Includes(openapi3.TypeNull) || in.Properties["name"].Value.Type.Includes(openapi3.TypeNull) {
		t.Error("on a request only pointer fields accept null")
	}
	if e := in.Properties["kind"].Value.Enum; !slices.Equal(e, []any{"small", "large"}) {
		t.Errorf("WidgetInput.kind enum %v", e)
	}

	op := doc.Paths.Find("/widgets/{id}").Post
	if op.OperationID != "widgets.create" || op.Description != "Makes one." {
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
	if ex := op.RequestBody.Value.Content.Get("application/json").Example; !reflect.DeepEqual(ex, map[string]any{"name": "w", "note": nil, "kind": "small"}) {
		t.Errorf("request example %v, want the Go value as encoding/json encodes it", ex)
	}
	if h := op.Responses.Value("201").Value.Headers; h["X-Request-Id"] == nil || h["RateLimit-Limit"] == nil {
		t.Errorf("the success response does not refer to the common headers: %v", h)
	}
	if h := doc.Components.Responses["Error429"].Value.Headers; h["Retry-After"] == nil {
		t.Error("429 has no Retry-After")
	}
	hook := doc.Webhooks["widget.made"]
	if hook == nil || hook.Post == nil || hook.Post.OperationID != "webhooks.widget.made" {
		t.Fatalf("no webhook widget.made: %v", doc.Webhooks)
	}
	var names []string
	for _, p := range hook.Post.Parameters {
		names = append(names, p.Value.Name)
	}
	for _, want := range []string{"webhook-id", "webhook-timestamp", "webhook-signature", "X-Webhook-ID", "User-Agent", "Content-Type"} {
		if !slices.Contains(names, want) {
			t.Errorf("webhook headers %v lack %s", names, want)
		}
	}
	if err := hook.Post.RequestBody.Value.Content.Get("application/json").Schema.Value.VisitJSON(
		map[string]any{"id": "0196a6c2-5b1f-7d3e-9a4b-1c2d3e4f5a6b", "type": "widget.made", "created_at": "2026-11-23T14:05:06.789Z",
			"data": map[string]any{"id": "0196a6c2-5b1f-7d3e-9a4b-1c2d3e4f5a6b", "name": "n", "note": nil, "labels": nil, "always": []any{}, "count": "1"}}); err != nil {
		t.Errorf("an envelope does not validate: %v", err)
	}
}

func TestDocumentRefusesBadOperationIDs(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"", "MakeAWidget", "widgets", "widgets.", "Widgets.create", "widgets.make-one"} {
		a := testAPI()
		op := a.Operations["GET /widgets"]
		op.ID = id
		a.Operations["GET /widgets"] = op
		if _, err := Document(a); err == nil {
			t.Errorf("operation id %q accepted", id)
		}
	}
	a := testAPI()
	op := a.Operations["GET /widgets"]
	op.ID = "widgets.create"
	a.Operations["GET /widgets"] = op
	if _, err := Document(a); err == nil || !strings.Contains(err.Error(), "share the operation id") {
		t.Errorf("two operations with one id: err %v", err)
	}
}

// TestUpgrade31 checks each rule of upgrade31 on a hand-made 3.0 schema.
func TestUpgrade31(t *testing.T) {
	t.Parallel()
	ref := openapi3.NewSchemaRef("#/components/schemas/Thing", openapi3.NewObjectSchema())
	str := openapi3.NewStringSchema().WithEnum("a", "b")
	str.Nullable, str.Example = true, "a"
	wrapped := &openapi3.Schema{Nullable: true, AllOf: openapi3.SchemaRefs{ref}}
	anyValue := &openapi3.Schema{Nullable: true}
	obj := openapi3.NewObjectSchema().WithProperty("s", str).WithProperty("any", anyValue)
	obj.Properties["ref"] = openapi3.NewSchemaRef("", wrapped)
	doc := &openapi3.T{OpenAPI: "3.0.3", Info: &openapi3.Info{Title: "t", Version: "1"}, Paths: openapi3.NewPaths(),
		Components: &openapi3.Components{Schemas: openapi3.Schemas{"Obj": obj.NewRef(), "Thing": ref}}}
	if err := upgrade31(doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi %s", doc.OpenAPI)
	}
	if !slices.Equal(*str.Type, []string{"string", "null"}) || !slices.Equal(str.Enum, []any{"a", "b", nil}) || str.Nullable {
		t.Errorf("nullable enum string: type %v enum %v", *str.Type, str.Enum)
	}
	if str.Example != nil || !slices.Equal(str.Examples, []any{"a"}) {
		t.Errorf("example %v examples %v", str.Example, str.Examples)
	}
	if wrapped.AllOf != nil || len(wrapped.AnyOf) != 2 || wrapped.AnyOf[0] != ref || !wrapped.AnyOf[1].Value.Type.Is("null") {
		t.Errorf("nullable $ref: %+v", wrapped)
	}
	if anyValue.Nullable || anyValue.Type != nil || len(anyValue.AnyOf) != 2 || anyValue.VisitJSON(nil) != nil || anyValue.VisitJSON(map[string]any{}) != nil {
		t.Errorf("any value: %+v", anyValue)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "nullable") {
		t.Errorf("nullable left in %s", b)
	}
	for v, ok := range map[any]bool{"a": true, nil: true, "c": false, 1: false} {
		if err := str.VisitJSON(v); (err == nil) != ok {
			t.Errorf("%v: valid %v, want %v (%v)", v, err == nil, ok, err)
		}
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
