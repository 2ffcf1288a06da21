package openapi

import "github.com/getkin/kin-openapi/openapi3"

// The response headers the API sends on every answer are described once,
// in components.headers, and each response refers to them.

// The names of the components.headers entries.
const (
	headerRequestID          = "X-Request-Id"
	headerRateLimitLimit     = "RateLimit-Limit"
	headerRateLimitRemaining = "RateLimit-Remaining"
	headerRateLimitReset     = "RateLimit-Reset"
	headerRetryAfter         = "Retry-After"
)

// componentHeaders returns the components.headers of the document.
func componentHeaders() openapi3.Headers {
	header := func(desc string, schema *openapi3.Schema) *openapi3.HeaderRef {
		return &openapi3.HeaderRef{Value: &openapi3.Header{Parameter: openapi3.Parameter{Description: desc, Schema: schema.NewRef()}}}
	}
	seconds := openapi3.NewIntegerSchema().WithMin(0)
	return openapi3.Headers{
		headerRequestID: header("The request's id: the caller's X-Request-Id when it is well formed, else a fresh one. "+
			"Every log line about the request carries it; quote it to support.", openapi3.NewStringSchema()),
		headerRateLimitLimit:     header("Requests the tenant may make per second (the API rate limit of its plan).", openapi3.NewIntegerSchema().WithMin(0)),
		headerRateLimitRemaining: header("Requests the tenant may make at once now (the tokens left in its bucket).", openapi3.NewIntegerSchema().WithMin(0)),
		headerRateLimitReset:     header("Seconds until the bucket is full again.", seconds),
		headerRetryAfter:         header("Seconds to wait before retrying.", seconds),
	}
}

// responseHeaderRefs returns the headers a response refers to: the
// request id always, the rate-limit headers when the caller is
// authenticated (the limit is per tenant).
func responseHeaderRefs(authenticated bool) openapi3.Headers {
	out := openapi3.Headers{headerRequestID: headerRef(headerRequestID)}
	if authenticated {
		for _, h := range []string{headerRateLimitLimit, headerRateLimitRemaining, headerRateLimitReset} {
			out[h] = headerRef(h)
		}
	}
	return out
}

func headerRef(name string) *openapi3.HeaderRef {
	return &openapi3.HeaderRef{Ref: "#/components/headers/" + name}
}
