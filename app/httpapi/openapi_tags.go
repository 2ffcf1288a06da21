package httpapi

import "github.com/ferry-dev/ferry/app/httpapi/openapi"

// publicTags are the tenant API document's tags, one per resource, in
// the order its reference reads best.
func publicTags() []openapi.Tag {
	return []openapi.Tag{
		{Name: "events", Description: "Events you send: Ferry stores each durably, fans it out to the matching endpoints and delivers it, signed, with retries for up to 72 hours."},
		{Name: "endpoints", Description: "Where events go: a URL Ferry pushes to (kind http) or a pull queue (kind queue), with event types, a filter, a transformation, a rate limit and a signing secret."},
		{Name: "replays", Description: "Sending events again: one event, one delivery, or in bulk every delivery a filter selects."},
		{Name: "customers", Description: "Your own customers: endpoints and events can belong to one, and a customer portal session shows a customer their own."},
		{Name: "portal", Description: "The embeddable customer portal: sessions you mint for a customer's user, the origins that may frame it, its theme and its audit."},
		{Name: "stats", Description: "Delivery counts, latency percentiles, errors and backlog over a window."},
		{Name: "queues", Description: "Pull queues: endpoints of kind queue that your workers pull from (or stream) and settle, with consumer tokens scoped to one queue."},
		{Name: "sources", Description: "Inbound sources: ingest URLs that take a provider's webhooks, verify them and turn each into an event."},
		{Name: "event-types", Description: "The event-type catalog: names, JSON Schemas (versioned) and examples; ingest can check events against the latest schema."},
		{Name: "meta", Description: "This document."},
		{Name: "webhooks", Description: "What your endpoints receive: the envelope, its signature headers, and Ferry's operational events (ferry.*)."},
	}
}

// internalTags are the internal document's tags.
func internalTags() []openapi.Tag {
	return []openapi.Tag{
		{Name: "auth", Description: "Signing up, in and out of the portal; the signed-in member's password, address, authenticator and mail preferences."},
		{Name: "api-keys", Description: "The tenant's API keys, managed from the portal."},
		{Name: "members", Description: "The organisation's members and their roles."},
		{Name: "billing", Description: "The tenant's plan, usage and invoices."},
		{Name: "customer portal", Description: "The routes the embedded customer portal calls with its session token."},
		{Name: "staff", Description: "The support staff console: every tenant, audited."},
		{Name: "meta", Description: "This document."},
	}
}
