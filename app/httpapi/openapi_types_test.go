package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/uuid"
)

// loadDocument parses the document as served.
func loadDocument(t *testing.T) *openapi3.T {
	t.Helper()
	b, err := OpenAPIDocument()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi3.NewLoader().LoadFromData(b)
	if err != nil {
		t.Fatalf("not an OpenAPI document: %v", err)
	}
	return doc
}

// validationOptions check the formats the document uses, beyond the
// date-time kin-openapi checks by default.
func validationOptions(side wireSide) []openapi3.SchemaValidationOption {
	opts := []openapi3.SchemaValidationOption{
		openapi3.MultiErrors(),
		openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562)),
		openapi3.WithStringFormatValidator("email", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForEmail)),
	}
	if side == requestSide {
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
	doc := loadDocument(t)
	domain := domainFields()
	for key, o := range operations() {
		method, path, _ := strings.Cut(key, " ")
		operation := doc.Paths.Find(path).GetOperation(method)
		if operation == nil {
			t.Fatalf("%s: not in the document", key)
		}
		for _, typ := range o.response {
			content := operation.Responses.Status(o.status).Value.Content.Get("application/json")
			for _, full := range []bool{true, false} {
				if !full && typ.Kind() != reflect.Struct {
					continue // a map or slice handlers never send as null
				}
				name := key + " " + typ.String() + map[bool]string{true: " full", false: " sparse"}[full]
				t.Run(name, func(t *testing.T) {
					validateSample(t, content.Schema.Value, sample(t, domain, typ, full), responseSide)
				})
			}
		}
		if o.body != nil {
			content := operation.RequestBody.Value.Content.Get("application/json")
			t.Run(key+" request "+o.body.String(), func(t *testing.T) {
				validateSample(t, content.Schema.Value, sample(t, domain, o.body, true), requestSide)
			})
		}
	}
}

func TestOpenAPIErrorBodiesMatchGoTypes(t *testing.T) {
	t.Parallel()
	doc := loadDocument(t)
	for name, ref := range doc.Components.Responses {
		schema := ref.Value.Content.Get("application/json").Schema.Value
		for _, body := range []errorBody{
			{Error: errorDetail{Code: "invalid", Message: "url is required", Field: "url"}},
			{Error: errorDetail{Code: "not_found", Message: "no such endpoint"}},
		} {
			validateSample(t, schema, body, responseSide)
		}
		if err := schema.VisitJSON(map[string]any{"error": map[string]any{"code": "no_such_code", "message": "m"}}); err == nil {
			t.Errorf("%s: an unknown error code validates", name)
		}
	}
	for code := range statusByCode {
		validateSample(t, doc.Components.Responses["Error400"].Value.Content.Get("application/json").Schema.Value,
			errorBody{Error: errorDetail{Code: code, Message: "m"}}, responseSide)
	}
}

func validateSample(t *testing.T, schema *openapi3.Schema, v any, side wireSide) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode %T: %v", v, err)
	}
	var decoded any
	if err := json.Unmarshal(b, &decoded); err != nil {
		t.Fatal(err)
	}
	if err := schema.VisitJSON(decoded, validationOptions(side)...); err != nil {
		t.Errorf("%T encodes as %s\nwhich the document refuses: %v", v, b, err)
	}
}

// sample returns a value of type typ. A full one has every field set
// (one element per slice and map, valid enum and format values); a sparse
// one is as empty as the type allows: nil pointers, slices and maps, zero
// numbers, empty strings except where an enum or format forbids it (and a list's
// data is never nil: newList makes it empty).
func sample(t *testing.T, domain map[reflect.Type]map[string]fieldSpec, typ reflect.Type, full bool) any {
	t.Helper()
	v := reflect.New(typ).Elem()
	fill(t, domain, v, fieldSpec{}, full)
	if !full && strings.HasPrefix(typ.Name(), "list[") {
		v.FieldByName("Data").Set(reflect.MakeSlice(v.FieldByName("Data").Type(), 0, 0))
	}
	return v.Interface()
}

