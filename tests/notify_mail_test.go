package tests

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// Notification mails: read from the mail catcher as their recipients
// would. The catcher keeps mail across runs and parallel tests, so a
// mail is told apart by the link it carries (the app's own URL).

// waitNotification waits for a mail to address whose subject contains
// subject and whose text and HTML carry link, and returns it.
func waitNotification(t *testing.T, address, subject, link string) caughtMail {
	t.Helper()
	var found caughtMail
	testenv.Eventually(t, 30*time.Second, func() bool {
		for _, m := range mailsTo(t, address) {
			if strings.Contains(m.Subject, subject) && strings.Contains(m.Text, link) {
				found = m
				return true
			}
		}
		return false
	}, "no mail %q to %s with link %s", subject, address, link)
	if !strings.Contains(found.HTML, `href="`+link+`"`) {
		t.Errorf("mail %q: the HTML lacks the link %s:\n%s", found.Subject, link, found.HTML)
	}
	return found
}

// notificationsTo counts the mails to address whose text carries link.
func notificationsTo(t *testing.T, address, link string) int {
	t.Helper()
	n := 0
	for _, m := range mailsTo(t, address) {
		if strings.Contains(m.Text, link) {
			n++
		}
	}
	return n
}

// TestEndpointHealthMails runs at FERRY_RETRY_SCALE 0.00002 (failing
// after 18 ms of failures, disabled after 8.6 s): one endpoint fails,
// then answers again (failing, then recovered mail); another always
// fails (disabled mail). The owner gets each mail with the endpoint's
// URL, the reason and a link to its page in the portal; an admin who
// turned endpoint health mail off gets none.
func TestEndpointHealthMails(t *testing.T) {
	t.Parallel()
	mailAPI(t)
	cfg := testConfig(t)
	cfg.RetryScale = 0.00002
	f := startFerry(t, cfg)
	const owner, admin = "health-owner@notify.example", "health-admin@notify.example"
	session, api := signUp(t, f, owner)
	adminSession := addMember(t, f, tenantID(t, session), admin, "admin")
	adminSession.must(200, "PUT", "/me/notifications", map[string]bool{"endpoint_health": false, "quota": true, "invoices": true}, nil)

	var healthy atomic.Bool
	flaky := newHookServer(t, func(n int, h hit, w http.ResponseWriter) {
		if !healthy.Load() {
			w.WriteHeader(503)
		}
	})
	broken := newHookServer(t, func(n int, h hit, w http.ResponseWriter) { w.WriteHeader(500) })
	flakyEp := createEndpoint(t, api, map[string]any{"url": flaky.URL + "/flaky", "event_types": []string{"order.created"}})
	brokenEp := createEndpoint(t, api, map[string]any{"url": broken.URL + "/broken", "event_types": []string{"order.created"}})
	flakyLink := f.URL + "/endpoints/" + flakyEp.ID
	brokenLink := f.URL + "/endpoints/" + brokenEp.ID

	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go func() { // keep traffic flowing to both endpoints
		for n := 0; ctx.Err() == nil && n < 200; n++ {
			if status, _, _ := sendEventStatus(t, api, "order.created"); status != 202 {
				t.Errorf("send event: %d", status)
				return
			}
			time.Sleep(250 * time.Millisecond)
		}
	}()

	failing := waitNotification(t, owner, "Endpoint failing: "+flaky.URL+"/flaky", flakyLink)
	if !strings.Contains(failing.Text, "has failed since") || !strings.Contains(failing.Subject, "Org of "+owner) {
		t.Errorf("failing mail lacks since when or the organisation: %q\n%s", failing.Subject, failing.Text)
	}
	healthy.Store(true)
	recovered := waitNotification(t, owner, "Endpoint recovered: "+flaky.URL+"/flaky", flakyLink)
	if !strings.Contains(recovered.Text, "accepts deliveries again") {
		t.Errorf("recovered mail:\n%s", recovered.Text)
	}
	disabled := waitNotification(t, owner, "Endpoint disabled: "+broken.URL+"/broken", brokenLink)
	if !strings.Contains(disabled.Text, "Reason: disabled automatically") || !strings.Contains(disabled.Text, "no longer delivers") || !strings.Contains(disabled.HTML, broken.URL+"/broken") {
		t.Errorf("disabled mail:\n%s\n%s", disabled.Text, disabled.HTML)
	}
	stop()
	if n := notificationsTo(t, owner, flakyLink); n != 2 {
		t.Errorf("owner got %d mails about the flaky endpoint, want 2 (failing, recovered)", n)
	}
	if n := notificationsTo(t, admin, flakyLink) + notificationsTo(t, admin, brokenLink); n != 0 {
		t.Errorf("admin who opted out of endpoint health mail got %d", n)
	}
}

