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
// email). Changing to the current plan is a no-op. Errors: EINVALID
// (unknown plan, or one that is not self-serve, such as enterprise),
// EPLANLIMIT (the tenant has more endpoints than the plan allows),
// ENOTFOUND (tenant).
func (s *Service) ChangePlan(ctx context.Context, tenantID uuid.UUID, plan, actor string) (Entitlements, error) {
	return s.changePlan(ctx, tenantID, plan, actor, false)
}

// AssignPlan is ChangePlan for operators: it may also assign plans that
// are not self-serve (enterprise). Errors as ChangePlan.
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
		target, err := planTerms(tx, tenantID, plan)
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
		now := s.now().UTC()
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
