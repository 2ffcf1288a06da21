package httpapi

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"

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

// The hand-written examples of the route table: per route, an example
// request body and success answer, which operations() puts in the
// documents. They are Go values of the types the handlers decode and
// encode (or maps, for the few bodies that are free-form), so that the
// JSON shown is what encoding/json makes of them; they tell one story
// (the tenant Acme Cloud, its customer acme-corp, one invoice.paid event
// and its endpoint), so ids recur from route to route. Secrets and keys
// are marked as examples. TestOpenAPIDescribesEverything fails on a
// route with a body and no example, the documents' validation (kin-openapi
// in go test, Ajv in scripts/openapi.sh) on an example that does not fit.

// routeExample is one route's examples; nil: none (the route has no
// body, or no answer body).
type routeExample struct {
	Request  any
	Response any
}

// exampleIDs are the ids the examples share.
type exampleIDs struct {
	tenant, user, staff, apiKey, endpoint, queueEndpoint, event, delivery, delivery2, attempt, attempt2,
	replayJob, consumerToken, source, request, portalSession, invoice uuid.UUID
}

func newExampleIDs() exampleIDs {
	id := uuid.MustParse
	return exampleIDs{
		tenant:        id("0196a6b0-3c4d-7e5f-8a9b-0c1d2e3f4a5b"),
		user:          id("0196a6b0-4d5e-7f60-9a1b-2c3d4e5f6a7b"),
		staff:         id("0196a6b0-5e6f-7081-8b2c-3d4e5f6a7b8c"),
		apiKey:        id("0196a6b1-6f70-7182-9c3d-4e5f6a7b8c9d"),
		endpoint:      id("0196a6c1-0a2b-7c3d-8e4f-5a6b7c8d9e0f"),
		queueEndpoint: id("0196a6c1-1b2c-7d3e-9f40-6b7c8d9e0f1a"),
		event:         id("0196a6c2-5b1f-7d3e-9a4b-1c2d3e4f5a6b"),
		delivery:      id("0196a6c2-6c20-7e4f-8b5c-2d3e4f5a6b7c"),
		delivery2:     id("0196a6c2-7d31-7f50-9c6d-3e4f5a6b7c8d"),
		attempt:       id("0196a6c2-8e42-7061-8d7e-4f5a6b7c8d9e"),
		attempt2:      id("0196a6c3-9f53-7172-9e8f-5a6b7c8d9e0f"),
		replayJob:     id("0196a6d0-a064-7283-8f90-6b7c8d9e0f1a"),
		consumerToken: id("0196a6d1-b175-7394-90a1-7c8d9e0f1a2b"),
		source:        id("0196a6d2-c286-74a5-81b2-8d9e0f1a2b3c"),
		request:       id("0196a6d2-d397-75b6-92c3-9e0f1a2b3c4d"),
		portalSession: id("0196a6d3-e4a8-76c7-83d4-0f1a2b3c4d5e"),
		invoice:       id("0196a6d4-f5b9-77d8-94e5-1a2b3c4d5e6f"),
	}
}

// Example secrets: shaped like the real ones, and saying what they are.
const (
	exampleSecret         = "whsec_ZXhhbXBsZS1zaWduaW5nLXNlY3JldC1ub3QtcmVhbA=="
	examplePreviousSecret = "whsec_ZXhhbXBsZS1vbGQtc2VjcmV0LW5vdC1yZWFsLTAwMQ=="
	exampleAPIKey         = "fry_live_EXAMPLEkey0nly3kq9ZtV2mX8pL4nR7sW1"
	exampleConsumerToken  = "fqc_EXAMPLEtoken0nly8hJ2kL5mN7pQ9rS3tV6w"
	examplePortalToken    = "EXAMPLE.portal-token.not-real"
)

func examplePtr[T any](v T) *T { return &v }

