package httpapi

import (
	"encoding/json"
	"strings"

	"github.com/gofiber/fiber/v2"
)

// The OpenAPI 3 document served at /api/v1/openapi.json. It is Go data so
// that it is built with the router it describes; a test parses it as
// OpenAPI 3 and fails when a registered route is missing from it.

type obj = map[string]any

func ref(name string) obj { return obj{"$ref": "#/components/schemas/" + name} }

func str(desc string) obj { return obj{"type": "string", "description": desc} }

func strFmt(format string) obj { return obj{"type": "string", "format": format} }

func integer(desc string) obj { return obj{"type": "integer", "description": desc} }

func boolean(desc string) obj { return obj{"type": "boolean", "description": desc} }

func arrayOf(items obj) obj { return obj{"type": "array", "items": items} }

func object(required []string, props obj) obj {
	o := obj{"type": "object", "properties": props}
	if len(required) > 0 {
		o["required"] = required
	}
	return o
}

func listOf(item string) obj {
	return object([]string{"data", "next_cursor"}, obj{
		"data":        arrayOf(ref(item)),
		"next_cursor": obj{"type": "string", "nullable": true, "description": "pass as cursor for the next page; null on the last"},
	})
}

func jsonContent(schema obj) obj { return obj{"application/json": obj{"schema": schema}} }

// op describes one operation.
type op struct {
	summary  string
	tag      string
	auth     string // "", "session", "key", "staff"
	body     obj
	status   string
	response obj // nil: no body
	params   []obj
	errors   []string
}

func queryParam(name, desc string, schema obj) obj {
	return obj{"name": name, "in": "query", "required": false, "description": desc, "schema": schema}
}

var pageParams = []obj{
	queryParam("limit", "page size (1-200, default 50)", obj{"type": "integer", "minimum": 1, "maximum": 200}),
	queryParam("cursor", "next_cursor of the previous page", obj{"type": "string"}),
}

func (o op) build(path string) obj {
	out := obj{"summary": o.summary, "tags": []string{o.tag}, "operationId": operationID(o.summary)}
	switch o.auth {
	case "session":
		out["security"] = []obj{{"session": []string{}}}
	case "key":
		out["security"] = []obj{{"apiKey": []string{}}, {"session": []string{}}}
	case "staff":
		out["security"] = []obj{{"session": []string{}}}
	default:
		out["security"] = []obj{}
	}
	var params []obj
	for _, name := range pathParams(path) {
		params = append(params, obj{"name": name, "in": "path", "required": true, "schema": strFmt("uuid")})
	}
	params = append(params, o.params...)
	if len(params) > 0 {
		out["parameters"] = params
	}
	if o.body != nil {
		out["requestBody"] = obj{"required": true, "content": jsonContent(o.body)}
	}
	responses := obj{}
	if o.response != nil {
		responses[o.status] = obj{"description": "success", "content": jsonContent(o.response)}
	} else {
		responses[o.status] = obj{"description": "success, no body"}
	}
	errs := o.errors
	if o.auth != "" {
		errs = append([]string{"401", "403", "429"}, errs...)
	}
	for _, code := range errs {
		responses[code] = obj{"$ref": "#/components/responses/Error" + code}
	}
	out["responses"] = responses
	return out
}

func operationID(summary string) string {
	var b strings.Builder
	up := false
	for _, r := range summary {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
			if up && b.Len() > 0 && r >= 'a' && r <= 'z' {
				r -= 'a' - 'A'
			}
			b.WriteRune(r)
			up = false
		default:
			up = true
		}
	}
	return b.String()
}

func pathParams(path string) []string {
	var out []string
	for _, seg := range strings.Split(path, "/") {
		if strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") {
			out = append(out, seg[1:len(seg)-1])
		}
	}
	return out
}

