package client

import (
	"context"
	"iter"

	"github.com/ferry-dev/ferry/sdk/go/client/ferryapi"
)

// Sources manages inbound sources: URLs where providers send webhooks
// that Ferry verifies and turns into events.
type Sources struct{ api *ferryapi.ClientWithResponses }

// Create adds a source; the answer carries its ingest URL.
func (s *Sources) Create(ctx context.Context, in SourceInput, opts ...CreateOption) (*Source, error) {
	key, err := idempotencyKey(opts)
	if err != nil {
		return nil, err
	}
	r, err := s.api.SourcesCreateWithResponse(ctx, &ferryapi.SourcesCreateParams{IdempotencyKey: key}, in)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON201)
}

// Get returns a source.
func (s *Sources) Get(ctx context.Context, id string) (*Source, error) {
	uid, err := parseID("source", id)
	if err != nil {
		return nil, err
	}
	r, err := s.api.SourcesGetWithResponse(ctx, uid)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON200)
}

// Update changes the fields set in patch (Enabled false disables it).
func (s *Sources) Update(ctx context.Context, id string, patch SourcePatch) (*Source, error) {
	uid, err := parseID("source", id)
	if err != nil {
		return nil, err
	}
	r, err := s.api.SourcesUpdateWithResponse(ctx, uid, patch)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON200)
}

// Delete removes a source.
func (s *Sources) Delete(ctx context.Context, id string) error {
	uid, err := parseID("source", id)
	if err != nil {
		return err
	}
	r, err := s.api.SourcesDeleteWithResponse(ctx, uid)
	if err != nil {
		return err
	}
	return noContent(r.HTTPResponse, r.Body)
}

// List returns one page of sources; params may be nil.
func (s *Sources) List(ctx context.Context, params *SourcesListParams) (Page[Source], error) {
	var p SourcesListParams
	if params != nil {
		p = *params
	}
	r, err := s.api.SourcesListWithResponse(ctx, &p)
	if err != nil {
		return Page[Source]{}, err
	}
	body, err := decode(r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return Page[Source]{}, err
	}
	return page(body.Data, body.NextCursor), nil
}

// All iterates over every source.
func (s *Sources) All(ctx context.Context, params *SourcesListParams) iter.Seq2[Source, error] {
	var p SourcesListParams
	if params != nil {
		p = *params
	}
	return all(ctx, p.Cursor, func(ctx context.Context, cursor *string) (Page[Source], error) {
		p.Cursor = cursor
		return s.List(ctx, &p)
	})
}
