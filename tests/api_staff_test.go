package tests

import (
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestStaffConsole: staff log in to the same portal, search tenants, see
// a tenant's events, deliveries and attempts but never its secrets,
// replay only with a reason, and every action lands in the audit log.
// Tenants cannot reach the staff routes; staff cannot use tenant routes.
func TestStaffConsole(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	rc := newReceiver(t, nil)
	owner, key := signUp(t, f, "ann@acme.example")
	signUp(t, f, "bob@globex.example")
	staff := staffClient(t, f, "sam@ferry.example")

	var ep struct {
		ID     string `json:"id"`
		Secret string `json:"secret"`
	}
	key.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/hook?token=query-credential-456",
		"headers": map[string]string{"X-Receiver-Token": "receiver-credential-123"}}, &ep)
	var ev idOnly
	key.must(202, "POST", "/events", map[string]any{"type": "invoice.paid", "data": map[string]int{"amount": 7}}, &ev)
	testenv.Eventually(t, 30*time.Second, func() bool { return len(rc.requests()) == 1 }, "not delivered")
	waitAttempts(t, key, ev.ID, 1)

	var me struct {
		Kind string `json:"kind"`
		Role string `json:"role"`
	}
	staff.must(200, "GET", "/me", nil, &me)
	if me.Kind != "staff" || me.Role != "staff" {
		t.Errorf("staff /me = %+v", me)
	}

	var found struct {
		Data []struct {
			ID         string `json:"id"`
			OwnerEmail string `json:"owner_email"`
		} `json:"data"`
	}
	staff.must(200, "GET", "/staff/tenants?q=ACME", nil, &found)
	if len(found.Data) != 1 || found.Data[0].OwnerEmail != "ann@acme.example" {
		t.Fatalf("search = %+v", found.Data)
	}
	tenant := found.Data[0].ID
	base := "/staff/tenants/" + tenant

	secrets := []string{ep.Secret, "receiver-credential-123", "query-credential-456", "whsec_"}
	noSecrets := func(what string, body []byte) {
		t.Helper()
		for _, s := range secrets {
			if strings.Contains(string(body), s) {
				t.Errorf("%s shows a secret (%q): %s", what, s, body)
			}
		}
	}
	r := staff.raw("GET", base, nil, nil)
	if r.Status != 200 || !strings.Contains(string(r.Body), ep.ID) || !strings.Contains(string(r.Body), "ann@acme.example") {
		t.Errorf("tenant view: %d %s", r.Status, r.Body)
	}
	noSecrets("tenant view", r.Body)
	r = staff.raw("GET", base+"/events?type=invoice.paid", nil, nil)
	if r.Status != 200 || !strings.Contains(string(r.Body), ev.ID) {
		t.Errorf("events: %d %s", r.Status, r.Body)
	}
	r = staff.raw("GET", base+"/events/"+ev.ID, nil, nil)
	if r.Status != 200 || !strings.Contains(string(r.Body), `"deliveries":[{`) || !strings.Contains(string(r.Body), `"attempts":[{`) ||
		!strings.Contains(string(r.Body), "[redacted]") {
		t.Errorf("event view: %d %s", r.Status, r.Body)
	}
	noSecrets("event view", r.Body)

	// Another tenant's event through this tenant is not found.
	var other struct {
		Data []idOnly `json:"data"`
	}
	staff.must(200, "GET", "/staff/tenants?q=globex", nil, &other)
	if r := staff.raw("GET", "/staff/tenants/"+other.Data[0].ID+"/events/"+ev.ID, nil, nil); r.Status != 404 {
		t.Errorf("event through the wrong tenant: %d", r.Status)
	}

	// Replays need a reason.
	if r := staff.raw("POST", base+"/replays", mustJSON(t, map[string]string{"event_id": ev.ID}), nil); r.Status != 422 || r.apiError(t).Error.Field != "reason" {
		t.Errorf("replay without reason: %d %s", r.Status, r.Body)
	}
	staff.must(202, "POST", base+"/replays", map[string]string{"event_id": ev.ID, "reason": "ticket 42: customer lost the webhook"}, nil)
	got := waitAttempts(t, key, ev.ID, 2)
	if got[1].Trigger != "replay" || got[1].Actor != "Ferry support" {
		t.Errorf("staff replay attempt = %+v", got[1])
	}
	var job replayJobView
	staff.must(202, "POST", base+"/replays", map[string]string{"reason": "ticket 43: replay everything", "status": "succeeded"}, &job)
	testenv.Eventually(t, 30*time.Second, func() bool {
		staff.must(200, "GET", base+"/replays/"+job.ID, nil, &job)
		return job.State == "completed"
	}, "staff bulk replay: %+v", job)
	if job.Done != 1 || job.Actor != "Ferry support" {
		t.Errorf("staff job = %+v", job)
	}
	// The tenant sees the staff job too.
	owner.must(200, "GET", "/replays/"+job.ID, nil, nil)
	// One delivery.
	waitAttempts(t, key, ev.ID, 3)
	staff.must(202, "POST", base+"/replays", map[string]string{"delivery_id": got[0].DeliveryID, "reason": "ticket 44"}, nil)
	if a := waitAttempts(t, key, ev.ID, 4)[3]; a.Trigger != "replay" || a.AttemptNumber != 4 || a.Actor != "Ferry support" {
		t.Errorf("staff delivery replay attempt = %+v", a)
	}

	var audit struct {
		Data []struct {
			ActorEmail string  `json:"actor_email"`
			TenantID   *string `json:"tenant_id"`
			Action     string  `json:"action"`
			Reason     string  `json:"reason"`
			CreatedAt  string  `json:"created_at"`
		} `json:"data"`
	}
	staff.must(200, "GET", "/staff/audit?tenant_id="+tenant, nil, &audit)
	actions := map[string]int{}
	reasons := map[string]bool{}
	for _, e := range audit.Data {
		if e.ActorEmail != "sam@ferry.example" || e.TenantID == nil || *e.TenantID != tenant || e.CreatedAt == "" {
			t.Errorf("audit entry %+v", e)
		}
		actions[e.Action]++
		reasons[e.Reason] = true
	}
	for action, n := range map[string]int{"tenant.view": 1, "events.list": 1, "event.view": 1, "replay": 3, "replay.view": 1} {
		if actions[action] < n {
			t.Errorf("audit log has %d %q entries, want at least %d (all: %v)", actions[action], action, n, actions)
		}
	}
	if !reasons["ticket 42: customer lost the webhook"] || !reasons["ticket 43: replay everything"] {
		t.Errorf("replay reasons not audited: %v", reasons)
	}
	staff.must(200, "GET", "/staff/audit", nil, &audit)
	if len(audit.Data) < 7 { // + the two searches, which name no tenant
		t.Errorf("whole audit log has %d entries", len(audit.Data))
	}

	// Tenants cannot see the console; staff cannot act as a tenant.
	for _, c := range []*client{owner, key} {
		if r := c.raw("GET", "/staff/tenants", nil, nil); r.Status != 404 {
			t.Errorf("tenant on staff route: %d", r.Status)
		}
	}
	if r := staff.raw("GET", "/endpoints/"+ep.ID+"/secret", nil, nil); r.Status != 403 {
		t.Errorf("staff reading a secret through the tenant API: %d %s", r.Status, r.Body)
	}
	if r := staff.raw("GET", "/staff/tenants/"+tenant+"/events/not-a-uuid", nil, nil); r.Status != 404 {
		t.Errorf("malformed event id: %d", r.Status)
	}
}