var eventListQuery = append([]obj{
	queryParam("type", "only events of this type", obj{"type": "string"}),
	queryParam("status", "only events with a delivery in this status", ref("DeliveryStatus")),
	queryParam("since", "created at or after (RFC 3339)", strFmt("date-time")),
	queryParam("until", "created before (RFC 3339)", strFmt("date-time")),
}, pageParams...)

var replayBody = object(nil, obj{
	"endpoint_id": strFmt("uuid"),
	"event_type":  str("only events of this type"),
	"since":       strFmt("date-time"),
	"until":       strFmt("date-time"),
	"status":      ref("DeliveryStatus"),
})

// operations maps "METHOD /api/v1/path" to its description.
var operations = map[string]op{
	"POST /auth/signup": {summary: "Sign up", tag: "auth", status: "201", response: ref("Me"),
		body:   object([]string{"email", "password", "organization"}, obj{"email": strFmt("email"), "password": obj{"type": "string", "minLength": 10, "maxLength": 72}, "organization": str("organisation name")}),
		errors: []string{"400", "409", "422"}},
	"POST /auth/login": {summary: "Log in", tag: "auth", status: "200", response: ref("Me"),
		body:   object([]string{"email", "password"}, obj{"email": strFmt("email"), "password": obj{"type": "string"}}),
		errors: []string{"400", "401", "422", "429"}},
	"POST /auth/logout": {summary: "Log out", tag: "auth", status: "204"},
	"GET /me":           {summary: "Current user", tag: "auth", auth: "session", status: "200", response: ref("Me")},

	"POST /api-keys":        {summary: "Create API key", tag: "api-keys", auth: "session", status: "201", response: ref("APIKeyCreated"), body: object([]string{"name"}, obj{"name": str("label")}), errors: []string{"400", "422"}},
	"GET /api-keys":         {summary: "List API keys", tag: "api-keys", auth: "session", status: "200", response: listOf("APIKey")},
	"DELETE /api-keys/{id}": {summary: "Revoke API key", tag: "api-keys", auth: "session", status: "204", errors: []string{"404"}},

	"POST /endpoints":                    {summary: "Create endpoint", tag: "endpoints", auth: "key", status: "201", response: ref("EndpointCreated"), body: ref("EndpointInput"), errors: []string{"400", "413", "422"}},
	"GET /endpoints":                     {summary: "List endpoints", tag: "endpoints", auth: "key", status: "200", response: listOf("Endpoint"), params: pageParams, errors: []string{"422"}},
	"GET /endpoints/{id}":                {summary: "Get endpoint", tag: "endpoints", auth: "key", status: "200", response: ref("Endpoint"), errors: []string{"404"}},
	"PATCH /endpoints/{id}":              {summary: "Update endpoint", tag: "endpoints", auth: "key", status: "200", response: ref("Endpoint"), body: ref("EndpointPatch"), errors: []string{"400", "404", "422"}},
	"DELETE /endpoints/{id}":             {summary: "Delete endpoint", tag: "endpoints", auth: "key", status: "204", errors: []string{"404"}},
	"GET /endpoints/{id}/secret":         {summary: "Reveal endpoint secret", tag: "endpoints", auth: "key", status: "200", response: ref("SecretInfo"), errors: []string{"404"}},
	"POST /endpoints/{id}/secret/rotate": {summary: "Rotate endpoint secret", tag: "endpoints", auth: "key", status: "200", response: ref("SecretInfo"), errors: []string{"404"}},
	"GET /endpoints/{id}/attempts": {summary: "List endpoint attempts", tag: "endpoints", auth: "key", status: "200", response: listOf("Attempt"),
		params: append([]obj{queryParam("outcome", "only attempts with this outcome", obj{"type": "string", "enum": []string{"success", "retry", "dropped"}})}, pageParams...), errors: []string{"404", "422"}},

	"POST /events": {summary: "Send event", tag: "events", auth: "key", status: "202", response: ref("EventAccepted"),
		body: object([]string{"type", "data"}, obj{"type": str("event type, e.g. invoice.paid"), "data": obj{"description": "any JSON value (payload up to 256 KiB)"},
			"idempotency_key": str("same key within 24 h returns the original event (or send Idempotency-Key)")}),
		params: []obj{{"name": "Idempotency-Key", "in": "header", "required": false, "description": "alternative to idempotency_key", "schema": obj{"type": "string", "maxLength": 255}}},
		errors: []string{"400", "402", "413", "422", "503"}},
	"GET /events":               {summary: "List events", tag: "events", auth: "key", status: "200", response: listOf("Event"), params: eventListQuery, errors: []string{"422"}},
	"GET /events/{id}":          {summary: "Get event with deliveries", tag: "events", auth: "key", status: "200", response: ref("EventDetail"), errors: []string{"404"}},
	"GET /events/{id}/attempts": {summary: "List event attempts", tag: "events", auth: "key", status: "200", response: listOf("Attempt"), errors: []string{"404"}},

	"POST /events/{id}/replay": {summary: "Replay event", tag: "replays", auth: "key", status: "202", response: ref("ReplayResult"),
		body: object(nil, obj{"endpoint_id": strFmt("uuid")}), errors: []string{"400", "404", "422"}},
	"POST /deliveries/{id}/replay": {summary: "Replay delivery", tag: "replays", auth: "key", status: "202", response: ref("ReplayResult"), errors: []string{"404", "422"}},
	"POST /replays":                {summary: "Start bulk replay", tag: "replays", auth: "key", status: "202", response: ref("ReplayJob"), body: replayBody, errors: []string{"400", "404", "422"}},
	"GET /replays":                 {summary: "List bulk replays", tag: "replays", auth: "key", status: "200", response: listOf("ReplayJob"), params: pageParams, errors: []string{"422"}},
	"GET /replays/{id}":            {summary: "Get bulk replay progress", tag: "replays", auth: "key", status: "200", response: ref("ReplayJob"), errors: []string{"404"}},
	"POST /replays/{id}/cancel":    {summary: "Cancel bulk replay", tag: "replays", auth: "key", status: "200", response: ref("ReplayJob"), errors: []string{"404"}},

	"GET /members": {summary: "List members", tag: "members", auth: "session", status: "200", response: listOf("Member")},
	"POST /members": {summary: "Invite member", tag: "members", auth: "session", status: "201", response: ref("MemberInvited"),
		body: object([]string{"email", "role"}, obj{"email": strFmt("email"), "role": ref("Role")}), errors: []string{"400", "409", "422"}},
	"PATCH /members/{id}": {summary: "Change member role", tag: "members", auth: "session", status: "200", response: ref("Member"),
		body: object([]string{"role"}, obj{"role": ref("Role")}), errors: []string{"400", "404", "409", "422"}},
	"DELETE /members/{id}": {summary: "Remove member", tag: "members", auth: "session", status: "204", errors: []string{"404", "409"}},

	"GET /staff/tenants": {summary: "Staff search tenants", tag: "staff", auth: "staff", status: "200", response: listOf("TenantSummary"),
		params: append([]obj{queryParam("q", "tenant id, name or member email (substring)", obj{"type": "string"})}, pageParams...), errors: []string{"404", "422"}},
	"GET /staff/tenants/{id}":                   {summary: "Staff get tenant", tag: "staff", auth: "staff", status: "200", response: ref("StaffTenant"), errors: []string{"404"}},
	"GET /staff/tenants/{id}/events":            {summary: "Staff list tenant events", tag: "staff", auth: "staff", status: "200", response: listOf("Event"), params: eventListQuery, errors: []string{"404", "422"}},
	"GET /staff/tenants/{id}/events/{event_id}": {summary: "Staff get tenant event", tag: "staff", auth: "staff", status: "200", response: ref("StaffEventDetail"), errors: []string{"404"}},
	"POST /staff/tenants/{id}/replays": {summary: "Staff replay", tag: "staff", auth: "staff", status: "202",
		response: obj{"oneOf": []obj{ref("ReplayResult"), ref("ReplayJob")}},
		body: object([]string{"reason"}, obj{"reason": str("why (required, audited)"), "event_id": strFmt("uuid"), "delivery_id": strFmt("uuid"),
			"endpoint_id": strFmt("uuid"), "event_type": obj{"type": "string"}, "since": strFmt("date-time"), "until": strFmt("date-time"), "status": ref("DeliveryStatus")}),
		errors: []string{"400", "404", "422"}},
	"GET /staff/tenants/{id}/replays/{replay_id}": {summary: "Staff get replay progress", tag: "staff", auth: "staff", status: "200", response: ref("ReplayJob"), errors: []string{"404"}},
	"GET /staff/audit": {summary: "Staff audit log", tag: "staff", auth: "staff", status: "200", response: listOf("AuditEntry"),
		params: append([]obj{queryParam("tenant_id", "only entries about this tenant", strFmt("uuid"))}, pageParams...), errors: []string{"404", "422"}},

	"GET /billing": {summary: "Billing overview", tag: "billing", auth: "session", status: "200", response: ref("BillingOverview")},
	"PUT /billing/plan": {summary: "Change plan", tag: "billing", auth: "session", status: "200", response: ref("BillingOverview"),
		body: object([]string{"plan"}, obj{"plan": str("plan name, e.g. free or pro"),
			"payment_token": str("the payment provider's token for a new payment method; paid plans need an accepted one")}),
		errors: []string{"400", "402", "422", "503"}},
	"GET /billing/invoices":           {summary: "List invoices", tag: "billing", auth: "session", status: "200", response: listOf("Invoice"), params: pageParams, errors: []string{"422"}},
	"GET /staff/tenants/{id}/billing": {summary: "Staff get tenant billing", tag: "staff", auth: "staff", status: "200", response: ref("StaffBilling"), errors: []string{"404"}},
	"POST /staff/tenants/{id}/billing/lift-restriction": {summary: "Staff lift overdue-invoice restriction", tag: "staff", auth: "staff",
		status: "200", response: ref("StaffBilling"), body: object([]string{"reason"}, obj{"reason": str("why (required, audited)")}),
		errors: []string{"400", "404", "422"}},

	"GET /openapi.json": {summary: "This document", tag: "meta", status: "200", response: obj{"type": "object"}},
}

