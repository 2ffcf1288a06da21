// Package routing decides which events reach which endpoint beyond the
// plain event type: event-type patterns with a trailing wildcard
// ("order.*", "*") and CEL filter expressions evaluated over the event.
//
// It owns no storage. delivery validates an endpoint's patterns and
// filter with this package when the endpoint is saved, turns the patterns
// a given event type can match into an indexed SQL lookup (Keys), and
// asks a Filters value whether each candidate endpoint's filter accepts
// the event. Compiled filters are cached by their source text, so a saved
// filter is compiled once per process, however many events it sees.
//
// A filter can never fail or slow ingest: evaluation is bounded by CEL's
// cost budget, and an evaluation error counts as "not matched", is
// counted, and is returned to the caller to log. A filter tried on a
// sample event (test-routing) is compiled for that one evaluation and not
// cached.
//
// It also holds the JavaScript engine of transformations (Transformer,
// on goja) with its program cache, bounded in bytes per tenant and in
// total. The engine's own limits are cooperative; Ferry runs it only in
// the worker processes of package sandbox, which kill a run at its
// deadline.
package routing
