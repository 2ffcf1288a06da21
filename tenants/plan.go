package tenants

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
)

// The tenant's plan is a column of tenants, so tenants stores it; billing
// owns the plans it names, decides changes and records their history, and
// reads and writes the assignment through these methods (Service
// satisfies billing.TenantPlans; app plugs it in).

// TenantPlan returns the name of tenantID's current plan, read in tx.
// Errors: ENOTFOUND, wrapped database errors.
func (s *Service) TenantPlan(ctx context.Context, tx dbtx.Tx, tenantID uuid.UUID) (string, error) {
	var rows []tenantRow
	// Find with Limit rather than First: runs on every ingest, where
	// First's ORDER BY and ErrRecordNotFound would only add work.
	if err := tx.DB(ctx).Select("plan").Where("id = ?", tenantID).Limit(1).Find(&rows).Error; err != nil {
		return "", fmt.Errorf("load plan of tenant %s: %w", tenantID, err)
	}
	if len(rows) == 0 {
		return "", ferry.NotFound("tenant")
	}
	return rows[0].Plan, nil
}

// QueueTenantPlan queues onto b the read of tenantID's current plan, for
// a caller sharing one round trip among several statements; set gets the
// plan, or ENOTFOUND, when b runs.
func (s *Service) QueueTenantPlan(b *pgx.Batch, tenantID uuid.UUID, set func(plan string, err error)) {
	b.Queue(`SELECT plan FROM tenants WHERE id = $1`, tenantID).QueryRow(func(row pgx.Row) error {
		var plan string
		err := row.Scan(&plan)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			set("", ferry.NotFound("tenant"))
		case err != nil:
			return fmt.Errorf("load plan of tenant %s: %w", tenantID, err)
		default:
			set(plan, nil)
		}
		return nil
	})
}

// SetTenantPlan assigns plan to tenantID in tx. Errors: ENOTFOUND, wrapped
// database errors (a plan that does not exist violates tenants_plan_fkey).
func (s *Service) SetTenantPlan(ctx context.Context, tx dbtx.Tx, tenantID uuid.UUID, plan string) error {
	res := tx.DB(ctx).Model(&tenantRow{}).Where("id = ?", tenantID).Update("plan", plan)
	if res.Error != nil {
		return fmt.Errorf("set plan of tenant %s: %w", tenantID, res.Error)
	}
	if res.RowsAffected == 0 {
		return ferry.NotFound("tenant")
	}
	return nil
}

// EachTenant calls fn for every tenant created before before (every
// tenant when before is zero), oldest first, with its plan and creation
// time. The whole list is read first, so fn may use the database. fn's
// error stops the walk and is returned. Errors: fn's, wrapped database
// errors.
func (s *Service) EachTenant(ctx context.Context, before time.Time, fn func(id uuid.UUID, plan string, createdAt time.Time) error) error {
	q := s.db.WithContext(ctx).Select("id", "plan", "created_at").Order("created_at, id")
	if !before.IsZero() {
		q = q.Where("created_at < ?", before)
	}
	var rows []tenantRow
	if err := q.Find(&rows).Error; err != nil {
		return fmt.Errorf("list tenants: %w", err)
	}
	for _, r := range rows {
		if err := fn(r.ID, r.Plan, r.CreatedAt); err != nil {
			return err
		}
	}
	return nil
}