// staffHealthView is the health part of GET /staff/tenants/{id}.
type staffHealthView struct {
	Name   string `json:"name"`
	Health struct {
		Plan struct {
			Name           string `json:"name"`
			EventsPerMonth int64  `json:"events_per_month"`
			MaxEndpoints   int64  `json:"max_endpoints"`
		} `json:"plan"`
		Usage struct {
			Events int64 `json:"events"`
		} `json:"usage"`
		Endpoints struct {
			Total, Enabled, Disabled, Failing int64
		} `json:"endpoints"`
		Succeeded24h   int64    `json:"succeeded_24h"`
		Failed24h      int64    `json:"failed_24h"`
		SuccessRate24h *float64 `json:"success_rate_24h"`
		Backlog        struct {
			Pending  int64 `json:"pending"`
			Retrying int64 `json:"retrying"`
		} `json:"backlog"`
		QuotaExhausted bool `json:"quota_exhausted"`
		PaymentOverdue bool `json:"payment_overdue"`
	} `json:"health"`
}

// auditPage is a page of GET /staff/audit.
type auditPage struct {
	Data []struct {
		ActorEmail string  `json:"actor_email"`
		TenantID   *string `json:"tenant_id"`
		TenantName string  `json:"tenant_name"`
		Action     string  `json:"action"`
		Write      bool    `json:"write"`
		Reason     string  `json:"reason"`
	} `json:"data"`
	NextCursor *string `json:"next_cursor"`
}

