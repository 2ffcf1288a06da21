package billing

import (
	"context"
	"fmt"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/dbtx"
)

// Overview is what a tenant (or staff) sees on the billing page: the plan
// and its limits, this month's usage against them, and the plans on offer.
type Overview struct {
	TenantID uuid.UUID    `json:"tenant_id"` // the tenant
	Plan     Entitlements `json:"plan"`      // the tenant's plan with any custom terms
	Usage    Usage        `json:"usage"`     // this calendar month's usage
	// Endpoints is the number of live endpoints (limit: plan.max_endpoints).
	Endpoints int64 `json:"endpoints"`
	// OverageEvents is how many of this month's events exceed the plan's
	// included events so far (paid plans).
	OverageEvents int64 `json:"overage_events"`
	// EstimatedOverageMinor is what the overage events would cost at
	// today's plan, in minor units.
	EstimatedOverageMinor int64 `json:"estimated_overage_minor"`
	// QuotaExhausted is true when a hard-capped plan refuses events now.
	QuotaExhausted bool `json:"quota_exhausted"`
	// Plans are the plans a tenant may switch to itself.
	Plans []Plan `json:"plans"`
	// PaymentsConfigured is false when no payment provider is wired in:
	// plans with a fee cannot then be chosen self-serve.
	PaymentsConfigured bool `json:"payments_configured"`
	// PaymentMethod is the payment method the provider accepted, if any.
	PaymentMethod *PaymentMethod `json:"payment_method"`
	// PaymentOverdue is true while an invoice is unpaid more than 14 days
	// after issue: new events are refused with 402 until it is paid or
	// staff lift the restriction.
	PaymentOverdue bool `json:"payment_overdue"`
}

// Overview returns tenantID's billing overview for the current month.
// Errors: ENOTFOUND.
func (s *Service) Overview(ctx context.Context, tenantID uuid.UUID) (Overview, error) {
	db := s.db.WithContext(ctx)
	ent, err := s.entitlements(ctx, dbtx.Wrap(s.db), tenantID)
	if err != nil {
		return Overview{}, err
	}
	o := Overview{TenantID: tenantID, Plan: ent, Plans: []Plan{}, PaymentsConfigured: s.PaymentsConfigured(),
		PaymentOverdue: ent.PaymentOverdue}
	if o.PaymentMethod, err = s.paymentMethod(ctx, tenantID); err != nil {
		return Overview{}, err
	}
	if o.Usage, err = usageOf(db, tenantID, MonthStart(s.clock.Now())); err != nil {
		return Overview{}, err
	}
	if o.Endpoints, err = s.countEndpoints(ctx, dbtx.Wrap(s.db), tenantID); err != nil {
		return Overview{}, err
	}
	if over := o.Usage.Events - ent.EventsPerMonth; over > 0 && !ent.HardCap {
		o.OverageEvents = over
		o.EstimatedOverageMinor = (over + ent.OverageUnitEvents - 1) / ent.OverageUnitEvents * ent.OveragePriceMinor
	}
	o.QuotaExhausted = ent.HardCap && o.Usage.Events >= ent.EventsPerMonth
	plans, err := s.Plans(ctx)
	if err != nil {
		return Overview{}, fmt.Errorf("billing overview: %w", err)
	}
	for _, p := range plans {
		if p.SelfServe {
			o.Plans = append(o.Plans, p)
		}
	}
	return o, nil
}
