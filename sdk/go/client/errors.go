package client

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Error is an answer from Ferry other than 2xx, in Ferry's error shape
// ({"error":{"code","message","field"}}). Use errors.As to read it:
//
//	var fe *client.Error
//	if errors.As(err, &fe) && fe.Code == "invalid" { … fe.Field … }
type Error struct {
	// Status is the HTTP status code.
	Status int
	// Code is Ferry's error code: bad_request, invalid, unauthorized,
	// forbidden, not_found, conflict, rate_limited, quota_exceeded,
	// idempotency_key_reused, unavailable … (docs/api.md, Errors).
	Code string
	// Message is a human-readable explanation.
	Message string
	// Field names the request field at fault, when one is.
	Field string
	// RequestID is the response's X-Request-Id: quote it to support.
	RequestID string
	// RetryAfter is the response's Retry-After (429 and 503), zero when
	// absent.
	RetryAfter time.Duration
}

// Error returns "ferry: 422 invalid (field type): message [request id]".
func (e *Error) Error() string {
	s := fmt.Sprintf("ferry: %d %s", e.Status, e.Code)
	if e.Field != "" {
		s += " (field " + e.Field + ")"
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	if e.RequestID != "" {
		s += " [request " + e.RequestID + "]"
	}
	return s
}

// errorFrom reads Ferry's error body. A body that is not in the error
// shape (a proxy's HTML page) still gives a typed error, its code
// derived from the status.
func errorFrom(res *http.Response, body []byte) *Error {
	var shape struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
			Field   string `json:"field"`
		} `json:"error"`
	}
	e := &Error{Status: res.StatusCode, RequestID: res.Header.Get("X-Request-Id")}
	e.RetryAfter, _ = retryAfter(res.Header.Get("Retry-After"), time.Now())
	if json.Unmarshal(body, &shape) == nil && shape.Error.Code != "" {
		e.Code, e.Message, e.Field = shape.Error.Code, shape.Error.Message, shape.Error.Field
		return e
	}
	e.Code = "http_" + fmt.Sprint(res.StatusCode)
	e.Message = http.StatusText(res.StatusCode)
	return e
}

// decode returns v when res is a 2xx answer and v was decoded from it,
// and the answer as an *Error otherwise.
func decode[T any](res *http.Response, body []byte, v *T) (*T, error) {
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, errorFrom(res, body)
	}
	if v == nil {
		return nil, fmt.Errorf("ferry: %d answer without the expected JSON body [request %s]", res.StatusCode, res.Header.Get("X-Request-Id"))
	}
	return v, nil
}

// noContent checks an answer that carries no body (204).
func noContent(res *http.Response, body []byte) error {
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return errorFrom(res, body)
	}
	return nil
}
