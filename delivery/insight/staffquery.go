package insight

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/pgval"
	"github.com/ferry-dev/ferry/page"
)

// Support staff see a tenant's events, deliveries and attempts but never
// its secrets: signing secrets are not read at all, and receiver
// credentials are hidden as for viewers (delivery.VisibilityRedacted, redact.go).

// StaffEventDetail is an event with its deliveries and every attempt, as
// support staff see it.
type StaffEventDetail struct {
	delivery.EventDetail
	Attempts []model.Attempt `json:"attempts"` // every attempt to deliver the event, custom header values redacted
	// Endpoints are the endpoints its deliveries went to, so the console
	// names them by URL (query values redacted); a deleted endpoint is
	// left out.
	Endpoints []EndpointRef `json:"endpoints" nullable:"false"`
}

// EndpointRef names an endpoint for support staff.
type EndpointRef struct {
	ID  uuid.UUID `json:"id"`  // the endpoint's id
	URL string    `json:"url"` // its URL, query values redacted; empty for a queue
	// Description names a queue endpoint, which has no URL.
	Description string        `json:"description"`
	Kind        delivery.Kind `json:"kind"`    // http or queue
	Enabled     bool          `json:"enabled"` // whether it is enabled now
}

// MarshalJSON adds the attempts to delivery.EventDetail's JSON.
func (d StaffEventDetail) MarshalJSON() ([]byte, error) {
	base, err := d.EventDetail.MarshalJSON()
	if err != nil {
		return nil, err
	}
	attempts, err := json.Marshal(d.Attempts)
	if err != nil {
		return nil, err
	}
	refs := d.Endpoints
	if refs == nil {
		refs = []EndpointRef{}
	}
	endpoints, err := json.Marshal(refs)
	if err != nil {
		return nil, err
	}
	out := append(base[:len(base)-1:len(base)-1], `,"attempts":`...)
	out = append(out, attempts...)
	out = append(out, `,"endpoints":`...)
	out = append(out, endpoints...)
	return append(out, '}'), nil
}

// StaffEvent returns one of a tenant's events with deliveries and
// attempts, receiver credentials redacted. Errors: ENOTFOUND.
func (s *Service) StaffEvent(ctx context.Context, tenantID, eventID uuid.UUID) (StaffEventDetail, error) {
	ev, err := s.delivery.Event(ctx, tenantID, eventID)
	if err != nil {
		return StaffEventDetail{}, err
	}
	attempts, err := s.delivery.EventAttempts(ctx, tenantID, eventID)
	if err != nil {
		return StaffEventDetail{}, err
	}
	ids := make([]uuid.UUID, 0, len(ev.Deliveries))
	for _, d := range ev.Deliveries {
		ids = append(ids, d.EndpointID)
	}
	refs, err := s.endpointRefs(ctx, tenantID, ids)
	if err != nil {
		return StaffEventDetail{}, err
	}
	return StaffEventDetail{EventDetail: ev, Attempts: delivery.VisibilityRedacted.Attempts(attempts), Endpoints: refs}, nil
}

// endpointRefs names the tenant's live endpoints among ids, URL query
// values redacted.
func (s *Service) endpointRefs(ctx context.Context, tenantID uuid.UUID, ids []uuid.UUID) ([]EndpointRef, error) {
	refs := []EndpointRef{}
	if len(ids) == 0 {
		return refs, nil
	}
	if err := s.db.WithContext(ctx).Raw(`SELECT id, url, description, kind, enabled FROM endpoints
		WHERE tenant_id = ? AND id = ANY(?::uuid[]) AND deleted_at IS NULL ORDER BY url, id`,
		tenantID, pgval.Array(ids)).Scan(&refs).Error; err != nil {
		return nil, fmt.Errorf("name endpoints: %w", err)
	}
	for i := range refs {
		refs[i].URL = delivery.RedactURLQuery(refs[i].URL)
	}
	return refs, nil
}

// StaffEndpoints lists a tenant's endpoints for support staff, custom
// header values and URL query values redacted. Errors: EINVALID (cursor).
func (s *Service) StaffEndpoints(ctx context.Context, tenantID uuid.UUID, pg page.Request) ([]delivery.Endpoint, string, error) {
	eps, next, err := s.delivery.ListEndpoints(ctx, tenantID, delivery.EndpointFilter{}, pg)
	if err != nil {
		return nil, "", err
	}
	return delivery.VisibilityRedacted.Endpoints(eps), next, nil
}

// EventTenant returns the tenant an event belongs to, for the staff
// console's lookup by event id across tenants (the one query here that
// does not take a tenant: staff routes alone may call it).
// Errors: ENOTFOUND.
func (s *Service) EventTenant(ctx context.Context, eventID uuid.UUID) (uuid.UUID, error) {
	var ids []uuid.UUID
	if err := s.db.WithContext(ctx).Raw(`SELECT tenant_id FROM events WHERE id = ?`, eventID).Scan(&ids).Error; err != nil {
		return uuid.Nil, fmt.Errorf("look up tenant of event %s: %w", eventID, err)
	}
	if len(ids) == 0 {
		return uuid.Nil, ferry.NotFound("event")
	}
	return ids[0], nil
}

// EndpointCounts are a tenant's live endpoints by state, for the staff
// console's tenant health.
type EndpointCounts struct {
	// Total is every endpoint not deleted; Enabled + Disabled = Total.
	Total    int64 `json:"total"`
	Enabled  int64 `json:"enabled"`  // enabled endpoints
	Disabled int64 `json:"disabled"` // disabled endpoints
	// Failing is the enabled endpoints whose every attempt has failed
	// since failing_since (docs/api.md, Stats and operational events).
	Failing int64 `json:"failing"`
}

// StaffEndpointCounts counts the tenant's endpoints by state.
func (s *Service) StaffEndpointCounts(ctx context.Context, tenantID uuid.UUID) (EndpointCounts, error) {
	var c EndpointCounts
	err := s.db.WithContext(ctx).Raw(`SELECT count(*) AS total,
			count(*) FILTER (WHERE enabled) AS enabled,
			count(*) FILTER (WHERE NOT enabled) AS disabled,
			count(*) FILTER (WHERE enabled AND failing_since IS NOT NULL) AS failing
		FROM endpoints WHERE tenant_id = ? AND deleted_at IS NULL`, tenantID).Scan(&c).Error
	if err != nil {
		return EndpointCounts{}, fmt.Errorf("count endpoints of tenant %s: %w", tenantID, err)
	}
	return c, nil
}

// StaffEndpointAttempts is EndpointAttempts for support staff: receiver
// credentials redacted. Errors: ENOTFOUND, EINVALID.
func (s *Service) StaffEndpointAttempts(ctx context.Context, tenantID, endpointID uuid.UUID, outcome string, pg page.Request) ([]model.Attempt, string, error) {
	attempts, next, err := s.delivery.EndpointAttempts(ctx, tenantID, endpointID, outcome, pg)
	if err != nil {
		return nil, "", err
	}
	return delivery.VisibilityRedacted.Attempts(attempts), next, nil
}
