// Package webhook is the wire format of an outgoing webhook (Standard
// Webhooks): the JSON envelope, the webhook-* headers, whsec_ secrets and
// their v1 HMAC-SHA256 signatures. It depends on nothing else in Ferry,
// so the dispatcher, pull queues and the SDK test-vector generator all
// produce the same bytes from it.
package webhook