// routeExamples returns the examples by route ("METHOD /path").
func routeExamples() map[string]routeExample {
	ids := newExampleIDs()
	at := time.Date(2026, 11, 23, 14, 5, 6, 789e6, time.UTC)
	created := at.Add(-90 * 24 * time.Hour)
	customer := "acme-corp"
	acme := tenants.Tenant{ID: ids.tenant, Name: "Acme Cloud", Plan: "pro", CreatedAt: created}
	me := meResponse{Kind: tenants.KindUser, UserID: ids.user.String(), Email: "dana@acme.example", Role: string(tenants.RoleOwner),
		Tenant: &acme, EmailVerified: true}
	member := tenants.User{ID: ids.user, TenantID: ids.tenant, Email: "dana@acme.example", Role: tenants.RoleOwner, CreatedAt: created}
	invitee := tenants.User{ID: uuid.MustParse("0196a6b0-6f70-7192-8c3d-4e5f6a7b8c9e"), TenantID: ids.tenant, Email: "sam@acme.example",
		Role: tenants.RoleAdmin, CreatedAt: at, Invited: true}
	apiKey := tenants.APIKey{ID: ids.apiKey, Name: "production backend", Prefix: "fry_live_EXAMPLE", CreatedAt: created,
		LastUsedAt: examplePtr(at)}

	endpoint := delivery.Endpoint{ID: ids.endpoint, Kind: delivery.KindHTTP, URL: "https://hooks.acme.example/ferry",
		Description: "billing service", EventTypes: []string{"invoice.*"}, Enabled: true, TimeoutSeconds: 15,
		RateLimitPerSecond: examplePtr(50), MaxInFlight: 10, Headers: map[string]string{"X-Team": "billing"},
		Filter: `event.data.amount > 0`, Format: delivery.FormatEnvelope, SignatureTimestamp: delivery.SignatureTimestampEvent,
		Customer: examplePtr(customer), CreatedAt: created, UpdatedAt: at.Add(-24 * time.Hour)}
	secrets := delivery.SecretInfo{Secret: exampleSecret, Previous: []delivery.PreviousSecret{{Secret: examplePreviousSecret, ExpiresAt: at.Add(24 * time.Hour)}}}
	data := json.RawMessage(`{"invoice":"in_1042","customer":"acme-corp","amount":4200,"currency":"usd"}`)
	event := delivery.Event{ID: ids.event, Type: "invoice.paid", Data: data, IdempotencyKey: examplePtr("invoice-in_1042-paid"),
		Customer: examplePtr(customer), CreatedAt: at}
	succeeded := delivery.Delivery{ID: ids.delivery, EventID: ids.event, EndpointID: ids.endpoint, Status: model.StatusSucceeded,
		AttemptCount: 2, FirstAttemptAt: examplePtr(at.Add(40 * time.Millisecond)), LastAttemptAt: examplePtr(at.Add(30 * time.Second)),
		CreatedAt: at, UpdatedAt: at.Add(30*time.Second + 212*time.Millisecond)}
	eventDetail := delivery.EventDetail{Event: event, Deliveries: []delivery.Delivery{succeeded}}
	headers := http.Header{"Content-Type": {"application/json"}, "Webhook-Id": {ids.event.String()},
		"Webhook-Timestamp": {"1795443906"}, "Webhook-Signature": {"v1,EXAMPLEsignature0nlyK2d1bW15c2lnbmF0dXJl"}}
	failed := model.Attempt{ID: ids.attempt, DeliveryID: ids.delivery, EventID: ids.event, EndpointID: ids.endpoint, AttemptNumber: 1,
		Trigger: model.TriggerInitial, StartedAt: at.Add(40 * time.Millisecond), DurationMs: 5012, RequestHeaders: headers,
		ResponseStatus: examplePtr(503), ResponseHeaders: http.Header{"Retry-After": {"30"}}, ResponseBody: "upstream unavailable",
		Outcome: model.OutcomeRetry, NextAttemptAt: examplePtr(at.Add(30 * time.Second))}
	ok := model.Attempt{ID: ids.attempt2, DeliveryID: ids.delivery, EventID: ids.event, EndpointID: ids.endpoint, AttemptNumber: 2,
		Trigger: model.TriggerRetry, StartedAt: at.Add(30 * time.Second), DurationMs: 212, RequestHeaders: headers,
		ResponseStatus: examplePtr(200), ResponseHeaders: http.Header{"Content-Type": {"application/json"}}, ResponseBody: `{"ok":true}`,
		Outcome: model.OutcomeSuccess}
	attempts := newList([]model.Attempt{ok, failed}, "")
	accepted := eventAccepted{ID: ids.event.String(), Type: "invoice.paid", CreatedAt: "2026-11-23T14:05:06.789Z"}
	testAccepted := eventAccepted{ID: "0196a6c4-0a64-7283-9f01-6b7c8d9e0f2b", Type: delivery.TestEventType, CreatedAt: "2026-11-23T14:05:06.789Z"}
	replayed := replay.ReplayResult{EventID: ids.event, Deliveries: []uuid.UUID{ids.delivery}}
	filter := bulkReplayInput{EndpointID: ids.endpoint.String(), EventType: "invoice.paid", Since: "2026-11-22T00:00:00Z",
		Until: "2026-11-23T00:00:00Z", Status: model.StatusExhausted}
	job := replay.ReplayJob{ID: ids.replayJob, State: replay.ReplayRunning, Filter: replay.ReplayFilter{EndpointID: &ids.endpoint,
		EventType: "invoice.paid", Since: examplePtr(at.Add(-38*time.Hour - 5*time.Minute - 6789*time.Millisecond)),
		Until: examplePtr(at.Add(-14*time.Hour - 5*time.Minute - 6789*time.Millisecond)), Status: string(model.StatusExhausted)},
		Actor: "dana@acme.example", Total: 1840, Done: 600, CreatedAt: at, UpdatedAt: at.Add(4 * time.Second),
		StartedAt: examplePtr(at.Add(time.Second))}
	cancelled := job
	cancelled.State, cancelled.UpdatedAt, cancelled.FinishedAt = replay.ReplayCancelled, at.Add(9*time.Second), examplePtr(at.Add(9*time.Second))
	preview := replay.ReplayPreview{Matched: 1840, Until: at}

	acmeCustomer := customers.Customer{UID: customer, Name: "Acme Corp", Metadata: map[string]string{"crm_id": "0015g00000XyZ12"},
		CreatedAt: created, UpdatedAt: at}
	acmeView := customerView{Customer: acmeCustomer, Endpoints: delivery.EndpointHealth{Total: 3, Failing: 1, Disabled: 0}}
	session := portal.Session{ID: ids.portalSession, Customer: portal.CustomerRef{UID: customer, Name: "Acme Corp"},
		Capabilities: []string{portal.CapView, portal.CapManageEndpoints, portal.CapReplay}, EndpointIDs: []uuid.UUID{},
		Theme:        portal.Theme{LogoURL: "https://cdn.acme.example/logo.svg", PrimaryColor: "#3355ff"},
		ExternalUser: portal.ExternalUser{ID: "user_42", Email: "ops@acme.example"}, ExpiresAt: at.Add(time.Hour), CreatedAt: at}
	settings := portal.Settings{AllowedOrigins: []string{"https://app.acme.example"},
		Theme: portal.Theme{LogoURL: "https://cdn.acme.example/logo.svg", PrimaryColor: "#3355ff"}}

	stats := insight.Stats{Window: "24h", From: time.Date(2026, 11, 22, 14, 0, 0, 0, time.UTC), Attempts: 1290, AttemptsFailed: 42,
		Succeeded: 1248, Failed: 3, SuccessRate: examplePtr(0.9976), ByErrorClass: map[string]int64{"timeout": 12, "http_503": 30},
		ResponseMs:    insight.ResponseMs{P50: examplePtr(84), P95: examplePtr(410), P99: examplePtr(1830)},
		Backlog:       insight.Backlog{Pending: 4, Retrying: 2, OldestAgeSeconds: 41, NextRetryAt: examplePtr(at.Add(30 * time.Second))},
		LastSuccessAt: examplePtr(at.Add(-2 * time.Second)),
		Series: []insight.StatsPoint{{Hour: time.Date(2026, 11, 23, 13, 0, 0, 0, time.UTC), Succeeded: 61, Failed: 0},
			{Hour: time.Date(2026, 11, 23, 14, 0, 0, 0, time.UTC), Succeeded: 9, Failed: 1}}}
	tenantStats := insight.TenantStats{Stats: stats, Endpoints: []insight.EndpointStatsLine{{EndpointID: ids.endpoint, Attempts: 1290,
		Succeeded: 1248, Failed: 3, SuccessRate: examplePtr(0.9976), LastSuccessAt: examplePtr(at.Add(-2 * time.Second)), Pending: 4,
		Retrying: 2, NextRetryAt: examplePtr(at.Add(30 * time.Second))}}}

	message := queue.Message{ID: ids.delivery2, Receipt: "rcpt_EXAMPLE_0196a6c2-7d31", Attempt: 1, Event: event,
		Body:       `{"id":"` + ids.event.String() + `","type":"invoice.paid","created_at":"2026-11-23T14:05:06.789Z","data":` + string(data) + `}`,
		Headers:    map[string]string{"webhook-id": ids.event.String(), "webhook-timestamp": "1795443906", "webhook-signature": "v1,EXAMPLEsignature0nlyK2d1bW15c2lnbmF0dXJl"},
		LeaseUntil: at.Add(30 * time.Second)}
	settledOne := func(status string) settled {
		return settled{Data: []queue.ReceiptResult{{Receipt: message.Receipt, Status: status}}}
	}
	consumerToken := queue.ConsumerToken{ID: ids.consumerToken, EndpointID: ids.queueEndpoint, Name: "invoice worker",
		Prefix: "fqc_EXAMPLE", CreatedAt: at}

	source := inbound.Source{ID: ids.source, Name: "Stripe", Enabled: true,
		Verification: inbound.Verification{Type: inbound.SchemeStripe, HasSecret: true},
		EventType:    inbound.EventTypeRule{JSONPath: "type", Default: "stripe.unknown"},
		Dedupe:       &inbound.DedupeRule{JSONPath: "id"}, RateLimitPerSecond: 1000,
		IngestURL: "https://ferry.example/in/EXAMPLEingestToken0nly", LastRequestAt: examplePtr(at), CreatedAt: created, UpdatedAt: created}
	capture := inbound.Request{ID: ids.request, SourceID: ids.source, ReceivedAt: at, Method: "POST", Path: "/in/{token}",
		ContentType: "application/json", BodySize: 61, Status: inbound.StatusVerified, DedupeKey: examplePtr("evt_1Q2w3E4r5T6y"),
		EventID: &ids.event}
	body := `{"id":"evt_1Q2w3E4r5T6y","type":"invoice.paid","data":{}}`
	detail := sourceRequestDetail{RequestDetail: inbound.RequestDetail{Request: capture,
		Headers:    http.Header{"Content-Type": {"application/json"}, "Stripe-Signature": {"[redacted]"}},
		BodyBase64: "eyJpZCI6ImV2dF8xUTJ3M0U0cjVUNnkiLCJ0eXBlIjoiaW52b2ljZS5wYWlkIiwiZGF0YSI6e319", BodyText: &body},
		Event: &eventDetail}

	schema := json.RawMessage(`{"type":"object","required":["invoice","amount"],"properties":{"invoice":{"type":"string"},"amount":{"type":"integer"}}}`)
	version := catalog.Version{Version: 2, Schema: schema, Examples: []json.RawMessage{json.RawMessage(`{"invoice":"in_1042","amount":4200}`)}, CreatedAt: at}
	eventType := catalog.EventType{Name: "invoice.paid", Group: "Billing", Description: "An invoice was paid in full.",
		Validation: catalog.ModeWarn, LatestVersion: 2, Versions: []catalog.Version{version},
		RecentWarnings: []catalog.Warning{{Version: 2, Field: "data/amount", Message: "got string, want integer", At: at.Add(-time.Hour)}},
		CreatedAt:      created, UpdatedAt: at}
	eventTypeListed := eventType
	eventTypeListed.Versions, eventTypeListed.RecentWarnings = nil, nil

	plan := billing.Plan{Name: "pro", DisplayName: "Pro", EventsPerMonth: 5_000_000, MaxEndpoints: 100, RetentionDays: 30,
		EventsPerSecond: 500, BaseFeeMinor: 4900, OverageUnitEvents: 100_000, OveragePriceMinor: 100, Currency: "usd", SelfServe: true,
		MaxSources: 20, CapturedBytesPerMonth: 10 << 30}
	free := billing.Plan{Name: "free", DisplayName: "Free", EventsPerMonth: 50_000, MaxEndpoints: 5, RetentionDays: 3,
		EventsPerSecond: 20, HardCap: true, Currency: "usd", SelfServe: true, MaxSources: 2, CapturedBytesPerMonth: 100 << 20}
	usage := billing.Usage{Period: "2026-11", PeriodStart: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
		PeriodEnd: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), Events: 1_204_377, Attempts: 1_310_502}
	overview := billing.Overview{TenantID: ids.tenant, Plan: billing.Entitlements{Plan: plan}, Usage: usage, Endpoints: 12,
		Plans: []billing.Plan{free, plan}, PaymentsConfigured: true, PaymentMethod: &billing.PaymentMethod{Label: "Visa ending 4242"}}
	invoice := billing.Invoice{ID: ids.invoice, TenantID: ids.tenant, Period: "2026-10", Currency: "usd", TotalMinor: 5900,
		Events: 6_000_000, Attempts: 6_410_220, Status: billing.InvoicePaid, PaymentReference: "pi_EXAMPLE3Mq2Lk",
		CreatedAt: time.Date(2026, 11, 1, 0, 10, 0, 0, time.UTC), PaidAt: examplePtr(time.Date(2026, 11, 1, 0, 10, 4, 0, time.UTC)),
		Lines: []billing.Line{{Kind: "base_fee", Plan: "pro", Description: "Pro plan, October 2026", Quantity: 1, UnitPriceMinor: 4900, AmountMinor: 4900},
			{Kind: "overage", Plan: "pro", Description: "Overage: 1,000,000 events", Quantity: 10, UnitPriceMinor: 100, AmountMinor: 1000}}}
	staffBill := staffBilling{Overview: overview, Invoices: []billing.Invoice{invoice}}
	staffEvent := insight.StaffEventDetail{EventDetail: eventDetail, Attempts: []model.Attempt{ok, failed},
		Endpoints: []insight.EndpointRef{{ID: ids.endpoint, URL: "https://hooks.acme.example/ferry", Description: "billing service",
			Kind: delivery.KindHTTP, Enabled: true}}}
	staffEndpoint := endpoint
	staffEndpoint.Headers = map[string]string{"X-Team": "[redacted]"}
	created201 := endpointCreated{Endpoint: endpoint, Secret: exampleSecret}
	routingEvent := delivery.RoutingTestEvent{Type: "invoice.paid", Data: data}
	openapiDoc := map[string]any{"openapi": "3.1.0", "info": map[string]any{"title": "Ferry API", "version": "1"},
		"paths": map[string]any{"/events": map[string]any{"post": map[string]any{"operationId": "events.create"}}}}
	// A map: an event's replay leaves the bulk filter's fields out.
	staffReason := "customer ticket #4821: receiver was down overnight"
	staffReplay := map[string]any{"reason": staffReason, "event_id": ids.event, "endpoint_id": ids.endpoint}

	return map[string]routeExample{
		"POST /auth/signup": {Request: tenants.SignupInput{Email: "dana@acme.example", Password: "correct-horse-battery", Organization: "Acme Cloud"},
			Response: signupAccepted{Email: "dana@acme.example", Message: "Check your inbox: we mailed a link that finishes the sign-up."}},
		"POST /auth/signup/confirm":         {Request: finishSignupInput{Token: "EXAMPLE-signup-token", Password: "correct-horse-battery"}, Response: me},
		"POST /auth/login":                  {Request: loginInput{Email: "dana@acme.example", Password: "correct-horse-battery"}, Response: me},
		"POST /auth/password-reset":         {Request: passwordResetInput{Email: "dana@acme.example"}, Response: acceptedMessage{Message: "If the address has an account, a reset link is on its way."}},
		"POST /auth/password-reset/confirm": {Request: passwordResetConfirmInput{Token: "EXAMPLE-reset-token", NewPassword: "new-horse-battery-staple"}},
		"POST /auth/invites/accept": {Request: inviteAcceptInput{Token: "EXAMPLE-invite-token", Password: "sams-own-passphrase"},
			Response: meResponse{Kind: tenants.KindUser, UserID: invitee.ID.String(), Email: invitee.Email, Role: string(tenants.RoleAdmin), Tenant: &acme, EmailVerified: true}},
		"POST /me/verify-email":   {Response: acceptedMessage{Message: "We mailed a verification link to dana@acme.example."}},
		"POST /auth/verify-email": {Request: verifyEmailInput{Token: "EXAMPLE-verify-token"}},
		"POST /me/password":       {Request: changePasswordInput{CurrentPassword: "correct-horse-battery", NewPassword: "new-horse-battery-staple"}},
		"POST /me/totp": {Response: tenants.TOTPEnrolment{Secret: "EXAMPLEJBSWY3DPEHPK3PXP",
			URL: "otpauth://totp/Ferry:support%40ferry.example?issuer=Ferry&secret=EXAMPLEJBSWY3DPEHPK3PXP"}},
		"POST /me/totp/confirm": {Request: totpConfirmInput{Code: "492039"}},
		"GET /me":               {Response: me},
		"GET /me/notifications": {Response: tenants.NotificationPrefs{EndpointHealth: true, Quota: true, Invoices: false}},
		"PUT /me/notifications": {Request: notificationPrefsInput{EndpointHealth: examplePtr(true), Quota: examplePtr(true), Invoices: examplePtr(false)}, Response: tenants.NotificationPrefs{EndpointHealth: true, Quota: true}},
		"POST /api-keys":        {Request: apiKeyInput{Name: "production backend"}, Response: apiKeyCreated{APIKey: tenants.APIKey{ID: ids.apiKey, Name: "production backend", Prefix: "fry_live_EXAMPLE", CreatedAt: at}, Key: exampleAPIKey}},
		"GET /api-keys":         {Response: newList([]tenants.APIKey{apiKey}, "")},

		"POST /customers/{uid}/portal-sessions": {Request: portal.SessionInput{Capabilities: []string{portal.CapView, portal.CapManageEndpoints, portal.CapReplay},
			EndpointIDs: []uuid.UUID{}, TTLSeconds: 3600, ExternalUser: portal.ExternalUserInput{ID: "user_42", Email: "ops@acme.example"}},
			Response: portal.Minted{SessionID: ids.portalSession, URL: "https://ferry.example/portal/#session=" + ids.portalSession.String() + "&code=EXAMPLEcode0nly", ExpiresAt: at.Add(time.Hour)}},
		"POST /customers/{uid}/portal-sessions/revoke": {Request: revokeInput{ExternalUserID: "user_42"}, Response: revoked{Revoked: 2}},
		"GET /portal-sessions":                         {Response: newList([]portal.Session{session}, "")},
		"GET /portal-settings":                         {Response: settings},
		"PUT /portal-settings":                         {Request: portal.SettingsInput{AllowedOrigins: settings.AllowedOrigins, Theme: portal.ThemeInput(settings.Theme)}, Response: settings},
		"GET /portal-audit": {Response: newList([]portal.AuditEntry{{ID: 1187, SessionID: ids.portalSession, Customer: customer,
			ExternalUser: portal.ExternalUser{ID: "user_42", Email: "ops@acme.example"}, Action: "endpoint.created", Target: ids.endpoint.String(), At: at}}, "")},

		"POST /portal/exchange": {Request: exchangeInput{SessionID: ids.portalSession.String(), Code: "EXAMPLEcode0nly"},
			Response: portal.Exchanged{Token: portal.Token{Token: examplePortalToken, ExpiresAt: at.Add(15 * time.Minute)}, Session: session}},
		"POST /portal/renew":    {Response: portal.Token{Token: examplePortalToken, ExpiresAt: at.Add(30 * time.Minute)}},
		"GET /portal/session":   {Response: session},
		"GET /portal/endpoints": {Response: newList([]delivery.Endpoint{endpoint}, "")},
		"POST /portal/endpoints": {Request: portalEndpointInput{URL: "https://hooks.acme.example/ferry", Description: "billing service", EventTypes: []string{"invoice.*"},
			Headers: map[string]string{"X-Team": "billing"}, SignatureTimestamp: delivery.SignatureTimestampEvent}, Response: created201},
		"GET /portal/endpoints/{id}": {Response: endpoint},
		"PATCH /portal/endpoints/{id}": {Request: delivery.EndpointPatch{EventTypes: &[]string{"invoice.*", "customer.updated"}},
			Response: endpointWith(endpoint, func(e *delivery.Endpoint) { e.EventTypes = []string{"invoice.*", "customer.updated"} })},
		"GET /portal/endpoints/{id}/secret":         {Response: secrets},
		"POST /portal/endpoints/{id}/secret/rotate": {Response: secrets},
		"POST /portal/endpoints/{id}/test":          {Request: testEventInput{}, Response: testAccepted},
		"GET /portal/event-types":                   {Response: newList([]catalog.EventType{eventTypeListed}, "")},
		"GET /portal/event-types/{name}":            {Response: eventType},
		"GET /portal/endpoints/{id}/attempts":       {Response: attempts},
		"GET /portal/endpoints/{id}/stats":          {Response: stats},
		"GET /portal/events":                        {Response: newList([]delivery.EventDetail{eventDetail}, "")},
		"GET /portal/events/{id}":                   {Response: eventDetail},
		"GET /portal/events/{id}/attempts":          {Response: attempts},
		"POST /portal/events/{id}/replay":           {Request: replayEventInput{EndpointID: ids.endpoint.String()}, Response: replayed},
		"POST /portal/recover/preview":              {Request: recoverInput{EndpointID: ids.endpoint.String(), Since: at.Add(-24 * time.Hour)}, Response: recovered{Count: 37}},
		"POST /portal/recover":                      {Request: recoverInput{EndpointID: ids.endpoint.String(), Since: at.Add(-24 * time.Hour)}, Response: recovered{Count: 37}},

		"POST /customers":      {Request: customers.Input{UID: customer, Name: "Acme Corp", Metadata: map[string]string{"crm_id": "0015g00000XyZ12"}}, Response: acmeView},
		"GET /customers":       {Response: newList([]customerView{acmeView}, "")},
		"GET /customers/{uid}": {Response: acmeView},
		"PUT /customers/{uid}": {Request: customerInput{Name: "Acme Corp", Metadata: map[string]string{"crm_id": "0015g00000XyZ12"}}, Response: acmeView},
		"PATCH /customers/{uid}": {Request: customers.Patch{Name: examplePtr("Acme Corporation")},
			Response: customerView{Customer: customers.Customer{UID: customer, Name: "Acme Corporation", Metadata: acmeCustomer.Metadata, CreatedAt: created, UpdatedAt: at},
				Endpoints: acmeView.Endpoints}},

		"POST /endpoints": {Request: delivery.EndpointInput{Kind: delivery.KindHTTP, Format: delivery.FormatEnvelope,
			SignatureTimestamp: delivery.SignatureTimestampEvent, URL: "https://hooks.acme.example/ferry", Description: "billing service",
			EventTypes: []string{"invoice.*"}, RateLimitPerSecond: examplePtr(50), Headers: map[string]string{"X-Team": "billing"},
			Filter: `event.data.amount > 0`, Customer: customer}, Response: created201},
		"GET /endpoints":      {Response: newList([]delivery.Endpoint{endpoint}, "")},
		"GET /endpoints/{id}": {Response: endpoint},
		"PATCH /endpoints/{id}": {Request: delivery.EndpointPatch{Enabled: examplePtr(false)},
			Response: endpointWith(endpoint, func(e *delivery.Endpoint) { e.Enabled, e.UpdatedAt = false, at })},
		"GET /endpoints/{id}/secret":         {Response: secrets},
		"POST /endpoints/{id}/secret/rotate": {Response: secrets},
		"POST /endpoints/{id}/test":          {Request: testEventInput{EventType: "invoice.paid", Example: 0}, Response: eventAccepted{ID: testAccepted.ID, Type: "invoice.paid", CreatedAt: testAccepted.CreatedAt}},
		"POST /endpoints/{id}/test-routing": {Request: delivery.RoutingTestInput{Event: routingEvent, Filter: examplePtr(`event.data.amount >= 1000`)},
			Response: delivery.RoutingTestResult{Matched: true, Payload: json.RawMessage(`{"id":"` + ids.event.String() + `","type":"invoice.paid","created_at":"2026-11-23T14:05:06.789Z","data":` + string(data) + `}`),
				Headers: map[string]string{"X-Team": "billing"}}},
		"GET /endpoints/{id}/attempts": {Response: newList([]model.Attempt{failed}, "MjAyNi0xMS0yM1QxNDowNTowNi44MjlaLDE")},
		"GET /endpoints/{id}/stats":    {Response: stats},
		"GET /stats":                   {Response: tenantStats},

		"POST /events": {Request: delivery.EventInput{Type: "invoice.paid", Data: data, IdempotencyKey: "invoice-in_1042-paid", Customer: customer},
			Response: accepted},
		"GET /events":               {Response: newList([]delivery.EventDetail{eventDetail}, "MjAyNi0xMS0yM1QxNDowNTowNi43ODlaLDE")},
		"GET /events/{id}":          {Response: eventDetail},
		"GET /events/{id}/attempts": {Response: attempts},

		"POST /events/{id}/replay":     {Request: replayEventInput{EndpointID: ids.endpoint.String()}, Response: replayed},
		"POST /deliveries/{id}/replay": {Response: replayed},
		"POST /replays":                {Request: filter, Response: replay.ReplayJob{ID: ids.replayJob, State: replay.ReplayQueued, Filter: job.Filter, Actor: "dana@acme.example", CreatedAt: at, UpdatedAt: at}},
		"GET /replays":                 {Response: newList([]replay.ReplayJob{job}, "")},
		"GET /replays/{id}":            {Response: job},
		"POST /replays/{id}/cancel":    {Response: cancelled},
		"POST /replays/preview":        {Request: filter, Response: preview},

		"GET /members":              {Response: newList([]tenants.User{member, invitee}, "")},
		"POST /members":             {Request: tenants.MemberInput{Email: "sam@acme.example", Role: tenants.RoleAdmin}, Response: invitee},
		"POST /members/{id}/invite": {Response: invitee},
		"PATCH /members/{id}": {Request: tenants.MemberPatch{Role: tenants.RoleViewer},
			Response: tenants.User{ID: invitee.ID, TenantID: ids.tenant, Email: invitee.Email, Role: tenants.RoleViewer, CreatedAt: at}},

		"GET /staff/tenants": {Response: newList([]tenants.TenantSummary{{Tenant: acme, Members: 4, OwnerEmail: "dana@acme.example"}}, "")},
		"GET /staff/tenants/{id}": {Response: staffTenantView{Tenant: acme, Members: []tenants.User{member, invitee},
			Endpoints: []delivery.Endpoint{staffEndpoint}, Health: staffTenantHealth{Plan: billing.Entitlements{Plan: plan}, Usage: usage,
				Endpoints: insight.EndpointCounts{Total: 12, Enabled: 11, Disabled: 1, Failing: 1}, Succeeded24h: 1248, Failed24h: 3,
				SuccessRate24h: examplePtr(0.9976), Backlog: stats.Backlog}}},
		"GET /staff/tenants/{id}/events":                           {Response: newList([]delivery.EventDetail{eventDetail}, "")},
		"GET /staff/tenants/{id}/events/{event_id}":                {Response: staffEvent},
		"GET /staff/events/{event_id}":                             {Response: staffEventLookup{Tenant: acme, Event: staffEvent}},
		"POST /staff/tenants/{id}/replays":                         {Request: staffReplay, Response: replayed},
		"GET /staff/tenants/{id}/replays/{replay_id}":              {Response: job},
		"POST /staff/tenants/{id}/replays/preview":                 {Request: filter, Response: preview},
		"GET /staff/tenants/{id}/endpoints/{endpoint_id}/attempts": {Response: newList([]model.Attempt{redactedAttempt(failed)}, "")},
		"GET /staff/audit": {Response: newList([]tenants.AuditEntry{{ID: 90211, StaffID: ids.staff, ActorEmail: "support@ferry.example",
			TenantID: &ids.tenant, Action: "replay", Reason: staffReason,
			Detail:    json.RawMessage(`{"event_id":"` + ids.event.String() + `","endpoint_id":"` + ids.endpoint.String() + `"}`),
			CreatedAt: at, TenantName: "Acme Cloud", Write: true}}, "")},

		"GET /billing":      {Response: overview},
		"PUT /billing/plan": {Request: planInput{Plan: "pro", PaymentToken: "tok_EXAMPLE_visa"}, Response: overview},
		"POST /staff/tenants/{id}/billing/lift-restriction": {Request: liftRestrictionInput{Reason: "payment promised by wire, ticket #4830"}, Response: staffBill},
		"GET /billing/invoices":                             {Response: newList([]billing.Invoice{invoice}, "")},
		"GET /staff/tenants/{id}/billing":                   {Response: staffBill},

		"POST /queues/{endpoint_id}/pull":   {Request: queue.PullInput{Max: examplePtr(10), WaitSeconds: examplePtr(20), VisibilitySeconds: examplePtr(30)}, Response: pulled{Data: []queue.Message{message}}},
		"POST /queues/{endpoint_id}/ack":    {Request: queue.AckInput{Receipts: []string{message.Receipt}}, Response: settledOne(queue.ReceiptAcked)},
		"POST /queues/{endpoint_id}/nack":   {Request: queue.NackInput{Receipts: []string{message.Receipt}, DelaySeconds: examplePtr(60)}, Response: settledOne(queue.ReceiptNacked)},
		"POST /queues/{endpoint_id}/reject": {Request: queue.RejectInput{Receipts: []string{message.Receipt}, Reason: "unknown invoice id"}, Response: settledOne(queue.ReceiptRejected)},
		"GET /queues/{endpoint_id}":         {Response: queue.Stats{Depth: 128, InFlight: 10, OldestAgeSeconds: 42, Dead: 3}},
		"POST /endpoints/{id}/consumer-tokens": {Request: queue.TokenInput{Name: "invoice worker"},
			Response: consumerTokenCreated{ConsumerToken: consumerToken, Token: exampleConsumerToken}},
		"GET /endpoints/{id}/consumer-tokens": {Response: newList([]queue.ConsumerToken{consumerToken}, "")},

		// A map: the fields a Stripe source does not use are left out.
		"POST /sources": {Request: map[string]any{"name": "Stripe",
			"verification": map[string]any{"type": inbound.SchemeStripe, "secret": exampleSecret},
			"event_type":   map[string]any{"json_path": "type", "default": "stripe.unknown"}}, Response: source},
		"GET /sources":      {Response: newList([]inbound.Source{source}, "")},
		"GET /sources/{id}": {Response: source},
		"PATCH /sources/{id}": {Request: inbound.SourcePatch{Enabled: examplePtr(false)},
			Response: sourceWith(source, func(s *inbound.Source) { s.Enabled, s.UpdatedAt = false, at })},
		"POST /sources/{id}/rotate-token": {Response: sourceWith(source, func(s *inbound.Source) {
			s.IngestURL, s.UpdatedAt = "https://ferry.example/in/EXAMPLEnewIngestToken0nly", at
		})},
		"GET /sources/{id}/requests":                      {Response: newList([]inbound.Request{capture}, "")},
		"GET /sources/{id}/requests/{request_id}":         {Response: detail},
		"POST /sources/{id}/requests/{request_id}/replay": {Response: inbound.ReplayResult{RequestID: ids.request, EventID: uuid.MustParse("0196a6c5-1b75-7394-8a12-7c8d9e0f1a3c")}},

		"POST /event-types": {Request: catalog.EventTypeInput{Name: "invoice.paid", Group: "Billing", Description: "An invoice was paid in full.",
			Validation: catalog.ModeWarn, Schema: schema, Examples: version.Examples},
			Response: catalog.EventType{Name: "invoice.paid", Group: "Billing", Description: "An invoice was paid in full.",
				Validation: catalog.ModeWarn, LatestVersion: 1, Versions: []catalog.Version{{Version: 1, Schema: schema, Examples: version.Examples, CreatedAt: at}},
				CreatedAt: at, UpdatedAt: at}},
		"GET /event-types":        {Response: newList([]catalog.EventType{eventTypeListed}, "")},
		"GET /event-types/{name}": {Response: eventType},
		"PATCH /event-types/{name}": {Request: catalog.EventTypePatch{Validation: examplePtr(catalog.ModeReject)},
			Response: func() catalog.EventType { e := eventTypeListed; e.Validation = catalog.ModeReject; return e }()},
		"POST /event-types/{name}/versions": {Request: catalog.VersionInput{Schema: schema, Examples: version.Examples}, Response: version},
		"POST /event-types/import": {Request: map[string]any{"openapi": "3.1.0", "info": map[string]any{"title": "Acme webhooks", "version": "1"},
			"webhooks": map[string]any{"invoice.paid": map[string]any{"post": map[string]any{"requestBody": map[string]any{"content": map[string]any{
				"application/json": map[string]any{"schema": map[string]any{"type": "object", "properties": map[string]any{"amount": map[string]any{"type": "integer"}}}}}}}}}},
			Response: catalog.ImportResult{Created: []string{"invoice.paid"}, Updated: []string{},
				Skipped: []catalog.ImportSkip{{Name: "invoice.voided", Reason: "no JSON request body schema"}}}},

		"GET /openapi-internal.json": {Response: map[string]any{"openapi": "3.1.0", "info": map[string]any{"title": "Ferry internal API", "version": "1"},
			"paths": map[string]any{"/me": map[string]any{"get": map[string]any{"operationId": "me.get"}}}}},
		"GET /openapi.json": {Response: openapiDoc},
	}
}

// endpointWith returns a copy of e changed by change.
func endpointWith(e delivery.Endpoint, change func(*delivery.Endpoint)) delivery.Endpoint {
	change(&e)
	return e
}

// sourceWith returns a copy of s changed by change.
func sourceWith(s inbound.Source, change func(*inbound.Source)) inbound.Source {
	change(&s)
	return s
}

// redactedAttempt is a as staff see it: custom header values redacted.
func redactedAttempt(a model.Attempt) model.Attempt {
	a.RequestHeaders = a.RequestHeaders.Clone()
	a.RequestHeaders.Set("X-Team", "[redacted]")
	return a
}
