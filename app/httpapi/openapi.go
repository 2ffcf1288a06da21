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

// publicAPI is the tenant API's description: the routes an API key may
// call (and the document itself), with the webhooks receivers get.
// Everything else (the portal's own sign-in, members and billing, the
// customer portal's routes, the staff console) is in internalAPI.
func publicAPI() openapi.API {
	public, _ := splitOperations()
	a := baseAPI(public)
	a.Title = "Ferry API"
	a.Description = "Ferry's tenant API: send events, manage endpoints, customers, sources, the event-type catalog, " +
		"replays and pull queues. Authenticate with an API key (Authorization: Bearer fry_live_…). " +
		"Errors have the shape {\"error\":{\"code\",\"message\",\"field\"}}; lists have the shape " +
		"{\"data\":[...],\"next_cursor\":...}: pass next_cursor as cursor for the next page. " +
		"Operation ids are resource.action (events.create). The webhooks section describes the requests Ferry sends " +
		"to your endpoints."
	a.Tags = publicTags()
	a.Webhooks = webhooks()
	return a
}

// internalAPI describes the routes the portal itself uses (sessions,
// members, billing), the customer portal and the staff console: not part
// of the public contract, but described so the portal's types are
// generated from it.
func internalAPI() openapi.API {
	_, internal := splitOperations()
	a := baseAPI(internal)
	a.Title = "Ferry internal API"
	a.Description = "The routes Ferry's own portal, the embedded customer portal and the staff console call. " +
		"Not a public contract: they change with the portal. Cookie-authenticated writes must echo the ferry_csrf " +
		"cookie in X-CSRF-Token."
	a.Tags = internalTags()
	return a
}

func baseAPI(ops map[string]openapi.Operation) openapi.API {
	return openapi.API{
		Operations:        ops,
		Names:             schemaNames(),
		Fields:            fieldSpecs(),
		Error:             reflect.TypeFor[errorBody](),
		ErrorDescriptions: errorDescriptions(),
		ErrorExamples:     errorExamples(),
		SessionCookie:     sessionCookie,
		CSRFHeader:        csrfHeader,
	}
}

// isPublic reports whether a route belongs to the tenant API's document:
// those an API key may call, and the document itself.
func isPublic(route string, op openapi.Operation) bool {
	return op.Access == openapi.Key || route == "GET /openapi.json"
}

