package billing

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm/clause"

	"github.com/ferry-dev/ferry"
)

// PaymentGrace is how long an invoice may stay unpaid after it is issued
// before the tenant's new events are refused with EPAYMENT, until it is
// paid or staff lift the restriction (LiftPaymentRestriction).
const PaymentGrace = 14 * 24 * time.Hour

// paymentMethodRow is a row of payment_methods: what the provider
// accepted for a tenant (a reference, never card data).
type paymentMethodRow struct {
	TenantID  uuid.UUID `gorm:"primaryKey"`
	Reference string
	Label     string
	CreatedAt time.Time
	UpdatedAt time.Time
}

func (paymentMethodRow) TableName() string { return "payment_methods" }

// PaymentsConfigured reports whether a payment provider is wired in: only
// then can tenants move to a paid plan themselves.
func (s *Service) PaymentsConfigured() bool { return s.cfg.Payments != nil }

// requirePaymentMethod asks the provider to accept a payment method for
// tenantID (attaching token when given) and records it. Errors: EPAYMENT
// (no provider configured, no method on file, or declined), EUNAVAILABLE
// (the provider failed), wrapped database errors.
func (s *Service) requirePaymentMethod(ctx context.Context, tenantID uuid.UUID, token, planName string) error {
	if s.cfg.Payments == nil {
		return &ferry.Error{Code: ferry.EPAYMENT, Field: "plan", Message: fmt.Sprintf(
			"the %s plan needs a payment method, and no payment provider is configured; contact us to upgrade", planName)}
	}
	pm, err := s.cfg.Payments.SetupPaymentMethod(ctx, tenantID, token)
	switch {
	case errors.Is(err, ErrNoPaymentMethod):
		return &ferry.Error{Code: ferry.EPAYMENT, Field: "payment_token", Message: fmt.Sprintf(
			"the %s plan needs a payment method; add one and try again", planName)}
	case errors.Is(err, ErrPaymentDeclined):
		return &ferry.Error{Code: ferry.EPAYMENT, Field: "payment_token",
			Message: "the payment provider declined the payment method; try another one"}
	case err != nil:
		s.log.WarnContext(ctx, "payment provider failed", "tenant_id", tenantID, "err", err)
		return &ferry.Error{Code: ferry.EUNAVAILABLE, RetryAfterSeconds: 5,
			Message: "the payment provider did not answer; try again shortly"}
	}
	now := s.clock.Now().UTC()
	row := paymentMethodRow{TenantID: tenantID, Reference: pm.Reference, Label: pm.Label, CreatedAt: now, UpdatedAt: now}
	if err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "tenant_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"reference", "label", "updated_at"}),
	}).Create(&row).Error; err != nil {
		return fmt.Errorf("record payment method of tenant %s: %w", tenantID, err)
	}
	return nil
}

// paymentMethod returns the tenant's recorded payment method, or nil.
func (s *Service) paymentMethod(ctx context.Context, tenantID uuid.UUID) (*PaymentMethod, error) {
	var rows []paymentMethodRow
	if err := s.db.WithContext(ctx).Where("tenant_id = ?", tenantID).Limit(1).Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("load payment method of tenant %s: %w", tenantID, err)
	}
	if len(rows) == 0 {
		return nil, nil
	}
	return &PaymentMethod{Reference: rows[0].Reference, Label: rows[0].Label}, nil
}

// LiftPaymentRestriction lets a tenant with overdue invoices send events
// again: every invoice of the tenant unpaid past PaymentGrace now is
// marked lifted by actor (an invoice that becomes overdue later restricts
// again). It returns how many invoices it lifted. The caller audits the
// action. Errors: wrapped database errors.
func (s *Service) LiftPaymentRestriction(ctx context.Context, tenantID uuid.UUID, actor string) (int64, error) {
	now := s.clock.Now().UTC()
	res := s.db.WithContext(ctx).Model(&invoiceRow{}).
		Where("tenant_id = ? AND status <> ? AND total_minor > 0 AND restriction_lifted_at IS NULL AND created_at < ?",
			tenantID, InvoicePaid, now.Add(-PaymentGrace)).
		Updates(map[string]any{"restriction_lifted_at": now, "restriction_lifted_by": actor})
	if res.Error != nil {
		return 0, fmt.Errorf("lift payment restriction of tenant %s: %w", tenantID, res.Error)
	}
	if res.RowsAffected > 0 {
		s.log.InfoContext(ctx, "payment restriction lifted", "tenant_id", tenantID, "invoices", res.RowsAffected, "actor", actor)
	}
	return res.RowsAffected, nil
}