var billingPlan = object(nil, obj{
	"name": str(""), "display_name": str(""), "events_per_month": integer(""), "max_endpoints": integer(""),
	"retention_days": integer(""), "events_per_second": integer(""), "hard_cap": obj{"type": "boolean"},
	"base_fee_minor": integer("monthly fee in minor units (cents)"), "overage_unit_events": integer(""),
	"overage_price_minor": integer("price per overage unit in minor units"), "currency": str(""),
	"self_serve": obj{"type": "boolean"}, "custom": obj{"type": "boolean"},
})

var billingOverviewProps = obj{
	"tenant_id": strFmt("uuid"), "plan": billingPlan,
	"usage":     object(nil, obj{"period": str("YYYY-MM"), "events": integer(""), "attempts": integer("")}),
	"endpoints": integer(""), "overage_events": integer(""), "estimated_overage_minor": integer(""),
	"quota_exhausted": obj{"type": "boolean"}, "plans": obj{"type": "array", "items": billingPlan},
	"payments_configured": boolean("false when no payment provider is configured: paid plans cannot be chosen self-serve"),
	"payment_method":      obj{"type": "object", "nullable": true, "properties": obj{"label": str("e.g. Visa ending 4242")}},
	"payment_overdue":     boolean("an invoice is unpaid 14 days after issue: new events get 402 until paid or lifted by staff"),
}

