package httpapi

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/billing"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/insight"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/queue"
	"github.com/ferry-dev/ferry/delivery/replay"
	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/inbound"
	"github.com/ferry-dev/ferry/tenants"
)

// What the document says about types beyond what reflection sees: names
// of components, enum values (from the Go constants), and, per field, a
// description, a required flag for request bodies and the few fields a
// custom MarshalJSON never sends as null. The HTTP layer's own types say
// it in struct tags (description, format, enum, required:"true",
// nullable:"false"); domain types, which know nothing of HTTP, are
// described in domainFields. TestOpenAPIResponsesMatchGoTypes checks all of
// it against what encoding/json really produces.

// fieldSpec is what the document adds to one JSON field.
type fieldSpec struct {
	description string
	format      string
	enum        []any
	// required: a request body without the field is refused.
	required bool
	// nonNull: never encoded as null although its Go type can be nil.
	nonNull bool
}

// schemaName returns the component name of a struct type when it is not
// its Go name with the first letter upper-cased. The portal refers to
// components by name, so the names of delivery's types, which may move
// between its subpackages or be renamed there, are pinned here too.
func schemaName(t reflect.Type) string {
	switch t {
	case reflect.TypeFor[delivery.Endpoint]():
		return "Endpoint"
	case reflect.TypeFor[delivery.SecretInfo]():
		return "SecretInfo"
	case reflect.TypeFor[delivery.PreviousSecret]():
		return "PreviousSecret"
	case reflect.TypeFor[delivery.Event]():
		return "Event"
	case reflect.TypeFor[delivery.EventDetail]():
		return "EventDetail"
	case reflect.TypeFor[insight.StaffEventDetail]():
		return "StaffEventDetail"
	case reflect.TypeFor[delivery.Delivery]():
		return "Delivery"
	case reflect.TypeFor[model.Attempt]():
		return "Attempt"
	case reflect.TypeFor[replay.ReplayResult]():
		return "ReplayResult"
	case reflect.TypeFor[replay.ReplayJob]():
		return "ReplayJob"
	case reflect.TypeFor[replay.ReplayFilter]():
		return "ReplayFilter"
	case reflect.TypeFor[insight.EndpointRef]():
		return "EndpointRef"
	case reflect.TypeFor[replay.ReplayPreview]():
		return "ReplayPreview"
	case reflect.TypeFor[insight.EndpointCounts]():
		return "EndpointCounts"
	case reflect.TypeFor[insight.Backlog]():
		return "Backlog"
	case reflect.TypeFor[staffTenantHealth]():
		return "StaffTenantHealth"
	case reflect.TypeFor[meResponse]():
		return "Me"
	case reflect.TypeFor[apiKeyCreated]():
		return "APIKeyCreated"
	case reflect.TypeFor[apiKeyInput]():
		return "APIKeyInput"
	case reflect.TypeFor[tenants.User]():
		return "Member"
	case reflect.TypeFor[staffTenantView]():
		return "StaffTenant"
	case reflect.TypeFor[billing.Overview]():
		return "BillingOverview"
	case reflect.TypeFor[billing.Usage]():
		return "BillingUsage"
	case reflect.TypeFor[billing.Line]():
		return "InvoiceLine"
	case reflect.TypeFor[errorBody]():
		return "Error"
	case reflect.TypeFor[queue.Message]():
		return "QueueMessage"
	case reflect.TypeFor[queue.Stats]():
		return "QueueStats"
	case reflect.TypeFor[queue.ReceiptResult]():
		return "ReceiptResult"
	case reflect.TypeFor[queue.ConsumerToken]():
		return "ConsumerToken"
	case reflect.TypeFor[queue.PullInput]():
		return "PullInput"
	case reflect.TypeFor[queue.AckInput]():
		return "AckInput"
	case reflect.TypeFor[queue.NackInput]():
		return "NackInput"
	case reflect.TypeFor[queue.RejectInput]():
		return "RejectInput"
	case reflect.TypeFor[queue.TokenInput]():
		return "ConsumerTokenInput"
	case reflect.TypeFor[pulled]():
		return "QueuePull"
	case reflect.TypeFor[routing.Request]():
		return "RoutingTestRequest"
	case reflect.TypeFor[inbound.Request]():
		return "SourceRequest"
	case reflect.TypeFor[sourceRequestDetail]():
		return "SourceRequestDetail"
	case reflect.TypeFor[inbound.ReplayResult]():
		return "SourceReplayResult"
	case reflect.TypeFor[inbound.Verification]():
		return "SourceVerification"
	case reflect.TypeFor[inbound.VerificationInput]():
		return "SourceVerificationInput"
	case reflect.TypeFor[inbound.EventTypeRule]():
		return "SourceEventType"
	case reflect.TypeFor[inbound.EventTypeInput]():
		return "SourceEventTypeInput"
	case reflect.TypeFor[inbound.Response]():
		return "SourceResponse"
	case reflect.TypeFor[inbound.ResponseInput]():
		return "SourceResponseInput"
	case reflect.TypeFor[inbound.DedupeRule]():
		return "SourceDedupe"
	case reflect.TypeFor[inbound.DedupeInput]():
		return "SourceDedupeInput"
	case reflect.TypeFor[settled]():
		return "QueueSettled"
	}
	return ""
}

