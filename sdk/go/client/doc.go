// Package client is Ferry's sender SDK for Go: a tenant's backend uses it
// to send events and manage endpoints, replays, customers, portal
// sessions, event types and sources through Ferry's API.
//
// The package is a small hand-written layer over ferryapi, the client
// oapi-codegen generates from Ferry's OpenAPI document
// (scripts/sendersdk.sh regenerates it). The layer adds what every caller
// would otherwise write again:
//
//   - retries: a 429 is retried after its Retry-After (the request was
//     refused, nothing was written); a 503 and network errors are retried
//     with jittered exponential backoff when the request is safe to
//     repeat (GET, PUT, DELETE, or a POST carrying an Idempotency-Key),
//     within RetryPolicy's attempts and total time;
//   - idempotency keys: every creating POST gets a random Idempotency-Key
//     unless the caller gives one, and its retries reuse it, so a retried
//     Events.Create makes one event;
//   - pagination: List returns one page, All iterates over every item,
//     following next_cursor;
//   - errors: an answer other than 2xx is an *Error carrying Ferry's code,
//     message, field and the X-Request-Id to quote to support.
//
// Every operation of the document is also reachable through Client.API,
// the generated client, which shares the same retrying transport.
//
// This module needs Go 1.24 (the generated code's runtime does); the
// receiver SDK, github.com/ferry-dev/ferry/sdk/go, stays dependency-free
// on Go 1.22 and is a separate module.
package client
