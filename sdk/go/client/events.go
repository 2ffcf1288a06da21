package client

import (
	"context"
	"iter"

	"github.com/ferry-dev/ferry/sdk/go/client/ferryapi"
)

// Events sends events and reads them back with their deliveries and
// attempts.
type Events struct{ api *ferryapi.ClientWithResponses }

// Create sends an event: Ferry answers once it is stored durably, and
// delivers it to every matching endpoint. Retries of this call reuse one
// Idempotency-Key (random, or WithIdempotencyKey's), so they make one
// event. Errors: *Error (422 invalid with Field, 429 quota_exceeded …).
func (e *Events) Create(ctx context.Context, in EventInput, opts ...CreateOption) (*EventAccepted, error) {
	key, err := idempotencyKey(opts)
	if err != nil {
		return nil, err
	}
	if in.IdempotencyKey != nil {
		key = in.IdempotencyKey
	}
	r, err := e.api.EventsCreateWithResponse(ctx, &ferryapi.EventsCreateParams{IdempotencyKey: key}, in)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON202)
}

// Get returns an event with its deliveries. Errors: *Error (404
// not_found, also for another tenant's event).
func (e *Events) Get(ctx context.Context, id string) (*Event, error) {
	uid, err := parseID("event", id)
	if err != nil {
		return nil, err
	}
	r, err := e.api.EventsGetWithResponse(ctx, uid)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON200)
}

// List returns one page of events, newest first; params may be nil.
func (e *Events) List(ctx context.Context, params *EventsListParams) (Page[Event], error) {
	var p EventsListParams
	if params != nil {
		p = *params
	}
	r, err := e.api.EventsListWithResponse(ctx, &p)
	if err != nil {
		return Page[Event]{}, err
	}
	body, err := decode(r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return Page[Event]{}, err
	}
	return page(body.Data, body.NextCursor), nil
}

// All iterates over every event matching params (nil: all), following
// next_cursor from page to page; it stops at the first error.
func (e *Events) All(ctx context.Context, params *EventsListParams) iter.Seq2[Event, error] {
	var p EventsListParams
	if params != nil {
		p = *params
	}
	return all(ctx, p.Cursor, func(ctx context.Context, cursor *string) (Page[Event], error) {
		p.Cursor = cursor
		return e.List(ctx, &p)
	})
}

// Attempts returns every delivery attempt of an event, across its
// endpoints, oldest first.
func (e *Events) Attempts(ctx context.Context, id string) ([]Attempt, error) {
	uid, err := parseID("event", id)
	if err != nil {
		return nil, err
	}
	r, err := e.api.EventsAttemptsListWithResponse(ctx, uid)
	if err != nil {
		return nil, err
	}
	body, err := decode(r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return nil, err
	}
	return body.Data, nil
}

// Replay sends an event again to its endpoints (or the one in
// in.EndpointId) with its original id and bytes.
func (e *Events) Replay(ctx context.Context, id string, in ReplayEventInput, opts ...CreateOption) (*ReplayResult, error) {
	uid, err := parseID("event", id)
	if err != nil {
		return nil, err
	}
	key, err := idempotencyKey(opts)
	if err != nil {
		return nil, err
	}
	r, err := e.api.EventsReplayWithResponse(ctx, uid, &ferryapi.EventsReplayParams{IdempotencyKey: key}, in)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON202)
}
