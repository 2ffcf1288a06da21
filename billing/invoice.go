package billing

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/page"
)

// Invoice statuses.
const (
	InvoiceOpen          = "open"           // issued, not (yet) collected
	InvoicePaid          = "paid"           // the provider collected it
	InvoicePaymentFailed = "payment_failed" // the last collection failed
)

// maxPaymentAttempts bounds automatic collection of one invoice; after
// that it stays payment_failed for staff to follow up.
const maxPaymentAttempts = 5

// Invoice is one tenant's bill for one calendar month.
type Invoice struct {
	ID               uuid.UUID  `json:"id"`                          // the invoice's id
	TenantID         uuid.UUID  `json:"tenant_id"`                   // the tenant invoiced
	Period           string     `json:"period"`                      // the month invoiced, YYYY-MM
	Currency         string     `json:"currency"`                    // ISO 4217 code of the amounts, e.g. usd
	TotalMinor       int64      `json:"total_minor"`                 // the amount due in minor units (cents)
	Events           int64      `json:"events"`                      // events accepted in the period
	Attempts         int64      `json:"attempts"`                    // delivery attempts made in the period
	Status           string     `json:"status"`                      // open, paid or payment_failed
	PaymentReference string     `json:"payment_reference,omitempty"` // the payment provider's reference of the payment, once paid
	PaymentError     string     `json:"payment_error,omitempty"`     // why the last payment attempt failed
	CreatedAt        time.Time  `json:"created_at"`                  // when the invoice was issued
	PaidAt           *time.Time `json:"paid_at,omitempty"`           // when it was paid; absent while unpaid
	Lines            []Line     `json:"lines" gorm:"-"`              // what the total is made of
}

// Line is one line item; AmountMinor = Quantity × UnitPriceMinor.
type Line struct {
	Kind           string `json:"kind"`             // base_fee or overage
	Plan           string `json:"plan"`             // the plan the line bills
	Description    string `json:"description"`      // the line as the invoice shows it
	Quantity       int64  `json:"quantity"`         // units billed (1 for the base fee; overage units)
	UnitPriceMinor int64  `json:"unit_price_minor"` // price of one unit in minor units
	AmountMinor    int64  `json:"amount_minor"`     // quantity times unit price, in minor units
}

// RunResult summarises one invoice run.
type RunResult struct {
	Period   string `json:"period"`
	Tenants  int    `json:"tenants"`
	Issued   int    `json:"issued"`   // new invoices
	Existing int    `json:"existing"` // already invoiced by an earlier run
	Nothing  int    `json:"nothing"`  // nothing to bill (free all month)
}

// RunInvoices bills every tenant for the month starting at period, which
// must be over. It first meters the month's attempts, then issues each
// tenant's invoice (once: re-running finds the existing one), records the
// run, and collects unpaid invoices. Errors: EINVALID (period not over),
// wrapped database errors (after trying every tenant).
func (s *Service) RunInvoices(ctx context.Context, period time.Time) (RunResult, error) {
	start := MonthStart(period)
	end := NextMonth(start)
	res := RunResult{Period: FormatPeriod(start)}
	if end.After(s.clock.Now()) {
		return res, ferry.Invalid("period", "%s is not over yet; invoices are issued after the month ends (UTC)", res.Period)
	}
	if err := s.MeterAttempts(ctx, start, end); err != nil {
		return res, err
	}
	var errs []error
	err := s.deps.Tenants.EachTenant(ctx, end, func(id uuid.UUID, plan string, created time.Time) error {
		res.Tenants++
		issued, err := s.issueInvoice(ctx, id, plan, created, start, end)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("invoice tenant %s: %w", id, err))
			s.log.ErrorContext(ctx, "invoice failed", "tenant_id", id, "period", res.Period, "err", err)
		case issued == issuedNew:
			res.Issued++
		case issued == issuedExisting:
			res.Existing++
		default:
			res.Nothing++
		}
		return nil
	})
	if err != nil {
		return res, fmt.Errorf("list tenants to invoice: %w", err)
	}
	if len(errs) > 0 {
		return res, errors.Join(errs...)
	}
	run := invoiceRunRow{Period: start, CompletedAt: s.clock.Now().UTC()}
	if err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "period"}},
		DoUpdates: clause.AssignmentColumns([]string{"completed_at"}),
	}).Create(&run).Error; err != nil {
		return res, fmt.Errorf("record invoice run: %w", err)
	}
	s.log.InfoContext(ctx, "invoice run done", "period", res.Period, "tenants", res.Tenants, "issued", res.Issued, "existing", res.Existing)
	return res, s.CollectPayments(ctx)
}