var schemas = obj{
	"BillingOverview": object(nil, billingOverviewProps),
	"StaffBilling": obj{"allOf": []obj{ref("BillingOverview"),
		object(nil, obj{"invoices": obj{"type": "array", "items": ref("Invoice")}})}},
	"Invoice": object(nil, obj{
		"id": strFmt("uuid"), "tenant_id": strFmt("uuid"), "period": str("YYYY-MM"), "currency": str(""),
		"total_minor": integer(""), "events": integer(""), "attempts": integer(""),
		"status":            obj{"type": "string", "enum": []string{"open", "paid", "payment_failed"}},
		"payment_reference": str(""), "payment_error": str(""), "created_at": strFmt("date-time"),
		"paid_at": obj{"type": "string", "format": "date-time", "nullable": true},
		"lines": obj{"type": "array", "items": object(nil, obj{"kind": obj{"type": "string", "enum": []string{"base_fee", "overage"}},
			"plan": str(""), "description": str(""), "quantity": integer(""), "unit_price_minor": integer(""), "amount_minor": integer("")})},
	}),
	"Error": object([]string{"error"}, obj{"error": object([]string{"code", "message"}, obj{
		"code": obj{"type": "string", "enum": []string{"bad_request", "invalid", "unauthorized", "forbidden", "not_found", "conflict",
			"payload_too_large", "rate_limited", "quota_exceeded", "plan_limit", "request_timeout", "unavailable", "internal"}},
		"message": str("human-readable"),
		"field":   str("the request field at fault, when one is"),
	})}),
	"Role":           obj{"type": "string", "enum": []string{"owner", "admin", "viewer"}},
	"DeliveryStatus": obj{"type": "string", "enum": []string{"pending", "retrying", "succeeded", "dropped", "exhausted"}},
	"Tenant":         object(nil, obj{"id": strFmt("uuid"), "name": str(""), "plan": str(""), "created_at": strFmt("date-time")}),
	"Me": object(nil, obj{"kind": obj{"type": "string", "enum": []string{"user", "staff", "api_key"}}, "user_id": strFmt("uuid"),
		"email": strFmt("email"), "role": obj{"type": "string", "enum": []string{"owner", "admin", "viewer", "staff"}}, "tenant": ref("Tenant")}),
	"APIKey": object(nil, obj{"id": strFmt("uuid"), "name": str(""), "prefix": str("visible prefix, e.g. fry_live_ab12cd"),
		"created_at": strFmt("date-time"), "last_used_at": obj{"type": "string", "format": "date-time", "nullable": true},
		"revoked_at": obj{"type": "string", "format": "date-time", "nullable": true}}),
	"APIKeyCreated": obj{"allOf": []obj{ref("APIKey"), object([]string{"key"}, obj{"key": str("shown once")})}},
	"EndpointInput": object([]string{"url"}, obj{"url": obj{"type": "string", "format": "uri", "maxLength": 2048},
		"description": obj{"type": "string", "maxLength": 500}, "event_types": arrayOf(obj{"type": "string"}),
		"timeout_seconds": obj{"type": "integer", "minimum": 1, "maximum": 30}, "rate_limit_per_second": obj{"type": "integer", "minimum": 1, "maximum": 10000},
		"max_in_flight": obj{"type": "integer", "minimum": 1, "maximum": 256}, "headers": obj{"type": "object", "additionalProperties": obj{"type": "string"}}}),
	"EndpointPatch": object(nil, obj{"url": obj{"type": "string", "format": "uri"}, "description": obj{"type": "string"},
		"event_types": arrayOf(obj{"type": "string"}), "enabled": boolean(""), "timeout_seconds": integer(""),
		"rate_limit_per_second": integer("0 removes the limit"), "max_in_flight": integer(""),
		"headers": obj{"type": "object", "additionalProperties": obj{"type": "string"}}}),
	"Endpoint": object(nil, obj{"id": strFmt("uuid"), "url": str("query values are [redacted] for viewers and staff"), "description": str(""), "event_types": arrayOf(obj{"type": "string"}),
		"enabled": boolean(""), "disabled_reason": str(""), "timeout_seconds": integer(""),
		"rate_limit_per_second": obj{"type": "integer", "nullable": true}, "max_in_flight": integer(""),
		"headers":       obj{"type": "object", "additionalProperties": obj{"type": "string"}, "description": "values are [redacted] for viewers and staff"},
		"failing_since": obj{"type": "string", "format": "date-time", "nullable": true}, "created_at": strFmt("date-time"), "updated_at": strFmt("date-time")}),
	"EndpointCreated": obj{"allOf": []obj{ref("Endpoint"), object([]string{"secret"}, obj{"secret": str("whsec_…")})}},
	"SecretInfo":      object(nil, obj{"secret": str("current whsec_ secret"), "previous": arrayOf(object(nil, obj{"secret": str(""), "expires_at": strFmt("date-time")}))}),
	"EventAccepted":   object([]string{"id", "type", "created_at"}, obj{"id": strFmt("uuid"), "type": str(""), "created_at": strFmt("date-time")}),
	"Event": object(nil, obj{"id": strFmt("uuid"), "type": str(""), "data": obj{"description": "the JSON payload"},
		"idempotency_key": str(""), "created_at": strFmt("date-time")}),
	"Delivery": object(nil, obj{"id": strFmt("uuid"), "event_id": strFmt("uuid"), "endpoint_id": strFmt("uuid"), "status": ref("DeliveryStatus"),
		"attempt_count": integer(""), "first_attempt_at": obj{"type": "string", "format": "date-time", "nullable": true},
		"last_attempt_at": obj{"type": "string", "format": "date-time", "nullable": true}, "next_attempt_at": obj{"type": "string", "format": "date-time", "nullable": true},
		"created_at": strFmt("date-time"), "updated_at": strFmt("date-time")}),
	"EventDetail": obj{"allOf": []obj{ref("Event"), object(nil, obj{"deliveries": arrayOf(ref("Delivery"))})}},
	"Attempt": object(nil, obj{"id": strFmt("uuid"), "delivery_id": strFmt("uuid"), "event_id": strFmt("uuid"), "endpoint_id": strFmt("uuid"),
		"attempt_number": integer(""), "trigger": obj{"type": "string", "enum": []string{"initial", "retry", "replay"}}, "actor": str("who replayed"),
		"started_at": strFmt("date-time"), "duration_ms": integer(""), "request_headers": obj{"type": "object", "description": "custom header values are [redacted] for viewers and staff"},
		"response_status": obj{"type": "integer", "nullable": true}, "response_headers": obj{"type": "object", "nullable": true},
		"response_body": str("first 4 KiB"), "error_class": str(""), "error_message": str("URLs inside are [redacted] for viewers and staff"),
		"response_headers_truncated": boolean("header values left out to keep 8 KiB"), "response_body_truncated": boolean("response_body is not the whole body"),
		"outcome": obj{"type": "string", "enum": []string{"success", "retry", "dropped"}}, "next_attempt_at": obj{"type": "string", "format": "date-time", "nullable": true}}),
	"ReplayResult": object(nil, obj{"event_id": strFmt("uuid"), "deliveries": arrayOf(strFmt("uuid"))}),
	"ReplayJob": object(nil, obj{"id": strFmt("uuid"), "state": obj{"type": "string", "enum": []string{"queued", "running", "completed", "cancelled", "failed"}},
		"filter": replayBody, "actor": str(""), "reason": str(""), "total": integer("matching deliveries"), "done": integer("re-queued so far"),
		"error": str(""), "created_at": strFmt("date-time"), "updated_at": strFmt("date-time"),
		"started_at": obj{"type": "string", "format": "date-time", "nullable": true}, "finished_at": obj{"type": "string", "format": "date-time", "nullable": true}}),
	"Member":        object(nil, obj{"id": strFmt("uuid"), "tenant_id": strFmt("uuid"), "email": strFmt("email"), "role": ref("Role"), "created_at": strFmt("date-time")}),
	"MemberInvited": obj{"allOf": []obj{ref("Member"), object([]string{"temporary_password"}, obj{"temporary_password": str("shown once")})}},
	"TenantSummary": obj{"allOf": []obj{ref("Tenant"), object(nil, obj{"members": integer(""), "owner_email": str("")})}},
	"StaffTenant": obj{"allOf": []obj{ref("Tenant"), object(nil, obj{"members": arrayOf(ref("Member")),
		"endpoints": arrayOf(ref("Endpoint"))})}, "description": "receiver credentials are redacted"},
	"StaffEventDetail": obj{"allOf": []obj{ref("EventDetail"), object(nil, obj{"attempts": arrayOf(ref("Attempt"))})},
		"description": "receiver credentials are redacted"},
	"AuditEntry": object(nil, obj{"id": str("opaque"), "staff_id": strFmt("uuid"), "actor_email": strFmt("email"),
		"tenant_id": obj{"type": "string", "format": "uuid", "nullable": true}, "action": str(""), "reason": str(""),
		"detail": obj{"type": "object"}, "created_at": strFmt("date-time")}),
}