// splitOperations splits the route table between the two documents.
func splitOperations() (public, internal map[string]openapi.Operation) {
	public, internal = map[string]openapi.Operation{}, map[string]openapi.Operation{}
	for route, op := range operations() {
		if isPublic(route, op) {
			public[route] = op
		} else {
			internal[route] = op
		}
	}
	return public, internal
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
		"POST /auth/signup": {ID: "auth.signup", Summary: "Sign up", Description: "Mails the address a link that finishes the sign-up. The answer is the same for an address that already has an account, so it reveals nothing.", Tag: "auth", Status: 202,
			Body: reflect.TypeFor[tenants.SignupInput](), Response: openapi.Types[signupAccepted](), Errors: []int{400, 422, 429}},
		"POST /auth/signup/confirm": {ID: "auth.signup.confirm", Summary: "Finish a sign-up", Description: "Finishes a sign-up with the emailed token: creates the organisation and its owner, and signs in.", Tag: "auth", Status: 201,
			Body: reflect.TypeFor[finishSignupInput](), Response: openapi.Types[meResponse](), Errors: []int{400, 409, 422}},
		"POST /auth/login":  {ID: "auth.login", Summary: "Log in", Description: "Signs in with email and password and sets the session and CSRF cookies.", Tag: "auth", Status: 200, Body: reflect.TypeFor[loginInput](), Response: openapi.Types[meResponse](), Errors: []int{400, 401, 422, 429}},
		"POST /auth/logout": {ID: "auth.logout", Summary: "Log out", Description: "Ends the session server-side and clears its cookies.", Tag: "auth", Status: 204},
		"POST /auth/password-reset": {ID: "auth.password_reset.request", Summary: "Request a password reset", Description: "Mails a password reset link; the answer is the same whether or not the address has an account.", Tag: "auth", Status: 202,
			Body: reflect.TypeFor[passwordResetInput](), Response: openapi.Types[acceptedMessage](), Errors: []int{400, 422, 429}},
		"POST /auth/password-reset/confirm": {ID: "auth.password_reset.confirm", Summary: "Reset the password", Description: "Sets a new password with an emailed reset token and ends every session of the account.", Tag: "auth", Status: 204,
			Body: reflect.TypeFor[passwordResetConfirmInput](), Errors: []int{400, 422}},
		"POST /auth/invites/accept": {ID: "auth.invite.accept", Summary: "Accept an invite", Description: "Accepts a member invite with its emailed token, sets the password and signs in.", Tag: "auth", Status: 200,
			Body: reflect.TypeFor[inviteAcceptInput](), Response: openapi.Types[meResponse](), Errors: []int{400, 422}},
		"POST /me/verify-email": {ID: "me.email.verify_request", Summary: "Mail an address verification link", Description: "Mails the signed-in member a link that verifies their address.", Tag: "auth", Access: openapi.Session, Status: 202,
			Response: openapi.Types[acceptedMessage](), Errors: []int{429}},
		"POST /auth/verify-email": {ID: "auth.email.verify", Summary: "Verify an email address", Description: "Verifies the address with an emailed token.", Tag: "auth", Status: 204,
			Body: reflect.TypeFor[verifyEmailInput](), Errors: []int{400, 422}},
		"POST /me/password": {ID: "me.password.change", Summary: "Change password", Description: "Changes the signed-in member's password and ends their other sessions.", Tag: "auth", Access: openapi.Session, Status: 204,
			Body: reflect.TypeFor[changePasswordInput](), Errors: []int{400, 401, 422, 429}},
		"POST /me/totp": {ID: "me.totp.start", Summary: "Start TOTP enrolment", Description: "Staff only: starts enrolling an authenticator and returns its secret and otpauth URL.", Tag: "auth", Access: openapi.Session, Status: 201,
			Response: openapi.Types[tenants.TOTPEnrolment](), Errors: []int{403, 409}},
		"POST /me/totp/confirm": {ID: "me.totp.confirm", Summary: "Confirm TOTP enrolment", Description: "Staff only: confirms the authenticator with a current code.", Tag: "auth", Access: openapi.Session, Status: 204,
			Body: reflect.TypeFor[totpConfirmInput](), Errors: []int{400, 403, 422}},
		"GET /me": {ID: "me.get", Summary: "Current user", Description: "The signed-in member or staff member, their tenant and role.", Tag: "auth", Access: openapi.Session, Status: 200, Response: openapi.Types[meResponse]()},
		"GET /me/notifications": {ID: "me.notifications.get", Summary: "Notification preferences", Description: "Which notification mails the signed-in member gets.", Tag: "auth", Access: openapi.Session, Status: 200,
			Response: openapi.Types[tenants.NotificationPrefs](), Errors: []int{403}},
		"PUT /me/notifications": {ID: "me.notifications.set", Summary: "Set notification preferences", Description: "Sets which notification mails the signed-in member gets.", Tag: "auth", Access: openapi.Session, Status: 200,
			Body: reflect.TypeFor[notificationPrefsInput](), Response: openapi.Types[tenants.NotificationPrefs](), Errors: []int{400, 403, 422}},

		"POST /api-keys":        {ID: "api_keys.create", Summary: "Create an API key", Description: "Creates an API key; the key itself is in this answer only.", Tag: "api-keys", Access: openapi.Session, Status: 201, Body: reflect.TypeFor[apiKeyInput](), Response: openapi.Types[apiKeyCreated](), Errors: []int{400, 422}},
		"GET /api-keys":         {ID: "api_keys.list", Summary: "List API keys", Description: "The tenant's API keys (prefixes only, never the keys).", Tag: "api-keys", Access: openapi.Session, Status: 200, Response: openapi.Types[list[tenants.APIKey]]()},
		"DELETE /api-keys/{id}": {ID: "api_keys.revoke", Summary: "Revoke an API key", Description: "Revokes an API key at once.", Tag: "api-keys", Access: openapi.Session, Status: 204, Errors: []int{404}},

		"POST /customers/{uid}/portal-sessions": {ID: "portal_sessions.create", Summary: "Mint a customer portal session", Description: "Mints a customer portal session for one of your customers and returns a single-use link (and its code) to open the embedded portal with. The session's capabilities say what the customer's user may do.", Tag: "portal", Access: openapi.Key, Status: 201,
			Body: reflect.TypeFor[portal.SessionInput](), Response: openapi.Types[portal.Minted](), Errors: []int{400, 404, 422}},
		"POST /customers/{uid}/portal-sessions/revoke": {ID: "portal_sessions.revoke_customer", Summary: "Revoke a customer's portal sessions", Description: "Revokes the customer's portal sessions, all of them or those of one external user; their tokens stop working at once.", Tag: "portal", Access: openapi.Key,
			Status: 200, Body: reflect.TypeFor[revokeInput](), OptionalBody: true, Response: openapi.Types[revoked](), Errors: []int{400}},
		"GET /portal-sessions": {ID: "portal_sessions.list", Summary: "List portal sessions", Description: "The tenant's customer portal sessions, newest first.", Tag: "portal", Access: openapi.Key, Status: 200,
			Response: openapi.Types[list[portal.Session]](),
			Params: append(openapi3.Parameters{openapi.QueryParam("customer", "only this customer's (uid)", openapi3.NewStringSchema())},
				openapi.PageParams()...), Errors: []int{422}},
		"DELETE /portal-sessions/{id}": {ID: "portal_sessions.delete", Summary: "Revoke a portal session", Description: "Revokes one portal session; its token stops working at once.", Tag: "portal", Access: openapi.Key, Status: 204, Errors: []int{404}},
		"GET /portal-settings": {ID: "portal_settings.get", Summary: "Get portal settings", Description: "The embedded portal's settings: the origins that may frame it and its theme.", Tag: "portal", Access: openapi.Key, Status: 200,
			Response: openapi.Types[portal.Settings]()},
		"PUT /portal-settings": {ID: "portal_settings.set", Summary: "Set portal settings", Description: "Replaces the embedded portal's settings: the origins that may frame it and its theme.", Tag: "portal", Access: openapi.Key, Status: 200,
			Body: reflect.TypeFor[portal.SettingsInput](), Response: openapi.Types[portal.Settings](), Errors: []int{400, 422}},
		"GET /portal-audit": {ID: "portal_audit.list", Summary: "List the portal audit", Description: "What your customers' users did in their portal (endpoints created, changed, deleted, secrets revealed or rotated), newest first.", Tag: "portal", Access: openapi.Key, Status: 200,
			Response: openapi.Types[list[portal.AuditEntry]](),
			Params: append(openapi3.Parameters{openapi.QueryParam("customer", "only this customer's (uid)", openapi3.NewStringSchema())},
				openapi.PageParams()...), Errors: []int{422}},

		"POST /portal/exchange": {ID: "portal.exchange", Summary: "Exchange a portal code", Description: "Exchanges a portal link's single-use code for the session's bearer token.", Tag: "customer portal", Access: openapi.Public,
			Status: 200, Body: reflect.TypeFor[exchangeInput](), Response: openapi.Types[portal.Exchanged](), Errors: []int{400, 401, 422, 429}},
		"POST /portal/renew": {ID: "portal.renew", Summary: "Renew the portal token", Description: "Returns a fresh bearer token for the same session.", Tag: "customer portal", Access: openapi.PortalToken, Status: 200,
			Response: openapi.Types[portal.Token]()},
		"GET /portal/session": {ID: "portal.session.get", Summary: "The portal session", Description: "The session the token belongs to: the customer, the external user and the capabilities.", Tag: "customer portal", Access: openapi.PortalToken, Status: 200,
			Response: openapi.Types[portal.Session]()},
		"GET /portal/endpoints": {ID: "portal.endpoints.list", Summary: "List the customer's endpoints", Description: "The endpoints of the session's customer.", Tag: "customer portal", Access: openapi.PortalToken, Status: 200,
			Response: openapi.Types[list[delivery.Endpoint]](), Params: openapi.PageParams(), Errors: []int{422}},
		"POST /portal/endpoints": {ID: "portal.endpoints.create", Summary: "Create an endpoint", Description: "Creates an endpoint of the session's customer (needs the manage capability).", Tag: "customer portal", Access: openapi.PortalToken, Status: 201,
			Body: reflect.TypeFor[portalEndpointInput](), Response: openapi.Types[endpointCreated](), Errors: []int{400, 422}},
		"GET /portal/endpoints/{id}": {ID: "portal.endpoints.get", Summary: "Get an endpoint", Description: "One of the customer's endpoints.", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 200, Response: openapi.Types[delivery.Endpoint](), Errors: []int{404}},
		"PATCH /portal/endpoints/{id}": {ID: "portal.endpoints.update", Summary: "Update an endpoint", Description: "Changes one of the customer's endpoints.", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 200, Body: reflect.TypeFor[delivery.EndpointPatch](), Response: openapi.Types[delivery.Endpoint](), Errors: []int{400, 404, 422}},
		"DELETE /portal/endpoints/{id}": {ID: "portal.endpoints.delete", Summary: "Delete an endpoint", Description: "Deletes one of the customer's endpoints.", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 204, Errors: []int{404}},
		"GET /portal/endpoints/{id}/secret": {ID: "portal.endpoints.secret.get", Summary: "Reveal an endpoint's secret", Description: "Reveals an endpoint's signing secret; the reveal is audited.", Tag: "customer portal",
			Access: openapi.PortalToken, Status: 200, Response: openapi.Types[delivery.SecretInfo](), Errors: []int{404}},
		"POST /portal/endpoints/{id}/secret/rotate": {ID: "portal.endpoints.secret.rotate", Summary: "Rotate an endpoint's secret", Description: "Rotates an endpoint's signing secret; the old one keeps signing for its grace period.", Tag: "customer portal",
			Access: openapi.PortalToken, Status: 200, Response: openapi.Types[delivery.SecretInfo](), Errors: []int{404}},
		"POST /portal/endpoints/{id}/test": {ID: "portal.endpoints.test", Summary: "Send a test event", Description: "Sends a ferry.test event, or a catalog example, to this endpoint only.", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 202, Body: reflect.TypeFor[testEventInput](), OptionalBody: true, Response: openapi.Types[eventAccepted](), Errors: []int{400, 402, 404, 422, 503}},
		"GET /portal/event-types": {ID: "portal.event_types.list", Summary: "List event types", Description: "The tenant's event types (catalog), for the type picker.", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 200, Response: openapi.Types[list[catalog.EventType]](), Params: openapi.PageParams(), Errors: []int{422}},
		"GET /portal/event-types/{name}": {ID: "portal.event_types.get", Summary: "Get an event type", Description: "An event type with its schemas and examples.", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 200, Response: openapi.Types[catalog.EventType](), Errors: []int{404}},
		"GET /portal/endpoints/{id}/attempts": {ID: "portal.endpoints.attempts.list", Summary: "List an endpoint's attempts", Description: "The delivery attempts to one of the customer's endpoints, newest first.", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 200, Response: openapi.Types[list[model.Attempt]](), Params: openapi.PageParams(), Errors: []int{404, 422}},
		"GET /portal/endpoints/{id}/stats": {ID: "portal.endpoints.stats", Summary: "An endpoint's stats", Description: "Delivery counts, latency and backlog of one of the customer's endpoints.", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 200, Response: openapi.Types[insight.Stats](), Errors: []int{404, 422}},
		"GET /portal/events": {ID: "portal.events.list", Summary: "List the customer's messages", Description: "The events sent to the session's customer, newest first.", Tag: "customer portal", Access: openapi.PortalToken, Status: 200,
			Response: openapi.Types[list[delivery.EventDetail]](), Params: eventListParams(), Errors: []int{422}},
		"GET /portal/events/{id}": {ID: "portal.events.get", Summary: "Get a message", Description: "One of the customer's events with its deliveries.", Tag: "customer portal", Access: openapi.PortalToken,
			Status: 200, Response: openapi.Types[delivery.EventDetail](), Errors: []int{404}},
		"GET /portal/events/{id}/attempts": {ID: "portal.events.attempts.list", Summary: "List a message's attempts", Description: "The attempts to deliver one event to the customer's endpoints.", Tag: "customer portal",
			Access: openapi.PortalToken, Status: 200, Response: openapi.Types[list[model.Attempt]](), Errors: []int{404}},
		"POST /portal/events/{id}/replay": {ID: "portal.events.replay", Summary: "Replay a message", Description: "Sends an event again to the customer's endpoints.", Tag: "customer portal",
			Access: openapi.PortalToken, Status: 202, Body: reflect.TypeFor[replayEventInput](), OptionalBody: true,
			Response: openapi.Types[replay.ReplayResult](), Errors: []int{400, 402, 404, 422}},
		"POST /portal/recover/preview": {ID: "portal.recover.preview", Summary: "Count failed deliveries", Description: "Counts an endpoint's failed deliveries since a time (starts nothing).", Tag: "customer portal",
			Access: openapi.PortalToken, Status: 200, Body: reflect.TypeFor[recoverInput](), Response: openapi.Types[recovered](),
			Errors: []int{400, 404, 422}},
		"POST /portal/recover": {ID: "portal.recover", Summary: "Recover failed deliveries", Description: "Replays an endpoint's failed deliveries since a time.", Tag: "customer portal",
			Access: openapi.PortalToken, Status: 202, Body: reflect.TypeFor[recoverInput](), Response: openapi.Types[recovered](),
			Errors: []int{400, 402, 404, 422}},

		"POST /customers": {ID: "customers.upsert", Summary: "Create or update a customer", Description: "Creates the customer with this uid (201), or updates it when it exists (200). The uid is your own id for the customer.", Tag: "customers", Access: openapi.Key, Status: 201, ExistingStatus: 200,
			Body: reflect.TypeFor[customers.Input](), Response: openapi.Types[customerView](), Errors: []int{400, 422}},
		"GET /customers": {ID: "customers.list", Summary: "List customers", Description: "Your customers, newest first, each with the health of its endpoints.", Tag: "customers", Access: openapi.Key, Status: 200,
			Response: openapi.Types[list[customerView]](), Params: openapi.PageParams(), Errors: []int{422}},
		"GET /customers/{uid}": {ID: "customers.get", Summary: "Get a customer", Description: "One customer by its uid, with the health of its endpoints.", Tag: "customers", Access: openapi.Key, Status: 200,
			Response: openapi.Types[customerView](), Errors: []int{404}},
		"PUT /customers/{uid}": {ID: "customers.put", Summary: "Create or replace a customer", Description: "Creates the customer with the uid in the path (201), or replaces its name and metadata (200).", Tag: "customers", Access: openapi.Key, Status: 201, ExistingStatus: 200,
			Body: reflect.TypeFor[customerInput](), Response: openapi.Types[customerView](), Errors: []int{400, 422}},
		"PATCH /customers/{uid}": {ID: "customers.update", Summary: "Update a customer", Description: "Changes the fields sent; the others stay.", Tag: "customers", Access: openapi.Key, Status: 200,
			Body: reflect.TypeFor[customers.Patch](), Response: openapi.Types[customerView](), Errors: []int{400, 404, 422}},
		"DELETE /customers/{uid}": {ID: "customers.delete", Summary: "Delete a customer", Description: "Deletes the customer and disables its endpoints; its event history is kept.", Tag: "customers", Access: openapi.Key,
			Status: 204, Errors: []int{404}},

		"POST /endpoints": {ID: "endpoints.create", Summary: "Create an endpoint", Description: "Creates an endpoint: a URL Ferry pushes signed events to (kind http), or a pull queue (kind queue). The answer carries the signing secret.", Tag: "endpoints", Access: openapi.Key, Status: 201, Body: reflect.TypeFor[delivery.EndpointInput](), Response: openapi.Types[endpointCreated](), Errors: []int{400, 413, 422}},
		"GET /endpoints": {ID: "endpoints.list", Summary: "List endpoints", Description: "Your endpoints, newest first, optionally those of one customer.", Tag: "endpoints", Access: openapi.Key, Status: 200, Response: openapi.Types[list[delivery.Endpoint]](),
			Params: append(openapi3.Parameters{openapi.QueryParam("customer", "only this customer's endpoints (uid)", openapi3.NewStringSchema())},
				openapi.PageParams()...), Errors: []int{422}},
		"GET /endpoints/{id}":                {ID: "endpoints.get", Summary: "Get an endpoint", Description: "One endpoint with its health.", Tag: "endpoints", Access: openapi.Key, Status: 200, Response: openapi.Types[delivery.Endpoint](), Errors: []int{404}},
		"PATCH /endpoints/{id}":              {ID: "endpoints.update", Summary: "Update an endpoint", Description: "Changes the fields sent; the others stay. Filters and transformations are compiled on save: an invalid one is a 422 with the compiler's message.", Tag: "endpoints", Access: openapi.Key, Status: 200, Body: reflect.TypeFor[delivery.EndpointPatch](), Response: openapi.Types[delivery.Endpoint](), Errors: []int{400, 404, 422}},
		"DELETE /endpoints/{id}":             {ID: "endpoints.delete", Summary: "Delete an endpoint", Description: "Deletes the endpoint; its pending deliveries are not sent.", Tag: "endpoints", Access: openapi.Key, Status: 204, Errors: []int{404}},
		"GET /endpoints/{id}/secret":         {ID: "endpoints.secret.get", Summary: "Reveal an endpoint's secret", Description: "The endpoint's current signing secret (whsec_…) and the rotated-out ones still signing.", Tag: "endpoints", Access: openapi.Key, Status: 200, Response: openapi.Types[delivery.SecretInfo](), Errors: []int{404}},
		"POST /endpoints/{id}/secret/rotate": {ID: "endpoints.secret.rotate", Summary: "Rotate an endpoint's secret", Description: "Makes a new signing secret; the old one keeps signing alongside it for 24 hours, so receivers can switch without failures.", Tag: "endpoints", Access: openapi.Key, Status: 200, Response: openapi.Types[delivery.SecretInfo](), Errors: []int{404}},
		"POST /endpoints/{id}/test": {ID: "endpoints.test", Summary: "Send a test event", Description: "Sends a ferry.test event (or a catalog example of the given type) to this endpoint only, whatever its event types and filter.", Tag: "endpoints", Access: openapi.Key, Status: 202,
			Body: reflect.TypeFor[testEventInput](), OptionalBody: true, Response: openapi.Types[eventAccepted](), Errors: []int{400, 402, 404, 422, 429, 503}},
		"POST /endpoints/{id}/test-routing": {ID: "endpoints.routing.test", Summary: "Test routing on a sample event", Description: "Runs the endpoint's (or an unsaved) filter and transformation on a sample event and tells whether it would be sent, and with which payload and headers. Sends nothing.", Tag: "endpoints", Access: openapi.Key, Status: 200, Body: reflect.TypeFor[delivery.RoutingTestInput](), Response: openapi.Types[delivery.RoutingTestResult](), Errors: []int{400, 404, 422}},
		"GET /endpoints/{id}/attempts": {ID: "endpoints.attempts.list", Summary: "List an endpoint's attempts", Description: "The delivery attempts to this endpoint, newest first, optionally of one outcome.", Tag: "endpoints", Access: openapi.Key, Status: 200, Response: openapi.Types[list[model.Attempt]](),
			Params: append(openapi3.Parameters{outcome}, openapi.PageParams()...), Errors: []int{404, 422}},

		"GET /endpoints/{id}/stats": {ID: "endpoints.stats", Summary: "An endpoint's stats", Description: "Deliveries by status and outcome, latency percentiles, errors by class and the backlog of one endpoint over a window.", Tag: "stats", Access: openapi.Key, Status: 200, Response: openapi.Types[insight.Stats](),
			Params: openapi3.Parameters{window}, Errors: []int{404, 422}},
		"GET /stats": {ID: "stats.get", Summary: "Tenant stats", Description: "The tenant's delivery counts, latency and backlog over a window, optionally for one customer's endpoints.", Tag: "stats", Access: openapi.Key, Status: 200, Response: openapi.Types[insight.TenantStats](),
			Params: openapi3.Parameters{window, openapi.QueryParam("customer", "only this customer's endpoints (uid)", openapi3.NewStringSchema())},
			Errors: []int{422}},

		"POST /events": {ID: "events.create", Summary: "Send an event", Description: "Accepts an event and fans it out to every enabled endpoint whose event types and filter match. 202 means it is stored durably: it will be delivered (or dead-lettered). Send an Idempotency-Key header (or idempotency_key) to make retries safe.", Tag: "events", Access: openapi.Key, Status: 202, Body: reflect.TypeFor[delivery.EventInput](), Response: openapi.Types[eventAccepted](),
			Params: openapi3.Parameters{idempotencyKey}, Errors: []int{400, 402, 413, 422, 503}},
		"GET /events":               {ID: "events.list", Summary: "List events", Description: "Your events, newest first, with their deliveries; filter by type, customer, status, endpoint and time.", Tag: "events", Access: openapi.Key, Status: 200, Response: openapi.Types[list[delivery.EventDetail]](), Params: eventListParams(), Errors: []int{422}},
		"GET /events/{id}":          {ID: "events.get", Summary: "Get an event", Description: "One event with its deliveries (one per endpoint it was fanned out to).", Tag: "events", Access: openapi.Key, Status: 200, Response: openapi.Types[delivery.EventDetail](), Errors: []int{404}},
		"GET /events/{id}/attempts": {ID: "events.attempts.list", Summary: "List an event's attempts", Description: "Every attempt to deliver this event, to all its endpoints.", Tag: "events", Access: openapi.Key, Status: 200, Response: openapi.Types[list[model.Attempt]](), Errors: []int{404}},

		"POST /events/{id}/replay":     {ID: "events.replay", Summary: "Replay an event", Description: "Sends an event again to its endpoints (or to one endpoint); the receivers see the same webhook-id.", Tag: "replays", Access: openapi.Key, Status: 202, Body: reflect.TypeFor[replayEventInput](), OptionalBody: true, Response: openapi.Types[replay.ReplayResult](), Errors: []int{400, 402, 404, 422, 429}},
		"POST /deliveries/{id}/replay": {ID: "deliveries.replay", Summary: "Replay a delivery", Description: "Sends one delivery again.", Tag: "replays", Access: openapi.Key, Status: 202, Response: openapi.Types[replay.ReplayResult](), Errors: []int{402, 404, 422, 429}},
		"POST /replays":                {ID: "replays.create", Summary: "Start a bulk replay", Description: "Starts re-sending every delivery a filter selects (endpoint, status, event type, time range) in the background. Follow it with replays.get.", Tag: "replays", Access: openapi.Key, Status: 202, Body: reflect.TypeFor[bulkReplayInput](), OptionalBody: true, Response: openapi.Types[replay.ReplayJob](), Errors: []int{400, 402, 404, 422, 429}},
		"GET /replays":                 {ID: "replays.list", Summary: "List bulk replays", Description: "Your bulk replays, newest first.", Tag: "replays", Access: openapi.Key, Status: 200, Response: openapi.Types[list[replay.ReplayJob]](), Params: openapi.PageParams(), Errors: []int{422}},
		"GET /replays/{id}":            {ID: "replays.get", Summary: "Get a bulk replay", Description: "A bulk replay's state and progress.", Tag: "replays", Access: openapi.Key, Status: 200, Response: openapi.Types[replay.ReplayJob](), Errors: []int{404}},
		"POST /replays/{id}/cancel":    {ID: "replays.cancel", Summary: "Cancel a bulk replay", Description: "Stops a queued or running bulk replay; what it re-queued already is sent.", Tag: "replays", Access: openapi.Key, Status: 200, Response: openapi.Types[replay.ReplayJob](), Errors: []int{404}},
		"POST /replays/preview": {ID: "replays.preview", Summary: "Preview a bulk replay", Description: "Counts the deliveries a bulk replay with this filter would re-send. Starts nothing.", Tag: "replays", Access: openapi.Key, Status: 200,
			Body: reflect.TypeFor[bulkReplayInput](), OptionalBody: true, Response: openapi.Types[replay.ReplayPreview](), Errors: []int{400, 404, 422}},

		"GET /members":              {ID: "members.list", Summary: "List members", Description: "The organisation's members and their roles.", Tag: "members", Access: openapi.Session, Status: 200, Response: openapi.Types[list[tenants.User]]()},
		"POST /members":             {ID: "members.invite", Summary: "Invite a member", Description: "Invites a member by email with a role; they get a link to set a password.", Tag: "members", Access: openapi.Session, Status: 201, Body: reflect.TypeFor[tenants.MemberInput](), Response: openapi.Types[tenants.User](), Errors: []int{400, 403, 409, 422, 429}},
		"POST /members/{id}/invite": {ID: "members.invite.resend", Summary: "Resend an invite", Description: "Mails a member's invite again.", Tag: "members", Access: openapi.Session, Status: 202, Response: openapi.Types[tenants.User](), Errors: []int{403, 404, 409, 429}},
		"PATCH /members/{id}":       {ID: "members.update", Summary: "Change a member's role", Description: "Changes a member's role.", Tag: "members", Access: openapi.Session, Status: 200, Body: reflect.TypeFor[tenants.MemberPatch](), Response: openapi.Types[tenants.User](), Errors: []int{400, 404, 409, 422}},
		"DELETE /members/{id}":      {ID: "members.delete", Summary: "Remove a member", Description: "Removes a member and ends their sessions.", Tag: "members", Access: openapi.Session, Status: 204, Errors: []int{404, 409}},

		"GET /staff/tenants":                        {ID: "staff.tenants.list", Summary: "Search tenants", Description: "Staff: tenants by id, name or member email.", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[list[tenants.TenantSummary]](), Params: append(openapi3.Parameters{q}, openapi.PageParams()...), Errors: []int{404, 422}},
		"GET /staff/tenants/{id}":                   {ID: "staff.tenants.get", Summary: "Get a tenant", Description: "Staff: a tenant with its members, endpoints and health.", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[staffTenantView](), Errors: []int{404}},
		"GET /staff/tenants/{id}/events":            {ID: "staff.tenants.events.list", Summary: "List a tenant's events", Description: "Staff: a tenant's events.", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[list[delivery.EventDetail]](), Params: eventListParams(), Errors: []int{404, 422}},
		"GET /staff/tenants/{id}/events/{event_id}": {ID: "staff.tenants.events.get", Summary: "Get a tenant's event", Description: "Staff: one event of a tenant with its deliveries and attempts.", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[insight.StaffEventDetail](), Errors: []int{404}},
		"GET /staff/events/{event_id}":              {ID: "staff.events.lookup", Summary: "Look up an event", Description: "Staff: finds an event by id across tenants.", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[staffEventLookup](), Errors: []int{404}},
		"POST /staff/tenants/{id}/replays": {ID: "staff.tenants.replays.create", Summary: "Replay for a tenant", Description: "Staff: replays an event, a delivery or a filtered set of a tenant's deliveries (audited).", Tag: "staff", Access: openapi.Staff, Status: 202, Body: reflect.TypeFor[staffReplayInput](),
			Response: []reflect.Type{reflect.TypeFor[replay.ReplayResult](), reflect.TypeFor[replay.ReplayJob]()}, Errors: []int{400, 404, 422}},
		"GET /staff/tenants/{id}/replays/{replay_id}": {ID: "staff.tenants.replays.get", Summary: "Get a tenant's replay", Description: "Staff: a bulk replay's progress.", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[replay.ReplayJob](), Errors: []int{404}},
		"POST /staff/tenants/{id}/replays/preview": {ID: "staff.tenants.replays.preview", Summary: "Preview a tenant's replay", Description: "Staff: counts the deliveries a bulk replay would re-send.", Tag: "staff", Access: openapi.Staff, Status: 200,
			Body: reflect.TypeFor[bulkReplayInput](), OptionalBody: true, Response: openapi.Types[replay.ReplayPreview](), Errors: []int{400, 404, 422}},
		"GET /staff/tenants/{id}/endpoints/{endpoint_id}/attempts": {ID: "staff.tenants.endpoints.attempts.list", Summary: "List an endpoint's attempts", Description: "Staff: a tenant endpoint's attempts, custom header values redacted.", Tag: "staff", Access: openapi.Staff, Status: 200,
			Response: openapi.Types[list[model.Attempt]](), Params: append(openapi3.Parameters{outcome}, openapi.PageParams()...), Errors: []int{404, 422}},
		"GET /staff/audit": {ID: "staff.audit.list", Summary: "Staff audit log", Description: "Staff: what staff members did and viewed.", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[list[tenants.AuditEntry]](),
			Params: append(openapi3.Parameters{tenantID,
				openapi.QueryParam("actor", "part of the staff member's email", openapi3.NewStringSchema()),
				openapi.QueryParam("action", "one action, e.g. replay", openapi3.NewStringSchema()),
				openapi.QueryParam("kind", "write: actions that changed something; read: views; absent: both",
					openapi3.NewStringSchema().WithEnum(tenants.AuditKindWrite, tenants.AuditKindRead)),
				openapi.QueryParam("since", "created at or after (RFC 3339)", openapi3.NewDateTimeSchema()),
				openapi.QueryParam("until", "created before (RFC 3339)", openapi3.NewDateTimeSchema())}, openapi.PageParams()...), Errors: []int{404, 422}},

		"GET /billing":      {ID: "billing.get", Summary: "Billing overview", Description: "The tenant's plan, usage this month and payment state.", Tag: "billing", Access: openapi.Session, Status: 200, Response: openapi.Types[billing.Overview]()},
		"PUT /billing/plan": {ID: "billing.plan.set", Summary: "Change plan", Description: "Moves the tenant to another plan.", Tag: "billing", Access: openapi.Session, Status: 200, Body: reflect.TypeFor[planInput](), Response: openapi.Types[billing.Overview](), Errors: []int{400, 402, 422, 503}},
		"POST /staff/tenants/{id}/billing/lift-restriction": {ID: "staff.tenants.billing.lift_restriction", Summary: "Lift a restriction", Description: "Staff: lifts the overdue-invoice restriction of a tenant (audited).", Tag: "staff", Access: openapi.Staff, Status: 200,
			Body: reflect.TypeFor[liftRestrictionInput](), Response: openapi.Types[staffBilling](), Errors: []int{400, 404, 422}},
		"GET /billing/invoices":           {ID: "billing.invoices.list", Summary: "List invoices", Description: "The tenant's invoices, newest first.", Tag: "billing", Access: openapi.Session, Status: 200, Response: openapi.Types[list[billing.Invoice]](), Params: openapi.PageParams(), Errors: []int{422}},
		"GET /staff/tenants/{id}/billing": {ID: "staff.tenants.billing.get", Summary: "Get a tenant's billing", Description: "Staff: a tenant's plan, usage, invoices and restriction.", Tag: "staff", Access: openapi.Staff, Status: 200, Response: openapi.Types[staffBilling](), Errors: []int{404}},

		"POST /queues/{endpoint_id}/pull": {ID: "queues.pull", Summary: "Pull messages", Description: "Leases up to max messages from a pull queue, long-polling up to wait_seconds when it is empty. Settle each by its receipt (ack, nack, reject) before its lease runs out, or it comes back.", Tag: "queues", Access: openapi.Key, Status: 200, Body: reflect.TypeFor[queue.PullInput](), OptionalBody: true,
			Response: openapi.Types[pulled](), Errors: []int{400, 404, 422}},
		"POST /queues/{endpoint_id}/ack":    {ID: "queues.ack", Summary: "Ack messages", Description: "Marks leased messages delivered.", Tag: "queues", Access: openapi.Key, Status: 200, Body: reflect.TypeFor[queue.AckInput](), Response: openapi.Types[settled](), Errors: []int{400, 404, 422}},
		"POST /queues/{endpoint_id}/nack":   {ID: "queues.nack", Summary: "Nack messages", Description: "Puts leased messages back, after delay_seconds or on the retry schedule.", Tag: "queues", Access: openapi.Key, Status: 200, Body: reflect.TypeFor[queue.NackInput](), Response: openapi.Types[settled](), Errors: []int{400, 404, 422}},
		"POST /queues/{endpoint_id}/reject": {ID: "queues.reject", Summary: "Reject messages", Description: "Drops leased messages for good, keeping the reason on the attempt.", Tag: "queues", Access: openapi.Key, Status: 200, Body: reflect.TypeFor[queue.RejectInput](), Response: openapi.Types[settled](), Errors: []int{400, 404, 422}},
		"GET /queues/{endpoint_id}":         {ID: "queues.get", Summary: "Queue stats", Description: "A pull queue's depth, in-flight count, oldest age and dead count.", Tag: "queues", Access: openapi.Key, Status: 200, Response: openapi.Types[queue.Stats](), Errors: []int{404}},
		"GET /queues/{endpoint_id}/stream": {ID: "queues.stream", Summary: "Stream messages", Description: "Server-sent events (text/event-stream): each event message carries one pulled message as data; settle it as a pulled one.", Tag: "queues", Access: openapi.Key, Status: 200,
			Params: openapi3.Parameters{openapi.QueryParam("visibility_seconds", "lease of each message (1-43200, default 30)", openapi3.NewIntegerSchema().WithMin(1).WithMax(queue.MaxVisibilitySeconds))},
			Errors: []int{404, 422}},
		"POST /endpoints/{id}/consumer-tokens": {ID: "queues.consumer_tokens.create", Summary: "Create a consumer token", Description: "Creates a token that may pull and settle this queue only; the token is in this answer only.", Tag: "queues", Access: openapi.Key, Status: 201, Body: reflect.TypeFor[queue.TokenInput](),
			Response: openapi.Types[consumerTokenCreated](), Errors: []int{400, 404, 422}},
		"GET /endpoints/{id}/consumer-tokens":               {ID: "queues.consumer_tokens.list", Summary: "List consumer tokens", Description: "The queue's consumer tokens (prefixes only).", Tag: "queues", Access: openapi.Key, Status: 200, Response: openapi.Types[list[queue.ConsumerToken]](), Errors: []int{404}},
		"DELETE /endpoints/{id}/consumer-tokens/{token_id}": {ID: "queues.consumer_tokens.revoke", Summary: "Revoke a consumer token", Description: "Revokes a consumer token at once.", Tag: "queues", Access: openapi.Key, Status: 204, Errors: []int{404}},

		"POST /sources":                                   {ID: "sources.create", Summary: "Create a source", Description: "Creates an inbound source: an ingest URL a provider sends webhooks to, with the provider's verification scheme; each verified request becomes an event.", Tag: "sources", Access: openapi.Key, Status: 201, Body: reflect.TypeFor[inbound.SourceInput](), Response: openapi.Types[inbound.Source](), Errors: []int{400, 422}},
		"GET /sources":                                    {ID: "sources.list", Summary: "List sources", Description: "Your inbound sources.", Tag: "sources", Access: openapi.Key, Status: 200, Response: openapi.Types[list[inbound.Source]](), Params: openapi.PageParams(), Errors: []int{422}},
		"GET /sources/{id}":                               {ID: "sources.get", Summary: "Get a source", Description: "One inbound source.", Tag: "sources", Access: openapi.Key, Status: 200, Response: openapi.Types[inbound.Source](), Errors: []int{404}},
		"PATCH /sources/{id}":                             {ID: "sources.update", Summary: "Update a source", Description: "Changes the fields sent; the others stay.", Tag: "sources", Access: openapi.Key, Status: 200, Body: reflect.TypeFor[inbound.SourcePatch](), Response: openapi.Types[inbound.Source](), Errors: []int{400, 404, 422}},
		"DELETE /sources/{id}":                            {ID: "sources.delete", Summary: "Delete a source", Description: "Deletes the source; its ingest URL answers 404 from then on.", Tag: "sources", Access: openapi.Key, Status: 204, Errors: []int{404}},
		"POST /sources/{id}/rotate-token":                 {ID: "sources.token.rotate", Summary: "Rotate the ingest token", Description: "Gives the source a new ingest URL; the old one stops working at once.", Tag: "sources", Access: openapi.Key, Status: 200, Response: openapi.Types[inbound.Source](), Errors: []int{404}},
		"GET /sources/{id}/requests":                      {ID: "sources.requests.list", Summary: "List captured requests", Description: "The requests the source received, newest first, optionally of one status.", Tag: "sources", Access: openapi.Key, Status: 200, Response: openapi.Types[list[inbound.Request]](), Params: append(openapi3.Parameters{openapi.QueryParam("status", "only requests with this status", openapi3.NewStringSchema().WithEnum(openapi.EnumOf(reflect.TypeFor[inbound.Status]())...))}, openapi.PageParams()...), Errors: []int{404, 422}},
		"GET /sources/{id}/requests/{request_id}":         {ID: "sources.requests.get", Summary: "Get a captured request", Description: "One captured request with its headers and exact body.", Tag: "sources", Access: openapi.Key, Status: 200, Response: openapi.Types[sourceRequestDetail](), Errors: []int{404}},
		"POST /sources/{id}/requests/{request_id}/replay": {ID: "sources.requests.replay", Summary: "Replay a captured request", Description: "Turns a captured request into an event again.", Tag: "sources", Access: openapi.Key, Status: 202, Response: openapi.Types[inbound.ReplayResult](), Errors: []int{402, 404, 422, 429}},

		"POST /event-types": {ID: "event_types.create", Summary: "Create an event type", Description: "Adds an event type to the catalog, with version 1 when it has a schema. With validation reject or warn, ingest checks events of the type against the latest schema.", Tag: "event-types", Access: openapi.Key, Status: 201,
			Body: reflect.TypeFor[catalog.EventTypeInput](), Response: openapi.Types[catalog.EventType](), Errors: []int{400, 409, 422}},
		"GET /event-types": {ID: "event_types.list", Summary: "List event types", Description: "The catalog's event types (without versions).", Tag: "event-types", Access: openapi.Key, Status: 200,
			Response: openapi.Types[list[catalog.EventType]](), Params: openapi.PageParams(), Errors: []int{422}},
		"GET /event-types/{name}": {ID: "event_types.get", Summary: "Get an event type", Description: "An event type with its versions and recent schema warnings.", Tag: "event-types", Access: openapi.Key, Status: 200,
			Response: openapi.Types[catalog.EventType](), Errors: []int{404}},
		"PATCH /event-types/{name}": {ID: "event_types.update", Summary: "Update an event type", Description: "Changes group, description, validation or deprecated.", Tag: "event-types", Access: openapi.Key, Status: 200,
			Body: reflect.TypeFor[catalog.EventTypePatch](), Response: openapi.Types[catalog.EventType](), Errors: []int{400, 404, 422}},
		"DELETE /event-types/{name}": {ID: "event_types.delete", Summary: "Delete an event type", Description: "Deletes the event type and its versions; events of the type are still accepted.", Tag: "event-types", Access: openapi.Key, Status: 204, Errors: []int{404}},
		"POST /event-types/{name}/versions": {ID: "event_types.versions.create", Summary: "Add a version", Description: "Adds a version (schema and examples); ingest validates against the latest.", Tag: "event-types", Access: openapi.Key, Status: 201,
			Body: reflect.TypeFor[catalog.VersionInput](), Response: openapi.Types[catalog.Version](), Errors: []int{400, 404, 422}},
		"POST /event-types/import": {ID: "event_types.import", Summary: "Import event types", Description: "Imports the webhooks of an OpenAPI 3.1 document (JSON) as event types, one version each.", Tag: "event-types", Access: openapi.Key, Status: 200,
			Body: reflect.TypeFor[openAPIImport](), Response: openapi.Types[catalog.ImportResult](), Errors: []int{400, 413, 422}},

		"GET /openapi-internal.json": {ID: "meta.openapi_internal", Summary: "The internal document", Description: "The OpenAPI 3.1 document " +
			"of the routes the portal, the customer portal and the staff console use (not a public contract). Any signed-in member or staff member.",
			Tag: "meta", Access: openapi.Session, Status: 200, Response: openapi.Types[map[string]any]()},
		"GET /openapi.json": {ID: "meta.openapi", Summary: "This document", Description: "The tenant API's OpenAPI 3.1 document.", Tag: "meta", Status: 200, Response: openapi.Types[map[string]any]()},
	}
	// Every other creating route takes an Idempotency-Key (idempotency.go).
	retryKey := &openapi3.ParameterRef{Value: &openapi3.Parameter{Name: idempotencyHeader, In: openapi3.ParameterInHeader,
		Description: "a key of yours, at most 255 bytes: within 24 h a retry with the same key, URL and body gets the first " +
			"answer again (with Idempotent-Replayed: true), another request with the key 422 idempotency_key_reused, " +
			"and a retry while the first still runs 409",
		Schema: openapi3.NewStringSchema().WithMinLength(1).WithMaxLength(255).NewRef()}}
	// The examples are kept beside the table (openapi_examples.go), which
	// they would otherwise swamp.
	for route, ex := range routeExamples() {
		if op, ok := ops[route]; ok {
			op.RequestExample, op.ResponseExample = ex.Request, ex.Response
			ops[route] = op
		}
	}
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

// OpenAPIDocument returns the tenant API's document as indented JSON,
// exactly as GET /api/v1/openapi.json and `ferry openapi` write it.
func OpenAPIDocument() ([]byte, error) {
	return openapi.JSON(publicAPI())
}

// OpenAPIInternalDocument returns the internal routes' document as
// indented JSON, exactly as GET /api/v1/openapi-internal.json and
// `ferry openapi --internal` write it.
func OpenAPIInternalDocument() ([]byte, error) {
	return openapi.JSON(internalAPI())
}

func (s *server) openAPI(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(s.openapi)
}

func (s *server) openAPIInternal(c *fiber.Ctx) error {
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	return c.Send(s.openapiInternal)
}
