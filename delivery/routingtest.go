package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/delivery/webhook"
)

// RoutingTestInput is the body of POST /endpoints/{id}/test-routing: a
// sample event, and optionally an unsaved filter and transformation to
// try instead of the endpoint's own (what the portal's editors send).
type RoutingTestInput struct {
	Event          RoutingTestEvent `json:"event"`
	Filter         *string          `json:"filter"`
	Transformation *string          `json:"transformation"`
	// Request is a sample captured request, as filters see it for events
	// from inbound sources; absent, filters see an empty one.
	Request *routing.Request `json:"request"`
}

// RoutingTestEvent is the sample event of a routing test; ID and
// CreatedAt default to a fresh id and now.
type RoutingTestEvent struct {
	ID        *uuid.UUID      `json:"id"`
	Type      string          `json:"type"`
	CreatedAt *time.Time      `json:"created_at"`
	Data      json.RawMessage `json:"data"`
}

// RoutingTestResult is what the endpoint's routing would do with the
// sample event.
type RoutingTestResult struct {
	// Matched: the event type matches the endpoint's event types and the
	// filter accepts the event.
	Matched bool `json:"matched"`
	// FilterError is the filter's compile or evaluation error, if any
	// (an error counts as not matched).
	FilterError string `json:"filter_error,omitempty"`
	// Payload is the body the endpoint would receive, after the
	// transformation if there is one (null when cancelled or failed).
	Payload json.RawMessage `json:"payload"`
	// Headers are the custom headers sent with it: the endpoint's own as
	// the transformation left them (Ferry's webhook-* signature headers
	// come on top).
	Headers map[string]string `json:"headers"`
	// Cancelled: the transformation cancelled the delivery; nothing would
	// be sent.
	Cancelled bool `json:"cancelled"`
	// Error is why the transformation failed (the delivery would be
	// dropped with error class transformation_error), if it would.
	Error string `json:"error,omitempty"`
	// savedRan: the endpoint's saved transformation made Payload and
	// Error, which may then quote its code (Visibility.RoutingTest).
	savedRan bool
}

// TestRouting runs the endpoint's event-type patterns, filter (or
// in.Filter) and transformation (or in.Transformation) on a sample event
// without storing or sending anything. The transformation runs whether or
// not the event matched, so an editor can try it on any sample.
// A caller with redacted visibility runs it with the custom header values
// hidden (a transformation could otherwise copy them into the payload),
// and gets what the saved transformation made redacted (vis.RoutingTest).
// An unsaved transformation is compiled, run once and not cached.
// Errors: ENOTFOUND, EINVALID for a malformed sample event.
func (s *Service) TestRouting(ctx context.Context, tenantID, endpointID uuid.UUID, in RoutingTestInput, vis Visibility) (RoutingTestResult, error) {
	ep, err := s.Endpoint(ctx, tenantID, endpointID)
	if err != nil {
		return RoutingTestResult{}, err
	}
	saved := ep.Transformation
	ep = vis.Endpoint(ep)
	ep.Transformation = saved
	sample := EventInput{Type: in.Event.Type, Data: in.Event.Data}
	if err := sample.validate(); err != nil {
		var fe *ferry.Error
		if errors.As(err, &fe) && fe.Field != "" {
			fe.Field = "event." + fe.Field
		}
		return RoutingTestResult{}, err
	}
	ev := Event{ID: uuid.New(), Type: sample.Type, Data: sample.Data, CreatedAt: s.now().UTC().Truncate(time.Millisecond)}
	if in.Event.ID != nil {
		ev.ID = *in.Event.ID
	}
	if in.Event.CreatedAt != nil {
		ev.CreatedAt = in.Event.CreatedAt.UTC()
	}
	filter := ep.Filter
	if in.Filter != nil {
		filter = *in.Filter
	}
	ev.request = in.Request
	res := RoutingTestResult{
		Payload: webhook.Envelope(ev.ID, ev.Type, ev.CreatedAt, ev.Data),
		Headers: ep.Headers,
	}
	if ep.Format == FormatRaw {
		// A sample event has no captured body: a raw endpoint gets its data.
		res.Payload = ev.Data
	}
	res.Matched = len(ep.EventTypes) == 0
	for _, p := range ep.EventTypes {
		if routing.Match(p, ev.Type) {
			res.Matched = true
			break
		}
	}
	if ok, err := s.router.filters.Try(filter, routing.Prepare(routingEvent(ev))); err != nil {
		res.Matched, res.FilterError = false, err.Error()
	} else if !ok {
		res.Matched = false
	}
	transformation := ep.Transformation
	if in.Transformation != nil {
		transformation = *in.Transformation
	}
	if transformation != "" {
		if ep.Kind == KindQueue {
			return RoutingTestResult{}, ferry.Invalid("transformation", "transformations apply to http endpoints")
		}
		t, err := s.router.transform(ctx, tenantID, transformation, in.Transformation != nil, ev, ep.Headers)
		if err != nil {
			return RoutingTestResult{}, err
		}
		res.savedRan = in.Transformation == nil
		switch {
		case t.Err != "":
			res.Payload, res.Headers, res.Error = nil, map[string]string{}, t.Err
		case t.Cancelled:
			res.Payload, res.Headers, res.Cancelled = nil, map[string]string{}, true
		default:
			res.Payload, res.Headers = t.Body, ApplyHeaderOverrides(ep.Headers, t.Headers)
		}
	}
	return res, nil
}
