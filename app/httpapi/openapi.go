package httpapi

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gofiber/fiber/v2"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/billing"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/insight"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/queue"
	"github.com/ferry-dev/ferry/delivery/replay"
	"github.com/ferry-dev/ferry/inbound"
	"github.com/ferry-dev/ferry/page"
	"github.com/ferry-dev/ferry/tenants"
)

// The OpenAPI 3 document served at /api/v1/openapi.json. The route table
// below (operations) says, per route, its summary, who may call it, its
// status codes, and the Go types its handler decodes and encodes; the
// schemas are reflected from those types (openapi_schema.go), so the
// document follows the code. Tests check that the table and the router
// name the same routes, and that what encoding/json produces for each
// response type validates against the document. `ferry openapi` prints it
// for the portal's generated TypeScript types (frontend/src/api.gen.ts).

// access is who may call an operation.
type access int

const (
	accessPublic  access = iota
	accessSession        // a portal session
	accessKey            // an API key or a portal session
	accessStaff          // a support staff session
)

// op describes one operation.
type op struct {
	summary string
	tag     string
	access  access
	status  int
	// body is the type the handler decodes (nil: no body); optionalBody
	// when the handler also accepts an empty body.
	body         reflect.Type
	optionalBody bool
	// response lists the types the handler encodes on success (none: no
	// body); with more than one the body is one of them.
	response []reflect.Type
	params   openapi3.Parameters
	// errors are the error statuses beyond 401, 403 and 429, which every
	// authenticated operation may answer.
	errors []int
}

// typ is shorthand for the list of one response type.
func typ[T any]() []reflect.Type { return []reflect.Type{reflect.TypeFor[T]()} }

func queryParam(name, desc string, schema *openapi3.Schema) *openapi3.ParameterRef {
	return &openapi3.ParameterRef{Value: &openapi3.Parameter{Name: name, In: openapi3.ParameterInQuery, Description: desc,
		Schema: schema.NewRef()}}
}

func pageParams() openapi3.Parameters {
	return openapi3.Parameters{
		queryParam("limit", fmt.Sprintf("page size (1-%d, default %d)", page.MaxSize, page.DefaultSize),
			openapi3.NewIntegerSchema().WithMin(1).WithMax(page.MaxSize)),
		queryParam("cursor", "next_cursor of the previous page", openapi3.NewStringSchema()),
	}
}

func eventListParams() openapi3.Parameters {
	return append(openapi3.Parameters{
		queryParam("type", "only events of this type", openapi3.NewStringSchema()),
		queryParam("status", "only events with a delivery in this status",
			openapi3.NewStringSchema().WithEnum(enumOf(reflect.TypeFor[model.Status]())...)),
		queryParam("endpoint_id", "only events with a delivery to this endpoint", openapi3.NewUUIDSchema()),
		queryParam("since", "created at or after (RFC 3339)", openapi3.NewDateTimeSchema()),
		queryParam("until", "created before (RFC 3339)", openapi3.NewDateTimeSchema()),
	}, pageParams()...)
}

