package billing

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
)

// Plan names seeded by migration 00004.
const (
	PlanFree       = "free"
	PlanPro        = "pro"
	PlanEnterprise = "enterprise"
)

// Plan is a row of the plans table. Amounts are integer minor units of
// Currency (cents for USD).
type Plan struct {
	Name              string `json:"name"`
	DisplayName       string `json:"display_name"`
	EventsPerMonth    int64  `json:"events_per_month"`
	MaxEndpoints      int    `json:"max_endpoints"`
	RetentionDays     int    `json:"retention_days"`
	EventsPerSecond   int    `json:"events_per_second"`
	HardCap           bool   `json:"hard_cap"`
	BaseFeeMinor      int64  `json:"base_fee_minor"`
	OverageUnitEvents int64  `json:"overage_unit_events"`
	OveragePriceMinor int64  `json:"overage_price_minor"`
	Currency          string `json:"currency"`
	SelfServe         bool   `json:"self_serve"`
}

// Entitlements are one tenant's terms right now: its plan with any
// per-tenant override applied.
type Entitlements struct {
	Plan
	// Custom is true when a plan_overrides row changed the plan's terms.
	Custom bool `json:"custom"`
}

// Plans lists every plan, cheapest first.
func (s *Service) Plans(ctx context.Context) ([]Plan, error) {
	var plans []Plan
	if err := s.db.WithContext(ctx).Raw(`SELECT ` + planColumns + ` FROM plans p ORDER BY sort_order, name`).
		Scan(&plans).Error; err != nil {
		return nil, fmt.Errorf("list plans: %w", err)
	}
	return plans, nil
}

const planColumns = `p.name, p.display_name, p.events_per_month, p.max_endpoints, p.retention_days,
	p.events_per_second, p.hard_cap, p.base_fee_minor, p.overage_unit_events, p.overage_price_minor,
	p.currency, p.self_serve`

// overriddenColumns is planColumns with the overrides of o laid over p.
const overriddenColumns = `p.name, p.display_name,
	coalesce(o.events_per_month, p.events_per_month) AS events_per_month,
	coalesce(o.max_endpoints, p.max_endpoints) AS max_endpoints,
	coalesce(o.retention_days, p.retention_days) AS retention_days,
	coalesce(o.events_per_second, p.events_per_second) AS events_per_second,
	p.hard_cap,
	coalesce(o.base_fee_minor, p.base_fee_minor) AS base_fee_minor,
	p.overage_unit_events,
	coalesce(o.overage_price_minor, p.overage_price_minor) AS overage_price_minor,
	p.currency, p.self_serve, o.tenant_id IS NOT NULL AS custom`

// entitlements loads a tenant's current terms through db (a transaction
// or the pool). Errors: ENOTFOUND.
func entitlements(db *gorm.DB, tenantID uuid.UUID) (Entitlements, error) {
	var e Entitlements
	res := db.Raw(`SELECT `+overriddenColumns+` FROM tenants t JOIN plans p ON p.name = t.plan
		LEFT JOIN plan_overrides o ON o.tenant_id = t.id AND o.plan = t.plan WHERE t.id = ?`, tenantID).Scan(&e)
	if res.Error != nil {
		return Entitlements{}, fmt.Errorf("load entitlements of tenant %s: %w", tenantID, res.Error)
	}
	if res.RowsAffected == 0 {
		return Entitlements{}, ferry.NotFound("tenant")
	}
	return e, nil
}

// planTerms loads the terms tenantID would have on plan (the plan with
// that tenant's override for it). Errors: ENOTFOUND when no such plan.
func planTerms(db *gorm.DB, tenantID uuid.UUID, plan string) (Entitlements, error) {
	var e Entitlements
	res := db.Raw(`SELECT `+overriddenColumns+` FROM plans p
		LEFT JOIN plan_overrides o ON o.tenant_id = ? AND o.plan = p.name WHERE p.name = ?`, tenantID, plan).Scan(&e)
	if res.Error != nil {
		return Entitlements{}, fmt.Errorf("load plan %q: %w", plan, res.Error)
	}
	if res.RowsAffected == 0 {
		return Entitlements{}, ferry.NotFound("plan")
	}
	return e, nil
}

// Entitlements returns a tenant's current terms. Errors: ENOTFOUND.
func (s *Service) Entitlements(ctx context.Context, tenantID uuid.UUID) (Entitlements, error) {
	return entitlements(s.db.WithContext(ctx), tenantID)
}

// MaxRetentionDays is the longest log retention of any plan or override:
// the horizon at which the attempt-log partition job may drop whole days.
func (s *Service) MaxRetentionDays(ctx context.Context) (int, error) {
	var days int
	err := s.db.WithContext(ctx).Raw(`SELECT greatest(
		(SELECT coalesce(max(retention_days), 1) FROM plans),
		(SELECT coalesce(max(retention_days), 1) FROM plan_overrides))`).Scan(&days).Error
	if err != nil {
		return 0, fmt.Errorf("max retention: %w", err)
	}
	return days, nil
}