type issueOutcome int

const (
	issuedNothing issueOutcome = iota
	issuedNew
	issuedExisting
)

// issueInvoice computes and stores one tenant's invoice for [start, end).
func (s *Service) issueInvoice(ctx context.Context, tenantID uuid.UUID, currentPlan string, created, start, end time.Time) (issueOutcome, error) {
	out := issuedNothing
	var issued Invoice
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var found int64
		if err := tx.Model(&invoiceRow{}).Scopes(forTenant(tenantID)).Where("period = ?", start).
			Count(&found).Error; err != nil {
			return fmt.Errorf("look up invoice: %w", err)
		}
		if found > 0 {
			out = issuedExisting
			return nil
		}
		inv, err := computeInvoice(tx, tenantID, currentPlan, created, start, end)
		if err != nil {
			return err
		}
		if inv.TotalMinor == 0 {
			return nil
		}
		inv.ID, inv.CreatedAt = uuid.New(), s.clock.Now().UTC()
		row := invoiceRow{ID: inv.ID, TenantID: tenantID, Period: start, Currency: inv.Currency, TotalMinor: inv.TotalMinor,
			Events: inv.Events, Attempts: inv.Attempts, Status: InvoiceOpen, CreatedAt: inv.CreatedAt}
		res := tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "tenant_id"}, {Name: "period"}}, DoNothing: true}).
			Create(&row)
		if res.Error != nil {
			return fmt.Errorf("insert invoice: %w", res.Error)
		}
		if res.RowsAffected == 0 { // a concurrent run issued it first
			out = issuedExisting
			return nil
		}
		lines := make([]invoiceLineRow, len(inv.Lines))
		for i, l := range inv.Lines {
			lines[i] = invoiceLineRow{InvoiceID: inv.ID, LineNo: i + 1, Kind: l.Kind, Plan: l.Plan, Description: l.Description,
				Quantity: l.Quantity, UnitPriceMinor: l.UnitPriceMinor, AmountMinor: l.AmountMinor}
		}
		if err := tx.Create(&lines).Error; err != nil {
			return fmt.Errorf("insert invoice lines: %w", err)
		}
		out, issued = issuedNew, inv
		s.log.InfoContext(ctx, "invoice issued", "tenant_id", tenantID, "period", FormatPeriod(start), "invoice_id", inv.ID, "total_minor", inv.TotalMinor)
		return nil
	})
	if err == nil && out == issuedNew && s.cfg.Invoices != nil {
		issued.Status = InvoiceOpen
		s.cfg.Invoices.InvoiceIssued(ctx, issued)
	}
	return out, err
}

// planChange is a row of plan_changes.
type planChange struct {
	FromPlan  string
	ToPlan    string
	ChangedAt time.Time
}

// segment is a stretch of time on one plan.
type segment struct {
	Plan     string
	From, To time.Time
}

// planSegments splits [max(start, created), end) by plan, from the
// tenant's change history (ordered by time) and its current plan.
func planSegments(currentPlan string, created time.Time, changes []planChange, start, end time.Time) []segment {
	begin := start
	if created.After(begin) {
		begin = created
	}
	if !begin.Before(end) {
		return nil
	}
	plan := currentPlan
	if len(changes) > 0 {
		plan = changes[0].FromPlan
	}
	for _, c := range changes {
		if !c.ChangedAt.After(begin) {
			plan = c.ToPlan
		}
	}
	var segs []segment
	cur := begin
	for _, c := range changes {
		if !c.ChangedAt.After(begin) {
			continue
		}
		if !c.ChangedAt.Before(end) {
			break
		}
		if c.ChangedAt.After(cur) {
			segs = append(segs, segment{Plan: plan, From: cur, To: c.ChangedAt})
		}
		plan, cur = c.ToPlan, c.ChangedAt
	}
	if cur.Before(end) {
		segs = append(segs, segment{Plan: plan, From: cur, To: end})
	}
	return segs
}