func errorResponses() obj {
	out := obj{}
	for code, desc := range map[string]string{
		"400": "malformed JSON or body (bad_request)", "401": "missing or bad credentials", "403": "role or CSRF check failed",
		"404": "not found (also another tenant's object)", "409": "conflict", "413": "body over 256 KiB",
		"402": "payment required (payment_required): a paid plan needs an accepted payment method, or an invoice is overdue",
		"422": "a field failed validation", "429": "rate limited (Retry-After)", "503": "database unavailable; retry",
	} {
		out["Error"+code] = obj{"description": desc, "content": jsonContent(ref("Error"))}
	}
	return out
}

// OpenAPIPath turns a Fiber path ("/api/v1/events/:id") into the
// document's form ("/events/{id}").
func OpenAPIPath(fiberPath string) string {
	p := strings.TrimPrefix(fiberPath, "/api/v1")
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if strings.HasPrefix(s, ":") {
			segs[i] = "{" + s[1:] + "}"
		}
	}
	return strings.Join(segs, "/")
}

// OpenAPIDocument returns the document as JSON.
func OpenAPIDocument() []byte {
	paths := obj{}
	for key, o := range operations {
		method, path, _ := strings.Cut(key, " ")
		item, _ := paths[path].(obj)
		if item == nil {
			item = obj{}
			paths[path] = item
		}
		item[strings.ToLower(method)] = o.build(path)
	}
	doc := obj{
		"openapi": "3.0.3",
		"info": obj{"title": "Ferry API", "version": "1",
			"description": "Ferry's tenant API. Errors always have the shape {\"error\":{\"code\",\"message\",\"field\"}}. " +
				"Cookie-authenticated writes must echo the ferry_csrf cookie in X-CSRF-Token."},
		"servers": []obj{{"url": "/api/v1"}},
		"paths":   paths,
		"components": obj{
			"schemas":   schemas,
			"responses": errorResponses(),
			"securitySchemes": obj{
				"apiKey":  obj{"type": "http", "scheme": "bearer", "description": "Authorization: Bearer fry_live_…"},
				"session": obj{"type": "apiKey", "in": "cookie", "name": sessionCookie, "description": "portal session (JWT); writes need X-CSRF-Token"},
			},
		},
	}
	b, err := json.Marshal(doc)
	if err != nil {
		panic("openapi document: " + err.Error()) // static data always marshals
	}
	return b
}

func (s *server) openAPI(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(s.openapi)
}
