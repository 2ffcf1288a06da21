package delivery

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
)

// Customer uids resolved at ingest are cached this long, this many at
// most: an event sent for a customer costs no lookup most of the time. A
// customer deleted within the TTL may still get events accepted for it;
// its endpoints are disabled, so none is sent.
const (
	customerCacheTTL  = 5 * time.Second
	customerCacheSize = 10_000
)

type customerKey struct {
	tenantID uuid.UUID
	uid      string
}

// resolveCustomer returns Ferry's id for the tenant's customer uid.
// Errors: EINVALID naming field.
func (s *Service) resolveCustomer(ctx context.Context, tenantID uuid.UUID, field, uid string) (*uuid.UUID, error) {
	if s.cfg.Customers == nil {
		return nil, ferry.Invalid(field, "customers are not enabled")
	}
	k := customerKey{tenantID, uid}
	now := s.now()
	if id, ok := s.customers.Get(k, now); ok {
		return &id, nil
	}
	id, err := s.cfg.Customers.Resolve(ctx, tenantID, field, uid)
	if err != nil {
		return nil, err
	}
	s.customers.Put(k, id, now)
	return &id, nil
}

// DisableCustomerEndpoints disables the customer's live endpoints, in tx
// (the transaction that deletes the customer), and returns how many. It
// satisfies customers.Endpoints.
func (s *Service) DisableCustomerEndpoints(ctx context.Context, tx dbtx.Tx, tenantID, customerID uuid.UUID) (int64, error) {
	res := tx.DB(ctx).Exec(`UPDATE endpoints SET enabled = false, disabled_reason = ?, updated_at = ?
		WHERE tenant_id = ? AND customer_id = ? AND deleted_at IS NULL AND enabled`,
		"its customer was deleted", s.now().UTC(), tenantID, customerID)
	if res.Error != nil {
		return 0, fmt.Errorf("disable endpoints of customer %s: %w", customerID, res.Error)
	}
	return res.RowsAffected, nil
}
