package billing

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
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
	Name              string `json:"name"`              // the plan's id, e.g. free or pro
	DisplayName       string `json:"display_name"`      // the plan's name for people
	EventsPerMonth    int64  `json:"events_per_month"`  // events included per calendar month
	MaxEndpoints      int    `json:"max_endpoints"`     // live endpoints allowed
	RetentionDays     int    `json:"retention_days"`    // how long events and attempts are kept
	EventsPerSecond   int    `json:"events_per_second"` // events (and replayed deliveries) accepted per second
	HardCap           bool   `json:"hard_cap"`          // true: events past the monthly quota are refused; false: billed as overage
	BaseFeeMinor      int64  `json:"base_fee_minor"`
	OverageUnitEvents int64  `json:"overage_unit_events"` // events per overage unit
	OveragePriceMinor int64  `json:"overage_price_minor"`
	Currency          string `json:"currency"`   // ISO 4217 code of the prices
	SelfServe         bool   `json:"self_serve"` // a tenant may switch to the plan itself
	// MaxSources bounds the tenant's inbound sources.
	MaxSources int `json:"max_sources"`
	// CapturedBytesPerMonth bounds the bytes of requests its sources
	// capture per calendar month (UTC); past it captures are refused.
	CapturedBytesPerMonth int64 `json:"captured_bytes_per_month"`
}

// Entitlements are one tenant's terms right now: its plan with any
// per-tenant override applied.
type Entitlements struct {
	Plan
	// Custom is true when a plan_overrides row changed the plan's terms.
	Custom bool `json:"custom"`
	// PaymentOverdue is true while an invoice of the tenant is unpaid
	// PaymentGrace after issue and staff have not lifted the restriction:
	// new events (and replays) are then refused with EPAYMENT.
	PaymentOverdue bool `json:"-"`
}

// Plans lists every plan, cheapest first.
func (s *Service) Plans(ctx context.Context) ([]Plan, error) {
	var rows []planRow
	if err := s.db.WithContext(ctx).Order("sort_order, name").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list plans: %w", err)
	}
	plans := make([]Plan, len(rows))
	for i, r := range rows {
		plans[i] = r.plan()
	}
	return plans, nil
}

// overriddenColumns are a plan's columns (p) with the overrides of o laid
// over them.
const overriddenColumns = `p.name, p.display_name,
	coalesce(o.events_per_month, p.events_per_month) AS events_per_month,
	coalesce(o.max_endpoints, p.max_endpoints) AS max_endpoints,
	coalesce(o.retention_days, p.retention_days) AS retention_days,
	coalesce(o.events_per_second, p.events_per_second) AS events_per_second,
	p.hard_cap,
	coalesce(o.base_fee_minor, p.base_fee_minor) AS base_fee_minor,
	p.overage_unit_events,
	coalesce(o.overage_price_minor, p.overage_price_minor) AS overage_price_minor,
	p.currency, p.self_serve,
	coalesce(o.max_sources, p.max_sources) AS max_sources,
	coalesce(o.captured_bytes_per_month, p.captured_bytes_per_month) AS captured_bytes_per_month,
	o.tenant_id IS NOT NULL AS custom`

// termsSQL reads the terms @tenant has on @plan and, unless
// @overdue_before is NULL, whether an invoice issued before then is
// overdue. Hand-written: the plan, its override and the overdue-invoice
// check come in one round trip (ConsumeEvents runs it inside its
// metering statement).
const termsSQL = `SELECT ` + overriddenColumns + `,
		(CAST(@overdue_before AS timestamptz) IS NOT NULL AND EXISTS (SELECT 1 FROM invoices i WHERE i.tenant_id = @tenant
			AND i.status <> 'paid' AND i.total_minor > 0 AND i.restriction_lifted_at IS NULL
			AND i.created_at < @overdue_before)) AS payment_overdue
	FROM plans p
	LEFT JOIN plan_overrides o ON o.tenant_id = @tenant AND o.plan = p.name WHERE p.name = @plan`

// entitlements loads a tenant's current terms in tx (a transaction, or
// the pool): its plan, asked of tenants, with billing's override for it.
// Errors: ENOTFOUND.
func (s *Service) entitlements(ctx context.Context, tx dbtx.Tx, tenantID uuid.UUID) (Entitlements, error) {
	plan, err := s.deps.Tenants.TenantPlan(ctx, tx, tenantID)
	if err != nil {
		return Entitlements{}, fmt.Errorf("load plan of tenant %s: %w", tenantID, err)
	}
	overdueBefore := s.clock.Now().UTC().Add(-PaymentGrace)
	return planTerms(tx.DB(ctx), tenantID, plan, &overdueBefore)
}

// planTerms loads the terms tenantID would have on plan (the plan with
// that tenant's override for it). With overdueBefore, PaymentOverdue says
// whether an unpaid invoice issued before then restricts the tenant.
// Errors: ENOTFOUND when no such plan.
func planTerms(db *gorm.DB, tenantID uuid.UUID, plan string, overdueBefore *time.Time) (Entitlements, error) {
	var e Entitlements
	res := db.Raw(termsSQL, sql.Named("tenant", tenantID), sql.Named("plan", plan), sql.Named("overdue_before", overdueBefore)).Scan(&e)
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
	return s.entitlements(ctx, dbtx.Wrap(s.db), tenantID)
}

// MaxRetentionDays is the longest log retention of any plan or override:
// the horizon at which the attempt-log partition job may drop whole days.
func (s *Service) MaxRetentionDays(ctx context.Context) (int, error) {
	db := s.db.WithContext(ctx)
	var plans, overrides int
	if err := db.Model(&planRow{}).Select("coalesce(max(retention_days), 1)").Scan(&plans).Error; err != nil {
		return 0, fmt.Errorf("max retention of plans: %w", err)
	}
	if err := db.Model(&overrideRow{}).Select("coalesce(max(retention_days), 1)").Scan(&overrides).Error; err != nil {
		return 0, fmt.Errorf("max retention of overrides: %w", err)
	}
	return max(plans, overrides), nil
}

// retentionDays returns the attempt retention of every tenant: its plan's
// with its override for that plan laid over it.
func (s *Service) retentionDays(ctx context.Context) (map[uuid.UUID]int, error) {
	db := s.db.WithContext(ctx)
	var plans []planRow
	if err := db.Select("name", "retention_days").Find(&plans).Error; err != nil {
		return nil, fmt.Errorf("load plan retention: %w", err)
	}
	byPlan := make(map[string]int, len(plans))
	for _, p := range plans {
		byPlan[p.Name] = p.RetentionDays
	}
	var overrides []overrideRow
	if err := db.Select("tenant_id", "plan", "retention_days").Where("retention_days IS NOT NULL").Find(&overrides).Error; err != nil {
		return nil, fmt.Errorf("load override retention: %w", err)
	}
	type key struct {
		tenant uuid.UUID
		plan   string
	}
	custom := make(map[key]int, len(overrides))
	for _, o := range overrides {
		custom[key{o.TenantID, o.Plan}] = *o.RetentionDays
	}
	days := map[uuid.UUID]int{}
	err := s.deps.Tenants.EachTenant(ctx, time.Time{}, func(id uuid.UUID, plan string, _ time.Time) error {
		d, ok := custom[key{id, plan}]
		if !ok {
			d, ok = byPlan[plan]
		}
		if ok {
			days[id] = d
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list tenants for retention: %w", err)
	}
	return days, nil
}
