package client

import "github.com/ferry-dev/ferry/sdk/go/client/ferryapi"

// The models the hand-written layer takes and returns, named after
// Ferry's API; they are the generated types, so values pass freely
// between this package and Client.API.
type (
	EventInput          = ferryapi.EventInput
	EventAccepted       = ferryapi.EventAccepted
	Event               = ferryapi.EventDetail
	EventsListParams    = ferryapi.EventsListParams
	Attempt             = ferryapi.Attempt
	ReplayEventInput    = ferryapi.ReplayEventInput
	ReplayResult        = ferryapi.ReplayResult
	EndpointInput       = ferryapi.EndpointInput
	EndpointPatch       = ferryapi.EndpointPatch
	Endpoint            = ferryapi.Endpoint
	EndpointCreated     = ferryapi.EndpointCreated
	EndpointsListParams = ferryapi.EndpointsListParams
	SecretInfo          = ferryapi.SecretInfo
	BulkReplayInput     = ferryapi.BulkReplayInput
	ReplayJob           = ferryapi.ReplayJob
	ReplaysListParams   = ferryapi.ReplaysListParams
	// Customer is a customer with the health of its endpoints, as every
	// customer route answers it.
	Customer = ferryapi.CustomerView
	// Deprecated: CustomerView is Customer.
	CustomerView         = ferryapi.CustomerView
	EndpointHealth       = ferryapi.EndpointHealth
	CustomerInput        = ferryapi.CustomerInput
	CustomerPatch        = ferryapi.CustomerPatch
	CustomersListParams  = ferryapi.CustomersListParams
	PortalSessionInput   = ferryapi.PortalSessionInput
	PortalSession        = ferryapi.PortalSessionMinted
	EventTypeInput       = ferryapi.EventTypeInput
	EventTypePatch       = ferryapi.EventTypePatch
	EventType            = ferryapi.EventType
	EventTypesListParams = ferryapi.EventTypesListParams
	SourceInput          = ferryapi.SourceInput
	SourcePatch          = ferryapi.SourcePatch
	Source               = ferryapi.Source
	SourcesListParams    = ferryapi.SourcesListParams
)