// TestQuotaAndInvoiceMails: a free tenant on 10 events a month gets the
// 80 % and 100 % quota mails (not its admin, who opted out of them); a
// pro tenant's owner gets the invoice the monthly run issues, its admin
// does not (invoices go to owners).
func TestQuotaAndInvoiceMails(t *testing.T) {
	t.Parallel()
	mailAPI(t)
	f := startFerry(t, testConfig(t))
	const owner, admin = "quota-owner@notify.example", "quota-admin@notify.example"
	session, api := signUpLimited(t, f, owner)
	tid := tenantID(t, session)
	setOverride(t, f, tid, "free", 10, 100)
	adminSession := addMember(t, f, tid, admin, "admin")
	var prefs map[string]bool
	adminSession.must(200, "GET", "/me/notifications", nil, &prefs)
	if !prefs["endpoint_health"] || !prefs["quota"] || !prefs["invoices"] || len(prefs) != 3 {
		t.Errorf("default preferences: %v, want all true", prefs)
	}
	if status := adminSession.do("PUT", "/me/notifications", map[string]bool{"quota": false}, nil); status != 422 {
		t.Errorf("partial preferences: %d, want 422", status)
	}
	adminSession.must(200, "PUT", "/me/notifications", map[string]bool{"endpoint_health": true, "quota": false, "invoices": true}, &prefs)
	adminSession.must(200, "GET", "/me/notifications", nil, &prefs)
	if prefs["quota"] || !prefs["endpoint_health"] {
		t.Errorf("stored preferences: %v", prefs)
	}

	billingLink := f.URL + "/billing"
	for i := range 8 {
		sendEvent(t, api, "order.created", map[string]any{"n": i})
	}
	m := waitNotification(t, owner, "has used 80 % of its monthly events", billingLink)
	if !strings.Contains(m.Text, "of the 10 events") || !strings.Contains(m.Subject, "Org of "+owner) {
		t.Errorf("80 %% mail: %q\n%s", m.Subject, m.Text)
	}
	sendEvent(t, api, "order.created", map[string]any{"n": 8})
	sendEvent(t, api, "order.created", map[string]any{"n": 9})
	m = waitNotification(t, owner, "has used 100 % of its monthly events", billingLink)
	if !strings.Contains(m.Text, "10 of the 10 events") || !strings.Contains(m.Text, "refuses further events") {
		t.Errorf("100 %% mail:\n%s", m.Text)
	}

	// The invoice: a pro tenant since before last month, with usage.
	const payer, payerAdmin = "invoice-owner@notify.example", "invoice-admin@notify.example"
	paying, _ := signUp(t, f, payer)
	pid := tenantID(t, paying)
	addMember(t, f, pid, payerAdmin, "admin")
	paying.must(200, "PUT", "/billing/plan", map[string]string{"plan": "pro"}, nil)
	today := time.Now().UTC()
	lastMonth := time.Date(today.Year(), today.Month()-1, 1, 0, 0, 0, 0, time.UTC)
	db := testenv.DB(t, f.Cfg.DatabaseURL)
	for _, q := range []string{
		`UPDATE tenants SET created_at = $2 WHERE id = $1`,
		`UPDATE plan_changes SET changed_at = $2 WHERE tenant_id = $1`,
	} {
		if _, err := db.Exec(q, pid, lastMonth.AddDate(0, 0, -1)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.App.Billing.RunInvoices(context.Background(), lastMonth); err != nil {
		t.Fatal(err)
	}
	period := lastMonth.Format("2006-01")
	m = waitNotification(t, payer, "Your Ferry invoice for "+period, billingLink)
	if !strings.Contains(m.Text, "49.00") || !strings.Contains(m.Text, "Org of "+payer) {
		t.Errorf("invoice mail:\n%s", m.Text)
	}
	time.Sleep(time.Second) // let any stray mail arrive before counting
	if n := notificationsTo(t, admin, billingLink); n != 0 {
		t.Errorf("admin who opted out of quota mail got %d", n)
	}
	if n := notificationsTo(t, payerAdmin, billingLink); n != 0 {
		t.Errorf("admin got %d invoice mails; invoices go to owners", n)
	}
}

// TestStaffLookupByEventID: staff find an event by its id alone and see
// its tenant and the event with its deliveries and attempts; an unknown
// or malformed id is a 404, and tenants cannot reach the route.
func TestStaffLookupByEventID(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	rc := newHookServer(t, nil)
	session, api := signUp(t, f, "lookup@notify.example")
	tid := tenantID(t, session)
	createEndpoint(t, api, map[string]any{"url": rc.URL + "/hook?token=s3cret"})
	ev := sendEvent(t, api, "order.created", map[string]any{"n": 1})
	testenv.Eventually(t, 20*time.Second, func() bool { return rc.count() >= 1 }, "event not delivered")
	staff := staffClient(t, f, "lookup-staff@ferry.example")

	var got struct {
		Tenant struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"tenant"`
		Event struct {
			ID         string `json:"id"`
			Deliveries []struct {
				Status string `json:"status"`
			} `json:"deliveries"`
			Attempts []struct {
				URL string `json:"url"`
			} `json:"attempts"`
		} `json:"event"`
	}
	testenv.Eventually(t, 10*time.Second, func() bool {
		staff.must(200, "GET", "/staff/events/"+ev.ID, nil, &got)
		return len(got.Event.Attempts) > 0
	}, "no attempt in the staff lookup")
	if got.Tenant.ID != tid || got.Tenant.Name != "Org of lookup@notify.example" || got.Event.ID != ev.ID || len(got.Event.Deliveries) != 1 {
		t.Errorf("lookup: %+v", got)
	}
	for _, a := range got.Event.Attempts {
		if strings.Contains(a.URL, "s3cret") {
			t.Errorf("staff see an unredacted receiver URL: %s", a.URL)
		}
	}
	for _, id := range []string{uuid.NewString(), "not-a-uuid"} {
		if status := staff.do("GET", "/staff/events/"+id, nil, nil); status != 404 {
			t.Errorf("lookup of %s: %d, want 404", id, status)
		}
	}
	if status := session.do("GET", "/staff/events/"+ev.ID, nil, nil); status != 404 {
		t.Errorf("tenant on the staff lookup: %d, want 404", status)
	}
	var audit struct {
		Data []struct {
			Action string `json:"action"`
		} `json:"data"`
	}
	staff.must(200, "GET", "/staff/audit", nil, &audit)
	if len(audit.Data) == 0 {
		t.Error("the lookup left no audit entry")
	}
}
