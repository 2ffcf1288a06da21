// Package ferry holds the one error type shared by every domain package.
// Domain code returns *Error with a code; the HTTP layer maps codes to
// status and body in one place (app/httpapi/errors.go).
package ferry

import (
	"errors"
	"fmt"
)

// Error codes. Each maps to exactly one HTTP status in app/httpapi.
const (
	EINVALID      = "invalid"                // a field failed validation (422)
	EBADREQUEST   = "bad_request"            // the request could not be parsed (400)
	ENOTFOUND     = "not_found"              // absent, or owned by another tenant (404)
	ECONFLICT     = "conflict"               // a unique constraint (409)
	EUNAUTHORIZED = "unauthorized"           // missing or bad credentials (401)
	EFORBIDDEN    = "forbidden"              // authenticated but not allowed (403)
	EQUOTA        = "quota_exceeded"         // the plan's monthly quota is used up (429)
	EPLANLIMIT    = "plan_limit"             // a plan limit such as endpoint count (422)
	ERATELIMIT    = "rate_limited"           // too many requests (429)
	EREPLAYLIMIT  = "replay_limit"           // too many bulk replays queued or running (429)
	EKEYREUSED    = "idempotency_key_reused" // the idempotency key named a different request (422)
	EPAYMENT      = "payment_required"       // a paid plan or an overdue invoice needs payment (402)
	ETOOLARGE     = "payload_too_large"      // body over the limit (413)
	ETIMEOUT      = "request_timeout"        // the client sent its request too slowly (408)
	EUNAVAILABLE  = "unavailable"            // a dependency is down; retry later (503)
	EINTERNAL     = "internal"               // anything else (500)
)

// Error is an application error with a machine-readable code, a message safe
// to show to API users, and optionally the request field it concerns.
type Error struct {
	Code    string
	Message string
	Field   string
	// RetryAfterSeconds, when positive, is sent as a Retry-After header.
	RetryAfterSeconds int
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s: %s (%s)", e.Code, e.Message, e.Field)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid returns an EINVALID error about one field.
func Invalid(field, format string, args ...any) *Error {
	return &Error{Code: EINVALID, Message: fmt.Sprintf(format, args...), Field: field}
}

// NotFound returns an ENOTFOUND error naming the kind of object.
func NotFound(what string) *Error {
	return &Error{Code: ENOTFOUND, Message: what + " not found"}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL
// for any other non-nil error, and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}
