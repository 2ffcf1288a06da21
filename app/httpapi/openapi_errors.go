package httpapi

import "github.com/ferry-dev/ferry"

// errorExamples are the error responses' example bodies by status; the
// document tests validate each against the error schema.
func errorExamples() map[int]any {
	e := func(code, msg, field string) errorBody {
		return errorBody{Error: errorDetail{Code: code, Message: msg, Field: field}}
	}
	return map[int]any{
		400: e(ferry.EBADREQUEST, "the body is not valid JSON", ""),
		401: e(ferry.EUNAUTHORIZED, "missing or invalid API key", ""),
		402: e(ferry.EPAYMENT, "an invoice is overdue", ""),
		403: e(ferry.EFORBIDDEN, "your role does not allow this action", ""),
		404: e(ferry.ENOTFOUND, "endpoint not found", ""),
		409: e(ferry.ECONFLICT, "a request with this Idempotency-Key is still running", ""),
		413: e(ferry.ETOOLARGE, "payload over the limit", "data"),
		422: e(ferry.EINVALID, "url must be an https URL", "url"),
		429: e(ferry.ERATELIMIT, "rate limited: retry after 1 s", ""),
		503: e(ferry.EUNAVAILABLE, "the database is unavailable; retry", ""),
	}
}
