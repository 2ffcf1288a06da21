package httpapi

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
)

// TestOpenAPIDescribesEverything walks both documents as served and
// fails on any operation without a summary or description, any
// parameter or schema property without a description, and any request
// body or success answer with a body but no example.
func TestOpenAPIDescribesEverything(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"openapi.json", "openapi-internal.json"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b, err := documentBytes(name)
			if err != nil {
				t.Fatal(err)
			}
			var doc map[string]any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			missing := undescribed(doc)
			for _, m := range missing {
				t.Error(m)
			}
			if len(missing) > 0 {
				t.Errorf("%s: %d things lack a description or an example", name, len(missing))
			}
		})
	}
}

// TestUndescribedFindsGaps: the walk of TestOpenAPIDescribesEverything
// reports each kind of gap.
func TestUndescribedFindsGaps(t *testing.T) {
	t.Parallel()
	doc := map[string]any{
		"paths": map[string]any{"/things": map[string]any{
			"post": map[string]any{"operationId": "things.create", "summary": "Create",
				"parameters": []any{map[string]any{"name": "q", "in": "query"}},
				"requestBody": map[string]any{"content": map[string]any{"application/json": map[string]any{
					"schema": map[string]any{"type": "object", "properties": map[string]any{"inline": map[string]any{"type": "string"}}}}}},
				"responses": map[string]any{
					"201": map[string]any{"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Thing"}}}},
					"404": map[string]any{"$ref": "#/components/responses/Error404"},
				}},
		}},
		"components": map[string]any{"schemas": map[string]any{"Thing": map[string]any{"type": "object", "properties": map[string]any{
			"id":   map[string]any{"type": "string", "description": "the id"},
			"name": map[string]any{"type": "string"},
			"list": map[string]any{"type": "array", "description": "d", "items": map[string]any{"type": "object",
				"properties": map[string]any{"deep": map[string]any{"type": "integer"}}}},
		}}}},
	}
	want := []string{
		"POST /things (things.create): no description",
		"POST /things (things.create): parameter q (query) has no description",
		"POST /things (things.create): request body application/json has no example",
		"POST /things (things.create): response 201 application/json has no example",
		"POST /things (things.create): request body application/json: property inline has no description",
		"components.schemas.Thing: property list[].deep has no description",
		"components.schemas.Thing: property name has no description",
	}
	slices.Sort(want)
	if got := undescribed(doc); !slices.Equal(got, want) {
		t.Errorf("undescribed =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// undescribed lists, sorted, what a document (decoded JSON) leaves
// undescribed or without an example.
func undescribed(doc map[string]any) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	// properties reports the properties of schema (and of the schemas
	// inside it) without a description.
	var properties func(where, prefix string, schema any)
	properties = func(where, prefix string, schema any) {
		s, _ := schema.(map[string]any)
		if s == nil {
			return
		}
		props, _ := s["properties"].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(props)) {
			p, _ := props[name].(map[string]any)
			if d, _ := p["description"].(string); strings.TrimSpace(d) == "" {
				add("%s: property %s%s has no description", where, prefix, name)
			}
			properties(where, prefix+name+".", p)
		}
		properties(where, strings.TrimSuffix(prefix, ".")+"[].", s["items"])
		if ap, ok := s["additionalProperties"].(map[string]any); ok {
			properties(where, strings.TrimSuffix(prefix, ".")+"{}.", ap)
		}
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			list, _ := s[k].([]any)
			for _, sub := range list {
				properties(where, prefix, sub)
			}
		}
	}
	// content reports media types without an example and the properties
	// of their inline schemas.
	content := func(where string, c any) {
		media, _ := c.(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(media)) {
			m, _ := media[name].(map[string]any)
			if _, ok := m["example"]; !ok {
				if _, ok := m["examples"]; !ok {
					add("%s %s has no example", where, name)
				}
			}
			properties(where+" "+name, "", m["schema"])
		}
	}
	paths := map[string]any{}
	for _, section := range []string{"paths", "webhooks"} {
		items, _ := doc[section].(map[string]any)
		for k, v := range items {
			paths[k] = v // webhooks are named by event type, never with a /
		}
	}
	for _, path := range slices.Sorted(maps.Keys(paths)) {
		item, _ := paths[path].(map[string]any)
		for _, method := range slices.Sorted(maps.Keys(item)) {
			op, _ := item[method].(map[string]any)
			id, _ := op["operationId"].(string)
			where := fmt.Sprintf("%s %s (%s)", strings.ToUpper(method), path, id)
			for _, k := range []string{"operationId", "summary", "description"} {
				if v, _ := op[k].(string); strings.TrimSpace(v) == "" {
					add("%s: no %s", where, k)
				}
			}
			params, _ := op["parameters"].([]any)
			for _, p := range params {
				p, _ := p.(map[string]any)
				if d, _ := p["description"].(string); strings.TrimSpace(d) == "" {
					add("%s: parameter %v (%v) has no description", where, p["name"], p["in"])
				}
			}
			if rb, ok := op["requestBody"].(map[string]any); ok {
				content(where+": request body", rb["content"])
			}
			responses, _ := op["responses"].(map[string]any)
			for _, status := range slices.Sorted(maps.Keys(responses)) {
				r, _ := responses[status].(map[string]any)
				if strings.HasPrefix(status, "2") && r["content"] != nil {
					content(where+": response "+status, r["content"])
				}
			}
		}
	}
	components, _ := doc["components"].(map[string]any)
	schemas, _ := components["schemas"].(map[string]any)
	for _, name := range slices.Sorted(maps.Keys(schemas)) {
		properties("components.schemas."+name, "", schemas[name])
	}
	slices.Sort(out)
	return out
}

// TestRouteExamplesNameRoutes: every example is of a route in the table,
// only where the route has that body, and carries no zero time (a field
// left out of a typed example would show 0001-01-01).
func TestRouteExamplesNameRoutes(t *testing.T) {
	t.Parallel()
	ops := operations()
	for route, ex := range routeExamples() {
		op, ok := ops[route]
		if !ok {
			t.Errorf("routeExamples names %s, which is not in the route table", route)
			continue
		}
		if ex.Request != nil && op.Body == nil {
			t.Errorf("%s: a request example, but the route takes no body", route)
		}
		if ex.Response != nil && len(op.Response) == 0 {
			t.Errorf("%s: a response example, but the route answers no body", route)
		}
		for _, v := range []any{ex.Request, ex.Response} {
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatalf("%s: %v", route, err)
			}
			if strings.Contains(string(b), "0001-01-01T00:00:00Z") {
				t.Errorf("%s: an example holds a zero time: %s", route, b)
			}
		}
	}
}
