package openapi

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// What the document says about a field beyond what reflection sees: a
// description (by default the field's doc comment, fielddocs.gen.go), a
// format, enum values, a required flag for request bodies
// and, for the few fields a custom MarshalJSON never sends as null, that
// they are never null. The HTTP layer's own types say it in struct tags
// (description, format, enum, required:"true", nullable:"false"); domain
// types, which know nothing of HTTP, are described in domain.go, and a
// caller's types that cannot carry tags in API.Fields.

// FieldSpec is what the document adds to one JSON field.
type FieldSpec struct {
	Description string
	Format      string
	Enum        []any
	// Required: a request body without the field is refused.
	Required bool
	// NonNull: never encoded as null although its Go type can be nil.
	NonNull bool
}

// Enum returns values as the enum of a schema.
func Enum[S ~string](values ...S) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

// FieldSpecOf returns what the document says about the JSON field name
// of the struct type owner: its struct tag over its entry in fields (from
// API.FieldSpecs). Errors: a malformed required or nullable tag.
func FieldSpecOf(fields map[reflect.Type]map[string]FieldSpec, owner reflect.Type, name string, tag reflect.StructTag) (FieldSpec, error) {
	spec := fields[owner][name]
	if d, ok := tag.Lookup("description"); ok {
		spec.Description = d
	}
	if v, ok := tag.Lookup("format"); ok {
		spec.Format = v
	}
	if v, ok := tag.Lookup("enum"); ok {
		spec.Enum = Enum(strings.Split(v, ",")...)
	}
	if v, ok := tag.Lookup("required"); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return spec, fmt.Errorf("required tag %q: %w", v, err)
		}
		spec.Required = b
	}
	if v, ok := tag.Lookup("nullable"); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return spec, fmt.Errorf("nullable tag %q: %w", v, err)
		}
		spec.NonNull = !b
	}
	return spec, nil
}