// enumOf returns the values of a Go enum type, or nil.
func enumOf(t reflect.Type) []any {
	switch t {
	case reflect.TypeFor[delivery.Kind]():
		return enum(delivery.KindHTTP, delivery.KindQueue)
	case reflect.TypeFor[delivery.Format]():
		return enum(delivery.FormatEnvelope, delivery.FormatRaw)
	case reflect.TypeFor[inbound.Scheme]():
		return enum(inbound.Schemes()...)
	case reflect.TypeFor[inbound.Encoding]():
		return enum(inbound.EncodingHex, inbound.EncodingBase64)
	case reflect.TypeFor[inbound.Status]():
		return enum(inbound.StatusReceived, inbound.StatusVerified, inbound.StatusRejected, inbound.StatusDuplicate, inbound.StatusRefused)
	case reflect.TypeFor[model.Status]():
		return enum(model.StatusPending, model.StatusRetrying, model.StatusSucceeded, model.StatusDropped, model.StatusExhausted)
	case reflect.TypeFor[model.Outcome]():
		return enum(model.OutcomeSuccess, model.OutcomeRetry, model.OutcomeDropped)
	case reflect.TypeFor[model.Trigger]():
		return enum(model.TriggerInitial, model.TriggerRetry, model.TriggerReplay)
	case reflect.TypeFor[tenants.Role]():
		return enum(tenants.RoleOwner, tenants.RoleAdmin, tenants.RoleViewer)
	case reflect.TypeFor[tenants.PrincipalKind]():
		return enum(tenants.KindUser, tenants.KindStaff, tenants.KindAPIKey)
	case reflect.TypeFor[tenants.Restriction]():
		return enum(tenants.RestrictPasswordChange, tenants.RestrictTOTPEnrolment)
	}
	return nil
}

