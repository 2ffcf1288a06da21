package replay

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// ReplayPreview says how many deliveries a bulk replay with the same
// filter would re-send if it started now.
type ReplayPreview struct {
	// Matched is the number of deliveries the filter selects, counted
	// like the job counts them: deliveries to disabled or deleted
	// endpoints are left out.
	Matched int64 `json:"matched"`
	// Until is the end of the time range counted (the filter's until, or
	// now): a job started later also counts deliveries created since.
	Until time.Time `json:"until"`
}

// PreviewReplay counts the tenant's deliveries a bulk replay with f
// would re-send, without starting one. Errors: EINVALID, ENOTFOUND
// (endpoint).
func (s *Service) PreviewReplay(ctx context.Context, tenantID uuid.UUID, f ReplayFilter) (ReplayPreview, error) {
	if err := f.validate(); err != nil {
		return ReplayPreview{}, err
	}
	db := s.db.WithContext(ctx)
	if f.EndpointID != nil {
		if _, err := s.delivery.Endpoint(ctx, tenantID, *f.EndpointID); err != nil {
			return ReplayPreview{}, err
		}
	}
	now := s.now().UTC()
	until := f.Until
	if until == nil || until.After(now) {
		until = &now
	}
	// The same selection the replay worker pages through (matching), so
	// the preview and the job's total agree.
	job := replayJobRow{TenantID: tenantID, EndpointID: f.EndpointID, EventType: f.EventType, Since: f.Since,
		Until: until, StatusFilter: f.Status}
	var n int64
	if err := matching(db, job, "count(*)", 0).Scan(&n).Error; err != nil {
		return ReplayPreview{}, fmt.Errorf("count deliveries to replay: %w", err)
	}
	return ReplayPreview{Matched: n, Until: *until}, nil
}
