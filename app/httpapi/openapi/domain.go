package openapi

import (
	"reflect"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/billing"
	"github.com/ferry-dev/ferry/customers"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/insight"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/queue"
	"github.com/ferry-dev/ferry/delivery/replay"
	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/inbound"
	"github.com/ferry-dev/ferry/portal"
	"github.com/ferry-dev/ferry/tenants"
)

// What the document says about the domain types the API decodes and
// encodes: component names, enum values (from the Go constants) and
// field descriptions. The domain packages know nothing of HTTP, so it is
// said here; TestOpenAPIResponsesMatchGoTypes (package httpapi) checks
// it against what encoding/json really produces.

// domainNames are the component names of domain struct types. The portal
// refers to components by name, so the names of delivery's types, which
// may move between its subpackages or be renamed there, are pinned here
// even where they equal the Go name.
func domainNames() map[reflect.Type]string {
	return map[reflect.Type]string{
		reflect.TypeFor[delivery.Endpoint]():         "Endpoint",
		reflect.TypeFor[delivery.SecretInfo]():       "SecretInfo",
		reflect.TypeFor[delivery.PreviousSecret]():   "PreviousSecret",
		reflect.TypeFor[delivery.Event]():            "Event",
		reflect.TypeFor[delivery.EventDetail]():      "EventDetail",
		reflect.TypeFor[insight.StaffEventDetail]():  "StaffEventDetail",
		reflect.TypeFor[delivery.Delivery]():         "Delivery",
		reflect.TypeFor[model.Attempt]():             "Attempt",
		reflect.TypeFor[replay.ReplayResult]():       "ReplayResult",
		reflect.TypeFor[replay.ReplayJob]():          "ReplayJob",
		reflect.TypeFor[replay.ReplayFilter]():       "ReplayFilter",
		reflect.TypeFor[insight.EndpointRef]():       "EndpointRef",
		reflect.TypeFor[replay.ReplayPreview]():      "ReplayPreview",
		reflect.TypeFor[insight.EndpointCounts]():    "EndpointCounts",
		reflect.TypeFor[insight.Backlog]():           "Backlog",
		reflect.TypeFor[tenants.User]():              "Member",
		reflect.TypeFor[billing.Overview]():          "BillingOverview",
		reflect.TypeFor[billing.Usage]():             "BillingUsage",
		reflect.TypeFor[billing.Line]():              "InvoiceLine",
		reflect.TypeFor[queue.Message]():             "QueueMessage",
		reflect.TypeFor[customers.Input]():           "CustomerCreate",
		reflect.TypeFor[customers.Patch]():           "CustomerPatch",
		reflect.TypeFor[portal.SessionInput]():       "PortalSessionInput",
		reflect.TypeFor[portal.Minted]():             "PortalSessionMinted",
		reflect.TypeFor[portal.Session]():            "PortalSession",
		reflect.TypeFor[portal.Settings]():           "PortalSettings",
		reflect.TypeFor[portal.Theme]():              "PortalTheme",
		reflect.TypeFor[portal.Token]():              "PortalToken",
		reflect.TypeFor[portal.Exchanged]():          "PortalExchanged",
		reflect.TypeFor[portal.AuditEntry]():         "PortalAuditEntry",
		reflect.TypeFor[portal.ExternalUser]():       "PortalExternalUser",
		reflect.TypeFor[portal.CustomerRef]():        "PortalCustomer",
		reflect.TypeFor[portal.ThemeInput]():         "PortalThemeInput",
		reflect.TypeFor[portal.ExternalUserInput]():  "PortalExternalUserInput",
		reflect.TypeFor[portal.SettingsInput]():      "PortalSettingsInput",
		reflect.TypeFor[queue.Stats]():               "QueueStats",
		reflect.TypeFor[queue.ReceiptResult]():       "ReceiptResult",
		reflect.TypeFor[queue.ConsumerToken]():       "ConsumerToken",
		reflect.TypeFor[queue.PullInput]():           "PullInput",
		reflect.TypeFor[queue.AckInput]():            "AckInput",
		reflect.TypeFor[queue.NackInput]():           "NackInput",
		reflect.TypeFor[queue.RejectInput]():         "RejectInput",
		reflect.TypeFor[queue.TokenInput]():          "ConsumerTokenInput",
		reflect.TypeFor[routing.Request]():           "RoutingTestRequest",
		reflect.TypeFor[inbound.Request]():           "SourceRequest",
		reflect.TypeFor[inbound.ReplayResult]():      "SourceReplayResult",
		reflect.TypeFor[inbound.Verification]():      "SourceVerification",
		reflect.TypeFor[inbound.VerificationInput](): "SourceVerificationInput",
		reflect.TypeFor[inbound.EventTypeRule]():     "SourceEventType",
		reflect.TypeFor[inbound.EventTypeInput]():    "SourceEventTypeInput",
		reflect.TypeFor[inbound.Response]():          "SourceResponse",
		reflect.TypeFor[inbound.ResponseInput]():     "SourceResponseInput",
		reflect.TypeFor[inbound.DedupeRule]():        "SourceDedupe",
		reflect.TypeFor[inbound.DedupeInput]():       "SourceDedupeInput",
	}
}

