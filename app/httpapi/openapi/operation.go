package openapi

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/ferry-dev/ferry/page"
)

// Access is who may call an operation.
type Access int

// The callers an operation may admit.
const (
	Public      Access = iota
	Session            // a portal session
	Key                // an API key or a portal session
	Staff              // a support staff session
	PortalToken        // a customer portal session's bearer token
)

// Operation describes one route of the API.
type Operation struct {
	Summary string
	Tag     string
	Access  Access
	// Status is the success status.
	Status int
	// Body is the type the handler decodes (nil: no body); OptionalBody
	// when the handler also accepts an empty body.
	Body         reflect.Type
	OptionalBody bool
	// Response lists the types the handler encodes on success (none: no
	// body); with more than one the body is one of them.
	Response []reflect.Type
	Params   openapi3.Parameters
	// Errors are the error statuses beyond 401, 403 and 429, which every
	// operation but a Public one may answer; each needs an entry in
	// API.ErrorDescriptions.
	Errors []int
}

// Types is shorthand for the list of one response type.
func Types[T any]() []reflect.Type { return []reflect.Type{reflect.TypeFor[T]()} }

// QueryParam returns a query parameter.
func QueryParam(name, desc string, schema *openapi3.Schema) *openapi3.ParameterRef {
	return &openapi3.ParameterRef{Value: &openapi3.Parameter{Name: name, In: openapi3.ParameterInQuery, Description: desc,
		Schema: schema.NewRef()}}
}

// PageParams returns the query parameters of a list (package page).
func PageParams() openapi3.Parameters {
	return openapi3.Parameters{
		QueryParam("limit", fmt.Sprintf("page size (1-%d, default %d)", page.MaxSize, page.DefaultSize),
			openapi3.NewIntegerSchema().WithMin(1).WithMax(page.MaxSize)),
		QueryParam("cursor", "next_cursor of the previous page", openapi3.NewStringSchema()),
	}
}

// build turns o into an OpenAPI operation, adding the schemas it needs
// to s.
func (o Operation) build(s *schemaSet, path string) (*openapi3.Operation, error) {
	out := &openapi3.Operation{Summary: o.Summary, Tags: []string{o.Tag}, OperationID: operationID(o.Summary),
		Security: &openapi3.SecurityRequirements{}}
	switch o.Access {
	case Session, Staff:
		out.Security = &openapi3.SecurityRequirements{{"session": {}}}
	case Key:
		out.Security = &openapi3.SecurityRequirements{{"apiKey": {}}, {"session": {}}}
	case PortalToken:
		out.Security = &openapi3.SecurityRequirements{{"portalToken": {}}}
	}
	for _, name := range pathParams(path) {
		schema := openapi3.NewUUIDSchema()
		if name == "uid" || name == "name" { // a customer's uid (the tenant's own id for it), an event type's name
			schema = openapi3.NewStringSchema()
		}
		out.Parameters = append(out.Parameters, &openapi3.ParameterRef{Value: openapi3.NewPathParameter(name).WithSchema(schema)})
	}
	out.Parameters = append(out.Parameters, o.Params...)
	if o.Body != nil {
		schema, err := s.schema(o.Body, requestSide)
		if err != nil {
			return nil, err
		}
		out.RequestBody = &openapi3.RequestBodyRef{Value: &openapi3.RequestBody{Required: !o.OptionalBody,
			Content: openapi3.NewContentWithJSONSchemaRef(schema)}}
	}
	success := &openapi3.Response{Description: ptr("success, no body")}
	if len(o.Response) > 0 {
		var alternatives openapi3.SchemaRefs
		for _, t := range o.Response {
			schema, err := s.schema(t, responseSide)
			if err != nil {
				return nil, err
			}
			alternatives = append(alternatives, schema)
		}
		schema := alternatives[0]
		if len(alternatives) > 1 {
			schema = &openapi3.SchemaRef{Value: &openapi3.Schema{OneOf: alternatives}}
		}
		success = &openapi3.Response{Description: ptr("success"), Content: openapi3.NewContentWithJSONSchemaRef(schema)}
	}
	out.Responses = openapi3.NewResponses(openapi3.WithStatus(o.Status, &openapi3.ResponseRef{Value: success}))
	errs := o.Errors
	if o.Access != Public {
		errs = append([]int{401, 403, 429}, errs...)
	}
	for _, code := range errs {
		out.Responses.Set(strconv.Itoa(code), &openapi3.ResponseRef{Ref: "#/components/responses/Error" + strconv.Itoa(code)})
	}
	return out, nil
}

func ptr[T any](v T) *T { return &v }

// operationID turns a summary into a camel-case identifier.
func operationID(summary string) string {
	var b strings.Builder
	up := false
	for _, r := range summary {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			if up && b.Len() > 0 && r >= 'a' && r <= 'z' {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			up = false
		default:
			up = true
		}
	}
	return b.String()
}

// pathParams returns the names of path's parameters ({name}).
func pathParams(path string) []string {
	var out []string
	for _, seg := range strings.Split(path, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			out = append(out, seg[1:len(seg)-1])
		}
	}
	return out
}
