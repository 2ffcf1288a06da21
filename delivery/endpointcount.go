package delivery

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// EndpointCounter counts tenants' endpoints for billing's endpoint limit.
// It satisfies billing.EndpointCounter; app plugs it in.
type EndpointCounter struct{}

// CountEndpoints returns how many live (not deleted) endpoints tenantID
// has, read in tx (billing counts inside the transaction that holds its
// lock on the tenant's limits). Errors: wrapped database errors.
func (EndpointCounter) CountEndpoints(ctx context.Context, tx dbtx.Tx, tenantID uuid.UUID) (int64, error) {
	var n int64
	if err := tx.DB(ctx).Table("endpoints").Where("tenant_id = ? AND deleted_at IS NULL", tenantID).
		Count(&n).Error; err != nil {
		return 0, fmt.Errorf("count endpoints of tenant %s: %w", tenantID, err)
	}
	return n, nil
}

// EndpointHealth sums up a set of endpoints: how many there are, how many
// of the enabled ones fail every attempt (failing_since is set) and how
// many are disabled.
type EndpointHealth struct {
	Total    int `json:"total"`    // live endpoints
	Failing  int `json:"failing"`  // enabled endpoints whose attempts all fail since failing_since
	Disabled int `json:"disabled"` // endpoints disabled by a member, by Ferry or by their customer's deletion
}

// CustomerEndpointHealth sums up the live endpoints of each of the
// tenant's customers in uids, in one query: a page of customers shows its
// health without a request per row. A customer without endpoints is
// absent from the map. Errors: wrapped database errors.
func (s *Service) CustomerEndpointHealth(ctx context.Context, tenantID uuid.UUID, uids []string) (map[string]EndpointHealth, error) {
	out := make(map[string]EndpointHealth, len(uids))
	if len(uids) == 0 {
		return out, nil
	}
	var rows []struct {
		CustomerUID string
		EndpointHealth
	}
	if err := s.db.WithContext(ctx).Raw(`SELECT customer_uid, count(*) AS total,
			count(*) FILTER (WHERE enabled AND failing_since IS NOT NULL) AS failing,
			count(*) FILTER (WHERE NOT enabled) AS disabled
		FROM endpoints
		WHERE tenant_id = ? AND customer_uid = ANY(?) AND deleted_at IS NULL
		GROUP BY customer_uid`, tenantID, pgval.Array(uids)).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("sum up customers' endpoints: %w", err)
	}
	for _, r := range rows {
		out[r.CustomerUID] = r.EndpointHealth
	}
	return out, nil
}
