package tests

import (
	"context"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestBillingAPI walks the billing routes: the overview, the endpoint
// limit, who may change plan, attempt metering, the staff view and the
// invoice list after the monthly run.
func TestBillingAPI(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	rc := newReceiver(t, nil)
	owner, api := signUpLimited(t, f, "billing-owner@example.com")
	tid := tenantID(t, owner)

	var view billingView
	owner.must(200, "GET", "/billing", nil, &view)
	if view.Plan.Name != "free" || view.Plan.EventsPerMonth != 10000 || view.Plan.MaxEndpoints != 3 ||
		view.Plan.RetentionDays != 3 || view.Plan.EventsPerSecond != 10 || !view.Plan.HardCap || view.TenantID != tid {
		t.Errorf("free plan overview = %+v", view)
	}
	if len(view.Plans) != 2 || view.Plans[0].Name != "free" || view.Plans[1].Name != "pro" {
		t.Errorf("self-serve plans = %+v, want free and pro", view.Plans)
	}
	if view.Usage.Period != time.Now().UTC().Format("2006-01") {
		t.Errorf("usage period = %q", view.Usage.Period)
	}
	if status := api.do("GET", "/billing", nil, nil); status != 403 {
		t.Errorf("API key on GET /billing: %d, want 403 (portal sessions only)", status)
	}

	// The free plan allows 3 endpoints.
	for range 3 {
		api.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/hook"}, nil)
	}
	var errBody struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if status := api.do("POST", "/endpoints", map[string]any{"url": rc.URL + "/hook"}, &errBody); status != 422 || errBody.Error.Code != "plan_limit" {
		t.Errorf("4th endpoint on free: %d %q, want 422 plan_limit", status, errBody.Error.Code)
	}

	// Only the owner changes plan.
	admin := addMember(t, f, tid, "billing-admin@example.com", "admin")
	viewer := addMember(t, f, tid, "billing-viewer@example.com", "viewer")
	for name, c := range map[string]*client{"admin": admin, "viewer": viewer} {
		if status := c.do("PUT", "/billing/plan", map[string]string{"plan": "pro"}, nil); status != 403 {
			t.Errorf("%s changing plan: %d, want 403", name, status)
		}
	}
	viewer.must(200, "GET", "/billing", nil, nil)
	viewer.must(200, "GET", "/billing/invoices", nil, nil)
	if status := owner.do("PUT", "/billing/plan", map[string]string{"plan": "enterprise"}, &errBody); status != 422 {
		t.Errorf("self-serve enterprise: %d, want 422", status)
	}
	if status := owner.do("PUT", "/billing/plan", map[string]string{"plan": "gold"}, &errBody); status != 422 || errBody.Error.Code != "invalid" {
		t.Errorf("unknown plan: %d %q, want 422 invalid", status, errBody.Error.Code)
	}
	owner.must(200, "PUT", "/billing/plan", map[string]string{"plan": "pro"}, &view)
	if view.Plan.Name != "pro" || view.Plan.MaxEndpoints != 50 || view.Plan.BaseFeeMinor != 4900 {
		t.Errorf("after upgrade: %+v", view.Plan)
	}
	api.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/hook"}, nil)

	// Events are metered at ingest; attempts by the billing job.
	for range 3 {
		api.must(202, "POST", "/events", map[string]any{"type": "invoice.paid", "data": map[string]int{"amount": 1}}, nil)
	}
	db := testenv.DB(t, f.Cfg.DatabaseURL)
	testenv.Eventually(t, 60*time.Second, func() bool {
		var n int
		_ = db.QueryRow(`SELECT count(*) FROM attempts WHERE tenant_id = $1`, tid).Scan(&n)
		return n == 12
	}, "want 12 attempts (3 events × 4 endpoints) in the log")
	ctx := context.Background()
	today := time.Now().UTC().Truncate(24 * time.Hour)
	if err := f.App.Billing.MeterAttempts(ctx, today, today.AddDate(0, 0, 1)); err != nil {
		t.Fatal(err)
	}
	owner.must(200, "GET", "/billing", nil, &view)
	if view.Usage.Events != 3 || view.Usage.Attempts != 12 || view.Endpoints != 4 {
		t.Errorf("usage = %+v, endpoints %d; want 3 events, 12 attempts, 4 endpoints", view.Usage, view.Endpoints)
	}

	// Staff see any tenant's billing; tenants cannot reach staff routes.
	staff := staffClient(t, f, "billing-staff@example.com")
	var staffView billingView
	staff.must(200, "GET", "/staff/tenants/"+tid+"/billing", nil, &staffView)
	if staffView.Plan.Name != "pro" || staffView.Usage.Events != 3 || staffView.Invoices == nil {
		t.Errorf("staff view = %+v", staffView)
	}
	if status := staff.do("GET", "/staff/tenants/00000000-0000-4000-8000-000000000000/billing", nil, nil); status != 404 {
		t.Errorf("staff, unknown tenant: %d, want 404", status)
	}
	if status := owner.do("GET", "/staff/tenants/"+tid+"/billing", nil, nil); status != 404 {
		t.Errorf("tenant owner on a staff route: %d, want 404", status)
	}
	if status := staff.do("GET", "/billing", nil, nil); status != 403 {
		t.Errorf("staff on a tenant route: %d, want 403", status)
	}

	// The invoice run bills last month: put this tenant on pro since
	// before it with 1,000,001 events.
	var invoices struct {
		Data       []invoiceView `json:"data"`
		NextCursor *string       `json:"next_cursor"`
	}
	owner.must(200, "GET", "/billing/invoices", nil, &invoices)
	if len(invoices.Data) != 0 {
		t.Fatalf("invoices before any run: %+v", invoices.Data)
	}
	lastMonth := time.Date(today.Year(), today.Month()-1, 1, 0, 0, 0, 0, time.UTC)
	for _, q := range []string{
		`UPDATE tenants SET created_at = $2 WHERE id = $1`,
		`UPDATE plan_changes SET changed_at = $2 WHERE tenant_id = $1`,
	} {
		if _, err := db.Exec(q, tid, lastMonth.AddDate(0, 0, -1)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO usage_counters (tenant_id, period, slot, events) VALUES ($1, $2, 0, 1000001)`, tid, lastMonth); err != nil {
		t.Fatal(err)
	}
	for range 2 { // re-running is safe
		if _, err := f.App.Billing.RunInvoices(ctx, lastMonth); err != nil {
			t.Fatal(err)
		}
	}
	owner.must(200, "GET", "/billing/invoices", nil, &invoices)
	if len(invoices.Data) != 1 || invoices.NextCursor != nil {
		t.Fatalf("invoices = %+v, want one", invoices)
	}
	inv := invoices.Data[0]
	if inv.Period != lastMonth.Format("2006-01") || inv.TotalMinor != 5000 || len(inv.Lines) != 2 ||
		inv.Lines[0].Kind != "base_fee" || inv.Lines[0].AmountMinor != 4900 ||
		inv.Lines[1].Kind != "overage" || inv.Lines[1].Quantity != 1 || inv.Lines[1].AmountMinor != 100 {
		t.Errorf("invoice = %+v, want base fee 4900 + 1 overage block of 100", inv)
	}
	if inv.Status != "paid" {
		t.Errorf("invoice status %q, want paid (dev mode collects with the recording provider)", inv.Status)
	}
	staff.must(200, "GET", "/staff/tenants/"+tid+"/billing", nil, &staffView)
	if len(staffView.Invoices) != 1 {
		t.Errorf("staff sees %d invoices, want 1", len(staffView.Invoices))
	}
}
