package openapi

import (
	"encoding/json"
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
	// ID is the operation id, resource.action (events.create,
	// endpoints.secret.rotate): stable, unique, what generated clients
	// name their methods after.
	ID string
	// Summary is one short line; Description says what a caller needs to
	// know beyond it.
	Summary     string
	Description string
	Tag         string
	Access      Access
	// Status is the success status.
	Status int
	// ExistingStatus, when set, is the status of the same answer when the
	// request found its resource already there: an upsert's 200 beside
	// the 201 of a creation.
	ExistingStatus int
	// Body is the type the handler decodes (nil: no body); OptionalBody
	// when the handler also accepts an empty body.
	Body         reflect.Type
	OptionalBody bool
	// Response lists the types the handler encodes on success (none: no
	// body); with more than one the body is one of them.
	Response []reflect.Type
	Params   openapi3.Parameters
	// RequestExample and ResponseExample are hand-written examples of the
	// body and of the success answer, encoded with encoding/json (so a Go
	// value of the body's type or a map). Tests validate them against the
	// schemas.
	RequestExample  any
	ResponseExample any
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
	if !validID(o.ID) {
		return nil, fmt.Errorf("operation id %q is not resource.action (lower case, dot-separated)", o.ID)
	}
	out := &openapi3.Operation{Summary: o.Summary, Description: o.Description, Tags: []string{o.Tag}, OperationID: o.ID,
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
		param := openapi3.NewPathParameter(name).WithSchema(schema).WithDescription(pathParamDescription(name))
		out.Parameters = append(out.Parameters, &openapi3.ParameterRef{Value: param})
	}
	out.Parameters = append(out.Parameters, o.Params...)
	if o.Body != nil {
		schema, err := s.schema(o.Body, requestSide)
		if err != nil {
			return nil, err
		}
		content := openapi3.NewContentWithJSONSchemaRef(schema)
		if o.RequestExample != nil {
			ex, err := exampleValue(o.RequestExample)
			if err != nil {
				return nil, fmt.Errorf("request example: %w", err)
			}
			content.Get(jsonMedia).Example = ex
		}
		out.RequestBody = &openapi3.RequestBodyRef{Value: &openapi3.RequestBody{Required: !o.OptionalBody,
			Description: "JSON body", Content: content}}
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
		if o.ResponseExample != nil {
			ex, err := exampleValue(o.ResponseExample)
			if err != nil {
				return nil, fmt.Errorf("response example: %w", err)
			}
			success.Content.Get(jsonMedia).Example = ex
		}
	}
	success.Headers = responseHeaderRefs(o.Access != Public)
	out.Responses = openapi3.NewResponses(openapi3.WithStatus(o.Status, &openapi3.ResponseRef{Value: success}))
	if o.ExistingStatus != 0 {
		existing := *success
		existing.Description = ptr(*success.Description + "; the resource already existed")
		out.Responses.Set(strconv.Itoa(o.ExistingStatus), &openapi3.ResponseRef{Value: &existing})
	}
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

// jsonMedia is the media type of every body the API reads and writes.
const jsonMedia = "application/json"

// validID reports whether id is resource.action: two or more
// dot-separated words of lower-case letters, digits and underscores,
// each starting with a letter.
func validID(id string) bool {
	words := strings.Split(id, ".")
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		if w == "" || w[0] < 'a' || w[0] > 'z' {
			return false
		}
		for _, r := range w {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
				return false
			}
		}
	}
	return true
}

// exampleValue turns an example, any Go value, into the JSON value
// encoding/json makes of it, so a typed example shows exactly what the
// API sends (custom MarshalJSON, omitempty) and compares equal to a
// decoded body.
func exampleValue(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %T: %w", v, err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, fmt.Errorf("decode %T: %w", v, err)
	}
	return out, nil
}

// pathParamDescription describes a path parameter by its name: {id} is
// the id of the resource the path names, {x_id} the id of an x.
func pathParamDescription(name string) string {
	switch name {
	case "id":
		return "the id of the resource the path names"
	case "uid":
		return "the customer's uid: the tenant's own id for it"
	case "name":
		return "the event type's name (a name holding / is sent as %2F)"
	}
	return "the id of the " + strings.ReplaceAll(strings.TrimSuffix(name, "_id"), "_", " ")
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