// operations maps "METHOD /path" (relative to /api/v1) to its operation.
func operations() map[string]op {
	idempotencyKey := &openapi3.ParameterRef{Value: &openapi3.Parameter{Name: "Idempotency-Key", In: openapi3.ParameterInHeader,
		Description: "alternative to idempotency_key", Schema: openapi3.NewStringSchema().WithMaxLength(255).NewRef()}}
	outcome := queryParam("outcome", "only attempts with this outcome",
		openapi3.NewStringSchema().WithEnum(enumOf(reflect.TypeFor[model.Outcome]())...))
	q := queryParam("q", "tenant id, name or member email (substring)", openapi3.NewStringSchema())
	tenantID := queryParam("tenant_id", "only entries about this tenant", openapi3.NewUUIDSchema())
	window := queryParam("window", "whole UTC hours from the one holding now minus the window (default 24h)",
		openapi3.NewStringSchema().WithEnum("1h", "24h", "7d"))

	return map[string]op{
		"POST /auth/signup": {summary: "Sign up: mails the address a link that finishes it (the answer is the same for an address that has an account)", tag: "auth", status: 202,
			body: reflect.TypeFor[tenants.SignupInput](), response: typ[signupAccepted](), errors: []int{400, 422, 429}},
		"POST /auth/signup/confirm": {summary: "Finish a sign-up with the emailed token (creates the organisation, signs in)", tag: "auth", status: 201,
			body: reflect.TypeFor[finishSignupInput](), response: typ[meResponse](), errors: []int{400, 409, 422}},
		"POST /auth/login":  {summary: "Log in", tag: "auth", status: 200, body: reflect.TypeFor[loginInput](), response: typ[meResponse](), errors: []int{400, 401, 422, 429}},
		"POST /auth/logout": {summary: "Log out (ends the session server-side)", tag: "auth", status: 204},
		"POST /auth/password-reset": {summary: "Request a password reset email", tag: "auth", status: 202,
			body: reflect.TypeFor[passwordResetInput](), response: typ[acceptedMessage](), errors: []int{400, 422, 429}},
		"POST /auth/password-reset/confirm": {summary: "Reset the password with an emailed token", tag: "auth", status: 204,
			body: reflect.TypeFor[passwordResetConfirmInput](), errors: []int{400, 422}},
		"POST /auth/invites/accept": {summary: "Accept a member invite and set a password", tag: "auth", status: 200,
			body: reflect.TypeFor[inviteAcceptInput](), response: typ[meResponse](), errors: []int{400, 422}},
		"POST /me/verify-email": {summary: "Mail a link that verifies the signed-in member's address", tag: "auth", access: accessSession, status: 202,
			response: typ[acceptedMessage](), errors: []int{429}},
		"POST /auth/verify-email": {summary: "Verify the email address with an emailed token", tag: "auth", status: 204,
			body: reflect.TypeFor[verifyEmailInput](), errors: []int{400, 422}},
		"POST /me/password": {summary: "Change password (ends the other sessions)", tag: "auth", access: accessSession, status: 204,
			body: reflect.TypeFor[changePasswordInput](), errors: []int{400, 401, 422, 429}},
		"POST /me/totp": {summary: "Staff: start TOTP enrolment", tag: "auth", access: accessSession, status: 201,
			response: typ[tenants.TOTPEnrolment](), errors: []int{403, 409}},
		"POST /me/totp/confirm": {summary: "Staff: confirm TOTP enrolment", tag: "auth", access: accessSession, status: 204,
			body: reflect.TypeFor[totpConfirmInput](), errors: []int{400, 403, 422}},
		"GET /me": {summary: "Current user", tag: "auth", access: accessSession, status: 200, response: typ[meResponse]()},
		"GET /me/notifications": {summary: "My notification mail preferences", tag: "auth", access: accessSession, status: 200,
			response: typ[tenants.NotificationPrefs](), errors: []int{403}},
		"PUT /me/notifications": {summary: "Set my notification mail preferences", tag: "auth", access: accessSession, status: 200,
			body: reflect.TypeFor[notificationPrefsInput](), response: typ[tenants.NotificationPrefs](), errors: []int{400, 403, 422}},

		"POST /api-keys":        {summary: "Create API key", tag: "api-keys", access: accessSession, status: 201, body: reflect.TypeFor[apiKeyInput](), response: typ[apiKeyCreated](), errors: []int{400, 422}},
		"GET /api-keys":         {summary: "List API keys", tag: "api-keys", access: accessSession, status: 200, response: typ[list[tenants.APIKey]]()},
		"DELETE /api-keys/{id}": {summary: "Revoke API key", tag: "api-keys", access: accessSession, status: 204, errors: []int{404}},

		"POST /endpoints":                    {summary: "Create endpoint", tag: "endpoints", access: accessKey, status: 201, body: reflect.TypeFor[delivery.EndpointInput](), response: typ[endpointCreated](), errors: []int{400, 413, 422}},
		"GET /endpoints":                     {summary: "List endpoints", tag: "endpoints", access: accessKey, status: 200, response: typ[list[delivery.Endpoint]](), params: pageParams(), errors: []int{422}},
		"GET /endpoints/{id}":                {summary: "Get endpoint", tag: "endpoints", access: accessKey, status: 200, response: typ[delivery.Endpoint](), errors: []int{404}},
		"PATCH /endpoints/{id}":              {summary: "Update endpoint", tag: "endpoints", access: accessKey, status: 200, body: reflect.TypeFor[delivery.EndpointPatch](), response: typ[delivery.Endpoint](), errors: []int{400, 404, 422}},
		"DELETE /endpoints/{id}":             {summary: "Delete endpoint", tag: "endpoints", access: accessKey, status: 204, errors: []int{404}},
		"GET /endpoints/{id}/secret":         {summary: "Reveal endpoint secret", tag: "endpoints", access: accessKey, status: 200, response: typ[delivery.SecretInfo](), errors: []int{404}},
		"POST /endpoints/{id}/secret/rotate": {summary: "Rotate endpoint secret", tag: "endpoints", access: accessKey, status: 200, response: typ[delivery.SecretInfo](), errors: []int{404}},
		"POST /endpoints/{id}/test": {summary: "Send a ferry.test event to this endpoint only (whatever its event types and filter)", tag: "endpoints", access: accessKey, status: 202,
			response: typ[eventAccepted](), errors: []int{402, 404, 422, 429, 503}},
		"POST /endpoints/{id}/test-routing": {summary: "Test endpoint routing on a sample event", tag: "endpoints", access: accessKey, status: 200, body: reflect.TypeFor[delivery.RoutingTestInput](), response: typ[delivery.RoutingTestResult](), errors: []int{400, 404, 422}},
		"GET /endpoints/{id}/attempts": {summary: "List endpoint attempts", tag: "endpoints", access: accessKey, status: 200, response: typ[list[model.Attempt]](),
			params: append(openapi3.Parameters{outcome}, pageParams()...), errors: []int{404, 422}},

		"GET /endpoints/{id}/stats": {summary: "Endpoint stats", tag: "stats", access: accessKey, status: 200, response: typ[insight.Stats](),
			params: openapi3.Parameters{window}, errors: []int{404, 422}},
		"GET /stats": {summary: "Tenant stats", tag: "stats", access: accessKey, status: 200, response: typ[insight.TenantStats](),
			params: openapi3.Parameters{window}, errors: []int{422}},

		"POST /events": {summary: "Send event", tag: "events", access: accessKey, status: 202, body: reflect.TypeFor[delivery.EventInput](), response: typ[eventAccepted](),
			params: openapi3.Parameters{idempotencyKey}, errors: []int{400, 402, 413, 422, 503}},
		"GET /events":               {summary: "List events", tag: "events", access: accessKey, status: 200, response: typ[list[delivery.EventDetail]](), params: eventListParams(), errors: []int{422}},
		"GET /events/{id}":          {summary: "Get event with deliveries", tag: "events", access: accessKey, status: 200, response: typ[delivery.EventDetail](), errors: []int{404}},
		"GET /events/{id}/attempts": {summary: "List event attempts", tag: "events", access: accessKey, status: 200, response: typ[list[model.Attempt]](), errors: []int{404}},

		"POST /events/{id}/replay":     {summary: "Replay event", tag: "replays", access: accessKey, status: 202, body: reflect.TypeFor[replayEventInput](), optionalBody: true, response: typ[replay.ReplayResult](), errors: []int{400, 402, 404, 422, 429}},
		"POST /deliveries/{id}/replay": {summary: "Replay delivery", tag: "replays", access: accessKey, status: 202, response: typ[replay.ReplayResult](), errors: []int{402, 404, 422, 429}},
		"POST /replays":                {summary: "Start bulk replay", tag: "replays", access: accessKey, status: 202, body: reflect.TypeFor[bulkReplayInput](), optionalBody: true, response: typ[replay.ReplayJob](), errors: []int{400, 402, 404, 422, 429}},
		"GET /replays":                 {summary: "List bulk replays", tag: "replays", access: accessKey, status: 200, response: typ[list[replay.ReplayJob]](), params: pageParams(), errors: []int{422}},
		"GET /replays/{id}":            {summary: "Get bulk replay progress", tag: "replays", access: accessKey, status: 200, response: typ[replay.ReplayJob](), errors: []int{404}},
		"POST /replays/{id}/cancel":    {summary: "Cancel bulk replay", tag: "replays", access: accessKey, status: 200, response: typ[replay.ReplayJob](), errors: []int{404}},
		"POST /replays/preview": {summary: "Count the deliveries a bulk replay would re-send (starts nothing)", tag: "replays", access: accessKey, status: 200,
			body: reflect.TypeFor[bulkReplayInput](), optionalBody: true, response: typ[replay.ReplayPreview](), errors: []int{400, 404, 422}},

		"GET /members":              {summary: "List members", tag: "members", access: accessSession, status: 200, response: typ[list[tenants.User]]()},
		"POST /members":             {summary: "Invite member", tag: "members", access: accessSession, status: 201, body: reflect.TypeFor[tenants.MemberInput](), response: typ[tenants.User](), errors: []int{400, 403, 409, 422, 429}},
		"POST /members/{id}/invite": {summary: "Resend a member's invite", tag: "members", access: accessSession, status: 202, response: typ[tenants.User](), errors: []int{403, 404, 409, 429}},
		"PATCH /members/{id}":       {summary: "Change member role", tag: "members", access: accessSession, status: 200, body: reflect.TypeFor[tenants.MemberPatch](), response: typ[tenants.User](), errors: []int{400, 404, 409, 422}},
		"DELETE /members/{id}":      {summary: "Remove member", tag: "members", access: accessSession, status: 204, errors: []int{404, 409}},

		"GET /staff/tenants":                        {summary: "Staff search tenants", tag: "staff", access: accessStaff, status: 200, response: typ[list[tenants.TenantSummary]](), params: append(openapi3.Parameters{q}, pageParams()...), errors: []int{404, 422}},
		"GET /staff/tenants/{id}":                   {summary: "Staff get tenant", tag: "staff", access: accessStaff, status: 200, response: typ[staffTenantView](), errors: []int{404}},
		"GET /staff/tenants/{id}/events":            {summary: "Staff list tenant events", tag: "staff", access: accessStaff, status: 200, response: typ[list[delivery.EventDetail]](), params: eventListParams(), errors: []int{404, 422}},
		"GET /staff/tenants/{id}/events/{event_id}": {summary: "Staff get tenant event", tag: "staff", access: accessStaff, status: 200, response: typ[insight.StaffEventDetail](), errors: []int{404}},
		"GET /staff/events/{event_id}":              {summary: "Staff look up an event by id across tenants", tag: "staff", access: accessStaff, status: 200, response: typ[staffEventLookup](), errors: []int{404}},
		"POST /staff/tenants/{id}/replays": {summary: "Staff replay", tag: "staff", access: accessStaff, status: 202, body: reflect.TypeFor[staffReplayInput](),
			response: []reflect.Type{reflect.TypeFor[replay.ReplayResult](), reflect.TypeFor[replay.ReplayJob]()}, errors: []int{400, 404, 422}},
		"GET /staff/tenants/{id}/replays/{replay_id}": {summary: "Staff get replay progress", tag: "staff", access: accessStaff, status: 200, response: typ[replay.ReplayJob](), errors: []int{404}},
		"POST /staff/tenants/{id}/replays/preview": {summary: "Staff count the deliveries a bulk replay would re-send", tag: "staff", access: accessStaff, status: 200,
			body: reflect.TypeFor[bulkReplayInput](), optionalBody: true, response: typ[replay.ReplayPreview](), errors: []int{400, 404, 422}},
		"GET /staff/tenants/{id}/endpoints/{endpoint_id}/attempts": {summary: "Staff list an endpoint's attempts", tag: "staff", access: accessStaff, status: 200,
			response: typ[list[model.Attempt]](), params: append(openapi3.Parameters{outcome}, pageParams()...), errors: []int{404, 422}},
		"GET /staff/audit": {summary: "Staff audit log", tag: "staff", access: accessStaff, status: 200, response: typ[list[tenants.AuditEntry]](),
			params: append(openapi3.Parameters{tenantID,
				queryParam("actor", "part of the staff member's email", openapi3.NewStringSchema()),
				queryParam("action", "one action, e.g. replay", openapi3.NewStringSchema()),
				queryParam("kind", "write: actions that changed something; read: views; absent: both",
					openapi3.NewStringSchema().WithEnum(tenants.AuditKindWrite, tenants.AuditKindRead)),
				queryParam("since", "created at or after (RFC 3339)", openapi3.NewDateTimeSchema()),
				queryParam("until", "created before (RFC 3339)", openapi3.NewDateTimeSchema())}, pageParams()...), errors: []int{404, 422}},

		"GET /billing":      {summary: "Billing overview", tag: "billing", access: accessSession, status: 200, response: typ[billing.Overview]()},
		"PUT /billing/plan": {summary: "Change plan", tag: "billing", access: accessSession, status: 200, body: reflect.TypeFor[planInput](), response: typ[billing.Overview](), errors: []int{400, 402, 422, 503}},
		"POST /staff/tenants/{id}/billing/lift-restriction": {summary: "Staff lift the overdue-invoice restriction", tag: "staff", access: accessStaff, status: 200,
			body: reflect.TypeFor[liftRestrictionInput](), response: typ[staffBilling](), errors: []int{400, 404, 422}},
		"GET /billing/invoices":           {summary: "List invoices", tag: "billing", access: accessSession, status: 200, response: typ[list[billing.Invoice]](), params: pageParams(), errors: []int{422}},
		"GET /staff/tenants/{id}/billing": {summary: "Staff get tenant billing", tag: "staff", access: accessStaff, status: 200, response: typ[staffBilling](), errors: []int{404}},

		"POST /queues/{endpoint_id}/pull": {summary: "Pull queue messages", tag: "queues", access: accessKey, status: 200, body: reflect.TypeFor[queue.PullInput](), optionalBody: true,
			response: typ[pulled](), errors: []int{400, 404, 422}},
		"POST /queues/{endpoint_id}/ack":    {summary: "Ack queue messages", tag: "queues", access: accessKey, status: 200, body: reflect.TypeFor[queue.AckInput](), response: typ[settled](), errors: []int{400, 404, 422}},
		"POST /queues/{endpoint_id}/nack":   {summary: "Nack queue messages", tag: "queues", access: accessKey, status: 200, body: reflect.TypeFor[queue.NackInput](), response: typ[settled](), errors: []int{400, 404, 422}},
		"POST /queues/{endpoint_id}/reject": {summary: "Reject queue messages", tag: "queues", access: accessKey, status: 200, body: reflect.TypeFor[queue.RejectInput](), response: typ[settled](), errors: []int{400, 404, 422}},
		"GET /queues/{endpoint_id}":         {summary: "Queue stats", tag: "queues", access: accessKey, status: 200, response: typ[queue.Stats](), errors: []int{404}},
		"GET /queues/{endpoint_id}/stream": {summary: "Stream queue messages (text/event-stream: event message, data one pulled message)", tag: "queues", access: accessKey, status: 200,
			params: openapi3.Parameters{queryParam("visibility_seconds", "lease of each message (1-43200, default 30)", openapi3.NewIntegerSchema().WithMin(1).WithMax(queue.MaxVisibilitySeconds))},
			errors: []int{404, 422}},
		"POST /endpoints/{id}/consumer-tokens": {summary: "Create consumer token", tag: "queues", access: accessKey, status: 201, body: reflect.TypeFor[queue.TokenInput](),
			response: typ[consumerTokenCreated](), errors: []int{400, 404, 422}},
		"GET /endpoints/{id}/consumer-tokens":               {summary: "List consumer tokens", tag: "queues", access: accessKey, status: 200, response: typ[list[queue.ConsumerToken]](), errors: []int{404}},
		"DELETE /endpoints/{id}/consumer-tokens/{token_id}": {summary: "Revoke consumer token", tag: "queues", access: accessKey, status: 204, errors: []int{404}},

		"POST /sources":                                   {summary: "Create source", tag: "sources", access: accessKey, status: 201, body: reflect.TypeFor[inbound.SourceInput](), response: typ[inbound.Source](), errors: []int{400, 422}},
		"GET /sources":                                    {summary: "List sources", tag: "sources", access: accessKey, status: 200, response: typ[list[inbound.Source]](), params: pageParams(), errors: []int{422}},
		"GET /sources/{id}":                               {summary: "Get source", tag: "sources", access: accessKey, status: 200, response: typ[inbound.Source](), errors: []int{404}},
		"PATCH /sources/{id}":                             {summary: "Update source", tag: "sources", access: accessKey, status: 200, body: reflect.TypeFor[inbound.SourcePatch](), response: typ[inbound.Source](), errors: []int{400, 404, 422}},
		"DELETE /sources/{id}":                            {summary: "Delete source", tag: "sources", access: accessKey, status: 204, errors: []int{404}},
		"POST /sources/{id}/rotate-token":                 {summary: "Rotate source ingest token", tag: "sources", access: accessKey, status: 200, response: typ[inbound.Source](), errors: []int{404}},
		"GET /sources/{id}/requests":                      {summary: "List source requests", tag: "sources", access: accessKey, status: 200, response: typ[list[inbound.Request]](), params: append(openapi3.Parameters{queryParam("status", "only requests with this status", openapi3.NewStringSchema().WithEnum(enumOf(reflect.TypeFor[inbound.Status]())...))}, pageParams()...), errors: []int{404, 422}},
		"GET /sources/{id}/requests/{request_id}":         {summary: "Get source request", tag: "sources", access: accessKey, status: 200, response: typ[sourceRequestDetail](), errors: []int{404}},
		"POST /sources/{id}/requests/{request_id}/replay": {summary: "Replay source request", tag: "sources", access: accessKey, status: 202, response: typ[inbound.ReplayResult](), errors: []int{402, 404, 422, 429}},

		"GET /openapi.json": {summary: "This document", tag: "meta", status: 200, response: typ[map[string]any]()},
	}
}

