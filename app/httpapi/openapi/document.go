package openapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// API is what the HTTP layer says about its routes and its own types;
// Document reflects the rest from the Go types it names.
type API struct {
	// Operations maps "METHOD /path" (relative to /api/v1, path
	// parameters written {name}) to its operation.
	Operations map[string]Operation
	// Names are the component names of the HTTP layer's struct types that
	// are not their Go name with the first letter upper-cased (those of
	// domain types are in domain.go).
	Names map[reflect.Type]string
	// Fields describes fields of the HTTP layer's types beyond their
	// struct tags, by type and JSON name (those of domain types are in
	// domain.go).
	Fields map[reflect.Type]map[string]FieldSpec
	// Error is the type of every error body.
	Error reflect.Type
	// ErrorDescriptions describes the error responses by status; each is
	// the component response ErrorNNN.
	ErrorDescriptions map[int]string
	// ErrorExamples is an example error body per status.
	ErrorExamples map[int]any
	// SessionCookie is the name of the portal's session cookie.
	SessionCookie string
	// CSRFHeader is the header a cookie-authenticated write echoes the
	// CSRF cookie in.
	CSRFHeader string

	// Title and Description are the document's info.
	Title       string
	Description string
	// Tags describes the tags the operations name, in the order a
	// reader meets them; every tag an operation names needs one.
	Tags []Tag
	// Webhooks are the requests Ferry sends to receivers, one per event
	// type (the document's webhooks section).
	Webhooks []Webhook
}

// Tag is a group of operations: one resource.
type Tag struct {
	Name        string
	Description string
}

// names returns the component names of domain types and of a's types.
func (a API) names() (map[reflect.Type]string, error) {
	out := domainNames()
	for t, n := range a.Names {
		if _, ok := out[t]; ok {
			return nil, fmt.Errorf("%s is named by both API.Names and domain.go", t)
		}
		out[t] = n
	}
	return out, nil
}

// FieldSpecs returns the descriptions of domain types' fields and of a's
// (Fields), by type and JSON name, and checks that each names a JSON
// field its type declares: a renamed or removed field must not leave a
// stale entry behind.
func (a API) FieldSpecs() (map[reflect.Type]map[string]FieldSpec, error) {
	out := domainFields()
	for t, f := range a.Fields {
		if _, ok := out[t]; ok {
			return nil, fmt.Errorf("%s is described by both API.Fields and domain.go", t)
		}
		out[t] = f
	}
	for _, t := range slices.SortedFunc(maps.Keys(out), func(a, b reflect.Type) int { return strings.Compare(a.String(), b.String()) }) {
		var names []string
		for _, f := range jsonFields(t) {
			if f.owner == t {
				names = append(names, f.name)
			}
		}
		for _, name := range slices.Sorted(maps.Keys(out[t])) {
			if !slices.Contains(names, name) {
				return nil, fmt.Errorf("the document describes %s field %q, which has no such JSON field (it has %v)", t, name, names)
			}
		}
	}
	return out, nil
}

// Document builds the OpenAPI 3.1 document of the API under /api/v1.
// kin-openapi's reflection (openapi3gen) produces 3.0 schemas; they are
// turned into 3.1 (JSON Schema 2020-12) at the end (upgrade31).
func Document(a API) (*openapi3.T, error) {
	names, err := a.names()
	if err != nil {
		return nil, err
	}
	fields, err := a.FieldSpecs()
	if err != nil {
		return nil, err
	}
	s := newSchemaSet(names, fields)
	tags := map[string]bool{}
	var docTags openapi3.Tags
	for _, t := range a.Tags {
		if t.Description == "" {
			return nil, fmt.Errorf("tag %s has no description", t.Name)
		}
		tags[t.Name] = true
		docTags = append(docTags, &openapi3.Tag{Name: t.Name, Description: t.Description})
	}
	ids := map[string]string{}
	keys := slices.Sorted(maps.Keys(a.Operations))
	paths := openapi3.NewPaths()
	for _, key := range keys {
		method, path, _ := strings.Cut(key, " ")
		o := a.Operations[key]
		if prev, ok := ids[o.ID]; ok {
			return nil, fmt.Errorf("%s and %s share the operation id %q", prev, key, o.ID)
		}
		ids[o.ID] = key
		if !tags[o.Tag] {
			return nil, fmt.Errorf("%s: tag %q is not in API.Tags", key, o.Tag)
		}
		operation, err := o.build(s, path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		item := paths.Value(path)
		if item == nil {
			item = &openapi3.PathItem{}
			paths.Set(path, item)
		}
		item.SetOperation(method, operation)
	}

	webhooks, err := a.webhooks(s)
	if err != nil {
		return nil, err
	}
	errSchema, err := s.schema(a.Error, responseSide)
	if err != nil {
		return nil, err
	}
	responses := openapi3.ResponseBodies{}
	for code, desc := range a.ErrorDescriptions {
		headers := responseHeaderRefs(false)
		if code == 429 || code == 503 {
			headers[headerRetryAfter] = headerRef(headerRetryAfter)
		}
		content := openapi3.NewContentWithJSONSchemaRef(errSchema)
		example, err := exampleValue(a.ErrorExamples[code])
		if err != nil || a.ErrorExamples[code] == nil {
			return nil, fmt.Errorf("error response %d: no example (%v)", code, err)
		}
		content.Get(jsonMedia).Example = example
		responses["Error"+strconv.Itoa(code)] = &openapi3.ResponseRef{Value: &openapi3.Response{Description: ptr(desc),
			Headers: headers, Content: content}}
	}
	doc := &openapi3.T{
		OpenAPI: "3.1.0",
		Info:    &openapi3.Info{Title: a.Title, Version: "1", Description: a.Description},
		Servers: openapi3.Servers{{URL: "/api/v1", Description: "this Ferry (the document's own origin)"}},
		Tags:    docTags,
		Paths:   paths,
		Components: &openapi3.Components{
			Schemas:   s.components,
			Responses: responses,
			Headers:   componentHeaders(),
			SecuritySchemes: openapi3.SecuritySchemes{
				"apiKey": {Value: &openapi3.SecurityScheme{Type: "http", Scheme: "bearer",
					Description: "An API key (fry_live_…) sent as Authorization: Bearer; create one in the portal under API keys. " +
						"Queue routes also take that queue's consumer token (fqc_…)."}},
				"session": {Value: &openapi3.SecurityScheme{Type: "apiKey", In: "cookie", Name: a.SessionCookie,
					Description: "The portal's session cookie (set by signing in). A write (any method but GET and HEAD) " +
						"must echo the ferry_csrf cookie in the " + a.CSRFHeader + " header, or it is refused 403."}},
				"portalToken": {Value: &openapi3.SecurityScheme{Type: "http", Scheme: "bearer",
					Description: "A customer portal session's token (POST /portal/exchange, renewed by POST /portal/renew)."}},
			},
		},
	}
	if len(webhooks) > 0 {
		doc.Webhooks = webhooks
	}
	if err := upgrade31(doc); err != nil {
		return nil, err
	}
	return doc, nil
}

// JSON returns the document of a as indented JSON with a final newline.
func JSON(a API) ([]byte, error) {
	doc, err := Document(a)
	if err != nil {
		return nil, fmt.Errorf("build the OpenAPI document: %w", err)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode the OpenAPI document: %w", err)
	}
	return append(b, '\n'), nil
}
