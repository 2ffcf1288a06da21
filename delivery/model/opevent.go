package model

import (
	"time"

	"github.com/google/uuid"
)

// Operational events: Ferry tells a tenant about its own account by
// emitting events of the tenant itself, delivered (signed and retried like
// any event) to the tenant's endpoints that subscribe to them by name or
// with "ferry.*". They are not metered: they count against neither the
// monthly quota nor the events/s limit. Tenants may not send events whose
// type starts with "ferry." (the test event, ferry.test, goes to one
// endpoint through SendTestEvent).
//
// Loop rule: an operational event about an endpoint is never delivered to
// that endpoint, and a delivery of an operational event that is exhausted
// emits no ferry.delivery.exhausted. So an endpoint that receives only
// ferry.* events and fails causes at most one failing, disabled and
// recovered event per transition of its health, each delivered to the
// other subscribers only, never an endless chain.
const (
	OpEndpointFailing   = "ferry.endpoint.failing"
	OpEndpointDisabled  = "ferry.endpoint.disabled"
	OpEndpointRecovered = "ferry.endpoint.recovered"
	OpDeliveryExhausted = "ferry.delivery.exhausted"
	OpQuotaWarning      = "ferry.quota.warning"
	// What a customer's user did in the customer portal.
	OpCustomerEndpointCreated       = "ferry.customer.endpoint.created"
	OpCustomerEndpointUpdated       = "ferry.customer.endpoint.updated"
	OpCustomerEndpointDeleted       = "ferry.customer.endpoint.deleted"
	OpCustomerEndpointSecretRotated = "ferry.customer.endpoint.secret.rotated"

	// OpPrefix starts the type of every operational event; tenants may
	// not use it.
	OpPrefix = "ferry."
	// OpWildcard in an endpoint's event_types subscribes it to every
	// operational event.
	OpWildcard = "ferry.*"
)

// OperationalEvent is one event Ferry emits about a tenant's account.
type OperationalEvent struct {
	TenantID uuid.UUID
	Type     string
	// Data is the event's data, encoded as JSON.
	Data any
	// Key is the idempotency key that makes the event happen once per
	// transition, e.g. "ferry.endpoint.failing:<endpoint>:<since>".
	Key string
	// About is the endpoint the event is about, which never receives it
	// (the loop rule); uuid.Nil when the event is about no endpoint.
	About uuid.UUID
}

// EndpointHealthData is the data of ferry.endpoint.failing, .disabled and
// .recovered.
type EndpointHealthData struct {
	EndpointID   uuid.UUID  `json:"endpoint_id"`
	URL          string     `json:"url"`
	FailingSince time.Time  `json:"failing_since"`
	Reason       string     `json:"reason,omitempty"`
	RecoveredAt  *time.Time `json:"recovered_at,omitempty"`
}

// DeliveryExhaustedData is the data of ferry.delivery.exhausted.
type DeliveryExhaustedData struct {
	DeliveryID    uuid.UUID `json:"delivery_id"`
	EventID       uuid.UUID `json:"event_id"`
	EventType     string    `json:"event_type"`
	EndpointID    uuid.UUID `json:"endpoint_id"`
	AttemptCount  int       `json:"attempt_count"`
	LastAttemptAt time.Time `json:"last_attempt_at"`
}

// QuotaWarningData is the data of ferry.quota.warning.
type QuotaWarningData struct {
	// Period is the month, "2026-11".
	Period string `json:"period"`
	// Percent is the threshold crossed: 80 or 100.
	Percent int   `json:"percent"`
	Used    int64 `json:"used"`
	Limit   int64 `json:"limit"`
}

// CustomerEndpointData is the data of the ferry.customer.endpoint.*
// events: which customer's user changed which endpoint in the customer
// portal.
type CustomerEndpointData struct {
	Customer   string    `json:"customer"`
	EndpointID uuid.UUID `json:"endpoint_id"`
	URL        string    `json:"url"`
	// ExternalUser is the customer's user, as the tenant named them when
	// it opened the portal session.
	ExternalUser CustomerUser `json:"external_user"`
}

// CustomerUser is a customer's user in CustomerEndpointData.
type CustomerUser struct {
	ID    string `json:"id"`
	Email string `json:"email,omitempty"`
}