func fill(t *testing.T, domain map[reflect.Type]map[string]fieldSpec, v reflect.Value, spec fieldSpec, full bool) {
	t.Helper()
	typ := v.Type()
	if !full {
		switch typ.Kind() {
		case reflect.Struct:
			if typ == timeType {
				return
			}
		case reflect.String:
			if enumOf(typ) == nil && spec.enum == nil && spec.format == "" {
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
		fill(t, domain, v.Elem(), spec, full)
	case reflect.Struct:
		for i := range typ.NumField() {
			sf := typ.Field(i)
			if !sf.IsExported() && !sf.Anonymous {
				continue
			}
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			f, err := fieldSpecOf(domain, jsonField{owner: typ, name: name, tag: sf.Tag})
			if err != nil {
				t.Fatal(err)
			}
			fill(t, domain, v.Field(i), f, full)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(typ, 1, 1))
		fill(t, domain, v.Index(0), spec, full)
	case reflect.Map:
		v.Set(reflect.MakeMap(typ))
		elem := reflect.New(typ.Elem()).Elem()
		fill(t, domain, elem, spec, full)
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

func sampleString(typ reflect.Type, spec fieldSpec) string {
	if e := enumOf(typ); e != nil {
		return e[len(e)-1].(string)
	}
	if spec.enum != nil {
		return spec.enum[len(spec.enum)-1].(string)
	}
	switch spec.format {
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

// TestOpenAPIDomainFieldsNameRealFields keeps domainFields honest: a
// renamed or removed field must not leave a stale entry behind.
func TestOpenAPIDomainFieldsNameRealFields(t *testing.T) {
	t.Parallel()
	for typ, fields := range domainFields() {
		var names []string
		for _, f := range jsonFields(typ) {
			if f.owner == typ {
				names = append(names, f.name)
			}
		}
		for name := range fields {
			if !slices.Contains(names, name) {
				t.Errorf("domainFields describes %s field %q, which has no such JSON field (it has %v)", typ, name, names)
			}
		}
	}
}

// TestOpenAPIDocumentFileIsCurrent checks the copy of the document the
// portal's TypeScript types are generated from.
func TestOpenAPIDocumentFileIsCurrent(t *testing.T) {
	t.Parallel()
	want, err := OpenAPIDocument()
	if err != nil {
		t.Fatal(err)
	}
	const file = "../../frontend/src/openapi.json"
	got, err := os.ReadFile(filepath.FromSlash(file))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not the API's current OpenAPI document; regenerate it and the portal's types with\n"+
			"\tbash scripts/frontend.sh api\n(or: go run ./app/cmd/ferry openapi > frontend/src/openapi.json)", file)
	}
}

func TestOpenAPIStatusCodesAreDocumented(t *testing.T) {
	t.Parallel()
	descriptions := errorDescriptions()
	for key, o := range operations() {
		if http.StatusText(o.status) == "" || o.status >= 300 {
			t.Errorf("%s: success status %d", key, o.status)
		}
		for _, code := range o.errors {
			if descriptions[code] == "" {
				t.Errorf("%s: error status %s has no Error%s response", key, strconv.Itoa(code), strconv.Itoa(code))
			}
		}
	}
}

func TestOpenAPISchemaNamesAreUnique(t *testing.T) {
	t.Parallel()
	s := newSchemaSet()
	if _, err := s.schema(reflect.TypeFor[meResponse](), responseSide); err != nil {
		t.Fatal(err)
	}
	if _, err := s.schema(reflect.TypeFor[meResponse](), requestSide); err == nil {
		t.Error("one type served as both a request and a response schema of the same name")
	}
	type Me struct {
		Name string `json:"name"`
	}
	s = newSchemaSet()
	if _, err := s.schema(reflect.TypeFor[meResponse](), responseSide); err != nil {
		t.Fatal(err)
	}
	if _, err := s.schema(reflect.TypeFor[Me](), responseSide); err == nil {
		t.Error("two Go types share the component name Me")
	}
}