// errorDescriptions describes the error responses by status.
func errorDescriptions() map[int]string {
	return map[int]string{
		400: "malformed JSON or body (bad_request)", 401: "missing or bad credentials", 402: "payment required (payment_required): a paid plan needs an accepted payment method, or an invoice is overdue",
		403: "role or CSRF check failed",
		404: "not found (also another tenant's object)", 409: "conflict", 413: "body over " + ferry.FormatBytes(delivery.MaxPayloadBytes),
		422: "a field failed validation", 429: "rate limited (Retry-After)", 503: "database unavailable; retry",
	}
}

// build turns o into an OpenAPI operation, adding the schemas it needs
// to s.
func (o op) build(s *schemaSet, path string) (*openapi3.Operation, error) {
	out := &openapi3.Operation{Summary: o.summary, Tags: []string{o.tag}, OperationID: operationID(o.summary),
		Security: &openapi3.SecurityRequirements{}}
	switch o.access {
	case accessSession, accessStaff:
		out.Security = &openapi3.SecurityRequirements{{"session": {}}}
	case accessKey:
		out.Security = &openapi3.SecurityRequirements{{"apiKey": {}}, {"session": {}}}
	}
	for _, name := range pathParams(path) {
		out.Parameters = append(out.Parameters, &openapi3.ParameterRef{Value: openapi3.NewPathParameter(name).WithSchema(openapi3.NewUUIDSchema())})
	}
	out.Parameters = append(out.Parameters, o.params...)
	if o.body != nil {
		schema, err := s.schema(o.body, requestSide)
		if err != nil {
			return nil, err
		}
		out.RequestBody = &openapi3.RequestBodyRef{Value: &openapi3.RequestBody{Required: !o.optionalBody,
			Content: openapi3.NewContentWithJSONSchemaRef(schema)}}
	}
	success := &openapi3.Response{Description: ptr("success, no body")}
	if len(o.response) > 0 {
		var alternatives openapi3.SchemaRefs
		for _, t := range o.response {
			schema, err := s.schema(t, responseSide)
			if err != nil {
				return nil, err
			}
			alternatives = append(alternatives, schema)
		}
		schema := alternatives[0]
		if len(alternatives) > 1 {
			schema = &openapi3.SchemaRef{Value: &openapi3.Schema{OneOf: alternatives}}
		}
		success = &openapi3.Response{Description: ptr("success"), Content: openapi3.NewContentWithJSONSchemaRef(schema)}
	}
	out.Responses = openapi3.NewResponses(openapi3.WithStatus(o.status, &openapi3.ResponseRef{Value: success}))
	errs := o.errors
	if o.access != accessPublic {
		errs = append([]int{401, 403, 429}, errs...)
	}
	for _, code := range errs {
		out.Responses.Set(strconv.Itoa(code), &openapi3.ResponseRef{Ref: "#/components/responses/Error" + strconv.Itoa(code)})
	}
	return out, nil
}

