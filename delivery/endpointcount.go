package delivery

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/dbtx"
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
