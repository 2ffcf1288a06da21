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
	// SessionCookie is the name of the portal's session cookie.
	SessionCookie string
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

// Document builds the OpenAPI 3 document of the API under /api/v1.
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
	keys := slices.Sorted(maps.Keys(a.Operations))
	paths := openapi3.NewPaths()
	for _, key := range keys {
		method, path, _ := strings.Cut(key, " ")
		operation, err := a.Operations[key].build(s, path)
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

	errSchema, err := s.schema(a.Error, responseSide)
	if err != nil {
		return nil, err
	}
	responses := openapi3.ResponseBodies{}
	for code, desc := range a.ErrorDescriptions {
		responses["Error"+strconv.Itoa(code)] = &openapi3.ResponseRef{Value: &openapi3.Response{Description: ptr(desc),
			Content: openapi3.NewContentWithJSONSchemaRef(errSchema)}}
	}
	return &openapi3.T{
		OpenAPI: "3.0.3",
		Info: &openapi3.Info{Title: "Ferry API", Version: "1",
			Description: "Ferry's tenant API. Errors always have the shape {\"error\":{\"code\",\"message\",\"field\"}}; " +
				"lists have the shape {\"data\":[...],\"next_cursor\":...}. " +
				"Cookie-authenticated writes must echo the ferry_csrf cookie in X-CSRF-Token."},
		Servers: openapi3.Servers{{URL: "/api/v1"}},
		Paths:   paths,
		Components: &openapi3.Components{
			Schemas:   s.components,
			Responses: responses,
			SecuritySchemes: openapi3.SecuritySchemes{
				"apiKey": {Value: &openapi3.SecurityScheme{Type: "http", Scheme: "bearer", Description: "Authorization: Bearer fry_live_… (queue routes also take that queue's consumer token, fqc_…)"}},
				"session": {Value: &openapi3.SecurityScheme{Type: "apiKey", In: "cookie", Name: a.SessionCookie,
					Description: "portal session (JWT); writes need X-CSRF-Token"}},
				"portalToken": {Value: &openapi3.SecurityScheme{Type: "http", Scheme: "bearer",
					Description: "a customer portal session's token (POST /portal/exchange, renewed by POST /portal/renew)"}},
			},
		},
	}, nil
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
