package client

import (
	"context"
	"iter"

	"github.com/ferry-dev/ferry/sdk/go/client/ferryapi"
)

// Customers manages the tenant's customers (the owners of endpoints) and
// mints their customer portal sessions.
type Customers struct{ api *ferryapi.ClientWithResponses }

// Upsert creates the customer uid or updates its name and metadata (PUT
// is idempotent: retries need no key).
func (c *Customers) Upsert(ctx context.Context, uid string, in CustomerInput) (*Customer, error) {
	r, err := c.api.CustomersPutWithResponse(ctx, uid, in)
	if err != nil {
		return nil, err
	}
	if r.JSON201 != nil {
		return decode(r.HTTPResponse, r.Body, r.JSON201)
	}
	return decode(r.HTTPResponse, r.Body, r.JSON200)
}

// Get returns a customer with the health of its endpoints. Errors:
// *Error (404 not_found).
func (c *Customers) Get(ctx context.Context, uid string) (*Customer, error) {
	r, err := c.api.CustomersGetWithResponse(ctx, uid)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON200)
}

// Update changes the fields set in patch.
func (c *Customers) Update(ctx context.Context, uid string, patch CustomerPatch) (*Customer, error) {
	r, err := c.api.CustomersUpdateWithResponse(ctx, uid, patch)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON200)
}

// Delete removes a customer.
func (c *Customers) Delete(ctx context.Context, uid string) error {
	r, err := c.api.CustomersDeleteWithResponse(ctx, uid)
	if err != nil {
		return err
	}
	return noContent(r.HTTPResponse, r.Body)
}

// List returns one page of customers, each with the health of its
// endpoints; params may be nil.
func (c *Customers) List(ctx context.Context, params *CustomersListParams) (Page[Customer], error) {
	var p CustomersListParams
	if params != nil {
		p = *params
	}
	r, err := c.api.CustomersListWithResponse(ctx, &p)
	if err != nil {
		return Page[Customer]{}, err
	}
	body, err := decode(r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return Page[Customer]{}, err
	}
	return page(body.Data, body.NextCursor), nil
}

// All iterates over every customer.
func (c *Customers) All(ctx context.Context, params *CustomersListParams) iter.Seq2[Customer, error] {
	var p CustomersListParams
	if params != nil {
		p = *params
	}
	return all(ctx, p.Cursor, func(ctx context.Context, cursor *string) (Page[Customer], error) {
		p.Cursor = cursor
		return c.List(ctx, &p)
	})
}

// PortalSession mints a customer portal session for the customer uid:
// open its URL (usually in an iframe) within two minutes, once.
func (c *Customers) PortalSession(ctx context.Context, uid string, in PortalSessionInput, opts ...CreateOption) (*PortalSession, error) {
	key, err := idempotencyKey(opts)
	if err != nil {
		return nil, err
	}
	r, err := c.api.PortalSessionsCreateWithResponse(ctx, uid, &ferryapi.PortalSessionsCreateParams{IdempotencyKey: key}, in)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON201)
}
