package dispatch

import (
	"context"
	"net/http"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/webhook"
)

// attemptRequest is what one attempt sends, or why it sends nothing.
type attemptRequest struct {
	body    []byte
	headers http.Header
	// noSend is the error class of an attempt that makes no request (the
	// endpoint's transformation failed or cancelled the delivery), with
	// noSendMessage saying why; empty when the request is to be made.
	noSend        string
	noSendMessage string
}

// buildRequest decides the body and headers of an attempt: the endpoint's
// payload (the envelope, or for a raw endpoint the body as captured), or
// the body and header changes that the endpoint's transformation stored
// for this delivery at fan-out, so every attempt,
// retry and replay sends the same bytes. Either way the body is signed
// with the endpoint's current keys. This is the one place the body of an
// attempt is decided.
func (d *Dispatcher) buildRequest(ctx context.Context, job model.Job, st deliveryState, tgt *target) (attemptRequest, error) {
	tr, transformed, err := delivery.DecodeTransformed(st.TransformPresent, st.TransformCancelled, st.TransformError,
		st.TransformBody, st.TransformHeaders)
	if err != nil {
		return attemptRequest{}, err
	}
	custom := tgt.endpoint.Headers
	var body []byte
	contentType := "application/json"
	switch {
	case !transformed:
		if body, contentType, err = d.payload(ctx, tgt.endpoint, job.EventID, st); err != nil {
			return attemptRequest{}, err
		}
	case tr.Err != "":
		return attemptRequest{noSend: ErrClassTransformation, noSendMessage: tr.Err}, nil
	case tr.Cancelled:
		return attemptRequest{noSend: ErrClassCancelled, noSendMessage: "cancelled by the endpoint's transformation; no request made"}, nil
	default:
		body = tr.Body
		custom = delivery.ApplyHeaderOverrides(custom, tr.Headers)
	}
	signedAt := st.CreatedAt
	if tgt.endpoint.SignatureTimestamp == delivery.SignatureTimestampAttempt {
		signedAt = d.now()
	}
	headers := webhook.Headers(custom, d.cfg.UserAgent, tgt.keys, job.EventID.String(), signedAt, body)
	setContentType(headers, contentType)
	return attemptRequest{body: body, headers: headers}, nil
}
