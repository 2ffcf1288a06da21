package client

import (
	"context"
	"iter"

	"github.com/ferry-dev/ferry/sdk/go/client/ferryapi"
)

// Replays runs bulk replays: jobs that send matching deliveries again.
type Replays struct{ api *ferryapi.ClientWithResponses }

// Create starts a bulk replay job. Errors: *Error (429 replay_limit when
// three are already open).
func (rp *Replays) Create(ctx context.Context, in BulkReplayInput, opts ...CreateOption) (*ReplayJob, error) {
	key, err := idempotencyKey(opts)
	if err != nil {
		return nil, err
	}
	r, err := rp.api.ReplaysCreateWithResponse(ctx, &ferryapi.ReplaysCreateParams{IdempotencyKey: key}, in)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON202)
}

// Get returns a replay job with its progress.
func (rp *Replays) Get(ctx context.Context, id string) (*ReplayJob, error) {
	uid, err := parseID("replay", id)
	if err != nil {
		return nil, err
	}
	r, err := rp.api.ReplaysGetWithResponse(ctx, uid)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON200)
}

// Cancel stops a replay job before its next page.
func (rp *Replays) Cancel(ctx context.Context, id string) (*ReplayJob, error) {
	uid, err := parseID("replay", id)
	if err != nil {
		return nil, err
	}
	r, err := rp.api.ReplaysCancelWithResponse(ctx, uid)
	if err != nil {
		return nil, err
	}
	return decode(r.HTTPResponse, r.Body, r.JSON200)
}

// List returns one page of replay jobs; params may be nil.
func (rp *Replays) List(ctx context.Context, params *ReplaysListParams) (Page[ReplayJob], error) {
	var p ReplaysListParams
	if params != nil {
		p = *params
	}
	r, err := rp.api.ReplaysListWithResponse(ctx, &p)
	if err != nil {
		return Page[ReplayJob]{}, err
	}
	body, err := decode(r.HTTPResponse, r.Body, r.JSON200)
	if err != nil {
		return Page[ReplayJob]{}, err
	}
	return page(body.Data, body.NextCursor), nil
}

// All iterates over every replay job.
func (rp *Replays) All(ctx context.Context, params *ReplaysListParams) iter.Seq2[ReplayJob, error] {
	var p ReplaysListParams
	if params != nil {
		p = *params
	}
	return all(ctx, p.Cursor, func(ctx context.Context, cursor *string) (Page[ReplayJob], error) {
		p.Cursor = cursor
		return rp.List(ctx, &p)
	})
}
