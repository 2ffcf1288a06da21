// Package inbound receives webhooks from providers (Stripe, GitHub,
// Shopify, Slack, any Standard Webhooks sender, or a generic HMAC or
// basic-auth sender) on a public ingest URL per source: it verifies each
// request with the source's scheme, captures the raw request exactly and
// durably before answering, and turns each verified capture into an event
// of the tenant, which delivery then routes like any other event
// (docs/contract.md#inbound-sources).
//
// inbound owns the tables sources, source_requests,
// source_requests_pending and source_dedupe. It
// asks delivery for what it needs through Events (ingest inside inbound's
// transaction, so an event and its capture commit together), billing for
// retention through Retention, and seals secrets with a Sealer (delivery's
// Cipher); app plugs them in.
//
// Ingest tokens are 256 random bits. Requests find their source by the
// token's SHA-256; the token itself is stored only sealed, so the portal
// can show the ingest URL again while a database read alone does not
// reveal it (the same protection as endpoint signing secrets).
package inbound
