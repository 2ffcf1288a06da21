package openapi

import (
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// upgrade31 turns the 3.0 schemas openapi3gen reflects into OpenAPI 3.1
// ones (JSON Schema 2020-12), in place:
//
//   - nullable: true becomes "null" among the schema's types (and null
//     among its enum values, which JSON Schema checks on their own); a
//     nullable wrapper around a $ref (allOf of one, which 3.0 needed
//     because it ignores a $ref's siblings) becomes anyOf the $ref and
//     {type: null}; a schema with no type, anyOf {} and {type: null};
//   - a schema's example becomes examples, an array.
//
// Media types keep example, which 3.1 still has there.
func upgrade31(doc *openapi3.T) error {
	u := upgrader{seen: map[*openapi3.Schema]bool{}}
	for _, ref := range doc.Components.Schemas {
		u.schemaRef(ref)
	}
	for _, ref := range doc.Components.Headers {
		if ref.Value != nil {
			u.schemaRef(ref.Value.Schema)
		}
	}
	for _, ref := range doc.Components.Responses {
		u.response(ref)
	}
	for _, item := range doc.Paths.Map() {
		u.pathItem(item)
	}
	for _, item := range doc.Webhooks {
		u.pathItem(item)
	}
	if u.err != nil {
		return u.err
	}
	doc.OpenAPI = "3.1.0"
	return nil
}

type upgrader struct {
	seen map[*openapi3.Schema]bool
	err  error
}

func (u *upgrader) pathItem(item *openapi3.PathItem) {
	for _, op := range item.Operations() {
		for _, p := range op.Parameters {
			if p.Value != nil {
				u.schemaRef(p.Value.Schema)
			}
		}
		if op.RequestBody != nil && op.RequestBody.Value != nil {
			u.content(op.RequestBody.Value.Content)
		}
		for _, r := range op.Responses.Map() {
			u.response(r)
		}
	}
}

func (u *upgrader) response(r *openapi3.ResponseRef) {
	if r.Value == nil {
		return
	}
	u.content(r.Value.Content)
	for _, h := range r.Value.Headers {
		if h.Value != nil {
			u.schemaRef(h.Value.Schema)
		}
	}
}

func (u *upgrader) content(c openapi3.Content) {
	for _, media := range c {
		u.schemaRef(media.Schema)
	}
}

func (u *upgrader) schemaRefs(refs openapi3.SchemaRefs) {
	for _, r := range refs {
		u.schemaRef(r)
	}
}

func (u *upgrader) schemaRef(ref *openapi3.SchemaRef) {
	if ref == nil || ref.Value == nil || u.seen[ref.Value] {
		return
	}
	s := ref.Value
	u.seen[s] = true
	if s.Nullable {
		s.Nullable = false
		switch {
		case s.Type != nil && len(*s.Type) > 0:
			if !s.Type.Includes(openapi3.TypeNull) {
				*s.Type = append(*s.Type, openapi3.TypeNull)
			}
			if s.Enum != nil {
				s.Enum = append(s.Enum, nil)
			}
		case len(s.AllOf) == 1 && len(s.AnyOf) == 0 && len(s.OneOf) == 0:
			s.AnyOf = openapi3.SchemaRefs{s.AllOf[0], openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeNull}})}
			s.AllOf = nil
		case s.Type == nil && len(s.AllOf) == 0 && len(s.AnyOf) == 0 && len(s.OneOf) == 0:
			// No type: any JSON value, which JSON Schema says includes null
			// already; kin-openapi's validator disagrees, so the null is
			// spelled out (generated TypeScript still reads unknown).
			s.AnyOf = openapi3.SchemaRefs{openapi3.NewSchemaRef("", &openapi3.Schema{}), openapi3.NewSchemaRef("", &openapi3.Schema{Type: &openapi3.Types{openapi3.TypeNull}})}
		default:
			u.err = fmt.Errorf("a nullable schema of no type with combinators cannot be made 3.1: %+v", s)
		}
	}
	if s.Example != nil {
		s.Examples = []any{s.Example}
		s.Example = nil
	}
	for _, p := range s.Properties {
		u.schemaRef(p)
	}
	u.schemaRef(s.Items)
	if s.AdditionalProperties.Schema != nil {
		u.schemaRef(s.AdditionalProperties.Schema)
	}
	u.schemaRefs(s.AllOf)
	u.schemaRefs(s.AnyOf)
	u.schemaRefs(s.OneOf)
	u.schemaRef(s.Not)
}
