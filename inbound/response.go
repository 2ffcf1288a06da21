package inbound

import (
	"mime"
	"net/http"
)

// An ingest URL is public and is served from Ferry's own origin (unless
// FERRY_INGEST_URL gives it one of its own), so what a source answers
// must never be a document a browser would render: a tenant-written HTML
// page there could post a signed-in visitor's cookies on to a capture.
// Sources answer JSON, plain text or XML only, and the HTTP layer adds a
// sandboxing Content-Security-Policy to every ingest response.

// responseMediaTypes are the media types a source may answer with.
var responseMediaTypes = map[string]bool{
	"application/json": true,
	"text/plain":       true,
	"application/xml":  true,
	"text/xml":         true,
}

// allowedResponseType reports whether ct names one of
// responseMediaTypes, with parameters (a charset) or without.
func allowedResponseType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && responseMediaTypes[mt]
}

// strippedHeaders are never stored with a capture: a browser sends its
// cookies (a signed-in portal user's session among them) to any URL of
// an origin, and a capture is shown to every member of the tenant.
// Authorization is kept only when the source's scheme reads it.
var strippedHeaders = []string{"Cookie", "Proxy-Authorization"}

// storedHeaders is h as a capture keeps it: a copy without the headers
// that carry a visitor's or a proxy's credentials.
func storedHeaders(h http.Header, v Verification) http.Header {
	out := h.Clone()
	if out == nil {
		return http.Header{}
	}
	for _, k := range strippedHeaders {
		out.Del(k)
	}
	readsAuthorization := v.Type == SchemeBasicAuth ||
		(v.Type == SchemeHMACSHA256 && http.CanonicalHeaderKey(v.Header) == "Authorization")
	if !readsAuthorization {
		out.Del("Authorization")
	}
	return out
}

// answerType is the content type served for a stored response: sources
// saved before types were limited may hold another, which is served as
// plain text.
func answerType(ct string) string {
	if allowedResponseType(ct) {
		return ct
	}
	return "text/plain; charset=utf-8"
}
