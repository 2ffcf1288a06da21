package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/app/httpapi/openapi"
)

// loadDocument parses a document as served (documentBytes).
func loadDocument(t *testing.T, name string) *openapi3.T {
	t.Helper()
	b, err := documentBytes(name)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(b)
	if err != nil {
		t.Fatalf("%s is not an OpenAPI document: %v", name, err)
	}
	return doc
}

// findOperation returns the operation of route ("METHOD /path") from
// whichever document describes it.
func findOperation(t *testing.T, docs []*openapi3.T, route string) *openapi3.Operation {
	t.Helper()
	method, path, _ := strings.Cut(route, " ")
	for _, doc := range docs {
		if item := doc.Paths.Find(path); item != nil && item.GetOperation(method) != nil {
			return item.GetOperation(method)
		}
	}
	t.Fatalf("%s: in neither document", route)
	return nil
}

// validationOptions check the formats the document uses, beyond the
// date-time kin-openapi checks by default, on a request body or (request
// false) on a response.
func validationOptions(request bool) []openapi3.SchemaValidationOption {
	opts := []openapi3.SchemaValidationOption{
		openapi3.MultiErrors(),
		// The document is OpenAPI 3.1: its schemas are JSON Schema 2020-12
		// (a schema with no type admits null).
		openapi3.EnableJSONSchema2020(),
		openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562)),
		openapi3.WithStringFormatValidator("email", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForEmail)),
	}
	if request {
		return append(opts, openapi3.VisitAsRequest())
	}
	return append(opts, openapi3.VisitAsResponse())
}

// TestOpenAPIResponsesMatchGoTypes encodes, with encoding/json (and so
// with any custom MarshalJSON), a sample of every Go type the route table
// names, once with every field set and once as empty as it can be, and
// validates the JSON against the document: a field the document lacks,
// a wrong type, a missing required field or an unexpected null fails.
func TestOpenAPIResponsesMatchGoTypes(t *testing.T) {
	t.Parallel()
	docs := []*openapi3.T{loadDocument(t, "openapi.json"), loadDocument(t, "openapi-internal.json")}
	fields, err := publicAPI().FieldSpecs()
	if err != nil {
		t.Fatal(err)
	}
	for key, o := range operations() {
		operation := findOperation(t, docs, key)
		for _, typ := range o.Response {
			content := operation.Responses.Status(o.Status).Value.Content.Get("application/json")
			for _, full := range []bool{true, false} {
				if !full && typ.Kind() != reflect.Struct {
					continue // a map or slice handlers never send as null
				}
				name := key + " " + typ.String() + map[bool]string{true: " full", false: " sparse"}[full]
				t.Run(name, func(t *testing.T) {
					validateSample(t, content.Schema.Value, sample(t, fields, typ, full), false)
				})
			}
		}
		if o.Body != nil {
			content := operation.RequestBody.Value.Content.Get("application/json")
			t.Run(key+" request "+o.Body.String(), func(t *testing.T) {
				validateSample(t, content.Schema.Value, sample(t, fields, o.Body, true), true)
			})
		}
	}
}

func TestOpenAPIErrorBodiesMatchGoTypes(t *testing.T) {
	t.Parallel()
	doc := loadDocument(t, "openapi.json")
	for name, ref := range doc.Components.Responses {
		schema := ref.Value.Content.Get("application/json").Schema.Value
		for _, body := range []errorBody{
			{Error: errorDetail{Code: "invalid", Message: "url is required", Field: "url"}},
			{Error: errorDetail{Code: "not_found", Message: "no such endpoint"}},
		} {
			validateSample(t, schema, body, false)
		}
		if err := schema.VisitJSON(map[string]any{"error": map[string]any{"code": "no_such_code", "message": "m"}}); err == nil {
			t.Errorf("%s: an unknown error code validates", name)
		}
	}
	for code := range statusByCode {
		validateSample(t, doc.Components.Responses["Error400"].Value.Content.Get("application/json").Schema.Value,
			errorBody{Error: errorDetail{Code: code, Message: "m"}}, false)
	}
}

func validateSample(t *testing.T, schema *openapi3.Schema, v any, request bool) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode %T: %v", v, err)
	}
	var decoded any
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	if err := schema.VisitJSON(decoded, validationOptions(request)...); err != nil {
		t.Errorf("%T encodes as %s\nwhich the document refuses: %v", v, b, err)
	}
}

var (
	timeType       = reflect.TypeFor[time.Time]()
	uuidType       = reflect.TypeFor[uuid.UUID]()
	rawMessageType = reflect.TypeFor[json.RawMessage]()
)