// prorate returns fee × part / whole rounded half up, in integers.
func prorate(fee int64, part, whole time.Duration) int64 {
	p, w := int64(part/time.Second), int64(whole/time.Second)
	if w <= 0 {
		return 0
	}
	return (2*fee*p + w) / (2 * w)
}

// computeInvoice prices one tenant's month (see the package doc and the
// docs/billing.md for the rules).
func computeInvoice(tx *gorm.DB, tenantID uuid.UUID, currentPlan string, created, start, end time.Time) (Invoice, error) {
	inv := Invoice{TenantID: tenantID, Period: FormatPeriod(start), Currency: "USD"}
	usage, err := usageOf(tx, tenantID, start)
	if err != nil {
		return Invoice{}, err
	}
	inv.Events, inv.Attempts = usage.Events, usage.Attempts

	var rows []planChangeRow
	if err := tx.Scopes(forTenant(tenantID)).Order("changed_at, id").Find(&rows).Error; err != nil {
		return Invoice{}, fmt.Errorf("load plan changes: %w", err)
	}
	changes := make([]planChange, len(rows))
	for i, r := range rows {
		changes[i] = planChange{FromPlan: r.FromPlan, ToPlan: r.ToPlan, ChangedAt: r.ChangedAt}
	}
	month := end.Sub(start)
	terms := map[string]Entitlements{}
	var overagePlan *Entitlements
	for _, seg := range planSegments(currentPlan, created, changes, start, end) {
		t, ok := terms[seg.Plan]
		if !ok {
			if t, err = planTerms(tx, tenantID, seg.Plan, nil); err != nil {
				return Invoice{}, err
			}
			terms[seg.Plan] = t
		}
		inv.Currency = t.Currency
		if !t.HardCap {
			overagePlan = &t
		}
		amount := prorate(t.BaseFeeMinor, seg.To.Sub(seg.From), month)
		if amount == 0 {
			continue
		}
		desc := fmt.Sprintf("%s plan base fee (%s / month)", t.DisplayName, formatMinor(t.BaseFeeMinor, t.Currency))
		if seg.To.Sub(seg.From) != month {
			desc += fmt.Sprintf(", pro-rated for %s", describeRange(seg.From, seg.To))
		}
		inv.Lines = append(inv.Lines, Line{Kind: "base_fee", Plan: t.Name, Description: desc,
			Quantity: 1, UnitPriceMinor: amount, AmountMinor: amount})
	}
	if p := overagePlan; p != nil && inv.Events > p.EventsPerMonth && p.OveragePriceMinor > 0 {
		over := inv.Events - p.EventsPerMonth
		blocks := (over + p.OverageUnitEvents - 1) / p.OverageUnitEvents
		inv.Lines = append(inv.Lines, Line{Kind: "overage", Plan: p.Name,
			Description: fmt.Sprintf("Overage: %s events, %s over the %s plan's %s included, per started %s events",
				formatCount(inv.Events), formatCount(over), p.DisplayName, formatCount(p.EventsPerMonth), formatCount(p.OverageUnitEvents)),
			Quantity: blocks, UnitPriceMinor: p.OveragePriceMinor, AmountMinor: blocks * p.OveragePriceMinor})
	}
	for _, l := range inv.Lines {
		inv.TotalMinor += l.AmountMinor
	}
	return inv, nil
}

