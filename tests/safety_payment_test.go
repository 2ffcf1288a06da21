package tests

import (
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/app"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestFreeUpgradeRefusedWithoutProvider: with no payment provider (the
// production default) a new tenant's owner asks for Pro and gets 402
// payment_required; the plan stays Free.
func TestFreeUpgradeRefusedWithoutProvider(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.PaymentProvider = app.PaymentProviderNone
	f := startFerry(t, cfg)
	owner, _ := signUpLimited(t, f, "eve@free-pro.example")
	r := owner.raw("PUT", "/billing/plan", mustJSON(t, map[string]string{"plan": "pro"}), nil)
	if r.Status != 402 || r.apiError(t).Error.Code != "payment_required" {
		t.Fatalf("upgrade without provider: %d %s, want 402 payment_required", r.Status, r.Body)
	}
	var bill struct {
		billingView
		PaymentsConfigured bool `json:"payments_configured"`
	}
	owner.must(200, "GET", "/billing", nil, &bill)
	if bill.Plan.Name != "free" || bill.PaymentsConfigured {
		t.Errorf("after a refused upgrade: plan %s, payments_configured %v", bill.Plan.Name, bill.PaymentsConfigured)
	}
}

// TestUpgradeAndOverdueRestriction: dev mode's test provider accepts, so
// the upgrade succeeds in one call and records the payment method; an
// invoice unpaid 15 days after issue makes new events 402 until staff
// lift the restriction, which needs a reason and is audited.
func TestUpgradeAndOverdueRestriction(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	owner, key := signUpLimited(t, f, "ann@pays.example")
	var bill struct {
		billingView
		PaymentMethod *struct {
			Label string `json:"label"`
		} `json:"payment_method"`
		PaymentOverdue bool `json:"payment_overdue"`
	}
	owner.must(200, "PUT", "/billing/plan", map[string]string{"plan": "pro"}, &bill)
	if bill.Plan.Name != "pro" || bill.PaymentMethod == nil || bill.PaymentMethod.Label == "" {
		t.Fatalf("upgrade with the test provider: %+v", bill)
	}
	tid := tenantID(t, owner)
	key.must(202, "POST", "/events", map[string]any{"type": "before.overdue", "data": map[string]int{"n": 1}}, nil)

	db := testenv.DB(t, f.Cfg.DatabaseURL)
	if _, err := db.Exec(`INSERT INTO invoices (id, tenant_id, period, currency, total_minor, events, attempts, status, created_at)
		VALUES (gen_random_uuid(), $1, '2026-09-01', 'usd', 4900, 0, 0, 'payment_failed', $2)`,
		tid, time.Now().Add(-15*24*time.Hour)); err != nil {
		t.Fatal(err)
	}
	r := key.raw("POST", "/events", mustJSON(t, map[string]any{"type": "after.overdue", "data": map[string]int{"n": 1}}), nil)
	if r.Status != 402 || r.apiError(t).Error.Code != "payment_required" {
		t.Fatalf("event with an overdue invoice: %d %s, want 402 payment_required", r.Status, r.Body)
	}
	owner.must(200, "GET", "/billing", nil, &bill)
	if !bill.PaymentOverdue {
		t.Error("billing overview does not say payment_overdue")
	}

	staff := staffClient(t, f, "sam@ferry.example")
	path := "/staff/tenants/" + tid + "/billing/lift-restriction"
	if r := staff.raw("POST", path, mustJSON(t, map[string]string{}), nil); r.Status != 422 {
		t.Errorf("lift without a reason: %d %s, want 422", r.Status, r.Body)
	}
	staff.must(200, "POST", path, map[string]string{"reason": "paid by bank transfer, ticket 812"}, nil)
	key.must(202, "POST", "/events", map[string]any{"type": "after.lift", "data": map[string]int{"n": 1}}, nil)

	var audit struct {
		Data []struct {
			Action string `json:"action"`
			Reason string `json:"reason"`
		} `json:"data"`
	}
	staff.must(200, "GET", "/staff/audit?tenant_id="+tid, nil, &audit)
	found := false
	for _, e := range audit.Data {
		if e.Action == "billing.lift_restriction" && strings.Contains(e.Reason, "ticket 812") {
			found = true
		}
	}
	if !found {
		t.Errorf("lift not audited: %+v", audit.Data)
	}
}
