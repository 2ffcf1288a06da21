package openapi

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3gen"
	"github.com/google/uuid"
)

// The document's schemas are reflected from the Go types the handlers
// decode and encode (kin-openapi's openapi3gen walks the structs); this
// file adds what reflection alone cannot see: which fields are required
// and which may be null (from pointers, slices, maps and omitempty), enum
// values (from the Go constants), uuid and custom JSON encodings, and the
// few field descriptions and request rules of fields.go and domain.go.

// wireSide says which side of the wire a type is on. It decides which
// fields are required and which may be null.
type wireSide int

const (
	// responseSide: what the API encodes. A field is required unless it is
	// omitempty or omitzero; it may be null when its Go type can be nil
	// (pointer, slice, map) and it is not omitted when empty.
	responseSide wireSide = iota
	// requestSide: what a handler decodes. Only the fields the handler
	// insists on are required; a pointer field accepts null.
	requestSide
)

func (s wireSide) String() string {
	if s == requestSide {
		return "request"
	}
	return "response"
}

var (
	timeType          = reflect.TypeFor[time.Time]()
	uuidType          = reflect.TypeFor[uuid.UUID]()
	rawMessageType    = reflect.TypeFor[json.RawMessage]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// schemaSet reflects Go types into the components of one document.
type schemaSet struct {
	components openapi3.Schemas
	gens       map[wireSide]*openapi3gen.Generator
	// named records which Go type (and side) owns each component name, so
	// two types never share a name and no type serves both sides.
	named map[string]namedType
	// names are the component names that are not a type's Go name
	// (componentName).
	names map[reflect.Type]string
	// fields describes fields beyond their struct tags (FieldSpecOf).
	fields map[reflect.Type]map[string]FieldSpec
	// docs are the fields' doc comments (fieldDocs), the description of
	// a field that neither its tag nor fields describes.
	docs map[string]map[string]string
	errs []error
}

type namedType struct {
	t    reflect.Type
	side wireSide
}

// newSchemaSet returns an empty set that names components from names
// and describes fields from fields (both by Go type).
func newSchemaSet(names map[reflect.Type]string, fields map[reflect.Type]map[string]FieldSpec) *schemaSet {
	s := &schemaSet{components: openapi3.Schemas{}, named: map[string]namedType{},
		names: names, fields: fields, docs: fieldDocs(), gens: map[wireSide]*openapi3gen.Generator{}}
	for _, side := range []wireSide{responseSide, requestSide} {
		s.gens[side] = openapi3gen.NewGenerator(
			openapi3gen.ThrowErrorOnCycle(),
			openapi3gen.CreateComponentSchemas(openapi3gen.ExportComponentSchemasOptions{
				ExportComponentSchemas: true,
				ExportTopLevelSchema:   true,
			}),
			openapi3gen.CreateTypeNameGenerator(func(t reflect.Type) string { return s.name(t, side) }),
			openapi3gen.SchemaCustomizer(s.customizer(side)),
		)
	}
	return s
}

// schema returns the schema of t on one side of the wire: a $ref for a
// named struct (whose component is added to the set), else inline.
func (s *schemaSet) schema(t reflect.Type, side wireSide) (*openapi3.SchemaRef, error) {
	ref, err := s.gens[side].NewSchemaRefForValue(reflect.Zero(t).Interface(), s.components)
	if err != nil {
		return nil, fmt.Errorf("schema of %s %s: %w", side, t, err)
	}
	if len(s.errs) > 0 {
		return nil, fmt.Errorf("schema of %s %s: %w", side, t, s.errs[0])
	}
	return ref, nil
}

// name is the component name of a struct type: its entry in s.names,
// else its Go name with the first letter upper-cased.
func (s *schemaSet) name(t reflect.Type, side wireSide) string {
	n := s.names[t]
	if n == "" {
		n = strings.ToUpper(t.Name()[:1]) + t.Name()[1:]
	}
	if prev, ok := s.named[n]; ok && (prev.t != t || prev.side != side) {
		s.errs = append(s.errs, fmt.Errorf("component %s names both %s %s and %s %s", n, prev.side, prev.t, side, t))
	}
	s.named[n] = namedType{t: t, side: side}
	return n
}

// customizer completes what openapi3gen produced for one type.
func (s *schemaSet) customizer(side wireSide) openapi3gen.SchemaCustomizerFn {
	return func(_ string, t reflect.Type, _ reflect.StructTag, schema *openapi3.Schema) error {
		switch {
		case t == uuidType:
			schema.Type, schema.Format = &openapi3.Types{openapi3.TypeString}, "uuid"
		case t == rawMessageType:
			// Any JSON value, null included.
			schema.Type, schema.Format, schema.Nullable = nil, "", true
		case t == timeType:
		case t.Kind() == reflect.Struct:
			return s.object(t, side, schema)
		case t.Implements(textMarshalerType):
			schema.Type = &openapi3.Types{openapi3.TypeString}
		}
		if values := EnumOf(t); values != nil {
			schema.Enum = values
		}
		return nil
	}
}

// object sets an object schema's required list and, per property, whether
// it may be null and what its FieldSpec adds.
func (s *schemaSet) object(t reflect.Type, side wireSide, schema *openapi3.Schema) error {
	var required []string
	for _, f := range jsonFields(t) {
		prop := schema.Properties[f.name]
		if prop == nil {
			return fmt.Errorf("%s.%s: no schema for JSON field %q", t, f.goName, f.name)
		}
		spec, err := FieldSpecOf(s.fields, f.owner, f.name, f.tag)
		if err != nil {
			return fmt.Errorf("%s.%s: %w", f.owner, f.goName, err)
		}
		if spec.Description == "" {
			spec.Description = s.docs[docKey(f.owner)][f.goName]
		}
		var nullable bool
		switch side {
		case responseSide:
			if !f.omitted {
				required = append(required, f.name)
			}
			nullable = f.nilable && !f.omitted && !spec.NonNull
		case requestSide:
			if spec.Required {
				required = append(required, f.name)
			}
			nullable = f.pointer
		}
		if strings.HasPrefix(prop.Ref, "#/components/") {
			// A component: OpenAPI 3.0 ignores siblings of $ref (and
			// kin-openapi writes none), so a nullable or described one is
			// wrapped.
			if nullable || spec.Description != "" {
				schema.Properties[f.name] = &openapi3.SchemaRef{Value: &openapi3.Schema{Nullable: nullable,
					Description: spec.Description, AllOf: openapi3.SchemaRefs{prop}}}
			}
			continue
		}
		v := prop.Value
		v.Nullable = nullable || f.t == rawMessageType
		if f.asString {
			v.Type, v.Format = &openapi3.Types{openapi3.TypeString}, ""
		}
		if spec.Description != "" {
			v.Description = spec.Description
		}
		if spec.Format != "" {
			v.Format = spec.Format
		}
		if spec.Enum != nil {
			target := v
			if v.Items != nil && v.Items.Value != nil {
				target = v.Items.Value
			}
			target.Enum = spec.Enum
		}
	}
	slices.Sort(required)
	schema.Required = required
	return nil
}

// docKey is the key of a struct type in fieldDocs: "import/path.Type",
// without the type arguments of a generic type.
func docKey(t reflect.Type) string {
	name, _, _ := strings.Cut(t.Name(), "[")
	return t.PkgPath() + "." + name
}

// jsonField is one field as encoding/json sees it.
type jsonField struct {
	name   string
	goName string
	// owner is the struct declaring the field (an embedded one for a
	// promoted field).
	owner   reflect.Type
	t       reflect.Type
	tag     reflect.StructTag
	omitted bool // omitempty or omitzero: absent when empty
	nilable bool // pointer, slice, map or interface: null when nil
	pointer bool
	// asString is the ",string" option: a number encoded as a string.
	asString bool
}

// jsonFields lists t's JSON fields the way encoding/json does, with the
// fields of embedded structs promoted.
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := sf.Type
		if sf.Anonymous && name == "" {
			et := ft
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				out = append(out, jsonFields(et)...)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		optList := strings.Split(opts, ",")
		kind := ft.Kind()
		out = append(out, jsonField{
			name:     name,
			goName:   sf.Name,
			owner:    t,
			t:        ft,
			tag:      sf.Tag,
			omitted:  slices.Contains(optList, "omitempty") || slices.Contains(optList, "omitzero"),
			nilable:  kind == reflect.Pointer || kind == reflect.Slice || kind == reflect.Map || kind == reflect.Interface,
			pointer:  kind == reflect.Pointer,
			asString: slices.Contains(optList, "string"),
		})
	}
	return out
}
