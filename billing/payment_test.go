package billing

import (
	"log/slog"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/attemptlog"
	"github.com/ferry-dev/ferry/tenants"
)

// withoutProvider is the bundle's service as production runs it today:
// no payment provider configured.
func (b *testBundle) withoutProvider(t *testing.T) *Service {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	ts, err := tenants.NewService(b.db, tenants.Config{}, log, b.clock.Now)
	require.NoError(t, err)
	svc, err := NewService(b.db, Deps{Tenants: ts, Endpoints: delivery.EndpointCounter{}, Attempts: attemptlog.NewUsage(b.db)}, Config{}, log, b.clock)
	require.NoError(t, err)
	return svc
}

// TestPaidPlanNeedsPayment plays a tenant trying to get Pro for free:
// with no provider configured, with the provider holding no method, and
// with a declined method, the upgrade answers payment_required and the
// plan does not change; an accepted method upgrades in one call; going
// back to Free needs nothing.
func TestPaidPlanNeedsPayment(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.tenant(t, PlanFree, b.clock.Now())

	none := b.withoutProvider(t)
	_, err := none.ChangePlan(b.ctx, id, PlanPro, "eve@example.com")
	require.Equal(t, ferry.EPAYMENT, ferry.ErrorCode(err), "no provider: %v", err)
	o, err := none.Overview(b.ctx, id)
	require.NoError(t, err)
	require.False(t, o.PaymentsConfigured)
	require.Equal(t, PlanFree, o.Plan.Name)

	b.pay.MethodFunc = func(_ uuid.UUID, token string) error {
		switch token {
		case "":
			return ErrNoPaymentMethod
		case "tok_declined":
			return ErrPaymentDeclined
		}
		return nil
	}
	for _, token := range []string{"", "tok_declined"} {
		_, err := b.svc.ChangePlanWithPayment(b.ctx, id, PlanPro, token, "eve@example.com")
		require.Equal(t, ferry.EPAYMENT, ferry.ErrorCode(err), "token %q: %v", token, err)
	}
	ent, err := b.svc.Entitlements(b.ctx, id)
	require.NoError(t, err)
	require.Equal(t, PlanFree, ent.Name, "a refused upgrade changed the plan")

	ent, err = b.svc.ChangePlanWithPayment(b.ctx, id, PlanPro, "tok_visa", "ann@example.com")
	require.NoError(t, err)
	require.Equal(t, PlanPro, ent.Name)
	o, err = b.svc.Overview(b.ctx, id)
	require.NoError(t, err)
	require.NotNil(t, o.PaymentMethod)
	require.True(t, o.PaymentsConfigured)

	// Downgrading needs no payment, even without a provider.
	_, err = none.ChangePlan(b.ctx, id, PlanFree, "ann@example.com")
	require.NoError(t, err)

	// The default test provider accepts in one call.
	b.pay.MethodFunc = nil
	other := b.tenant(t, PlanFree, b.clock.Now())
	_, err = b.svc.ChangePlan(b.ctx, other, PlanPro, "bob@example.com")
	require.NoError(t, err)
	// Operators assign plans without a payment method.
	third := b.tenant(t, PlanFree, b.clock.Now())
	_, err = none.AssignPlan(b.ctx, third, PlanPro, "ops")
	require.NoError(t, err)
}

// TestOverdueInvoiceRestrictsEvents: an invoice unpaid 14 days after
// issue refuses the tenant's new events with payment_required until it is
// paid or staff lift the restriction; a later overdue invoice restricts
// again; other tenants are not affected.
func TestOverdueInvoiceRestrictsEvents(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.tenant(t, PlanPro, b.clock.Now().Add(-90*24*time.Hour))
	bystander := b.tenant(t, PlanPro, b.clock.Now().Add(-90*24*time.Hour))
	invoice := func(tenant uuid.UUID, period time.Time, issued time.Time, status string) uuid.UUID {
		inv := uuid.New()
		require.NoError(t, b.db.Exec(`INSERT INTO invoices (id, tenant_id, period, currency, total_minor, events, attempts, status, created_at)
			VALUES (?, ?, ?, 'usd', 4900, 0, 0, ?, ?)`, inv, tenant, period, status, issued).Error)
		return inv
	}
	now := b.clock.Now()
	invoice(id, time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), now.Add(-13*24*time.Hour), InvoiceOpen)
	require.NoError(t, b.consume(id, 1), "13 days unpaid is within the grace")

	b.clock.Set(now.Add(2 * 24 * time.Hour))
	err := b.consume(id, 1)
	require.Equal(t, ferry.EPAYMENT, ferry.ErrorCode(err), "15 days unpaid: %v", err)
	require.NoError(t, b.consume(bystander, 1))
	o, err := b.svc.Overview(b.ctx, id)
	require.NoError(t, err)
	require.True(t, o.PaymentOverdue)

	n, err := b.svc.LiftPaymentRestriction(b.ctx, id, "staff:sam@ferry.example")
	require.NoError(t, err)
	require.EqualValues(t, 1, n)
	require.NoError(t, b.consume(id, 1), "lifted by staff")

	// The next month's invoice, unpaid past its grace, restricts again;
	// paying it ends the restriction.
	next := invoice(id, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC), b.clock.Now().Add(-15*24*time.Hour), InvoicePaymentFailed)
	require.Equal(t, ferry.EPAYMENT, ferry.ErrorCode(b.consume(id, 1)))
	require.NoError(t, b.db.Exec(`UPDATE invoices SET status = 'paid', paid_at = now() WHERE id = ?`, next).Error)
	require.NoError(t, b.consume(id, 1), "paid")
}
