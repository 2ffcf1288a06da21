package queue

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery/model"
)

// Stats describes one queue now.
type Stats struct {
	// Depth is the messages waiting: due or delayed, not leased.
	Depth int64 `json:"depth"`
	// InFlight is the messages leased and not yet settled.
	InFlight int64 `json:"in_flight"`
	// OldestAgeSeconds is the age of the oldest waiting message (0 when
	// none waits).
	OldestAgeSeconds int64 `json:"oldest_age_seconds"`
	// Dead is the messages dropped (rejected) or exhausted: replayable.
	Dead int64 `json:"dead"`
}

// Stats returns the tenant's queue's counts. Errors: ENOTFOUND, wrapped
// database errors.
func (s *Service) Stats(ctx context.Context, tenantID, endpointID uuid.UUID) (Stats, error) {
	if _, err := s.queueEndpoint(ctx, tenantID, endpointID); err != nil {
		return Stats{}, err
	}
	now := s.clock.Now().UTC()
	var row struct {
		Depth    int64
		InFlight int64
		Oldest   *time.Time
		Dead     int64
	}
	// Each count reads only what it counts: the unfinished rows through
	// the queue's head index, the dead ones through the tenant's status
	// index; never the queue's finished history, which only grows.
	if err := s.db.WithContext(ctx).Raw(`SELECT
			count(*) FILTER (WHERE lease_until IS NULL OR lease_until <= ?) AS depth,
			count(*) FILTER (WHERE lease_until > ?) AS in_flight,
			min(created_at) FILTER (WHERE lease_until IS NULL OR lease_until <= ?) AS oldest,
			(SELECT count(*) FROM deliveries WHERE tenant_id = ? AND status IN `+model.SQLDead+` AND endpoint_id = ?) AS dead
		FROM deliveries WHERE tenant_id = ? AND endpoint_id = ? AND status IN `+model.SQLUnfinished+``,
		now, now, now, tenantID, endpointID, tenantID, endpointID).Scan(&row).Error; err != nil {
		return Stats{}, fmt.Errorf("queue stats of %s: %w", endpointID, err)
	}
	st := Stats{Depth: row.Depth, InFlight: row.InFlight, Dead: row.Dead}
	if row.Oldest != nil {
		st.OldestAgeSeconds = max(0, int64(now.Sub(*row.Oldest)/time.Second))
	}
	return st, nil
}
