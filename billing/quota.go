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

// usageSlots is how many counter rows a paid tenant's increments spread
// over, per month and per second (see the package doc).
const usageSlots = 16

// Meter is billing inside one transaction of another domain (an ingest,
// an endpoint creation): its counters and checks run in that transaction,
// so they commit or roll back with it. Get one per transaction from
// Service.Meter; app hands it to delivery as a delivery.Meter.
type Meter struct {
	s  *Service
	tx dbtx.Tx
}

// Meter returns billing's meter for tx, an open transaction owned by the
// caller, who commits or rolls it back.
func (s *Service) Meter(tx dbtx.Tx) *Meter { return &Meter{s: s, tx: tx} }

// ConsumeEvents meters n accepted events for tenantID in the meter's
// transaction (the ingest's): the month's usage counter and the current
// second's rate window are incremented there, so both roll back with a
// refused or failed ingest. Errors: ERATELIMIT (events/s over the plan's
// limit, Retry-After 1), EQUOTA (a hard-capped plan's monthly events used
// up, Retry-After until next month), EPAYMENT (an invoice is overdue;
// see PaymentGrace), ENOTFOUND, wrapped database errors.
func (m *Meter) ConsumeEvents(ctx context.Context, tenantID uuid.UUID, n int) error {
	if n <= 0 {
		return nil
	}
	s := m.s
	plan, err := s.deps.Tenants.TenantPlan(ctx, m.tx, tenantID)
	if err != nil {
		return fmt.Errorf("load plan of tenant %s: %w", tenantID, err)
	}
	now := s.clock.Now().UTC()
	period := MonthStart(now)
	var c consumed
	// Hand-written: this runs in every ingest transaction, where each
	// round trip holds a committer that other events queue behind. So
	// the terms (termsSQL), the second's rate window and the month's
	// counter are one statement. A tenant whose
	// payment is overdue increments nothing; a refused increment rolls
	// back with the ingest. An upsert's RETURNING sees its slot's latest
	// committed value (it waits for the row lock); other slots are read
	// from the snapshot.
	res := m.tx.DB(ctx).Raw(`WITH terms AS (`+termsSQL+`),
		counted AS (
			SELECT CASE WHEN hard_cap THEN 0 ELSE @slot END AS slot FROM terms WHERE NOT payment_overdue),
		rate AS (
			INSERT INTO rate_windows (tenant_id, second, slot, events) SELECT @tenant, @second, slot, @n FROM counted
			ON CONFLICT (tenant_id, second, slot) DO UPDATE SET events = rate_windows.events + EXCLUDED.events
			RETURNING slot, events),
		usage AS (
			INSERT INTO usage_counters (tenant_id, period, slot, events) SELECT @tenant, @period, slot, @n FROM counted
			ON CONFLICT (tenant_id, period, slot) DO UPDATE SET events = usage_counters.events + EXCLUDED.events
			RETURNING slot, events)
		SELECT terms.*,
			coalesce((SELECT events FROM rate) + coalesce((SELECT sum(w.events) FROM rate_windows w
				WHERE w.tenant_id = @tenant AND w.second = @second AND w.slot <> (SELECT slot FROM rate)), 0), 0) AS in_second,
			coalesce(CASE WHEN terms.hard_cap THEN (SELECT events FROM usage) + coalesce((SELECT sum(u.events) FROM usage_counters u
				WHERE u.tenant_id = @tenant AND u.period = @period AND u.slot <> (SELECT slot FROM usage)), 0) END, 0) AS in_month
		FROM terms`,
		sql.Named("tenant", tenantID), sql.Named("plan", plan), sql.Named("overdue_before", now.Add(-PaymentGrace)),
		sql.Named("slot", s.rand(usageSlots)), sql.Named("second", now.Unix()), sql.Named("period", period),
		sql.Named("n", n)).Scan(&c)
	if res.Error != nil {
		return fmt.Errorf("meter %d events of tenant %s: %w", n, tenantID, res.Error)
	}
	if res.RowsAffected == 0 {
		return ferry.NotFound("plan")
	}
	ent := c.Entitlements
	if ent.PaymentOverdue {
		return &ferry.Error{Code: ferry.EPAYMENT, Message: fmt.Sprintf("an invoice has been unpaid for more than %d days; "+
			"pay it (see the billing page) to send events again", int(PaymentGrace/(24*time.Hour)))}
	}
	if c.InSecond > int64(ent.EventsPerSecond) {
		return &ferry.Error{Code: ferry.ERATELIMIT, RetryAfterSeconds: 1,
			Message: fmt.Sprintf("the %s plan accepts %d events per second; slow down and retry", ent.DisplayName, ent.EventsPerSecond)}
	}
	if ent.HardCap && c.InMonth > ent.EventsPerMonth {
		return &ferry.Error{Code: ferry.EQUOTA, RetryAfterSeconds: secondsUntilNextMonth(now),
			Message: fmt.Sprintf("the %s plan's %d events for %s are used up; upgrade your plan or wait until next month",
				ent.DisplayName, ent.EventsPerMonth, FormatPeriod(period))}
	}
	return nil
}

// consumed is ConsumeEvents' row: the tenant's terms and its counts
// with the new events: this second's (every slot) and, for a hard cap,
// this month's.
type consumed struct {
	Entitlements
	InSecond int64
	InMonth  int64
}

// CheckEndpointLimit returns EPLANLIMIT when tenantID already has as many
// endpoints as its plan allows. It takes the tenant's billing lock in the
// meter's transaction (the endpoint creation's), so concurrent creations
// and plan changes cannot overshoot the limit. Errors: EPLANLIMIT,
// ENOTFOUND, wrapped database errors.
func (m *Meter) CheckEndpointLimit(ctx context.Context, tenantID uuid.UUID) error {
	if err := lockTenant(m.tx.DB(ctx), tenantID); err != nil {
		return err
	}
	ent, err := m.s.entitlements(ctx, m.tx, tenantID)
	if err != nil {
		return err
	}
	count, err := m.s.countEndpoints(ctx, m.tx, tenantID)
	if err != nil {
		return err
	}
	if count >= int64(ent.MaxEndpoints) {
		return &ferry.Error{Code: ferry.EPLANLIMIT,
			Message: fmt.Sprintf("the %s plan allows %d endpoints; delete one or upgrade your plan", ent.DisplayName, ent.MaxEndpoints)}
	}
	return nil
}

// lockTenant takes a transaction-scoped advisory lock on the tenant's
// billing state (endpoint count and plan).
func lockTenant(tx *gorm.DB, tenantID uuid.UUID) error {
	// Hand-written: an advisory lock has no query-builder form.
	if err := tx.Exec(`SELECT pg_advisory_xact_lock(hashtextextended('ferry.billing:' || ?::text, 0))`, tenantID).Error; err != nil {
		return fmt.Errorf("lock billing of tenant %s: %w", tenantID, err)
	}
	return nil
}

// countEndpoints asks delivery how many live endpoints tenantID has, in
// tx.
func (s *Service) countEndpoints(ctx context.Context, tx dbtx.Tx, tenantID uuid.UUID) (int64, error) {
	n, err := s.deps.Endpoints.CountEndpoints(ctx, tx, tenantID)
	if err != nil {
		return 0, fmt.Errorf("count endpoints of tenant %s: %w", tenantID, err)
	}
	return n, nil
}
