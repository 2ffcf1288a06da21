package httpapi

import (
	"context"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/billing"
	"github.com/ferry-dev/ferry/delivery/insight"
)

// staffTenantHealth is a tenant's usage and health as the staff console's
// tenant page shows it, gathered from billing (plan, usage, restriction)
// and delivery (endpoints, 24 h stats, backlog), so support sees at once
// whether a tenant is near a limit, blocked, or failing.
type staffTenantHealth struct {
	// Plan is the tenant's plan with any custom terms applied.
	Plan billing.Entitlements `json:"plan"`
	// Usage is this calendar month's: events exact, attempts counted per
	// finished UTC day (today's count follows within a day).
	Usage billing.Usage `json:"usage"`
	// Endpoints counts live endpoints by state (limit: plan.max_endpoints).
	Endpoints      insight.EndpointCounts `json:"endpoints"`
	Succeeded24h   int64                  `json:"succeeded_24h"`    // deliveries that succeeded over the stats window 24h
	Failed24h      int64                  `json:"failed_24h"`       // deliveries dropped or exhausted over the stats window 24h
	SuccessRate24h *float64               `json:"success_rate_24h"` // succeeded / (succeeded + failed) over 24h; null when none finished
	// Backlog is what waits to be delivered now.
	Backlog insight.Backlog `json:"backlog"`
	// QuotaExhausted: a hard-capped plan refuses events until next month.
	QuotaExhausted bool `json:"quota_exhausted"`
	// PaymentOverdue: an invoice is overdue and staff have not lifted the
	// restriction; events are refused with 402.
	PaymentOverdue bool `json:"payment_overdue"`
}

// tenantHealth asks billing and delivery for a tenant's usage and health.
func (s *server) tenantHealth(ctx context.Context, tenantID uuid.UUID) (staffTenantHealth, error) {
	o, err := s.Billing.Overview(ctx, tenantID)
	if err != nil {
		return staffTenantHealth{}, err
	}
	counts, err := s.StaffDelivery.StaffEndpointCounts(ctx, tenantID)
	if err != nil {
		return staffTenantHealth{}, err
	}
	st, err := s.Stats.TenantStats(ctx, tenantID, "24h")
	if err != nil {
		return staffTenantHealth{}, err
	}
	return staffTenantHealth{Plan: o.Plan, Usage: o.Usage, Endpoints: counts,
		Succeeded24h: st.Succeeded, Failed24h: st.Failed, SuccessRate24h: st.SuccessRate, Backlog: st.Backlog,
		QuotaExhausted: o.QuotaExhausted, PaymentOverdue: o.PaymentOverdue}, nil
}
