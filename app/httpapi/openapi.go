package httpapi

import (
	"reflect"
	"slices"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/gofiber/fiber/v2"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/app/httpapi/openapi"
	"github.com/ferry-dev/ferry/billing"
	"github.com/ferry-dev/ferry/catalog"
	"github.com/ferry-dev/ferry/customers"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/insight"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/queue"
	"github.com/ferry-dev/ferry/delivery/replay"
	"github.com/ferry-dev/ferry/inbound"
	"github.com/ferry-dev/ferry/portal"
	"github.com/ferry-dev/ferry/tenants"
)

// The OpenAPI 3 document served at /api/v1/openapi.json. The route table
// below (operations) says, per route, its summary, who may call it, its
// status codes, and the Go types its handler decodes and encodes;
// package openapi reflects the schemas from those types, so the document
// follows the code. Tests check that the table and the router name the
// same routes, and that what encoding/json produces for each response
// type validates against the document. `ferry openapi` prints it for the
// portal's generated TypeScript types (frontend/src/api.gen.ts).

// apiDescription is what the HTTP layer tells package openapi: the route
// table and what its own types cannot say in struct tags.
func apiDescription() openapi.API {
	return openapi.API{
		Operations:        operations(),
		Names:             schemaNames(),
		Fields:            fieldSpecs(),
		Error:             reflect.TypeFor[errorBody](),
		ErrorDescriptions: errorDescriptions(),
		SessionCookie:     sessionCookie,
	}
}

func eventListParams() openapi3.Parameters {
	return append(openapi3.Parameters{
		openapi.QueryParam("type", "only events of this type", openapi3.NewStringSchema()),
		openapi.QueryParam("customer", "only events sent for this customer (uid)", openapi3.NewStringSchema()),
		openapi.QueryParam("status", "only events with a delivery in this status",
			openapi3.NewStringSchema().WithEnum(openapi.EnumOf(reflect.TypeFor[model.Status]())...)),
		openapi.QueryParam("endpoint_id", "only events with a delivery to this endpoint", openapi3.NewUUIDSchema()),
		openapi.QueryParam("since", "created at or after (RFC 3339)", openapi3.NewDateTimeSchema()),
		openapi.QueryParam("until", "created before (RFC 3339)", openapi3.NewDateTimeSchema()),
	}, openapi.PageParams()...)
}

