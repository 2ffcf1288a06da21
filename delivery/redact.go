package delivery

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/ferry-dev/ferry/delivery/model"
)

// What a caller may see of a receiver's credentials. Receivers often
// authenticate Ferry by a custom header (Authorization: Bearer …) or a
// token in the URL's query, and attempts echo both back: the request
// headers sent, and error messages that quote the URL. Owners, admins and
// API keys manage endpoints and see everything; viewers and support staff
// see those values as Redacted. Signing secrets are a separate route that
// viewers and staff cannot call at all.

// Redacted replaces a hidden value.
const Redacted = "[redacted]"

// Visibility is how much of a receiver's credentials a caller may see.
// The zero value hides them, so a forgotten conversion fails closed.
type Visibility int

const (
	// VisibilityRedacted hides custom header values, URL query values and
	// URLs inside error messages (viewers, support staff).
	VisibilityRedacted Visibility = iota
	// VisibilityFull shows everything (owners, admins, API keys).
	VisibilityFull
)

// ferryHeaders are the request headers Ferry itself sets; their values
// are no secret (the signature is an HMAC, not the key).
var ferryHeaders = map[string]bool{
	"Content-Type": true, "User-Agent": true, "Webhook-Id": true, "Webhook-Timestamp": true,
	"Webhook-Signature": true, "X-Webhook-Id": true, "Content-Length": true,
}

// urlInText finds absolute URLs quoted in free text such as Go's
// `Post "https://host/path?token=…": dial tcp …`.
var urlInText = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.\-]{0,15}://[^\s"'<>` + "`" + `]+`)

// Endpoint returns ep as the caller may see it.
func (v Visibility) Endpoint(ep Endpoint) Endpoint {
	if v == VisibilityFull {
		return ep
	}
	ep.URL = RedactURLQuery(ep.URL)
	h := make(map[string]string, len(ep.Headers))
	for k := range ep.Headers {
		h[k] = Redacted
	}
	ep.Headers = h
	if ep.Transformation != "" {
		// Code may carry credentials it puts in headers.
		ep.Transformation = Redacted
	}
	return ep
}

// redactedPayload stands for a payload the caller may not see.
var redactedPayload = json.RawMessage(`"` + Redacted + `"`)

// RoutingTest returns res as the caller may see it: custom header
// values hidden, like the endpoint's own; and when the endpoint's saved
// transformation ran, its payload and error hidden too, as its code is:
// they may quote credentials written in it. Whether the event matched,
// the filter's error and a cancel stay visible; so does what an unsaved
// transformation (the caller's own code, run on hidden header values)
// made.
func (v Visibility) RoutingTest(res RoutingTestResult) RoutingTestResult {
	if v == VisibilityFull {
		return res
	}
	h := make(map[string]string, len(res.Headers))
	for k := range res.Headers {
		h[k] = Redacted
	}
	res.Headers = h
	if res.savedRan {
		if res.Payload != nil {
			res.Payload = redactedPayload
		}
		if res.Error != "" {
			res.Error = Redacted
		}
	}
	return res
}

// Endpoints applies Endpoint to each of eps, in place, and returns eps.
func (v Visibility) Endpoints(eps []Endpoint) []Endpoint {
	for i := range eps {
		eps[i] = v.Endpoint(eps[i])
	}
	return eps
}

// Attempt returns a as the caller may see it.
func (v Visibility) Attempt(a model.Attempt) model.Attempt {
	if v == VisibilityFull {
		return a
	}
	a.RequestHeaders = redactHeaders(a.RequestHeaders)
	a.ErrorMessage = RedactURLs(a.ErrorMessage)
	return a
}

// Attempts applies Attempt to each of as, in place, and returns as.
func (v Visibility) Attempts(as []model.Attempt) []model.Attempt {
	for i := range as {
		as[i] = v.Attempt(as[i])
	}
	return as
}

// redactHeaders hides every value but those Ferry sets itself.
func redactHeaders(h http.Header) http.Header {
	if h == nil {
		return nil
	}
	out := make(http.Header, len(h))
	for k, v := range h {
		if ferryHeaders[http.CanonicalHeaderKey(k)] {
			out[k] = v
		} else {
			out[k] = []string{Redacted}
		}
	}
	return out
}

// RedactURLQuery hides the values of raw's query parameters, where
// receivers often put a token, and any user information. A URL that does
// not parse is hidden whole. The marker is written as is, never
// percent-escaped: people read these URLs (the staff console, viewers),
// and "%5Bredacted%5D" reads as a value rather than as a hidden one.
func RedactURLQuery(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return Redacted
	}
	hadUser := u.User != nil
	u.User = nil
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, p := range parts {
			if p == "" {
				continue
			}
			name, _, _ := strings.Cut(p, "=")
			parts[i] = name + "=" + Redacted
		}
		// url.URL.String writes RawQuery verbatim.
		u.RawQuery = strings.Join(parts, "&")
	}
	s := u.String()
	if hadUser {
		// url.URL.String would escape the marker in user information, so
		// it goes in after the authority's "//".
		if i := strings.Index(s, "//"); i >= 0 {
			s = s[:i+2] + Redacted + "@" + s[i+2:]
		}
	}
	return s
}

// RedactURLs replaces every absolute URL in text with Redacted.
func RedactURLs(text string) string {
	if !strings.Contains(text, "://") {
		return text
	}
	return urlInText.ReplaceAllString(text, Redacted)
}
