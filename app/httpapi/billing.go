package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/billing"
	"github.com/ferry-dev/ferry/tenants"
)

// BillingService answers the billing routes and the staff console's
// billing view. It is satisfied by *billing.Service.
type BillingService interface {
	// Overview returns the tenant's billing overview. Errors: ENOTFOUND.
	Overview(ctx context.Context, tenantID uuid.UUID) (billing.Overview, error)
	// ChangePlanWithPayment changes the tenant's plan, with a payment
	// provider token for a new payment method (empty: the one on file).
	// Errors: those of billing.Service.ChangePlan.
	ChangePlanWithPayment(ctx context.Context, tenantID uuid.UUID, plan, paymentToken, actor string) (billing.Entitlements, error)
	// ListInvoices returns a page of the tenant's invoices and the next
	// cursor. Errors: EINVALID (cursor).
	ListInvoices(ctx context.Context, tenantID uuid.UUID, limit int, cursor string) ([]billing.Invoice, string, error)
	// LiftPaymentRestriction lifts the tenant's overdue invoices and
	// returns how many. Errors: wrapped database errors.
	LiftPaymentRestriction(ctx context.Context, tenantID uuid.UUID, actor string) (int64, error)
}

// billingRoutes registers the billing API (docs/billing.md): the tenant's plan,
// usage and invoices, plan changes by the owner, and staff's view of a
// tenant's billing.
func (s *server) billingRoutes(api fiber.Router) {
	api.Get("/billing", s.auth(sessionOnly, tenants.RoleViewer), s.getBilling)
	api.Put("/billing/plan", s.auth(sessionOnly, tenants.RoleOwner), s.changePlan)
	api.Get("/billing/invoices", s.auth(sessionOnly, tenants.RoleViewer), s.listInvoices)
	api.Get("/staff/tenants/:id/billing", s.auth(staffOnly, tenants.RoleViewer), s.staffTenantBilling)
	api.Post("/staff/tenants/:id/billing/lift-restriction", s.auth(staffOnly, tenants.RoleViewer), s.staffLiftRestriction)
}

func (s *server) getBilling(c *fiber.Ctx) error {
	o, err := s.Billing.Overview(c.UserContext(), principal(c).TenantID)
	if err != nil {
		return err
	}
	return c.JSON(o)
}

// planInput is the body of PUT /billing/plan.
type planInput struct {
	Plan string `json:"plan" required:"true" description:"plan name, e.g. free or pro"`
	// PaymentToken is the payment provider's token for a new payment
	// method (from its checkout); empty uses the one on file, and the dev
	// test provider needs none.
	PaymentToken string `json:"payment_token,omitempty"`
}

func (s *server) changePlan(c *fiber.Ctx) error {
	var in planInput
	if err := decode(c, &in); err != nil {
		return err
	}
	p := principal(c)
	if _, err := s.Billing.ChangePlanWithPayment(c.UserContext(), p.TenantID, in.Plan, in.PaymentToken, p.Email); err != nil {
		return err
	}
	o, err := s.Billing.Overview(c.UserContext(), p.TenantID)
	if err != nil {
		return err
	}
	return c.JSON(o)
}

func (s *server) listInvoices(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	invs, next, err := s.Billing.ListInvoices(c.UserContext(), principal(c).TenantID, pg.Limit, pg.Cursor)
	if err != nil {
		return err
	}
	return c.JSON(newList(invs, next))
}

// staffBilling is a tenant's billing as support staff see it.
type staffBilling struct {
	billing.Overview
	// Invoices are the tenant's most recent invoices.
	Invoices []billing.Invoice `json:"invoices"`
}

func (s *server) staffTenantBilling(c *fiber.Ctx) error {
	id, err := pathID(c, "tenant")
	if err != nil {
		return err
	}
	o, err := s.Billing.Overview(c.UserContext(), id)
	if err != nil {
		return err
	}
	if err := s.Staff.Audit(c.UserContext(), principal(c), &id, tenants.AuditViewBilling, "", nil); err != nil {
		return err
	}
	invs, _, err := s.Billing.ListInvoices(c.UserContext(), id, 12, "")
	if err != nil {
		return err
	}
	return c.JSON(staffBilling{Overview: o, Invoices: invs})
}

// staffLiftRestriction lets a tenant with an overdue invoice send events
// again. The reason is required and audited before the change.
// liftRestrictionInput is the body of POST
// /staff/tenants/{id}/billing/lift-restriction.
type liftRestrictionInput struct {
	Reason string `json:"reason" required:"true" description:"why (required, audited)"`
}

func (s *server) staffLiftRestriction(c *fiber.Ctx) error {
	id, err := pathID(c, "tenant")
	if err != nil {
		return err
	}
	var in liftRestrictionInput
	if err := decode(c, &in); err != nil {
		return err
	}
	reason, err := tenants.ValidateReason(in.Reason)
	if err != nil {
		return err
	}
	ctx, p := c.UserContext(), principal(c)
	if _, err := s.Staff.Tenant(ctx, id); err != nil {
		return err
	}
	if err := s.Staff.Audit(ctx, p, &id, tenants.AuditLiftRestriction, reason, nil); err != nil {
		return err
	}
	if _, err := s.Billing.LiftPaymentRestriction(ctx, id, p.Actor()); err != nil {
		return err
	}
	return s.staffTenantBilling(c)
}