// EnumOf returns the values of a domain enum type (the Go constants of
// its type), or nil for any other type.
func EnumOf(t reflect.Type) []any {
	switch t {
	case reflect.TypeFor[delivery.Kind]():
		return Enum(delivery.KindHTTP, delivery.KindQueue)
	case reflect.TypeFor[delivery.Format]():
		return Enum(delivery.FormatEnvelope, delivery.FormatRaw)
	case reflect.TypeFor[inbound.Scheme]():
		return Enum(inbound.Schemes()...)
	case reflect.TypeFor[inbound.Encoding]():
		return Enum(inbound.EncodingHex, inbound.EncodingBase64)
	case reflect.TypeFor[inbound.Status]():
		return Enum(inbound.StatusReceived, inbound.StatusVerified, inbound.StatusRejected, inbound.StatusDuplicate, inbound.StatusRefused)
	case reflect.TypeFor[model.Status]():
		return Enum(model.StatusPending, model.StatusRetrying, model.StatusSucceeded, model.StatusDropped, model.StatusExhausted)
	case reflect.TypeFor[model.Outcome]():
		return Enum(model.OutcomeSuccess, model.OutcomeRetry, model.OutcomeDropped)
	case reflect.TypeFor[model.Trigger]():
		return Enum(model.TriggerInitial, model.TriggerRetry, model.TriggerReplay)
	case reflect.TypeFor[tenants.Role]():
		return Enum(tenants.RoleOwner, tenants.RoleAdmin, tenants.RoleViewer)
	case reflect.TypeFor[tenants.PrincipalKind]():
		return Enum(tenants.KindUser, tenants.KindStaff, tenants.KindAPIKey)
	case reflect.TypeFor[tenants.Restriction]():
		return Enum(tenants.RestrictPasswordChange, tenants.RestrictTOTPEnrolment)
	}
	return nil
}

