package client

import (
	"context"
	"iter"

	"github.com/ferry-dev/ferry/sdk/go/client/ferryapi"
)

// EventTypes manages the tenant's event-type catalog.
type EventTypes struct{ api *ferryapi.ClientWithResponses }

// Create adds an event type (with its first schema version, if given).
func (et *EventTypes) Create(ctx context.Context, in EventTypeInput, opts ...CreateOption) (*EventType, error) {
	key, err := idempotencyKey(opts)
	if err != nil {
		return nil, err
	}
	r, err := et.api.EventTypesCreateWithResponse(ctx, &ferryapi.EventTypesCreateParams{IdempotencyKey: key}, in)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON201)
}

// Get returns an event type with its versions.
func (et *EventTypes) Get(ctx context.Context, name string) (*EventType, error) {
	r, err := et.api.EventTypesGetWithResponse(ctx, name)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON200)
}

// Update changes the fields set in patch.
func (et *EventTypes) Update(ctx context.Context, name string, patch EventTypePatch) (*EventType, error) {
	r, err := et.api.EventTypesUpdateWithResponse(ctx, name, patch)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON200)
}

// Delete removes an event type from the catalog.
func (et *EventTypes) Delete(ctx context.Context, name string) error {
	r, err := et.api.EventTypesDeleteWithResponse(ctx, name)
	if err != nil {
		return err
	}
	return noContent(r.HTTPResponse, r.Body)
}

// List returns one page of event types; params may be nil.
func (et *EventTypes) List(ctx context.Context, params *EventTypesListParams) (Page[EventType], error) {
	var p EventTypesListParams
	if params != nil {
		p = *params
	}
	r, err := et.api.EventTypesListWithResponse(ctx, &p)
	if err != nil {
		return Page[EventType]{}, err
	}
	body, err := decode(r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return Page[EventType]{}, err
	}
	return page(body.Data, body.NextCursor), nil
}

// All iterates over every event type.
func (et *EventTypes) All(ctx context.Context, params *EventTypesListParams) iter.Seq2[EventType, error] {
	var p EventTypesListParams
	if params != nil {
		p = *params
	}
	return all(ctx, p.Cursor, func(ctx context.Context, cursor *string) (Page[EventType], error) {
		p.Cursor = cursor
		return et.List(ctx, &p)
	})
}
