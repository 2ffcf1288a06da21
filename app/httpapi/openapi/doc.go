// Package openapi builds the OpenAPI 3 document of Ferry's API (served at
// /api/v1/openapi.json, printed by `ferry openapi`, and the source of the
// portal's generated TypeScript types, frontend/src/api.gen.ts).
//
// The HTTP layer (package httpapi) keeps the route table: per route, an
// Operation saying its summary, who may call it, its status codes and
// the Go types its handler decodes and encodes. Document reflects the
// schemas from those types (schema.go, with kin-openapi's openapi3gen),
// so the document follows the code: which fields are required and which
// may be null come from pointers, slices, maps and omitempty; enum values
// from the Go constants; descriptions from the fields' doc comments
// (fielddocs.gen.go, written by go generate from the source), overridden
// by struct tags, by domain.go for domain types, and by API.Fields for
// the HTTP layer's types.
//
// The package knows nothing of Fiber or of package httpapi: it is handed
// an API value and returns the document.
package openapi

//go:generate go run ./internal/fielddocs
