// Package catalog is the tenant's event-type catalog (docs/api.md: Event-type catalog):
// each event type a tenant sends has a name, a group, a description,
// numbered versions each holding a JSON Schema (draft 2020-12) and
// example payloads, a deprecation mark, and a validation mode that says
// what ingest does with an event whose data does not match the latest
// version's schema: nothing (off), accept it with a warning (warn), or
// refuse it with 422 naming the failing path (reject).
//
// The package owns the tables event_types, event_type_versions and
// event_type_warnings and names no other domain's. It imports no other
// domain: delivery asks it through delivery.SchemaChecker, which
// *Service satisfies, and app plugs it in.
//
// Schemas are compiled once (santhosh-tekuri/jsonschema/v6) and kept in
// a cache bounded in bytes per tenant and in total (schemacache.go); the
// rules ingest consults (which types of a tenant validate, against which
// version) are cached per tenant for a few seconds (rules.go). Every
// schema is bounded in size, may not load anything from outside itself,
// and every validation is bounded in work (budget.go), so no tenant's
// schema or payload can make ingest spend unbounded CPU.
//
// Import reads an OpenAPI 3.1 document's webhooks section (import.go):
// each webhook's JSON request body schema becomes a version, with the
// document's components/schemas it refers to embedded as $defs.
package catalog
