package httpapi

import (
	"reflect"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/app/httpapi/openapi"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/model"
)

// testEventData is the data of a ferry.test event, as
// delivery.SendTestEvent encodes it.
type testEventData struct {
	Message    string    `json:"message" description:"always \"Test event from Ferry\""`
	EndpointID uuid.UUID `json:"endpoint_id" description:"the endpoint the test was sent to"`
	SentAt     string    `json:"sent_at" format:"date-time" description:"when the test was sent (RFC 3339)"`
}

// webhookEnvelope is an example body of a webhook request.
type webhookEnvelope struct {
	ID        uuid.UUID `json:"id"`
	Type      string    `json:"type"`
	CreatedAt string    `json:"created_at"`
	Data      any       `json:"data"`
}

// webhooks describes the requests Ferry sends to endpoints: any event
// of the tenant's, then each operational event (delivery/model's Op*
// types) with its data.
func webhooks() []openapi.Webhook {
	id := uuid.MustParse("0196a6c2-5b1f-7d3e-9a4b-1c2d3e4f5a6b")
	endpoint := uuid.MustParse("0196a6c1-0a2b-7c3d-8e4f-5a6b7c8d9e0f")
	at := time.Date(2026, 11, 23, 14, 5, 6, 789e6, time.UTC)
	created := "2026-11-23T14:05:06.789Z"
	envelope := func(typ string, data any) webhookEnvelope {
		return webhookEnvelope{ID: id, Type: typ, CreatedAt: created, Data: data}
	}
	health := model.EndpointHealthData{EndpointID: endpoint, URL: "https://example.com/hooks", FailingSince: at.Add(-2 * time.Hour),
		Reason: "every attempt for 2 h failed (last: 503)"}
	recovered := health
	recovered.Reason, recovered.RecoveredAt = "", &at
	customer := model.CustomerEndpointData{Customer: "acme-corp", EndpointID: endpoint, URL: "https://hooks.acme.example/ferry",
		ExternalUser: model.CustomerUser{ID: "user_42", Email: "ops@acme.example"}}
	healthDoc := "Operational event (subscribe with ferry.* or its name; never delivered to the endpoint it is about). "
	customerDoc := "Operational event: what a customer's user did in the customer portal. "
	out := []openapi.Webhook{
		{Type: "event", Summary: "Any event you send", Description: "Every event you send (events.create) reaches each matching endpoint as this " +
			"envelope, with its data exactly as you sent it. Verify webhook-signature over the raw body, dedupe on webhook-id, " +
			"and answer 2xx quickly.", Example: envelope("invoice.paid", map[string]any{"invoice": "in_123", "amount": 4200})},
		{Type: delivery.TestEventType, Summary: "Test event", Description: "Sent to one endpoint by endpoints.test (unless a catalog example was asked for).",
			Data: reflect.TypeFor[testEventData](), Example: envelope(delivery.TestEventType,
				testEventData{Message: "Test event from Ferry", EndpointID: endpoint, SentAt: "2026-11-23T14:05:06.789Z"})},
		{Type: model.OpEndpointFailing, Summary: "An endpoint is failing", Description: healthDoc + "Every attempt to the endpoint has failed since failing_since.",
			Data: reflect.TypeFor[model.EndpointHealthData](), Example: envelope(model.OpEndpointFailing, health)},
		{Type: model.OpEndpointDisabled, Summary: "An endpoint was disabled", Description: healthDoc + "The endpoint failed for so long that Ferry disabled it; re-enable it with endpoints.update.",
			Data: reflect.TypeFor[model.EndpointHealthData](), Example: envelope(model.OpEndpointDisabled, health)},
		{Type: model.OpEndpointRecovered, Summary: "An endpoint recovered", Description: healthDoc + "A failing endpoint answered 2xx again.",
			Data: reflect.TypeFor[model.EndpointHealthData](), Example: envelope(model.OpEndpointRecovered, recovered)},
		{Type: model.OpDeliveryExhausted, Summary: "A delivery was exhausted", Description: "Operational event: a delivery failed its last retry and will not be sent again unless replayed.",
			Data: reflect.TypeFor[model.DeliveryExhaustedData](), Example: envelope(model.OpDeliveryExhausted, model.DeliveryExhaustedData{
				DeliveryID: uuid.MustParse("0196a6c3-1111-7222-8333-444455556666"), EventID: id, EventType: "invoice.paid",
				EndpointID: endpoint, AttemptCount: 18, LastAttemptAt: at})},
		{Type: model.OpQuotaWarning, Summary: "Monthly quota warning", Description: "Operational event: the month's events crossed 80 % or 100 % of the plan's quota.",
			Data: reflect.TypeFor[model.QuotaWarningData](), Example: envelope(model.OpQuotaWarning, model.QuotaWarningData{Period: "2026-11", Percent: 80, Used: 80000, Limit: 100000})},
	}
	for typ, summary := range map[string]string{
		model.OpCustomerEndpointCreated:       "A customer created an endpoint",
		model.OpCustomerEndpointUpdated:       "A customer updated an endpoint",
		model.OpCustomerEndpointDeleted:       "A customer deleted an endpoint",
		model.OpCustomerEndpointSecretRotated: "A customer rotated an endpoint's secret",
	} {
		out = append(out, openapi.Webhook{Type: typ, Summary: summary, Description: customerDoc + summary + " in their portal.",
			Data: reflect.TypeFor[model.CustomerEndpointData](), Example: envelope(typ, customer)})
	}
	for i := range out {
		if out[i].Type != "event" {
			out[i].TypeEnum = []string{out[i].Type}
		}
	}
	return out
}
