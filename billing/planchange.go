package billing

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
)

// ChangePlan moves tenantID to plan, effective immediately: the new
// limits apply to the very next request, and the change is recorded in
// plan_changes for pro-rating (see RunInvoices). actor is who asked (an
// email). Changing to the current plan is a no-op. Moving to a plan with
// a fee needs a payment method the provider accepts (ChangePlanWithPayment
// passes the provider's token; without one the method on file is used).
// Errors: EINVALID (unknown plan, or one that is not self-serve, such as
// enterprise), EPAYMENT (a paid plan without an accepted payment method,
// or no payment provider configured), EPLANLIMIT (the tenant has more
// endpoints than the plan allows), ENOTFOUND (tenant), EUNAVAILABLE (the
// payment provider failed).
func (s *Service) ChangePlan(ctx context.Context, tenantID uuid.UUID, plan, actor string) (Entitlements, error) {
	return s.ChangePlanWithPayment(ctx, tenantID, plan, "", actor)
}

// ChangePlanWithPayment is ChangePlan with the payment provider's token for
// a new payment method (empty: the one on file). Errors as ChangePlan.
func (s *Service) ChangePlanWithPayment(ctx context.Context, tenantID uuid.UUID, plan, paymentToken, actor string) (Entitlements, error) {
	plan = strings.TrimSpace(plan)
	if plan == "" {
		return Entitlements{}, ferry.Invalid("plan", "plan is required")
	}
	// The provider is asked before the plan change's transaction, so no
	// lock is held across its network round trip.
	current, err := s.Entitlements(ctx, tenantID)
	if err != nil {
		return Entitlements{}, err
	}
	if current.Name != plan {
		target, err := planTerms(s.db.WithContext(ctx), tenantID, plan, nil)
		if ferry.ErrorCode(err) == ferry.ENOTFOUND {
			return Entitlements{}, ferry.Invalid("plan", "there is no plan %q", plan)
		}
		if err != nil {
			return Entitlements{}, err
		}
		if target.SelfServe && target.BaseFeeMinor > 0 {
			if err := s.requirePaymentMethod(ctx, tenantID, paymentToken, target.DisplayName); err != nil {
				return Entitlements{}, err
			}
		}
	}
	return s.changePlan(ctx, tenantID, plan, actor, false)
}

// AssignPlan is ChangePlan for operators: it may also assign plans that
// are not self-serve (enterprise), and needs no payment method (billing
// is arranged with the tenant). Errors as ChangePlan, but no EPAYMENT.
func (s *Service) AssignPlan(ctx context.Context, tenantID uuid.UUID, plan, actor string) (Entitlements, error) {
	return s.changePlan(ctx, tenantID, plan, actor, true)
}

func (s *Service) changePlan(ctx context.Context, tenantID uuid.UUID, plan, actor string, operator bool) (Entitlements, error) {
	plan = strings.TrimSpace(plan)
	if plan == "" {
		return Entitlements{}, ferry.Invalid("plan", "plan is required")
	}
	var ent Entitlements
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := lockTenant(tx, tenantID); err != nil {
			return err
		}
		shared := dbtx.Wrap(tx)
		current, err := s.entitlements(ctx, shared, tenantID)
		if err != nil {
			return err
		}
		if current.Name == plan {
			ent = current
			return nil
		}
		target, err := planTerms(tx, tenantID, plan, nil)
		if ferry.ErrorCode(err) == ferry.ENOTFOUND {
			return ferry.Invalid("plan", "there is no plan %q", plan)
		}
		if err != nil {
			return err
		}
		if !target.SelfServe && !operator {
			return ferry.Invalid("plan", "the %s plan is arranged with our sales team; contact us to switch", target.DisplayName)
		}
		endpoints, err := s.countEndpoints(ctx, shared, tenantID)
		if err != nil {
			return err
		}
		if endpoints > int64(target.MaxEndpoints) {
			return &ferry.Error{Code: ferry.EPLANLIMIT, Field: "plan",
				Message: fmt.Sprintf("the %s plan allows %d endpoints and you have %d; delete %d first",
					target.DisplayName, target.MaxEndpoints, endpoints, endpoints-int64(target.MaxEndpoints))}
		}
		now := s.clock.Now().UTC()
		if err := s.deps.Tenants.SetTenantPlan(ctx, shared, tenantID, plan); err != nil {
			return fmt.Errorf("update plan of tenant %s: %w", tenantID, err)
		}
		change := planChangeRow{TenantID: tenantID, FromPlan: current.Name, ToPlan: plan, Actor: actor, ChangedAt: now}
		if err := tx.Create(&change).Error; err != nil {
			return fmt.Errorf("record plan change: %w", err)
		}
		ent = target
		s.log.InfoContext(ctx, "plan changed", "tenant_id", tenantID, "from", current.Name, "to", plan, "actor", actor)
		return nil
	})
	if err != nil {
		return Entitlements{}, err
	}
	return ent, nil
}
