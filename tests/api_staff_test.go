package tests

import (
	"strings"
	"testing"
	"time"

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
