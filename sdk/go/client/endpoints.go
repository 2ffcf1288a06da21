package client

import (
	"context"
	"iter"

	"github.com/ferry-dev/ferry/sdk/go/client/ferryapi"
)

// Endpoints manages where Ferry delivers events.
type Endpoints struct{ api *ferryapi.ClientWithResponses }

// Create adds an endpoint; the answer carries its signing secret
// (whsec_…), shown here and by Secret only.
func (e *Endpoints) Create(ctx context.Context, in EndpointInput, opts ...CreateOption) (*EndpointCreated, error) {
	key, err := idempotencyKey(opts)
	if err != nil {
		return nil, err
	}
	r, err := e.api.EndpointsCreateWithResponse(ctx, &ferryapi.EndpointsCreateParams{IdempotencyKey: key}, in)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON201)
}

// Get returns an endpoint. Errors: *Error (404 not_found).
func (e *Endpoints) Get(ctx context.Context, id string) (*Endpoint, error) {
	uid, err := parseID("endpoint", id)
	if err != nil {
		return nil, err
	}
	r, err := e.api.EndpointsGetWithResponse(ctx, uid)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON200)
}

// List returns one page of endpoints; params may be nil.
func (e *Endpoints) List(ctx context.Context, params *EndpointsListParams) (Page[Endpoint], error) {
	var p EndpointsListParams
	if params != nil {
		p = *params
	}
	r, err := e.api.EndpointsListWithResponse(ctx, &p)
	if err != nil {
		return Page[Endpoint]{}, err
	}
	body, err := decode(r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return Page[Endpoint]{}, err
	}
	return page(body.Data, body.NextCursor), nil
}

// All iterates over every endpoint matching params (nil: all).
func (e *Endpoints) All(ctx context.Context, params *EndpointsListParams) iter.Seq2[Endpoint, error] {
	var p EndpointsListParams
	if params != nil {
		p = *params
	}
	return all(ctx, p.Cursor, func(ctx context.Context, cursor *string) (Page[Endpoint], error) {
		p.Cursor = cursor
		return e.List(ctx, &p)
	})
}

// Update changes the fields set in patch (nil fields stay as they are).
func (e *Endpoints) Update(ctx context.Context, id string, patch EndpointPatch) (*Endpoint, error) {
	uid, err := parseID("endpoint", id)
	if err != nil {
		return nil, err
	}
	r, err := e.api.EndpointsUpdateWithResponse(ctx, uid, patch)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON200)
}

// Delete removes an endpoint; its pending deliveries are dropped.
func (e *Endpoints) Delete(ctx context.Context, id string) error {
	uid, err := parseID("endpoint", id)
	if err != nil {
		return err
	}
	r, err := e.api.EndpointsDeleteWithResponse(ctx, uid)
	if err != nil {
		return err
	}
	return noContent(r.HTTPResponse, r.Body)
}

// RotateSecret gives an endpoint a new signing secret; the previous one
// keeps signing alongside it for a while (SecretInfo says until when).
func (e *Endpoints) RotateSecret(ctx context.Context, id string) (*SecretInfo, error) {
	uid, err := parseID("endpoint", id)
	if err != nil {
		return nil, err
	}
	r, err := e.api.EndpointsSecretRotateWithResponse(ctx, uid)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON200)
}

// Secret returns an endpoint's signing secret.
func (e *Endpoints) Secret(ctx context.Context, id string) (*SecretInfo, error) {
	uid, err := parseID("endpoint", id)
	if err != nil {
		return nil, err
	}
	r, err := e.api.EndpointsSecretGetWithResponse(ctx, uid)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON200)
}
