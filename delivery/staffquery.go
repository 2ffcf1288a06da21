package delivery

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/page"
)

// Support staff see a tenant's events, deliveries and attempts but never
// its secrets: signing secrets are not read at all, and the values of an
// endpoint's custom headers and URL query (often a receiver's credentials)
// are redacted, on the endpoint and in the request headers logged on
// attempts.

// Redacted replaces a hidden value.
const Redacted = "[redacted]"

// ferryHeaders are the request headers Ferry itself sets; their values
// are no secret (the signature is an HMAC, not the key).
var ferryHeaders = map[string]bool{
	"Content-Type": true, "User-Agent": true, "Webhook-Id": true, "Webhook-Timestamp": true,
	"Webhook-Signature": true, "X-Webhook-Id": true,
}

// StaffEventDetail is an event with its deliveries and every attempt, as
// support staff see it.
type StaffEventDetail struct {
	EventDetail
	Attempts []Attempt `json:"attempts"`
}

// MarshalJSON adds the attempts to EventDetail's JSON.
func (d StaffEventDetail) MarshalJSON() ([]byte, error) {
	base, err := d.EventDetail.MarshalJSON()
	if err != nil {
		return nil, err
	}
	attempts, err := json.Marshal(d.Attempts)
	if err != nil {
		return nil, err
	}
	out := append(base[:len(base)-1:len(base)-1], `,"attempts":`...)
	out = append(out, attempts...)
	return append(out, '}'), nil
}

// StaffEvent returns one of a tenant's events with deliveries and
// attempts, custom header values redacted. Errors: ENOTFOUND.
func (s *Service) StaffEvent(ctx context.Context, tenantID, eventID uuid.UUID) (StaffEventDetail, error) {
	ev, err := s.Event(ctx, tenantID, eventID)
	if err != nil {
		return StaffEventDetail{}, err
	}
	attempts, err := s.EventAttempts(ctx, tenantID, eventID)
	if err != nil {
		return StaffEventDetail{}, err
	}
	for i := range attempts {
		attempts[i].RequestHeaders = redactHeaders(attempts[i].RequestHeaders)
	}
	return StaffEventDetail{EventDetail: ev, Attempts: attempts}, nil
}

func redactHeaders(h http.Header) http.Header {
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

// redactQuery hides query parameter values, where receivers often put a
// token.
func redactQuery(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.RawQuery == "" {
		return raw
	}
	q := u.Query()
	for k := range q {
		q[k] = []string{Redacted}
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// StaffEndpoints lists a tenant's endpoints for support staff, custom
// header values and URL query values redacted. Errors: EINVALID (cursor).
func (s *Service) StaffEndpoints(ctx context.Context, tenantID uuid.UUID, pg page.Request) ([]Endpoint, string, error) {
	eps, next, err := s.ListEndpoints(ctx, tenantID, pg)
	if err != nil {
		return nil, "", err
	}
	for i := range eps {
		eps[i].URL = redactQuery(eps[i].URL)
		h := make(map[string]string, len(eps[i].Headers))
		for k := range eps[i].Headers {
			h[k] = Redacted
		}
		eps[i].Headers = h
	}
	return eps, next, nil
}
