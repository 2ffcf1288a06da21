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
// The module uses only the standard library and builds with Go 1.22.
// Stores that need a database live in modules of their own:
// github.com/ferry-dev/ferry/sdk/go/pgstore (PostgreSQL through
// database/sql) and github.com/ferry-dev/ferry/sdk/go/redisstore
// (go-redis); the Fiber adapter is github.com/ferry-dev/ferry/sdk/go/fiberferry.
package ferrywebhooks