// operations maps "METHOD /path" (relative to /api/v1) to its operation.
func operations() map[string]openapi.Operation {
	idempotencyKey := &openapi3.ParameterRef{Value: &openapi3.Parameter{Name: "Idempotency-Key", In: openapi3.ParameterInHeader,
		Description: "alternative to idempotency_key", Schema: openapi3.NewStringSchema().WithMaxLength(255).NewRef()}}
	outcome := openapi.QueryParam("outcome", "only attempts with this outcome",
		openapi3.NewStringSchema().WithEnum(openapi.EnumOf(reflect.TypeFor[model.Outcome]())...))
	q := openapi.QueryParam("q", "tenant id, name or member email (substring)", openapi3.NewStringSchema())
	tenantID := openapi.QueryParam("tenant_id", "only entries about this tenant", openapi3.NewUUIDSchema())
	window := openapi.QueryParam("window", "whole UTC hours from the one holding now minus the window (default 24h)",
		openapi3.NewStringSchema().WithEnum("1h", "24h", "7d"))

	ops := map[string]openapi.Operation{
		"POST /auth/signup": {Summary: "Sign up: mails the address a link that finishes it (the answer is the same for an address that has an account)", Tag: "auth", Status: 202,
			Body: reflect.TypeFor[tenants.SignupInput](), Response: openapi.Types[signupAccepted](), Errors: []int{400, 422, 429}},
		"POST /auth/signup/confirm": {Summary: "Finish a sign-up with the emailed token (creates the organisation, signs in)", Tag: "auth", Status: 201,
			Body: reflect.TypeFor[finishSignupInput](), Response: openapi.Types[meResponse](), Errors: []int{400, 409, 422}},
		"POST /auth/login":  {Summary: "Log in", Tag: "auth", Status: 200, Body: reflect.TypeFor[loginInput](), Response: openapi.Types[meResponse](), Errors: []int{400, 401, 422, 429}},
		"POST /auth/logout": {Summary: "Log out (ends the session server-side)", Tag: "auth", Status: 204},
		"POST /auth/password-reset": {Summary: "Request a password reset email", Tag: "auth", Status: 202,
			Body: reflect.TypeFor[passwordResetInput](), Response: openapi.Types[acceptedMessage](), Errors: []int{400, 422, 429}},
		"POST /auth/password-reset/confirm": {Summary: "Reset the password with an emailed token", Tag: "auth", Status: 204,
			Body: reflect.TypeFor[passwordResetConfirmInput](), Errors: []int{400, 422}},
		"POST /auth/invites/accept": {Summary: "Accept a member invite and set a password", Tag: "auth", Status: 200,
			Body: reflect.TypeFor[inviteAcceptInput](), Response: openapi.Types[meResponse](), Errors: []int{400, 422}},
		"POST /me/verify-email": {Summary: "Mail a link that verifies the signed-in member's address", Tag: "auth", Access: openapi.Session, Status: 202,
			Response: openapi.Types[acceptedMessage](), Errors: []int{429}},
		"POST /auth/verify-email": {Summary: "Verify the email address with an emailed token", Tag: "auth", Status: 204,
			Body: reflect.TypeFor[verifyEmailInput](), Errors: []int{400, 422}},
		"POST /me/password": {Summary: "Change password (ends the other sessions)", Tag: "auth", Access: openapi.Session, Status: 204,
			Body: reflect.TypeFor[changePasswordInput](), Errors: []int{400, 401, 422, 429}},
		"POST /me/totp": {Summary: "Staff: start TOTP enrolment", Tag: "auth", Access: openapi.Session, Status: 201,
			Response: openapi.Types[tenants.TOTPEnrolment](), Errors: []int{403, 409}},
		"POST /me/totp/confirm": {Summary: "Staff: confirm TOTP enrolment", Tag: "auth", Access: openapi.Session, Status: 204,
			Body: reflect.TypeFor[totpConfirmInput](), Errors: []int{400, 403, 422}},
		"GET /me": {Summary: "Current user", Tag: "auth", Access: openapi.Session, Status: 200, Response: openapi.Types[meResponse]()},
		"GET /me/notifications": {Summary: "My notification mail preferences", Tag: "auth", Access: openapi.Session, Status: 200,
			Response: openapi.Types[tenants.NotificationPrefs](), Errors: []int{403}},
		"PUT /me/notifications": {Summary: "Set my notification mail preferences", Tag: "auth", Access: openapi.Session, Status: 200,
			Body: reflect.TypeFor[notificationPrefsInput](), Response: openapi.Types[tenants.NotificationPrefs](), Errors: []int{400, 403, 422}},

		"POST /api-keys":        {Summary: "Create API key", Tag: "api-keys", Access: openapi.Session, Status: 201, Body: reflect.TypeFor[apiKeyInput](), Response: openapi.Types[apiKeyCreated](), Errors: []int{400, 422}},
		"GET /api-keys":         {Summary: "List API keys", Tag: "api-keys", Access: openapi.Session, Status: 200, Response: openapi.Types[list[tenants.APIKey]]()},
		"DELETE /api-keys/{id}": {Summary: "Revoke API key", Tag: "api-keys", Access: openapi.Session, Status: 204, Errors: []int{404}},

		"POST /customers/{uid}/portal-sessions": {Summary: "Mint a customer portal session", Tag: "portal", Access: openapi.Key, Status: 201,
			Body: reflect.TypeFor[portal.SessionInput](), Response: openapi.Types[portal.Minted](), Errors: []int{400, 404, 422}},
		"POST /customers/{uid}/portal-sessions/revoke": {Summary: "Revoke a customer's portal sessions", Tag: "portal", Access: openapi.Key,
			Status: 200, Body: reflect.TypeFor[revokeInput](), OptionalBody: true, Response: openapi.Types[revoked](), Errors: []int{400}},
		"GET /portal-sessions": {Summary: "List portal sessions", Tag: "portal", Access: openapi.Key, Status: 200,
			Response: openapi.Types[list[portal.Session]](),
			Params: append(openapi3.Parameters{openapi.QueryParam("customer", "only this customer's (uid)", openapi3.NewStringSchema())},
				openapi.PageParams()...), Errors: []int{422}},
		"DELETE /portal-sessions/{id}": {Summary: "Revoke a portal session", Tag: "portal", Access: openapi.Key, Status: 204, Errors: []int{404}},
		"GET /portal-settings": {Summary: "Portal settings (framing origins, theme)", Tag: "portal", Access: openapi.Key, Status: 200,
			Response: openapi.Types[portal.Settings]()},
		"PUT /portal-settings": {Summary: "Set portal settings", Tag: "portal", Access: openapi.Key, Status: 200,
			Body: reflect.TypeFor[portal.SettingsInput](), Response: openapi.Types[portal.Settings](), Errors: []int{400, 422}},
		"GET /portal-audit": {Summary: "What customers' users did in their portal", Tag: "portal", Access: openapi.Key, Status: 200,
			Response: openapi.Types[list[portal.AuditEntry]](),
			Params: append(openapi3.Parameters{openapi.QueryParam("customer", "only this customer's (uid)", openapi3.NewStringSchema())},
				openapi.PageParams()...), Errors: []int{422}},

		"POST /portal/exchange": {Summary: "Exchange a portal link's code for a token", Tag: "customer portal", Access: openapi.Public,
			Status: 200, Body: reflect.TypeFor[exchangeInput](), Response: openapi.Types[portal.Exchanged](), Errors: []int{400, 401, 422, 429}},
		"POST /portal/renew": {Summary: "Renew the portal token", Tag: "customer portal", Access: openapi.PortalToken, Status: 200,
			Response: openapi.Types[portal.Token]()},
		"GET /portal/session": {Summary: "The portal session", Tag: "customer portal", Access: openapi.PortalToken, Status: 200,
			Response: openapi.Types[portal.Session]()},
		"GET /portal/endpoints": {Summary: "The customer's endpoints", Tag: "customer portal", Access: openapi.PortalToken, Status: 200,
			Response: openapi.Types[list[delivery.Endpoint]](), Params: openapi.PageParams(), Errors: []int{422}},
		"POST /portal/endpoints": {Summary: "Create an endpoint of the customer", Tag: "customer portal", Access: openapi.PortalToken, Status: 201,
			Body: reflect.TypeFor[portalEndpointInput](), Response: openapi.Types[endpointCreated](), Errors: []int{400, 422}},
		"GET /portal/endpoints/{id}": {Summary: "One of the customer's endpoints", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 200, Response: openapi.Types[delivery.Endpoint](), Errors: []int{404}},
		"PATCH /portal/endpoints/{id}": {Summary: "Update one of the customer's endpoints", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 200, Body: reflect.TypeFor[delivery.EndpointPatch](), Response: openapi.Types[delivery.Endpoint](), Errors: []int{400, 404, 422}},
		"DELETE /portal/endpoints/{id}": {Summary: "Delete one of the customer's endpoints", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 204, Errors: []int{404}},
		"GET /portal/endpoints/{id}/secret": {Summary: "Reveal an endpoint's secret (audited)", Tag: "customer portal",
			Access: openapi.PortalToken, Status: 200, Response: openapi.Types[delivery.SecretInfo](), Errors: []int{404}},
		"POST /portal/endpoints/{id}/secret/rotate": {Summary: "Rotate an endpoint's secret", Tag: "customer portal",
			Access: openapi.PortalToken, Status: 200, Response: openapi.Types[delivery.SecretInfo](), Errors: []int{404}},
		"POST /portal/endpoints/{id}/test": {Summary: "Send a test event (or a catalog example) to an endpoint", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 202, Body: reflect.TypeFor[testEventInput](), OptionalBody: true, Response: openapi.Types[eventAccepted](), Errors: []int{400, 402, 404, 422, 503}},
		"GET /portal/event-types": {Summary: "The tenant's event types (catalog) for the type picker", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 200, Response: openapi.Types[list[catalog.EventType]](), Params: openapi.PageParams(), Errors: []int{422}},
		"GET /portal/event-types/{name}": {Summary: "An event type with its schemas and examples", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 200, Response: openapi.Types[catalog.EventType](), Errors: []int{404}},
		"GET /portal/endpoints/{id}/attempts": {Summary: "An endpoint's attempts", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 200, Response: openapi.Types[list[model.Attempt]](), Params: openapi.PageParams(), Errors: []int{404, 422}},
		"GET /portal/endpoints/{id}/stats": {Summary: "An endpoint's stats", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 200, Response: openapi.Types[insight.Stats](), Errors: []int{404, 422}},
		"GET /portal/events": {Summary: "The customer's messages", Tag: "customer portal", Access: openapi.PortalToken, Status: 200,
			Response: openapi.Types[list[delivery.EventDetail]](), Params: eventListParams(), Errors: []int{422}},
		"GET /portal/events/{id}": {Summary: "One of the customer's messages", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 200, Response: openapi.Types[delivery.EventDetail](), Errors: []int{404}},
		"GET /portal/events/{id}/attempts": {Summary: "A message's attempts at the customer's endpoints", Tag: "customer portal",
			Access: openapi.PortalToken, Status: 200, Response: openapi.Types[list[model.Attempt]](), Errors: []int{404}},
		"POST /portal/events/{id}/replay": {Summary: "Replay a message to the customer's endpoints", Tag: "customer portal",
			Access: openapi.PortalToken, Status: 202, Body: reflect.TypeFor[replayEventInput](), OptionalBody: true,
			Response: openapi.Types[replay.ReplayResult](), Errors: []int{400, 402, 404, 422}},
		"POST /portal/recover/preview": {Summary: "Count an endpoint's failed deliveries since a time", Tag: "customer portal",
			Access: openapi.PortalToken, Status: 200, Body: reflect.TypeFor[recoverInput](), Response: openapi.Types[recovered](),
			Errors: []int{400, 404, 422}},
		"POST /portal/recover": {Summary: "Replay an endpoint's failed deliveries since a time", Tag: "customer portal",
			Access: openapi.PortalToken, Status: 202, Body: reflect.TypeFor[recoverInput](), Response: openapi.Types[recovered](),
			Errors: []int{400, 402, 404, 422}},

		"POST /customers": {Summary: "Create or update customer (by uid)", Tag: "customers", Access: openapi.Key, Status: 201,
			Body: reflect.TypeFor[customers.Input](), Response: openapi.Types[customers.Customer](), Errors: []int{400, 422}},
		"GET /customers": {Summary: "List customers", Tag: "customers", Access: openapi.Key, Status: 200,
			Response: openapi.Types[list[customers.Customer]](), Params: openapi.PageParams(), Errors: []int{422}},
		"GET /customers/{uid}": {Summary: "Get customer", Tag: "customers", Access: openapi.Key, Status: 200,
			Response: openapi.Types[customers.Customer](), Errors: []int{404}},
		"PUT /customers/{uid}": {Summary: "Create or update customer", Tag: "customers", Access: openapi.Key, Status: 201,
			Body: reflect.TypeFor[customerInput](), Response: openapi.Types[customers.Customer](), Errors: []int{400, 422}},
		"PATCH /customers/{uid}": {Summary: "Update customer", Tag: "customers", Access: openapi.Key, Status: 200,
			Body: reflect.TypeFor[customers.Patch](), Response: openapi.Types[customers.Customer](), Errors: []int{400, 404, 422}},
		"DELETE /customers/{uid}": {Summary: "Delete customer (disables its endpoints; history kept)", Tag: "customers", Access: openapi.Key,
			Status: 204, Errors: []int{404}},

		"POST /endpoints": {Summary: "Create endpoint", Tag: "endpoints", Access: openapi.Key, Status: 201, Body: reflect.TypeFor[delivery.EndpointInput](), Response: openapi.Types[endpointCreated](), Errors: []int{400, 413, 422}},
		"GET /endpoints": {Summary: "List endpoints", Tag: "endpoints", Access: openapi.Key, Status: 200, Response: openapi.Types[list[delivery.Endpoint]](),
			Params: append(openapi3.Parameters{openapi.QueryParam("customer", "only this customer's endpoints (uid)", openapi3.NewStringSchema())},
				openapi.PageParams()...), Errors: []int{422}},
		"GET /endpoints/{id}":                {Summary: "Get endpoint", Tag: "endpoints", Access: openapi.Key, Status: 200, Response: openapi.Types[delivery.Endpoint](), Errors: []int{404}},
		"PATCH /endpoints/{id}":              {Summary: "Update endpoint", Tag: "endpoints", Access: openapi.Key, Status: 200, Body: reflect.TypeFor[delivery.EndpointPatch](), Response: openapi.Types[delivery.Endpoint](), Errors: []int{400, 404, 422}},
		"DELETE /endpoints/{id}":             {Summary: "Delete endpoint", Tag: "endpoints", Access: openapi.Key, Status: 204, Errors: []int{404}},
		"GET /endpoints/{id}/secret":         {Summary: "Reveal endpoint secret", Tag: "endpoints", Access: openapi.Key, Status: 200, Response: openapi.Types[delivery.SecretInfo](), Errors: []int{404}},
		"POST /endpoints/{id}/secret/rotate": {Summary: "Rotate endpoint secret", Tag: "endpoints", Access: openapi.Key, Status: 200, Response: openapi.Types[delivery.SecretInfo](), Errors: []int{404}},
		"POST /endpoints/{id}/test": {Summary: "Send a ferry.test event (or a catalog example) to this endpoint only (whatever its event types and filter)", Tag: "endpoints", Access: openapi.Key, Status: 202,
			Body: reflect.TypeFor[testEventInput](), OptionalBody: true, Response: openapi.Types[eventAccepted](), Errors: []int{400, 402, 404, 422, 429, 503}},
		"POST /endpoints/{id}/test-routing": {Summary: "Test endpoint routing on a sample event", Tag: "endpoints", Access: openapi.Key, Status: 200, Body: reflect.TypeFor[delivery.RoutingTestInput](), Response: openapi.Types[delivery.RoutingTestResult](), Errors: []int{400, 404, 422}},
		"GET /endpoints/{id}/attempts": {Summary: "List endpoint attempts", Tag: "endpoints", Access: openapi.Key, Status: 200, Response: openapi.Types[list[model.Attempt]](),
			Params: append(openapi3.Parameters{outcome}, openapi.PageParams()...), Errors: []int{404, 422}},

		"GET /endpoints/{id}/stats": {Summary: "Endpoint stats", Tag: "stats", Access: openapi.Key, Status: 200, Response: openapi.Types[insight.Stats](),
			Params: openapi3.Parameters{window}, Errors: []int{404, 422}},
		"GET /stats": {Summary: "Tenant stats", Tag: "stats", Access: openapi.Key, Status: 200, Response: openapi.Types[insight.TenantStats](),
			Params: openapi3.Parameters{window, openapi.QueryParam("customer", "only this customer's endpoints (uid)", openapi3.NewStringSchema())},
			Errors: []int{422}},

		"POST /events": {Summary: "Send event", Tag: "events", Access: openapi.Key, Status: 202, Body: reflect.TypeFor[delivery.EventInput](), Response: openapi.Types[eventAccepted](),
			Params: openapi3.Parameters{idempotencyKey}, Errors: []int{400, 402, 413, 422, 503}},
		"GET /events":               {Summary: "List events", Tag: "events", Access: openapi.Key, Status: 200, Response: openapi.Types[list[delivery.EventDetail]](), Params: eventListParams(), Errors: []int{422}},
		"GET /events/{id}":          {Summary: "Get event with deliveries", Tag: "events", Access: openapi.Key, Status: 200, Response: openapi.Types[delivery.EventDetail](), Errors: []int{404}},
		"GET /events/{id}/attempts": {Summary: "List event attempts", Tag: "events", Access: openapi.Key, Status: 200, Response: openapi.Types[list[model.Attempt]](), Errors: []int{404}},

		"POST /events/{id}/replay":     {Summary: "Replay event", Tag: "replays", Access: openapi.Key, Status: 202, Body: reflect.TypeFor[replayEventInput](), OptionalBody: true, Response: openapi.Types[replay.ReplayResult](), Errors: []int{400, 402, 404, 422, 429}},
		"POST /deliveries/{id}/replay": {Summary: "Replay delivery", Tag: "replays", Access: openapi.Key, Status: 202, Response: openapi.Types[replay.ReplayResult](), Errors: []int{402, 404, 422, 429}},
		"POST /replays":                {Summary: "Start bulk replay", Tag: "replays", Access: openapi.Key, Status: 202, Body: reflect.TypeFor[bulkReplayInput](), OptionalBody: true, Response: openapi.Types[replay.ReplayJob](), Errors: []int{400, 402, 404, 422, 429}},
		"GET /replays":                 {Summary: "List bulk replays", Tag: "replays", Access: openapi.Key, Status: 200, Response: openapi.Types[list[replay.ReplayJob]](), Params: openapi.PageParams(), Errors: []int{422}},
		"GET /replays/{id}":            {Summary: "Get bulk replay progress", Tag: "replays", Access: openapi.Key, Status: 200, Response: openapi.Types[replay.ReplayJob](), Errors: []int{404}},
		"POST /replays/{id}/cancel":    {Summary: "Cancel bulk replay", Tag: "replays", Access: openapi.Key, Status: 200, Response: openapi.Types[replay.ReplayJob](), Errors: []int{404}},
		"POST /replays/preview": {Summary: "Count the deliveries a bulk replay would re-send (starts nothing)", Tag: "replays", Access: openapi.Key, Status: 200,
			Body: reflect.TypeFor[bulkReplayInput](), OptionalBody: true, Response: openapi.Types[replay.ReplayPreview](), Errors: []int{400, 404, 422}},

		"GET /members":              {Summary: "List members", Tag: "members", Access: openapi.Session, Status: 200, Response: openapi.Types[list[tenants.User]]()},
		"POST /members":             {Summary: "Invite member", Tag: "members", Access: openapi.Session, Status: 201, Body: reflect.TypeFor[tenants.MemberInput](), Response: openapi.Types[tenants.User](), Errors: []int{400, 403, 409, 422, 429}},
		"POST /members/{id}/invite": {Summary: "Resend a member's invite", Tag: "members", Access: openapi.Session, Status: 202, Response: openapi.Types[tenants.User](), Errors: []int{403, 404, 409, 429}},
		"PATCH /members/{id}":       {Summary: "Change member role", Tag: "members", Access: openapi.Session, Status: 200, Body: reflect.TypeFor[tenants.MemberPatch](), Response: openapi.Types[tenants.User](), Errors: []int{400, 404, 409, 422}},
		"DELETE /members/{id}":      {Summary: "Remove member", Tag: "members", Access: openapi.Session, Status: 204, Errors: []int{404, 409}},

		"GET /staff/tenants":                        {Summary: "Staff search tenants", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[list[tenants.TenantSummary]](), Params: append(openapi3.Parameters{q}, openapi.PageParams()...), Errors: []int{404, 422}},
		"GET /staff/tenants/{id}":                   {Summary: "Staff get tenant", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[staffTenantView](), Errors: []int{404}},
		"GET /staff/tenants/{id}/events":            {Summary: "Staff list tenant events", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[list[delivery.EventDetail]](), Params: eventListParams(), Errors: []int{404, 422}},
		"GET /staff/tenants/{id}/events/{event_id}": {Summary: "Staff get tenant event", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[insight.StaffEventDetail](), Errors: []int{404}},
		"GET /staff/events/{event_id}":              {Summary: "Staff look up an event by id across tenants", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[staffEventLookup](), Errors: []int{404}},
		"POST /staff/tenants/{id}/replays": {Summary: "Staff replay", Tag: "staff", Access: openapi.Staff, Status: 202, Body: reflect.TypeFor[staffReplayInput](),
			Response: []reflect.Type{reflect.TypeFor[replay.ReplayResult](), reflect.TypeFor[replay.ReplayJob]()}, Errors: []int{400, 404, 422}},
		"GET /staff/tenants/{id}/replays/{replay_id}": {Summary: "Staff get replay progress", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[replay.ReplayJob](), Errors: []int{404}},
		"POST /staff/tenants/{id}/replays/preview": {Summary: "Staff count the deliveries a bulk replay would re-send", Tag: "staff", Access: openapi.Staff, Status: 200,
			Body: reflect.TypeFor[bulkReplayInput](), OptionalBody: true, Response: openapi.Types[replay.ReplayPreview](), Errors: []int{400, 404, 422}},
		"GET /staff/tenants/{id}/endpoints/{endpoint_id}/attempts": {Summary: "Staff list an endpoint's attempts", Tag: "staff", Access: openapi.Staff, Status: 200,
			Response: openapi.Types[list[model.Attempt]](), Params: append(openapi3.Parameters{outcome}, openapi.PageParams()...), Errors: []int{404, 422}},
		"GET /staff/audit": {Summary: "Staff audit log", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[list[tenants.AuditEntry]](),
			Params: append(openapi3.Parameters{tenantID,
				openapi.QueryParam("actor", "part of the staff member's email", openapi3.NewStringSchema()),
				openapi.QueryParam("action", "one action, e.g. replay", openapi3.NewStringSchema()),
				openapi.QueryParam("kind", "write: actions that changed something; read: views; absent: both",
					openapi3.NewStringSchema().WithEnum(tenants.AuditKindWrite, tenants.AuditKindRead)),
				openapi.QueryParam("since", "created at or after (RFC 3339)", openapi3.NewDateTimeSchema()),
				openapi.QueryParam("until", "created before (RFC 3339)", openapi3.NewDateTimeSchema())}, openapi.PageParams()...), Errors: []int{404, 422}},

		"GET /billing":      {Summary: "Billing overview", Tag: "billing", Access: openapi.Session, Status: 200, Response: openapi.Types[billing.Overview]()},
		"PUT /billing/plan": {Summary: "Change plan", Tag: "billing", Access: openapi.Session, Status: 200, Body: reflect.TypeFor[planInput](), Response: openapi.Types[billing.Overview](), Errors: []int{400, 402, 422, 503}},
		"POST /staff/tenants/{id}/billing/lift-restriction": {Summary: "Staff lift the overdue-invoice restriction", Tag: "staff", Access: openapi.Staff, Status: 200,
			Body: reflect.TypeFor[liftRestrictionInput](), Response: openapi.Types[staffBilling](), Errors: []int{400, 404, 422}},
		"GET /billing/invoices":           {Summary: "List invoices", Tag: "billing", Access: openapi.Session, Status: 200, Response: openapi.Types[list[billing.Invoice]](), Params: openapi.PageParams(), Errors: []int{422}},
		"GET /staff/tenants/{id}/billing": {Summary: "Staff get tenant billing", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[staffBilling](), Errors: []int{404}},

		"POST /queues/{endpoint_id}/pull": {Summary: "Pull queue messages", Tag: "queues", Access: openapi.Key, Status: 200, Body: reflect.TypeFor[queue.PullInput](), OptionalBody: true,
			Response: openapi.Types[pulled](), Errors: []int{400, 404, 422}},
		"POST /queues/{endpoint_id}/ack":    {Summary: "Ack queue messages", Tag: "queues", Access: openapi.Key, Status: 200, Body: reflect.TypeFor[queue.AckInput](), Response: openapi.Types[settled](), Errors: []int{400, 404, 422}},
		"POST /queues/{endpoint_id}/nack":   {Summary: "Nack queue messages", Tag: "queues", Access: openapi.Key, Status: 200, Body: reflect.TypeFor[queue.NackInput](), Response: openapi.Types[settled](), Errors: []int{400, 404, 422}},
		"POST /queues/{endpoint_id}/reject": {Summary: "Reject queue messages", Tag: "queues", Access: openapi.Key, Status: 200, Body: reflect.TypeFor[queue.RejectInput](), Response: openapi.Types[settled](), Errors: []int{400, 404, 422}},
		"GET /queues/{endpoint_id}":         {Summary: "Queue stats", Tag: "queues", Access: openapi.Key, Status: 200, Response: openapi.Types[queue.Stats](), Errors: []int{404}},
		"GET /queues/{endpoint_id}/stream": {Summary: "Stream queue messages (text/event-stream: event message, data one pulled message)", Tag: "queues", Access: openapi.Key, Status: 200,
			Params: openapi3.Parameters{openapi.QueryParam("visibility_seconds", "lease of each message (1-43200, default 30)", openapi3.NewIntegerSchema().WithMin(1).WithMax(queue.MaxVisibilitySeconds))},
			Errors: []int{404, 422}},
		"POST /endpoints/{id}/consumer-tokens": {Summary: "Create consumer token", Tag: "queues", Access: openapi.Key, Status: 201, Body: reflect.TypeFor[queue.TokenInput](),
			Response: openapi.Types[consumerTokenCreated](), Errors: []int{400, 404, 422}},
		"GET /endpoints/{id}/consumer-tokens":               {Summary: "List consumer tokens", Tag: "queues", Access: openapi.Key, Status: 200, Response: openapi.Types[list[queue.ConsumerToken]](), Errors: []int{404}},
		"DELETE /endpoints/{id}/consumer-tokens/{token_id}": {Summary: "Revoke consumer token", Tag: "queues", Access: openapi.Key, Status: 204, Errors: []int{404}},

		"POST /sources":                                   {Summary: "Create source", Tag: "sources", Access: openapi.Key, Status: 201, Body: reflect.TypeFor[inbound.SourceInput](), Response: openapi.Types[inbound.Source](), Errors: []int{400, 422}},
		"GET /sources":                                    {Summary: "List sources", Tag: "sources", Access: openapi.Key, Status: 200, Response: openapi.Types[list[inbound.Source]](), Params: openapi.PageParams(), Errors: []int{422}},
		"GET /sources/{id}":                               {Summary: "Get source", Tag: "sources", Access: openapi.Key, Status: 200, Response: openapi.Types[inbound.Source](), Errors: []int{404}},
		"PATCH /sources/{id}":                             {Summary: "Update source", Tag: "sources", Access: openapi.Key, Status: 200, Body: reflect.TypeFor[inbound.SourcePatch](), Response: openapi.Types[inbound.Source](), Errors: []int{400, 404, 422}},
		"DELETE /sources/{id}":                            {Summary: "Delete source", Tag: "sources", Access: openapi.Key, Status: 204, Errors: []int{404}},
		"POST /sources/{id}/rotate-token":                 {Summary: "Rotate source ingest token", Tag: "sources", Access: openapi.Key, Status: 200, Response: openapi.Types[inbound.Source](), Errors: []int{404}},
		"GET /sources/{id}/requests":                      {Summary: "List source requests", Tag: "sources", Access: openapi.Key, Status: 200, Response: openapi.Types[list[inbound.Request]](), Params: append(openapi3.Parameters{openapi.QueryParam("status", "only requests with this status", openapi3.NewStringSchema().WithEnum(openapi.EnumOf(reflect.TypeFor[inbound.Status]())...))}, openapi.PageParams()...), Errors: []int{404, 422}},
		"GET /sources/{id}/requests/{request_id}":         {Summary: "Get source request", Tag: "sources", Access: openapi.Key, Status: 200, Response: openapi.Types[sourceRequestDetail](), Errors: []int{404}},
		"POST /sources/{id}/requests/{request_id}/replay": {Summary: "Replay source request", Tag: "sources", Access: openapi.Key, Status: 202, Response: openapi.Types[inbound.ReplayResult](), Errors: []int{402, 404, 422, 429}},

		"POST /event-types": {Summary: "Create event type (with version 1 when it has a schema)", Tag: "event-types", Access: openapi.Key, Status: 201,
			Body: reflect.TypeFor[catalog.EventTypeInput](), Response: openapi.Types[catalog.EventType](), Errors: []int{400, 409, 422}},
		"GET /event-types": {Summary: "List event types (without versions)", Tag: "event-types", Access: openapi.Key, Status: 200,
			Response: openapi.Types[list[catalog.EventType]](), Params: openapi.PageParams(), Errors: []int{422}},
		"GET /event-types/{name}": {Summary: "Get event type with its versions and recent warnings (a name holding / is sent as %2F)", Tag: "event-types", Access: openapi.Key, Status: 200,
			Response: openapi.Types[catalog.EventType](), Errors: []int{404}},
		"PATCH /event-types/{name}": {Summary: "Update event type (group, description, validation, deprecated)", Tag: "event-types", Access: openapi.Key, Status: 200,
			Body: reflect.TypeFor[catalog.EventTypePatch](), Response: openapi.Types[catalog.EventType](), Errors: []int{400, 404, 422}},
		"DELETE /event-types/{name}": {Summary: "Delete event type and its versions", Tag: "event-types", Access: openapi.Key, Status: 204, Errors: []int{404}},
		"POST /event-types/{name}/versions": {Summary: "Add a version (schema and examples); ingest validates against the latest", Tag: "event-types", Access: openapi.Key, Status: 201,
			Body: reflect.TypeFor[catalog.VersionInput](), Response: openapi.Types[catalog.Version](), Errors: []int{400, 404, 422}},
		"POST /event-types/import": {Summary: "Import the webhooks of an OpenAPI 3.1 document (JSON)", Tag: "event-types", Access: openapi.Key, Status: 200,
			Body: reflect.TypeFor[openAPIImport](), Response: openapi.Types[catalog.ImportResult](), Errors: []int{400, 413, 422}},

		"GET /openapi.json": {Summary: "This document", Tag: "meta", Status: 200, Response: openapi.Types[map[string]any]()},
	}
	// Every other creating route takes an Idempotency-Key (idempotency.go).
	retryKey := &openapi3.ParameterRef{Value: &openapi3.Parameter{Name: idempotencyHeader, In: openapi3.ParameterInHeader,
		Description: "a key of yours, at most 255 bytes: within 24 h a retry with the same key, URL and body gets the first " +
			"answer again (with Idempotent-Replayed: true), another request with the key 422 idempotency_key_reused, " +
			"and a retry while the first still runs 409",
		Schema: openapi3.NewStringSchema().WithMinLength(1).WithMaxLength(255).NewRef()}}
	for route, op := range ops {
		if _, ok := takesRetryKey(route, op); ok {
			op.Params = append(slices.Clone(op.Params), retryKey)
			for _, status := range []int{409, 422} {
				if !slices.Contains(op.Errors, status) {
					op.Errors = append(slices.Clone(op.Errors), status)
				}
			}
			ops[route] = op
		}
	}
	return ops
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

// schemaNames are the component names of the HTTP layer's types that are
// not their Go name with the first letter upper-cased.
func schemaNames() map[reflect.Type]string {
	return map[reflect.Type]string{
		reflect.TypeFor[staffTenantHealth]():    "StaffTenantHealth",
		reflect.TypeFor[meResponse]():           "Me",
		reflect.TypeFor[apiKeyCreated]():        "APIKeyCreated",
		reflect.TypeFor[apiKeyInput]():          "APIKeyInput",
		reflect.TypeFor[staffTenantView]():      "StaffTenant",
		reflect.TypeFor[errorBody]():            "Error",
		reflect.TypeFor[pulled]():               "QueuePull",
		reflect.TypeFor[sourceRequestDetail]():  "SourceRequestDetail",
		reflect.TypeFor[settled]():              "QueueSettled",
		reflect.TypeFor[openAPIImport]():        "OpenAPIDocument",
		reflect.TypeFor[catalog.Version]():      "EventTypeVersion",
		reflect.TypeFor[catalog.Warning]():      "EventTypeWarning",
		reflect.TypeFor[catalog.ImportResult](): "EventTypeImportResult",
		reflect.TypeFor[catalog.ImportSkip]():   "EventTypeImportSkip",
	}
}

// fieldSpecs describes fields of the HTTP layer's types that struct tags
// cannot: values computed from Go constants.
func fieldSpecs() map[reflect.Type]map[string]openapi.FieldSpec {
	return map[reflect.Type]map[string]openapi.FieldSpec{
		reflect.TypeFor[errorDetail](): {
			"code":  {Enum: errorCodes()},
			"field": {Description: "the request field at fault, when one is"},
		},
		reflect.TypeFor[meResponse](): {
			"role": {Enum: append(openapi.Enum(tenants.RoleOwner, tenants.RoleAdmin, tenants.RoleViewer), "staff")},
		},
	}
}

// errorCodes are the codes of the error body: those errorHandler maps to
// a status.
func errorCodes() []any {
	codes := make([]string, 0, len(statusByCode))
	for code := range statusByCode {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	return openapi.Enum(codes...)
}

// OpenAPIDocument returns the document as indented JSON, exactly as
// GET /api/v1/openapi.json and `ferry openapi` write it.
func OpenAPIDocument() ([]byte, error) {
	return openapi.JSON(apiDescription())
}

func (s *server) openAPI(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(s.openapi)
}
