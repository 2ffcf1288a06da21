package billing

import (
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/ferry-dev/ferry"
)

func nov(day, hour int) time.Time { return time.Date(2026, 11, day, hour, 0, 0, 0, time.UTC) }

func TestProrate(t *testing.T) {
	t.Parallel()
	month := 30 * 24 * time.Hour
	tests := []struct {
		fee         int64
		part, whole time.Duration
		want        int64
	}{
		{4900, month, month, 4900},
		{4900, 15 * 24 * time.Hour, month, 2450},
		{4900, 19 * 24 * time.Hour, month, 3103}, // 3103.33
		{4900, 20 * 24 * time.Hour, month, 3267}, // 3266.67
		{1, month / 2, month, 1},                 // half rounds up
		{4900, 0, month, 0},
		{0, month, month, 0},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, prorate(tt.fee, tt.part, tt.whole), "%d × %s / %s", tt.fee, tt.part, tt.whole)
	}
}

func TestPlanSegments(t *testing.T) {
	t.Parallel()
	start, end := nov(1, 0), time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	oct := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	ch := func(from, to string, at time.Time) planChange {
		return planChange{FromPlan: from, ToPlan: to, ChangedAt: at}
	}
	tests := []struct {
		name    string
		current string
		created time.Time
		changes []planChange
		want    []segment
	}{
		{"never changed", "pro", oct, nil, []segment{{"pro", start, end}}},
		{"created mid-month", "pro", nov(11, 0), nil, []segment{{"pro", nov(11, 0), end}}},
		{"created after the month", "pro", end, nil, nil},
		{"upgrade", "pro", oct, []planChange{ch("free", "pro", nov(16, 0))},
			[]segment{{"free", start, nov(16, 0)}, {"pro", nov(16, 0), end}}},
		{"changed before the month", "pro", oct, []planChange{ch("free", "pro", oct.AddDate(0, 0, 3))},
			[]segment{{"pro", start, end}}},
		{"changed after the month", "free", oct, []planChange{ch("pro", "free", end.Add(time.Hour))},
			[]segment{{"pro", start, end}}},
		{"up and down", "free", oct, []planChange{ch("free", "pro", nov(5, 0)), ch("pro", "free", nov(10, 0))},
			[]segment{{"free", start, nov(5, 0)}, {"pro", nov(5, 0), nov(10, 0)}, {"free", nov(10, 0), end}}},
		{"twice at the same instant", "pro", oct, []planChange{ch("free", "pro", nov(5, 0)), ch("pro", "pro", nov(5, 0))},
			[]segment{{"free", start, nov(5, 0)}, {"pro", nov(5, 0), end}}},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, planSegments(tt.current, tt.created, tt.changes, start, end), tt.name)
	}
}