// TestStaffTenantHealthAuditAndPreview: with a known history — three
// deliveries succeeded, one dropped, one retrying, three endpoints of
// which one is disabled and one failing — the staff tenant page reports
// exactly those numbers; the replay preview counts what a bulk replay
// would re-send; an endpoint's attempt log is open to staff; and the
// audit log filters by kind, actor, action, tenant and time, naming the
// tenant.
func TestStaffTenantHealthAuditAndPreview(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	ok := newReceiver(t, nil)
	bad := newReceiver(t, func(_ int, r received) int {
		if strings.Contains(string(r.Body), "bad.drop") {
			return 400 // dropped at once
		}
		return 500 // retried
	})
	owner, key := signUpLimited(t, f, "hana@health.example")
	signUp(t, f, "other@elsewhere.example")
	staff := staffClient(t, f, "sam@ferry.example")
	staff2 := staffClient(t, f, "kim@ferry.example")

	var ep1, ep2, ep3 idOnly
	key.must(201, "POST", "/endpoints", map[string]any{"url": ok.URL + "/ok", "event_types": []string{"ok.*"}}, &ep1)
	key.must(201, "POST", "/endpoints", map[string]any{"url": bad.URL + "/bad", "event_types": []string{"bad.*"},
		"description": "legacy receiver"}, &ep2)
	key.must(201, "POST", "/endpoints", map[string]any{"url": ok.URL + "/off", "event_types": []string{"off.*"}}, &ep3)
	key.must(200, "PATCH", "/endpoints/"+ep3.ID, map[string]any{"enabled": false}, nil)
	for i := range 3 {
		key.must(202, "POST", "/events", map[string]any{"type": "ok.event", "data": map[string]int{"n": i}}, nil)
	}
	key.must(202, "POST", "/events", map[string]any{"type": "bad.drop", "data": 1}, nil)
	key.must(202, "POST", "/events", map[string]any{"type": "bad.retry", "data": 2}, nil)

	var found struct {
		Data []idOnly `json:"data"`
	}
	staff.must(200, "GET", "/staff/tenants?q=hana@health.example", nil, &found)
	if len(found.Data) != 1 {
		t.Fatalf("search found %d tenants", len(found.Data))
	}
	tenant := found.Data[0].ID
	base := "/staff/tenants/" + tenant

	var v staffHealthView
	testenv.Eventually(t, 60*time.Second, func() bool {
		staff.must(200, "GET", base, nil, &v)
		h := v.Health
		return h.Succeeded24h == 3 && h.Failed24h == 1 && h.Backlog.Retrying == 1 && h.Backlog.Pending == 0 && h.Endpoints.Failing == 1
	}, "tenant health never showed 3 succeeded, 1 failed, 1 retrying, 1 failing endpoint: %+v", v.Health)
	h := v.Health
	if h.Plan.Name != "free" || h.Plan.EventsPerMonth != 10000 || h.Plan.MaxEndpoints != 3 {
		t.Errorf("plan = %+v, want free with 10000 events and 3 endpoints", h.Plan)
	}
	if h.Usage.Events != 5 {
		t.Errorf("events this month = %d, want 5", h.Usage.Events)
	}
	if h.Endpoints.Total != 3 || h.Endpoints.Enabled != 2 || h.Endpoints.Disabled != 1 || h.Endpoints.Failing != 1 {
		t.Errorf("endpoints = %+v, want 3 total, 2 enabled, 1 disabled, 1 failing", h.Endpoints)
	}
	if h.SuccessRate24h == nil || *h.SuccessRate24h != 0.75 {
		t.Errorf("success rate = %v, want 0.75", h.SuccessRate24h)
	}
	if h.QuotaExhausted || h.PaymentOverdue {
		t.Errorf("restrictions = quota %v, payment %v; want none", h.QuotaExhausted, h.PaymentOverdue)
	}

	// The replay preview counts what a bulk replay would re-send now.
	preview := func(c *client, path string, body map[string]string) int64 {
		t.Helper()
		var p struct {
			Matched int64 `json:"matched"`
		}
		c.must(200, "POST", path, body, &p)
		return p.Matched
	}
	for _, tc := range []struct {
		body map[string]string
		want int64
	}{
		{map[string]string{}, 5},
		{map[string]string{"status": "succeeded"}, 3},
		{map[string]string{"status": "dropped"}, 1},
		{map[string]string{"status": "exhausted"}, 0},
		{map[string]string{"endpoint_id": ep2.ID}, 2},
		{map[string]string{"event_type": "ok.event"}, 3},
		{map[string]string{"since": time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}, 0},
	} {
		if got := preview(owner, "/replays/preview", tc.body); got != tc.want {
			t.Errorf("preview %v = %d, want %d", tc.body, got, tc.want)
		}
	}
	if got := preview(staff, base+"/replays/preview", map[string]string{"status": "succeeded"}); got != 3 {
		t.Errorf("staff preview of succeeded = %d, want 3", got)
	}
	if r := owner.raw("POST", "/replays/preview", mustJSON(t, map[string]string{"status": "lost"}), nil); r.Status != 422 {
		t.Errorf("preview with a bad status: %d", r.Status)
	}

	// An endpoint's attempt log, for staff.
	var attempts struct {
		Data []struct {
			EndpointID string `json:"endpoint_id"`
			Outcome    string `json:"outcome"`
		} `json:"data"`
	}
	staff.must(200, "GET", base+"/endpoints/"+ep1.ID+"/attempts", nil, &attempts)
	if len(attempts.Data) != 3 {
		t.Errorf("staff attempt log of the ok endpoint has %d attempts, want 3", len(attempts.Data))
	}
	for _, a := range attempts.Data {
		if a.EndpointID != ep1.ID || a.Outcome != "success" {
			t.Errorf("attempt %+v", a)
		}
	}
	if r := staff.raw("GET", "/staff/tenants/"+tenant+"/endpoints/"+uuid.NewString()+"/attempts", nil, nil); r.Status != 404 {
		t.Errorf("unknown endpoint's attempts: %d", r.Status)
	}

	// The console names endpoints by URL: the events list carries each
	// delivery, the event view the endpoints they went to.
	var evs struct {
		Data []struct {
			ID         string `json:"id"`
			Deliveries []struct {
				EndpointID string `json:"endpoint_id"`
				Status     string `json:"status"`
			} `json:"deliveries"`
		} `json:"data"`
	}
	staff.must(200, "GET", base+"/events?type=bad.drop", nil, &evs)
	if len(evs.Data) != 1 || len(evs.Data[0].Deliveries) != 1 || evs.Data[0].Deliveries[0].Status != "dropped" ||
		evs.Data[0].Deliveries[0].EndpointID != ep2.ID {
		t.Fatalf("staff events of bad.drop = %+v", evs.Data)
	}
	var detail struct {
		Endpoints []struct {
			ID          string `json:"id"`
			URL         string `json:"url"`
			Description string `json:"description"`
		} `json:"endpoints"`
	}
	staff.must(200, "GET", base+"/events/"+evs.Data[0].ID, nil, &detail)
	if len(detail.Endpoints) != 1 || detail.Endpoints[0].ID != ep2.ID || detail.Endpoints[0].URL != bad.URL+"/bad" ||
		detail.Endpoints[0].Description != "legacy receiver" {
		t.Errorf("staff event endpoints = %+v, want %s", detail.Endpoints, bad.URL+"/bad")
	}

	// Writes: one replay and one restriction lift; kim makes the lift.
	start := time.Now().UTC().Add(-time.Second)
	staff.must(202, "POST", base+"/replays", map[string]string{"reason": "ticket 7", "status": "dropped"}, nil)
	staff2.must(200, "POST", base+"/billing/lift-restriction", map[string]string{"reason": "ticket 8"}, nil)

	audit := func(query string) auditPage {
		t.Helper()
		var p auditPage
		staff.must(200, "GET", "/staff/audit?"+query, nil, &p)
		return p
	}
	writes := audit("kind=write&tenant_id=" + tenant)
	if len(writes.Data) != 2 || writes.Data[0].Action != "billing.lift_restriction" || writes.Data[1].Action != "replay" {
		t.Fatalf("writes = %+v, want the lift then the replay", writes.Data)
	}
	for _, e := range writes.Data {
		if !e.Write || e.TenantName != "Org of hana@health.example" || e.TenantID == nil || *e.TenantID != tenant {
			t.Errorf("write entry %+v", e)
		}
	}
	if writes.Data[0].ActorEmail != "kim@ferry.example" || writes.Data[0].Reason != "ticket 8" || writes.Data[1].Reason != "ticket 7" {
		t.Errorf("writes = %+v", writes.Data)
	}
	// Reads of this tenant: the tenant view (polled, at least once), one
	// preview, two attempt logs, one events list, one event, and kim's
	// billing view after the lift; the search names no tenant.
	reads := audit("kind=read&tenant_id=" + tenant + "&limit=100")
	counts := map[string]int{}
	for _, e := range reads.Data {
		if e.Write {
			t.Errorf("read entry marked write: %+v", e)
		}
		counts[e.Action]++
	}
	if counts["replay.preview"] != 1 || counts["endpoint.attempts"] != 2 || counts["tenant.view"] < 1 || counts["replay"] != 0 ||
		counts["event.view"] != 1 || counts["events.list"] != 1 {
		t.Errorf("read entries by action = %v", counts)
	}
	if p := audit("kind=write&actor=KIM@ferry"); len(p.Data) != 1 || p.Data[0].Action != "billing.lift_restriction" {
		t.Errorf("entries by kim = %+v, want the lift alone", p.Data)
	}
	if p := audit("action=replay&tenant_id=" + tenant); len(p.Data) != 1 || p.Data[0].Reason != "ticket 7" {
		t.Errorf("replay entries = %+v", p.Data)
	}
	if p := audit("kind=write&since=" + start.Format(time.RFC3339Nano)); len(p.Data) != 2 {
		t.Errorf("writes since the replay = %d, want 2", len(p.Data))
	}
	if p := audit("until=" + start.Add(-time.Hour).Format(time.RFC3339Nano)); len(p.Data) != 0 {
		t.Errorf("entries before the test began = %d, want 0", len(p.Data))
	}
	// Cursor paging walks the writes one at a time.
	first := audit("kind=write&limit=1&tenant_id=" + tenant)
	if len(first.Data) != 1 || first.NextCursor == nil {
		t.Fatalf("first page = %+v", first)
	}
	second := audit("kind=write&limit=1&tenant_id=" + tenant + "&cursor=" + *first.NextCursor)
	if len(second.Data) != 1 || second.Data[0].Action != "replay" {
		t.Errorf("second page = %+v", second.Data)
	}
	if r := staff.raw("GET", "/staff/audit?kind=all-of-it", nil, nil); r.Status != 422 {
		t.Errorf("bad kind: %d", r.Status)
	}
}