func ptr[T any](v T) *T { return &v }

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

// OpenAPI builds the OpenAPI 3 document of the API under /api/v1.
func OpenAPI() (*openapi3.T, error) {
	s := newSchemaSet()
	ops := operations()
	keys := make([]string, 0, len(ops))
	for k := range ops {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	paths := openapi3.NewPaths()
	for _, key := range keys {
		method, path, _ := strings.Cut(key, " ")
		operation, err := ops[key].build(s, path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
		item := paths.Value(path)
		if item == nil {
			item = &openapi3.PathItem{}
			paths.Set(path, item)
		}
		item.SetOperation(method, operation)
	}

	errSchema, err := s.schema(reflect.TypeFor[errorBody](), responseSide)
	if err != nil {
		return nil, err
	}
	responses := openapi3.ResponseBodies{}
	for code, desc := range errorDescriptions() {
		responses["Error"+strconv.Itoa(code)] = &openapi3.ResponseRef{Value: &openapi3.Response{Description: ptr(desc),
			Content: openapi3.NewContentWithJSONSchemaRef(errSchema)}}
	}
	return &openapi3.T{
		OpenAPI: "3.0.3",
		Info: &openapi3.Info{Title: "Ferry API", Version: "1",
			Description: "Ferry's tenant API. Errors always have the shape {\"error\":{\"code\",\"message\",\"field\"}}; " +
				"lists have the shape {\"data\":[...],\"next_cursor\":...}. " +
				"Cookie-authenticated writes must echo the ferry_csrf cookie in X-CSRF-Token."},
		Servers: openapi3.Servers{{URL: "/api/v1"}},
		Paths:   paths,
		Components: &openapi3.Components{
			Schemas:   s.components,
			Responses: responses,
			SecuritySchemes: openapi3.SecuritySchemes{
				"apiKey": {Value: &openapi3.SecurityScheme{Type: "http", Scheme: "bearer", Description: "Authorization: Bearer fry_live_… (queue routes also take that queue's consumer token, fqc_…)"}},
				"session": {Value: &openapi3.SecurityScheme{Type: "apiKey", In: "cookie", Name: sessionCookie,
					Description: "portal session (JWT); writes need X-CSRF-Token"}},
			},
		},
	}, nil
}

// OpenAPIDocument returns the document as indented JSON, exactly as
// GET /api/v1/openapi.json and `ferry openapi` write it.
func OpenAPIDocument() ([]byte, error) {
	doc, err := OpenAPI()
	if err != nil {
		return nil, fmt.Errorf("build the OpenAPI document: %w", err)
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode the OpenAPI document: %w", err)
	}
	return append(b, '\n'), nil
}

func (s *server) openAPI(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(s.openapi)
}