// formatCount writes a count for people with thousands separators
// (1,000,000), as the portal shows counts.
func formatCount(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// formatMinor writes an amount for people: 4900 USD → "USD 49.00".
func formatMinor(minor int64, currency string) string {
	return fmt.Sprintf("%s %d.%02d", currency, minor/100, minor%100)
}

// Invoice page bounds: a tenant has one invoice a month, so pages are
// shorter than page.DefaultSize and page.MaxSize.
const (
	DefaultInvoicePageSize = 20
	MaxInvoicePageSize     = 100
)

// ListInvoices returns tenantID's invoices, newest period first, at most
// limit, after the position given by cursor ("" for the first page; a
// page.Cursor whose time is the last period shown). The next cursor is ""
// on the last page. Errors: EINVALID (bad cursor).
func (s *Service) ListInvoices(ctx context.Context, tenantID uuid.UUID, limit int, cursor string) ([]Invoice, string, error) {
	limit = page.Clamp(limit, DefaultInvoicePageSize, MaxInvoicePageSize)
	cur, err := page.DecodeAt(cursor)
	if err != nil {
		return nil, "", err
	}
	db := s.db.WithContext(ctx)
	q := db.Scopes(forTenant(tenantID)).Order("period DESC").Limit(limit + 1)
	if !cur.IsZero() {
		q = q.Where("period < ?", cur.At)
	}
	var rows []invoiceRow
	if err := q.Find(&rows).Error; err != nil {
		return nil, "", fmt.Errorf("list invoices: %w", err)
	}
	rows, next := page.Trim(rows, limit, func(r invoiceRow) page.Cursor { return page.Cursor{At: r.Period} })
	invs := make([]Invoice, len(rows))
	ids := make([]uuid.UUID, len(rows))
	at := make(map[uuid.UUID]int, len(rows))
	for i, r := range rows {
		invs[i] = r.invoice()
		invs[i].Lines = []Line{}
		ids[i], at[r.ID] = r.ID, i
	}
	if len(ids) > 0 {
		var lines []invoiceLineRow
		if err := db.Where("invoice_id IN ?", ids).Order("invoice_id, line_no").Find(&lines).Error; err != nil {
			return nil, "", fmt.Errorf("load invoice lines: %w", err)
		}
		for _, l := range lines {
			i := at[l.InvoiceID]
			invs[i].Lines = append(invs[i].Lines, l.line())
		}
	}
	return invs, next, nil
}

// CollectPayments charges every unpaid invoice through the provider (a
// no-op without one). Each invoice's id is the idempotency key, so a
// crash between charge and bookkeeping cannot charge twice.
func (s *Service) CollectPayments(ctx context.Context) error {
	if s.cfg.Payments == nil {
		return nil
	}
	db := s.db.WithContext(ctx)
	var due []invoiceRow
	if err := db.Where("status <> ? AND total_minor > 0 AND payment_attempts < ?", InvoicePaid, maxPaymentAttempts).
		Order("created_at").Limit(500).Find(&due).Error; err != nil {
		return fmt.Errorf("list unpaid invoices: %w", err)
	}
	for _, row := range due {
		inv := row.invoice()
		rec, err := s.cfg.Payments.Charge(ctx, Charge{IdempotencyKey: inv.ID.String(), TenantID: inv.TenantID, InvoiceID: inv.ID,
			AmountMinor: inv.TotalMinor, Currency: inv.Currency, Description: "Ferry " + inv.Period})
		now := s.clock.Now().UTC()
		unpaid := db.Model(&invoiceRow{}).Where("id = ? AND status <> ?", inv.ID, InvoicePaid)
		if err != nil {
			s.log.WarnContext(ctx, "payment failed", "tenant_id", inv.TenantID, "invoice_id", inv.ID, "err", err)
			if err := unpaid.Updates(map[string]any{"status": InvoicePaymentFailed, "payment_error": err.Error(),
				"payment_attempts": gorm.Expr("payment_attempts + 1")}).Error; err != nil {
				return fmt.Errorf("record failed payment: %w", err)
			}
			continue
		}
		if err := unpaid.Updates(map[string]any{"status": InvoicePaid, "payment_reference": rec.Reference, "payment_error": "",
			"paid_at": now, "payment_attempts": gorm.Expr("payment_attempts + 1")}).Error; err != nil {
			return fmt.Errorf("record payment: %w", err)
		}
	}
	return nil
}
