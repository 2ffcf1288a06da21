// Package ferrywebhooks receives webhooks sent by Ferry: it verifies their
// Standard Webhooks signatures, parses the event envelope, drops
// duplicates by webhook-id, and wraps all three in a net/http handler.
//
// Ferry's webhook-timestamp is the event's created_at, identical on every
// retry and replay, so verification accepts timestamps up to
// DefaultTolerance old (the 72 h retry window plus time for replays),
// not the 5 minutes common in other Standard Webhooks libraries; replays
// of an event within that window are caught by the dedupe helper, which
// keeps webhook-ids for DefaultTTL.
//
// The package uses only the standard library. PostgresStore works with
// any database/sql driver for PostgreSQL; a Redis store lives in the
// redisstore subpackage.
package ferrywebhooks