func enum[S ~string](values ...S) []any {
	out := make([]any, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}

// errorCodes are the codes of the error body: those errorHandler maps to
// a status.
func errorCodes() []any {
	codes := make([]string, 0, len(statusByCode))
	for code := range statusByCode {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	return enum(codes...)
}

// domainFields describes fields of types that are not the HTTP layer's,
// by type and JSON name.
func domainFields() map[reflect.Type]map[string]fieldSpec {
	return map[reflect.Type]map[string]fieldSpec{
		reflect.TypeFor[errorDetail](): {
			"code":  {enum: errorCodes()},
			"field": {description: "the request field at fault, when one is"},
		},
		reflect.TypeFor[meResponse](): {
			"role": {enum: append(enum(tenants.RoleOwner, tenants.RoleAdmin, tenants.RoleViewer), "staff")},
		},
		reflect.TypeFor[tenants.SignupInput](): {
			"email":        {required: true, format: "email"},
			"password":     {required: true, description: "10 to 72 characters"},
			"organization": {required: true, description: "organisation name"},
		},
		reflect.TypeFor[tenants.MemberInput](): {
			"email": {required: true, format: "email"},
			"role":  {required: true},
		},
		reflect.TypeFor[tenants.MemberPatch](): {
			"role": {required: true},
		},
		reflect.TypeFor[tenants.APIKey](): {
			"prefix": {description: "visible prefix, e.g. fry_live_ab12cd"},
		},
		reflect.TypeFor[tenants.AuditEntry](): {
			"id":          {description: "opaque"},
			"tenant_name": {description: "the tenant's name now; empty without a tenant or once it is deleted"},
			"write":       {description: "the action changed something (replay, restriction lift); false for views"},
			"detail":      {description: "what the action was about (query, filters, ids)"},
		},
		reflect.TypeFor[delivery.EndpointInput](): {
			"url":                   {format: "uri", description: "required for kind http; none for kind queue"},
			"kind":                  {description: "http (default): Ferry pushes to url; queue: consumers pull"},
			"rate_limit_per_second": {description: "attempts per second at most; absent or null: unlimited"},
			"event_types":           {description: "event types, or patterns ending in * (order.*; * alone: every type); empty: every type"},
			"filter":                {description: "CEL expression over event (id, type, created_at, data) and request (method, path, headers, query of a source's captured request; empty otherwise); the endpoint gets an event only when it is true; empty: every event. Invalid: 422 with the compiler's message"},
			"format":                {description: "envelope (default): the JSON envelope; raw: the body an inbound source captured, with its content type (events from no source: their data)"},
			"transformation":        {description: transformationDoc},
		},
		reflect.TypeFor[delivery.EndpointPatch](): {
			"format":                {description: "envelope (default): the JSON envelope; raw: the body an inbound source captured, with its content type (events from no source: their data)"},
			"rate_limit_per_second": {description: "0 removes the limit"},
			"event_types":           {description: "event types, or patterns ending in * (order.*; * alone: every type); empty: every type"},
			"filter":                {description: "CEL expression over event (id, type, created_at, data) and request (method, path, headers, query of a source's captured request; empty otherwise); the endpoint gets an event only when it is true; empty: every event. Invalid: 422 with the compiler's message"},
			"transformation":        {description: transformationDoc},
		},
		reflect.TypeFor[delivery.Endpoint](): {
			"rate_limit_per_second": {description: "null: unlimited"},
			"url":                   {description: "empty for kind queue"},
			"event_types":           {description: "event types, or patterns ending in * (order.*; * alone: every type); empty: every type"},
			"filter":                {description: "CEL expression over event (id, type, created_at, data) and request (method, path, headers, query of a source's captured request; empty otherwise); the endpoint gets an event only when it is true; empty: every event. Invalid: 422 with the compiler's message"},
			"transformation":        {description: transformationDoc},
		},
		reflect.TypeFor[delivery.RoutingTestInput](): {
			"event":          {required: true, description: "a sample event"},
			"filter":         {description: "an unsaved filter to try instead of the endpoint's"},
			"transformation": {description: "an unsaved transformation to try instead of the endpoint's"},
			"request":        {description: "a sample captured request, as filters see request for events from sources (absent: empty)"},
		},
		reflect.TypeFor[routing.Request](): {
			"headers": {description: "lower-cased names; repeated headers joined by \", \""},
			"query":   {description: "first value of each parameter"},
		},
		reflect.TypeFor[inbound.SourceInput](): {
			"name":                  {required: true},
			"verification":          {required: true},
			"event_type":            {required: true},
			"response":              {description: "answer to accepted requests (default 200 {} application/json)"},
			"dedupe":                {description: "where a dedupe key is: resends with the same key within 24 h make no second event"},
			"rate_limit_per_second": {description: "accepted requests per second (1-10000, default 1000); more are answered 429 with Retry-After"},
		},
		reflect.TypeFor[inbound.SourcePatch](): {
			"enabled":      {description: "false: the ingest URL answers 404 until re-enabled"},
			"verification": {description: "replaces the scheme; an empty secret keeps the stored one when the type is unchanged"},
			"response":     {description: "null removes the custom response"},
			"dedupe":       {description: "null removes dedupe"},
		},
		reflect.TypeFor[inbound.VerificationInput](): {
			"type":     {required: true},
			"secret":   {description: "the provider's signing secret (whsec_… for standard_webhooks); not for basic_auth or none"},
			"header":   {description: "hmac_sha256: the signature header"},
			"encoding": {description: "hmac_sha256: hex (default) or base64"},
			"prefix":   {description: "hmac_sha256: text before the signature, e.g. sha256="},
			"username": {description: "basic_auth"},
			"password": {description: "basic_auth"},
		},
		reflect.TypeFor[inbound.EventTypeInput](): {
			"value":     {description: "a fixed event type"},
			"header":    {description: "take the type from this request header"},
			"json_path": {description: "take the type from this dotted path in the JSON body (numbers index arrays)"},
			"default":   {description: "the type when the header or path gives none (default: unknown)"},
		},
		reflect.TypeFor[inbound.Source](): {
			"ingest_url":        {description: "where the provider sends: <public url>/in/<token>; the token is [redacted] for viewers"},
			"rejected_unstored": {description: "rejected requests over the per-minute cap, answered 401 but not stored"},
			"response":          {description: "null: 200 {} application/json"},
			"dedupe":            {description: "null: no dedupe"},
		},
		reflect.TypeFor[inbound.Request](): {
			"path":       {description: "the request path with the ingest token written {token}"},
			"query":      {description: "the raw query string"},
			"reason":     {description: "why the request was rejected or is a duplicate"},
			"dedupe_key": {description: "the request's dedupe key, when the source dedupes"},
			"event_id":   {description: "the event the request became"},
		},
		reflect.TypeFor[inbound.RequestDetail](): {
			"headers":     {description: "as received, names canonicalised; credentials redacted for viewers"},
			"body_base64": {description: "the exact body"},
			"body_text":   {description: "the body as text when it is valid UTF-8"},
		},
		reflect.TypeFor[delivery.RoutingTestEvent](): {
			"type":       {required: true, description: "event type, e.g. order.created"},
			"data":       {required: true, description: "the event's JSON payload"},
			"id":         {description: "default: a fresh id", format: "uuid"},
			"created_at": {description: "default: now", format: "date-time"},
		},
		reflect.TypeFor[delivery.RoutingTestResult](): {
			"matched":      {description: "the event type matches and the filter accepts the event"},
			"filter_error": {description: "the filter's compile or evaluation error (counts as not matched)"},
			"payload":      {description: "the body the endpoint would receive, after its transformation; null when cancelled or failed"},
			"headers":      {description: "the custom headers sent with it (the endpoint's, as its transformation left them); Ferry's webhook-* headers come on top"},
			"cancelled":    {description: "the transformation cancelled the delivery: nothing would be sent"},
			"error":        {description: "why the transformation failed (the delivery would be dropped with error class transformation_error)"},
		},
		reflect.TypeFor[delivery.SecretInfo](): {
			"secret":   {description: "current whsec_ secret"},
			"previous": {description: "rotated-out secrets still signing until they expire"},
		},
		reflect.TypeFor[delivery.EventInput](): {
			"type":            {required: true, description: "event type, e.g. invoice.paid"},
			"data":            {required: true, description: "any JSON value but null (payload up to " + ferry.FormatBytes(delivery.MaxPayloadBytes) + ")"},
			"idempotency_key": {description: "same key within 24 h returns the original event (or send Idempotency-Key)"},
		},
		reflect.TypeFor[delivery.Event](): {
			"data": {description: "the JSON payload"},
		},
		reflect.TypeFor[model.Attempt](): {
			"request_headers": {nonNull: true, description: "headers sent, custom values redacted for staff"},
			"response_body":   {description: "first 4 KiB"},
			"actor":           {description: "who replayed, for replay attempts"},
			"error_class":     {description: "why no usable answer came: timeout, dns, connection_refused, connection_reset, tls, blocked_address, connection, response_too_large (retried); transformation_error, transformation_cancelled (no request made, dropped); for queue endpoints timeout (lease ran out), nack, rejected; empty when the receiver answered"},
		},
		reflect.TypeFor[replay.ReplayJob](): {
			"state": {enum: enum(replay.ReplayQueued, replay.ReplayRunning, replay.ReplayCompleted, replay.ReplayCancelled, replay.ReplayFailed)},
			"total": {description: "matching deliveries"},
			"done":  {description: "re-queued so far"},
			"error": {description: "why a failed job failed"},
		},
		reflect.TypeFor[replay.ReplayPreview](): {
			"matched": {description: "deliveries the filter selects now (to enabled endpoints)"},
			"until":   {description: "end of the range counted: the filter's until, or now"},
		},
		reflect.TypeFor[insight.EndpointCounts](): {
			"failing": {description: "enabled endpoints whose attempts all fail since failing_since"},
		},
		reflect.TypeFor[replay.ReplayFilter](): {
			"status":     {description: "delivery status; empty: any"},
			"event_type": {description: "empty: any"},
		},
		reflect.TypeFor[queue.PullInput](): {
			"max":                {description: "1-100, default 1"},
			"wait_seconds":       {description: "long-poll up to this long when empty (0-30, default 0)"},
			"visibility_seconds": {description: "lease length (1-43200, default 30)"},
		},
		reflect.TypeFor[queue.AckInput](): {
			"receipts": {required: true},
		},
		reflect.TypeFor[queue.NackInput](): {
			"receipts":      {required: true},
			"delay_seconds": {description: "back in the queue after this long (0-43200); absent: the retry schedule"},
		},
		reflect.TypeFor[queue.RejectInput](): {
			"receipts": {required: true},
			"reason":   {description: "kept on the attempt"},
		},
		reflect.TypeFor[queue.TokenInput](): {
			"name": {required: true},
		},
		reflect.TypeFor[queue.ReceiptResult](): {
			"status": {enum: enum(queue.ReceiptAcked, queue.ReceiptNacked, queue.ReceiptRejected, queue.ReceiptExpired)},
		},
		reflect.TypeFor[queue.Message](): {
			"body":    {description: "the envelope exactly as a push sends it"},
			"headers": {description: "the webhook headers a push sends, signature over body included"},
		},
		reflect.TypeFor[billing.Invoice](): {
			"status": {enum: enum(billing.InvoiceOpen, billing.InvoicePaid, billing.InvoicePaymentFailed)},
		},
		reflect.TypeFor[billing.Line](): {
			"kind": {enum: enum("base_fee", "overage")},
		},
		reflect.TypeFor[billing.Usage](): {
			"period": {description: "YYYY-MM"},
		},
		reflect.TypeFor[billing.Plan](): {
			"base_fee_minor":      {description: "monthly fee in minor units (cents)"},
			"overage_price_minor": {description: "price per overage unit in minor units"},
		},
	}
}

// fieldSpecOf reads a field's struct tags and its entry in domain (from
// domainFields).
func fieldSpecOf(domain map[reflect.Type]map[string]fieldSpec, f jsonField) (fieldSpec, error) {
	spec := domain[f.owner][f.name]
	if d, ok := f.tag.Lookup("description"); ok {
		spec.description = d
	}
	if v, ok := f.tag.Lookup("format"); ok {
		spec.format = v
	}
	if v, ok := f.tag.Lookup("enum"); ok {
		spec.enum = enum(strings.Split(v, ",")...)
	}
	if v, ok := f.tag.Lookup("required"); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return spec, fmt.Errorf("required tag %q: %w", v, err)
		}
		spec.required = b
	}
	if v, ok := f.tag.Lookup("nullable"); ok {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return spec, fmt.Errorf("nullable tag %q: %w", v, err)
		}
		spec.nonNull = !b
	}
	return spec, nil
}

// transformationDoc describes an endpoint's transformation field.
const transformationDoc = "JavaScript defining function handler(webhook) { ... return webhook }, run once per delivery at fan-out " +
	"(50 ms, bounded memory, no network or timers); webhook is {event: {id, type, created_at, data}, payload, headers, cancel}: " +
	"it may change payload (any JSON value) and headers (not webhook-*, hop-by-hop or Content-Length/Type) or set cancel. " +
	"The result is stored: retries and replays send the same bytes. Empty: none. http endpoints only. " +
	"Invalid: 422 with the engine's message, line and column"
