package delivery

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
)

// Customer uids resolved at ingest are cached this long, within these
// bounds (bytes, estimated) in total and per tenant: an event sent for a
// customer costs no lookup most of the time, and a tenant sending for a
// great many customers evicts its own entries, not other tenants'. A
// customer deleted within the TTL may still get events accepted for it;
// its endpoints are disabled, so none is sent.
const (
	customerCacheTTL       = 5 * time.Second
	customerCacheBytes     = 4 << 20
	customerCacheTenantMax = 256 << 10
)

// resolvedCustomer is a cached resolution of a customer uid.
type resolvedCustomer struct {
	id uuid.UUID
	at time.Time
}

// customerCost estimates a cached resolution's memory: the uid, the
// entry and the map and list overhead.
func customerCost(uid string) int64 { return int64(len(uid)) + 128 }

// resolveCustomer returns Ferry's id for the tenant's customer uid.
// Errors: EINVALID naming field.
func (s *Service) resolveCustomer(ctx context.Context, tenantID uuid.UUID, field, uid string) (*uuid.UUID, error) {
	if s.cfg.Customers == nil {
		return nil, ferry.Invalid(field, "customers are not enabled")
	}
	now := s.now()
	if r, ok := s.customers.Get(tenantID, uid); ok {
		if now.Sub(r.at) < customerCacheTTL {
			return &r.id, nil
		}
		s.customers.Remove(tenantID, uid)
	}
	id, err := s.cfg.Customers.Resolve(ctx, tenantID, field, uid)
	if err != nil {
		return nil, err
	}
	s.customers.Put(tenantID, uid, resolvedCustomer{id: id, at: now}, customerCost(uid))
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