// TestRunInvoices bills November 2026 (30 days) for tenants with various
// plan histories, re-runs the job, and checks collection.
func TestRunInvoices(t *testing.T) {
	t.Parallel()
	b := setup(t)
	oct := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	period := nov(1, 0)
	change := func(id uuid.UUID, plan string, at time.Time) {
		t.Helper()
		b.clock.Set(at)
		_, err := b.svc.ChangePlan(b.ctx, id, plan, "owner@example.com")
		require.NoError(t, err)
	}

	proAllMonth := b.tenant(t, PlanPro, oct)
	b.setEvents(t, proAllMonth, period, 1_234_567)
	upgraded := b.tenant(t, PlanFree, oct)
	change(upgraded, PlanPro, nov(16, 0))
	b.setEvents(t, upgraded, period, 9_000)
	downgraded := b.tenant(t, PlanPro, oct)
	change(downgraded, PlanFree, nov(20, 0))
	b.setEvents(t, downgraded, period, 2_000_000)
	freeOnly := b.tenant(t, PlanFree, oct)
	b.setEvents(t, freeOnly, period, 10_000)
	newOnPro := b.tenant(t, PlanPro, nov(11, 0))
	leftInDecember := b.tenant(t, PlanPro, oct)
	change(leftInDecember, PlanFree, time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	custom := b.tenant(t, PlanEnterprise, oct)
	b.override(t, custom, PlanEnterprise, map[string]any{"base_fee_minor": 250000, "events_per_month": 5_000_000, "overage_price_minor": 20})
	b.setEvents(t, custom, period, 5_000_001)
	notYet := b.tenant(t, PlanPro, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))

	b.clock.Set(time.Date(2026, 11, 30, 23, 0, 0, 0, time.UTC))
	_, err := b.svc.RunInvoices(b.ctx, period)
	require.Equal(t, ferry.EINVALID, ferry.ErrorCode(err), "November is not over")

	// The worker job invoices the previous month once it is over.
	b.clock.Set(time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC))
	require.NoError(t, b.svc.RunOnce(b.ctx))

	type line struct {
		kind           string
		qty, unit, amt int64
	}
	want := map[uuid.UUID][]line{
		proAllMonth:    {{"base_fee", 1, 4900, 4900}, {"overage", 24, 100, 2400}},
		upgraded:       {{"base_fee", 1, 2450, 2450}},
		downgraded:     {{"base_fee", 1, 3103, 3103}, {"overage", 100, 100, 10000}},
		newOnPro:       {{"base_fee", 1, 3267, 3267}},
		leftInDecember: {{"base_fee", 1, 4900, 4900}},
		custom:         {{"base_fee", 1, 250000, 250000}, {"overage", 1, 20, 20}},
	}
	check := func() {
		t.Helper()
		for id, lines := range want {
			invs, next, err := b.svc.ListInvoices(b.ctx, id, 10, "")
			require.NoError(t, err)
			require.Empty(t, next)
			require.Len(t, invs, 1, "tenant %s", id)
			inv := invs[0]
			require.Equal(t, "2026-11", inv.Period)
			var got []line
			var total int64
			for _, l := range inv.Lines {
				got = append(got, line{l.Kind, l.Quantity, l.UnitPriceMinor, l.AmountMinor})
				require.Equal(t, l.Quantity*l.UnitPriceMinor, l.AmountMinor)
				total += l.AmountMinor
			}
			require.Equal(t, lines, got, "tenant %s: %+v", id, inv.Lines)
			require.Equal(t, total, inv.TotalMinor)
			require.Equal(t, InvoicePaid, inv.Status)
			require.NotEmpty(t, inv.PaymentReference)
		}
		for _, id := range []uuid.UUID{freeOnly, notYet} {
			invs, _, err := b.svc.ListInvoices(b.ctx, id, 10, "")
			require.NoError(t, err)
			require.Empty(t, invs, "nothing to bill")
		}
		require.Len(t, b.pay.Charges(), len(want), "one charge per invoice")
	}
	check()
	invs, _, err := b.svc.ListInvoices(b.ctx, downgraded, 10, "")
	require.NoError(t, err)
	require.Contains(t, invs[0].Lines[0].Description, "pro-rated")
	require.EqualValues(t, 2_000_000, invs[0].Events)

	// Re-running (job or CLI) issues nothing new and charges nobody twice.
	res, err := b.svc.RunInvoices(b.ctx, period)
	require.NoError(t, err)
	require.Equal(t, RunResult{Period: "2026-11", Tenants: 7, Issued: 0, Existing: 6, Nothing: 1}, res)
	require.NoError(t, b.svc.RunOnce(b.ctx))
	check()
	var lines int64
	require.NoError(t, b.db.Raw(`SELECT count(*) FROM invoice_lines`).Scan(&lines).Error)
	require.EqualValues(t, 9, lines)
}

func TestCollectPaymentsRetriesDeclines(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.tenant(t, PlanPro, time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC))
	declines := 1
	b.pay.ChargeFunc = func(c Charge) error {
		if c.TenantID != id || c.AmountMinor != 4900 || c.Currency != "USD" || c.IdempotencyKey != c.InvoiceID.String() {
			return fmt.Errorf("unexpected charge %+v", c)
		}
		if declines > 0 {
			declines--
			return ErrPaymentDeclined
		}
		return nil
	}
	b.clock.Set(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC))
	_, err := b.svc.RunInvoices(b.ctx, nov(1, 0))
	require.NoError(t, err)
	invs, _, err := b.svc.ListInvoices(b.ctx, id, 10, "")
	require.NoError(t, err)
	require.Equal(t, InvoicePaymentFailed, invs[0].Status)
	require.Equal(t, "payment declined", invs[0].PaymentError)

	require.NoError(t, b.svc.CollectPayments(b.ctx))
	invs, _, err = b.svc.ListInvoices(b.ctx, id, 10, "")
	require.NoError(t, err)
	require.Equal(t, InvoicePaid, invs[0].Status)
	require.NotNil(t, invs[0].PaidAt)
	require.Empty(t, invs[0].PaymentError)
	require.Len(t, b.pay.Charges(), 1)
}

func TestListInvoicesPages(t *testing.T) {
	t.Parallel()
	b := setup(t)
	id := b.tenant(t, PlanPro, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	for m := 1; m <= 5; m++ {
		b.clock.Set(time.Date(2026, time.Month(m+1), 1, 0, 0, 0, 0, time.UTC))
		_, err := b.svc.RunInvoices(b.ctx, time.Date(2026, time.Month(m), 1, 0, 0, 0, 0, time.UTC))
		require.NoError(t, err)
	}
	var periods []string
	cursor := ""
	for {
		invs, next, err := b.svc.ListInvoices(b.ctx, id, 2, cursor)
		require.NoError(t, err)
		for _, inv := range invs {
			periods = append(periods, inv.Period)
		}
		if next == "" {
			break
		}
		cursor = next
	}
	require.Equal(t, []string{"2026-05", "2026-04", "2026-03", "2026-02", "2026-01"}, periods)
	_, _, err := b.svc.ListInvoices(b.ctx, id, 2, "garbage")
	require.Equal(t, ferry.EINVALID, ferry.ErrorCode(err))
}

func TestFormatCount(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 10000: "10,000", 1000500: "1,000,500", -12345: "-12,345"} {
		if got := formatCount(n); got != want {
			t.Errorf("formatCount(%d) = %q, want %q", n, got, want)
		}
	}
}