// domainFields describes fields of domain types, which know nothing of
// HTTP, by type and JSON name.
func domainFields() map[reflect.Type]map[string]FieldSpec {
	return map[reflect.Type]map[string]FieldSpec{
		reflect.TypeFor[tenants.SignupInput](): {
			"email":        {Required: true, Format: "email"},
			"password":     {Required: true, Description: "10 to 72 characters"},
			"organization": {Required: true, Description: "organisation name"},
		},
		reflect.TypeFor[tenants.MemberInput](): {
			"email": {Required: true, Format: "email"},
			"role":  {Required: true},
		},
		reflect.TypeFor[tenants.MemberPatch](): {
			"role": {Required: true},
		},
		reflect.TypeFor[tenants.APIKey](): {
			"prefix": {Description: "visible prefix, e.g. fry_live_ab12cd"},
		},
		reflect.TypeFor[tenants.AuditEntry](): {
			"id":          {Description: "opaque"},
			"tenant_name": {Description: "the tenant's name now; empty without a tenant or once it is deleted"},
			"write":       {Description: "the action changed something (replay, restriction lift); false for views"},
			"detail":      {Description: "what the action was about (query, filters, ids)"},
		},
		reflect.TypeFor[delivery.EndpointInput](): {
			"url":                   {Format: "uri", Description: "required for kind http; none for kind queue"},
			"kind":                  {Description: "http (default): Ferry pushes to url; queue: consumers pull"},
			"rate_limit_per_second": {Description: "attempts per second at most; absent or null: unlimited"},
			"event_types":           {Description: "event types, or patterns ending in * (order.*; * alone: every type); empty: every type"},
			"filter":                {Description: "CEL expression over event (id, type, created_at, data) and request (method, path, headers, query of a source's captured request; empty otherwise); the endpoint gets an event only when it is true; empty: every event. Invalid: 422 with the compiler's message"},
			"format":                {Description: "envelope (default): the JSON envelope; raw: the body an inbound source captured, with its content type (events from no source: their data)"},
			"transformation":        {Description: transformationDoc},
		},
		reflect.TypeFor[delivery.EndpointPatch](): {
			"format":                {Description: "envelope (default): the JSON envelope; raw: the body an inbound source captured, with its content type (events from no source: their data)"},
			"rate_limit_per_second": {Description: "0 removes the limit"},
			"event_types":           {Description: "event types, or patterns ending in * (order.*; * alone: every type); empty: every type"},
			"filter":                {Description: "CEL expression over event (id, type, created_at, data) and request (method, path, headers, query of a source's captured request; empty otherwise); the endpoint gets an event only when it is true; empty: every event. Invalid: 422 with the compiler's message"},
			"transformation":        {Description: transformationDoc},
		},
		reflect.TypeFor[delivery.Endpoint](): {
			"rate_limit_per_second": {Description: "null: unlimited"},
			"url":                   {Description: "empty for kind queue"},
			"event_types":           {Description: "event types, or patterns ending in * (order.*; * alone: every type); empty: every type"},
			"filter":                {Description: "CEL expression over event (id, type, created_at, data) and request (method, path, headers, query of a source's captured request; empty otherwise); the endpoint gets an event only when it is true; empty: every event. Invalid: 422 with the compiler's message"},
			"transformation":        {Description: transformationDoc},
		},
		reflect.TypeFor[delivery.RoutingTestInput](): {
			"event":          {Required: true, Description: "a sample event"},
			"filter":         {Description: "an unsaved filter to try instead of the endpoint's"},
			"transformation": {Description: "an unsaved transformation to try instead of the endpoint's"},
			"request":        {Description: "a sample captured request, as filters see request for events from sources (absent: empty)"},
		},
		reflect.TypeFor[routing.Request](): {
			"method":  {Description: "the HTTP method, e.g. POST"},
			"path":    {Description: "the request path, e.g. /in/{token}"},
			"headers": {Description: "lower-cased names; repeated headers joined by \", \""},
			"query":   {Description: "first value of each parameter"},
		},
		reflect.TypeFor[inbound.SourceInput](): {
			"name":                  {Required: true},
			"verification":          {Required: true},
			"event_type":            {Required: true},
			"response":              {Description: "answer to accepted requests (default 200 {} application/json)"},
			"dedupe":                {Description: "where a dedupe key is: resends with the same key within 24 h make no second event"},
			"rate_limit_per_second": {Description: "accepted requests per second (1-10000, default 1000); more are answered 429 with Retry-After"},
		},
		reflect.TypeFor[inbound.SourcePatch](): {
			"enabled":      {Description: "false: the ingest URL answers 404 until re-enabled"},
			"verification": {Description: "replaces the scheme; an empty secret keeps the stored one when the type is unchanged"},
			"response":     {Description: "null removes the custom response"},
			"dedupe":       {Description: "null removes dedupe"},
		},
		reflect.TypeFor[inbound.VerificationInput](): {
			"type":     {Required: true},
			"secret":   {Description: "the provider's signing secret (whsec_… for standard_webhooks); not for basic_auth or none"},
			"header":   {Description: "hmac_sha256: the signature header"},
			"encoding": {Description: "hmac_sha256: hex (default) or base64"},
			"prefix":   {Description: "hmac_sha256: text before the signature, e.g. sha256="},
			"username": {Description: "basic_auth"},
			"password": {Description: "basic_auth"},
		},
		reflect.TypeFor[inbound.EventTypeInput](): {
			"value":     {Description: "a fixed event type"},
			"header":    {Description: "take the type from this request header"},
			"json_path": {Description: "take the type from this dotted path in the JSON body (numbers index arrays)"},
			"default":   {Description: "the type when the header or path gives none (default: unknown)"},
		},
		reflect.TypeFor[inbound.Source](): {
			"ingest_url":        {Description: "where the provider sends: <public url>/in/<token>; the token is [redacted] for viewers"},
			"rejected_unstored": {Description: "rejected requests over the per-minute cap, answered 401 but not stored"},
			"response":          {Description: "null: 200 {} application/json"},
			"dedupe":            {Description: "null: no dedupe"},
		},
		reflect.TypeFor[inbound.Request](): {
			"path":       {Description: "the request path with the ingest token written {token}"},
			"query":      {Description: "the raw query string"},
			"reason":     {Description: "why the request was rejected or is a duplicate"},
			"dedupe_key": {Description: "the request's dedupe key, when the source dedupes"},
			"event_id":   {Description: "the event the request became"},
		},
		reflect.TypeFor[inbound.RequestDetail](): {
			"headers":     {Description: "as received, names canonicalised; credentials redacted for viewers"},
			"body_base64": {Description: "the exact body"},
			"body_text":   {Description: "the body as text when it is valid UTF-8"},
		},
		reflect.TypeFor[delivery.RoutingTestEvent](): {
			"type":       {Required: true, Description: "event type, e.g. order.created"},
			"data":       {Required: true, Description: "the event's JSON payload"},
			"id":         {Description: "default: a fresh id", Format: "uuid"},
			"created_at": {Description: "default: now", Format: "date-time"},
		},
		reflect.TypeFor[delivery.RoutingTestResult](): {
			"matched":      {Description: "the event type matches and the filter accepts the event"},
			"filter_error": {Description: "the filter's compile or evaluation error (counts as not matched)"},
			"payload":      {Description: "the body the endpoint would receive, after its transformation; null when cancelled or failed"},
			"headers":      {Description: "the custom headers sent with it (the endpoint's, as its transformation left them); Ferry's webhook-* headers come on top"},
			"cancelled":    {Description: "the transformation cancelled the delivery: nothing would be sent"},
			"error":        {Description: "why the transformation failed (the delivery would be dropped with error class transformation_error)"},
		},
		reflect.TypeFor[delivery.SecretInfo](): {
			"secret":   {Description: "current whsec_ secret"},
			"previous": {Description: "rotated-out secrets still signing until they expire"},
		},
		reflect.TypeFor[delivery.EventInput](): {
			"type":            {Required: true, Description: "event type, e.g. invoice.paid"},
			"data":            {Required: true, Description: "any JSON value but null (payload up to " + ferry.FormatBytes(delivery.MaxPayloadBytes) + ")"},
			"idempotency_key": {Description: "same key within 24 h returns the original event (or send Idempotency-Key)"},
		},
		reflect.TypeFor[delivery.Event](): {
			"data": {Description: "the JSON payload"},
		},
		reflect.TypeFor[model.Attempt](): {
			"id":               {Description: "the attempt's id"},
			"delivery_id":      {Description: "the delivery attempted"},
			"event_id":         {Description: "the event delivered"},
			"endpoint_id":      {Description: "the endpoint attempted"},
			"attempt_number":   {Description: "1 for the first attempt, counting on across retries and replays"},
			"trigger":          {Description: "initial, retry or replay"},
			"started_at":       {Description: "when the request was sent"},
			"duration_ms":      {Description: "how long until the answer (or the error), in ms"},
			"response_status":  {Description: "the HTTP status answered; null when no answer came"},
			"response_headers": {Description: "the headers answered; null when no answer came"},
			"error_message":    {Description: "the error in words, when no usable answer came"},
			"outcome":          {Description: "success (2xx), retry (scheduled again) or dropped (not retried)"},
			"next_attempt_at":  {Description: "when the retry this attempt scheduled is due; null when none"},
			"request_headers":  {NonNull: true, Description: "headers sent, custom values redacted for staff"},
			// Its Go comment names the Go field.
			"response_body_truncated": {Description: "response_body is not the whole body: only the first 4 KiB are kept, and a body still arriving at the timeout is cut there"},
			"response_body":           {Description: "first 4 KiB"},
			"actor":                   {Description: "who replayed, for replay attempts"},
			"error_class":             {Description: "why no usable answer came: timeout, dns, connection_refused, connection_reset, tls, blocked_address, connection, response_too_large (retried); transformation_error, transformation_cancelled (no request made, dropped); for queue endpoints timeout (lease ran out), nack, rejected; empty when the receiver answered"},
		},
		// The data of operational events (delivery/model), the webhooks
		// section's schemas.
		reflect.TypeFor[model.EndpointHealthData](): {
			"endpoint_id":   {Description: "the endpoint the event is about"},
			"url":           {Description: "its URL"},
			"failing_since": {Description: "since when every attempt to it has failed"},
			"reason":        {Description: "why it is failing or was disabled, e.g. the last status"},
			"recovered_at":  {Description: "when it answered 2xx again (ferry.endpoint.recovered only)"},
		},
		reflect.TypeFor[model.DeliveryExhaustedData](): {
			"delivery_id":     {Description: "the delivery that ran out of retries"},
			"event_id":        {Description: "its event"},
			"event_type":      {Description: "its event's type"},
			"endpoint_id":     {Description: "the endpoint it was for"},
			"attempt_count":   {Description: "attempts made"},
			"last_attempt_at": {Description: "when the last attempt started"},
		},
		reflect.TypeFor[model.QuotaWarningData](): {
			"used":  {Description: "events accepted this month so far"},
			"limit": {Description: "events the plan includes per month"},
		},
		reflect.TypeFor[model.CustomerEndpointData](): {
			"customer":    {Description: "the customer's uid"},
			"endpoint_id": {Description: "the endpoint the user acted on"},
			"url":         {Description: "its URL (empty for a queue)"},
		},
		reflect.TypeFor[model.CustomerUser](): {
			"id":    {Description: "the tenant's id for the user"},
			"email": {Description: "the user's email, when the tenant gave one"},
		},
		reflect.TypeFor[replay.ReplayJob](): {
			"state": {Enum: Enum(replay.ReplayQueued, replay.ReplayRunning, replay.ReplayCompleted, replay.ReplayCancelled, replay.ReplayFailed)},
			"total": {Description: "matching deliveries"},
			"done":  {Description: "re-queued so far"},
			"error": {Description: "why a failed job failed"},
		},
		reflect.TypeFor[replay.ReplayPreview](): {
			"matched": {Description: "deliveries the filter selects now (to enabled endpoints)"},
			"until":   {Description: "end of the range counted: the filter's until, or now"},
		},
		reflect.TypeFor[insight.EndpointCounts](): {
			"failing": {Description: "enabled endpoints whose attempts all fail since failing_since"},
		},
		reflect.TypeFor[replay.ReplayFilter](): {
			"status":     {Description: "delivery status; empty: any"},
			"event_type": {Description: "empty: any"},
		},
		reflect.TypeFor[queue.PullInput](): {
			"max":                {Description: "1-100, default 1"},
			"wait_seconds":       {Description: "long-poll up to this long when empty (0-30, default 0)"},
			"visibility_seconds": {Description: "lease length (1-43200, default 30)"},
		},
		reflect.TypeFor[queue.AckInput](): {
			"receipts": {Required: true},
		},
		reflect.TypeFor[queue.NackInput](): {
			"receipts":      {Required: true},
			"delay_seconds": {Description: "back in the queue after this long (0-43200); absent: the retry schedule"},
		},
		reflect.TypeFor[queue.RejectInput](): {
			"receipts": {Required: true},
			"reason":   {Description: "kept on the attempt"},
		},
		reflect.TypeFor[queue.TokenInput](): {
			"name": {Required: true},
		},
		reflect.TypeFor[queue.ReceiptResult](): {
			"status": {Enum: Enum(queue.ReceiptAcked, queue.ReceiptNacked, queue.ReceiptRejected, queue.ReceiptExpired)},
		},
		reflect.TypeFor[queue.Message](): {
			"body":    {Description: "the envelope exactly as a push sends it"},
			"headers": {Description: "the webhook headers a push sends, signature over body included"},
		},
		reflect.TypeFor[billing.Invoice](): {
			"status": {Enum: Enum(billing.InvoiceOpen, billing.InvoicePaid, billing.InvoicePaymentFailed)},
		},
		reflect.TypeFor[billing.Line](): {
			"kind": {Enum: Enum("base_fee", "overage")},
		},
		reflect.TypeFor[billing.Usage](): {
			"period": {Description: "YYYY-MM"},
		},
		reflect.TypeFor[billing.Plan](): {
			"base_fee_minor":      {Description: "monthly fee in minor units (cents)"},
			"overage_price_minor": {Description: "price per overage unit in minor units"},
		},
	}
}

// transformationDoc describes an endpoint's transformation field.
const transformationDoc = "JavaScript defining function handler(webhook) { ... return webhook }, run once per delivery at fan-out " +
	"(50 ms, bounded memory, no network or timers); webhook is {event: {id, type, created_at, data}, payload, headers, cancel}: " +
	"it may change payload (any JSON value) and headers (not webhook-*, hop-by-hop or Content-Length/Type) or set cancel. " +
	"The result is stored: retries and replays send the same bytes. Empty: none. http endpoints only. " +
	"Invalid: 422 with the engine's message, line and column"