// sample returns a value of type typ. A full one has every field set
// (one element per slice and map, valid enum and format values); a sparse
// one is as empty as the type allows: nil pointers, slices and maps, zero
// numbers, empty strings except where an enum or format forbids it (and a list's
// data is never nil: newList makes it empty).
func sample(t *testing.T, fields map[reflect.Type]map[string]openapi.FieldSpec, typ reflect.Type, full bool) any {
	t.Helper()
	v := reflect.New(typ).Elem()
	fill(t, fields, v, openapi.FieldSpec{}, full)
	if !full && strings.HasPrefix(typ.Name(), "list[") {
		v.FieldByName("Data").Set(reflect.MakeSlice(v.FieldByName("Data").Type(), 0, 0))
	}
	return v.Interface()
}

func fill(t *testing.T, fields map[reflect.Type]map[string]openapi.FieldSpec, v reflect.Value, spec openapi.FieldSpec, full bool) {
	t.Helper()
	typ := v.Type()
	if !full {
		switch typ.Kind() {
		case reflect.Struct:
			if typ == timeType {
				return
			}
		case reflect.String:
			if openapi.EnumOf(typ) == nil && spec.Enum == nil && spec.Format == "" {
				return
			}
		default:
			return
		}
	}
	switch {
	case typ == timeType:
		v.Set(reflect.ValueOf(time.Date(2026, 11, 23, 14, 5, 6, 789e6, time.UTC)))
		return
	case typ == uuidType:
		v.Set(reflect.ValueOf(uuid.MustParse("0196a6c2-5b1f-7d3e-9a4b-1c2d3e4f5a6b")))
		return
	case typ == rawMessageType:
		v.SetBytes([]byte(`{"amount":42,"items":["a"]}`))
		return
	}
	switch typ.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(typ.Elem()))
		fill(t, fields, v.Elem(), spec, full)
	case reflect.Struct:
		for i := range typ.NumField() {
			sf := typ.Field(i)
			if !sf.IsExported() && !sf.Anonymous {
				continue
			}
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			f, err := openapi.FieldSpecOf(fields, typ, name, sf.Tag)
			if err != nil {
				t.Fatal(err)
			}
			fill(t, fields, v.Field(i), f, full)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(typ, 1, 1))
		fill(t, fields, v.Index(0), spec, full)
	case reflect.Map:
		v.Set(reflect.MakeMap(typ))
		elem := reflect.New(typ.Elem()).Elem()
		fill(t, fields, elem, spec, full)
		v.SetMapIndex(reflect.ValueOf("X-Key").Convert(typ.Key()), elem)
	case reflect.Interface:
		v.Set(reflect.ValueOf("any value"))
	case reflect.String:
		v.SetString(sampleString(typ, spec))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1.5)
	default:
		t.Fatalf("no sample for %s", typ)
	}
}

func sampleString(typ reflect.Type, spec openapi.FieldSpec) string {
	if e := openapi.EnumOf(typ); e != nil {
		return e[len(e)-1].(string)
	}
	if spec.Enum != nil {
		return spec.Enum[len(spec.Enum)-1].(string)
	}
	switch spec.Format {
	case "uuid":
		return "0196a6c2-5b1f-7d3e-9a4b-1c2d3e4f5a6b"
	case "date-time":
		return "2026-11-23T14:05:06.789Z"
	case "email":
		return "ada@example.com"
	case "uri":
		return "https://example.com/hooks"
	}
	return "text"
}

// TestOpenAPIDocumentFileIsCurrent checks the copies of the documents
// the portal's TypeScript types are generated from.
func TestOpenAPIDocumentFileIsCurrent(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"openapi.json", "openapi-internal.json"} {
		want, err := documentBytes(name)
		if err != nil {
			t.Fatal(err)
		}
		file := "../../frontend/src/" + name
		got, err := os.ReadFile(filepath.FromSlash(file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not the API's current OpenAPI document; regenerate it and the portal's types with\n"+
				"\tbash scripts/frontend.sh api", file)
		}
	}
}

func TestOpenAPIStatusCodesAreDocumented(t *testing.T) {
	t.Parallel()
	descriptions := errorDescriptions()
	for key, o := range operations() {
		if http.StatusText(o.Status) == "" || o.Status >= 300 {
			t.Errorf("%s: success status %d", key, o.Status)
		}
		for _, code := range o.Errors {
			if descriptions[code] == "" {
				t.Errorf("%s: error status %s has no Error%s response", key, strconv.Itoa(code), strconv.Itoa(code))
			}
		}
	}
}
