package tests

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/ferry-dev/ferry/tenants"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// The account tests attack the way a hostile user would: they copy
// cookies, guess passwords in parallel, reuse emailed links, and read the
// mail the way its recipient would, from the mail catcher.

// copyCookies returns a fresh client holding the same cookies as c (a
// stolen session).
func copyCookies(t *testing.T, f *ferry, c *client) *client {
	t.Helper()
	u, _ := url.Parse(f.URL + "/api/v1")
	thief := newClient(t, f.URL+"/api/v1")
	thief.http.Jar.SetCookies(u, c.http.Jar.Cookies(u))
	return thief
}

func TestLogoutEndsCopiedSessionOnEveryReplica(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	a := startFerry(t, cfg)
	b := startFerry(t, cfg) // a second replica on the same database
	owner, _ := signUp(t, a, "ann@logout.example")
	thief := copyCookies(t, a, owner)
	thief.must(200, "GET", "/me", nil, nil)
	// The same cookie works on the other replica, so its cache holds it.
	thiefB := copyCookies(t, a, owner)
	thiefB.base = b.URL + "/api/v1"
	u, _ := url.Parse(b.URL)
	a0, _ := url.Parse(a.URL)
	thiefB.http.Jar.SetCookies(u, owner.http.Jar.Cookies(a0))
	thiefB.must(200, "GET", "/me", nil, nil)

	owner.must(204, "POST", "/auth/logout", nil, nil)
	if r := thief.raw("GET", "/me", nil, nil); r.Status != 401 {
		t.Errorf("copied cookie after logout, same replica: %d %s", r.Status, r.Body)
	}
	if r := thief.raw("POST", "/api-keys", []byte(`{"name":"x"}`), nil); r.Status != 401 {
		t.Errorf("copied cookie write after logout: %d", r.Status)
	}
	// Another replica trusts its session cache for at most its TTL (≤ 5 s).
	start := time.Now()
	testenv.Eventually(t, 6*time.Second, func() bool {
		return thiefB.raw("GET", "/me", nil, nil).Status == 401
	}, "copied cookie still works on the other replica")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("revocation took %s to reach the other replica", d)
	}
}

func TestParallelGuessingIsBoundedAndResetStillWorks(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	signUp(t, f, "ann@guess.example")
	base := f.URL + "/api/v1"

	var mu sync.Mutex
	statuses := map[int]int{}
	var retryAfter []string
	var wg sync.WaitGroup
	for range 40 {
		wg.Go(func() {
			c := newClient(t, base)
			r := c.raw("POST", "/auth/login", []byte(`{"email":"ann@guess.example","password":"wrong guess 123"}`), nil)
			mu.Lock()
			defer mu.Unlock()
			statuses[r.Status]++
			if r.Status == 429 {
				retryAfter = append(retryAfter, r.Header.Get("Retry-After"))
			}
		})
	}
	wg.Wait()
	if statuses[401] > 10 || statuses[401]+statuses[429] != 40 {
		t.Fatalf("40 parallel wrong logins: %v; want at most 10 evaluated (401) and the rest 429", statuses)
	}
	for _, ra := range retryAfter {
		if ra == "" || ra == "0" {
			t.Fatalf("429 without Retry-After: %q", retryAfter)
		}
	}
	// Locked: the right and a wrong password get the same answer.
	c := newClient(t, base)
	right := c.raw("POST", "/auth/login", []byte(`{"email":"ann@guess.example","password":"correct horse battery"}`), nil)
	wrong := c.raw("POST", "/auth/login", []byte(`{"email":"ann@guess.example","password":"another guess!"}`), nil)
	if right.Status != 429 || wrong.Status != 429 || string(right.Body) != string(wrong.Body) {
		t.Fatalf("locked account: right password %d %s, wrong %d %s", right.Status, right.Body, wrong.Status, wrong.Body)
	}

	// The locked-out owner resets by email. Unknown addresses get the same 202.
	var known, unknown struct {
		Message string `json:"message"`
	}
	c.must(202, "POST", "/auth/password-reset", map[string]string{"email": "ANN@guess.example"}, &known)
	c.must(202, "POST", "/auth/password-reset", map[string]string{"email": "nobody@guess.example"}, &unknown)
	if known != unknown {
		t.Errorf("reset answers differ: %q vs %q", known.Message, unknown.Message)
	}
	links, mails := mailedLinks(t, "ann@guess.example", f.URL+"/reset-password#token=")
	m := mails[0]
	if !strings.Contains(m.Subject, "Reset your Ferry password") || m.From.Address != "no-reply@ferry.test" ||
		!strings.Contains(m.HTML, links[0]) || !strings.Contains(m.Text, "expires in 1 hour") {
		t.Errorf("reset mail: subject %q from %q\n%s\n%s", m.Subject, m.From.Address, m.Text, m.HTML)
	}
	tok := tokenOf(links[0])
	if r := c.raw("POST", "/auth/password-reset/confirm", mustJSON(t, map[string]string{"token": tok, "new_password": "short"}), nil); r.Status != 422 {
		t.Errorf("reset to a short password: %d", r.Status)
	}
	c.must(204, "POST", "/auth/password-reset/confirm", map[string]string{"token": tok, "new_password": "a fresh password"}, nil)
	if r := c.raw("POST", "/auth/password-reset/confirm", mustJSON(t, map[string]string{"token": tok, "new_password": "a second password"}), nil); r.Status != 422 {
		t.Errorf("reset link used twice: %d %s", r.Status, r.Body)
	}
	login(t, f, "ann@guess.example", "a fresh password").must(200, "GET", "/me", nil, nil)
	if r := newClient(t, base).raw("POST", "/auth/login", []byte(`{"email":"ann@guess.example","password":"correct horse battery"}`), nil); r.Status != 401 {
		t.Errorf("old password after reset: %d", r.Status)
	}
	time.Sleep(300 * time.Millisecond)
	for _, m := range mailsTo(t, "nobody@guess.example") {
		if strings.Contains(m.Text, f.URL) {
			t.Errorf("a reset mail went to an address without an account: %s", m.Subject)
		}
	}
}

func TestInviteByEmailLink(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	owner, _ := signUp(t, f, "ann@invite.example")
	// Until the owner has proved their own address (an account from
	// before sign-up proved it), Ferry mails nobody on their behalf.
	unverify(t, f, owner)
	if r := owner.raw("POST", "/members", mustJSON(t, map[string]string{"email": "vic@invite.example", "role": "admin"}), nil); r.Status != 403 ||
		!strings.Contains(string(r.Body), "verify your email") {
		t.Fatalf("invite from an unverified owner: %d %s", r.Status, r.Body)
	}
	verifyOwnEmail(t, f, owner)
	r := owner.raw("POST", "/members", mustJSON(t, map[string]string{"email": "vic@invite.example", "role": "admin"}), nil)
	if r.Status != 201 || strings.Contains(string(r.Body), "password") {
		t.Fatalf("invite: %d %s (the inviter must never see a password)", r.Status, r.Body)
	}
	var members struct {
		Data []struct {
			Email   string `json:"email"`
			Invited bool   `json:"invited"`
		} `json:"data"`
	}
	owner.must(200, "GET", "/members", nil, &members)
	if len(members.Data) != 2 || !members.Data[1].Invited {
		t.Errorf("members before acceptance: %+v", members.Data)
	}
	// No password works before the invite is accepted: not an empty one,
	// nor the password of the hash a login compares against when an
	// account has none (before, a string in the source: a takeover of
	// every pending invitee).
	for _, pw := range []string{"", "ferry-timing-equaliser", "correct horse battery"} {
		if r := newClient(t, f.URL+"/api/v1").raw("POST", "/auth/login", mustJSON(t, map[string]string{"email": "vic@invite.example", "password": pw}), nil); r.Status != 401 {
			t.Errorf("invited member signs in with password %q: %d %s", pw, r.Status, r.Body)
		}
	}
	// Nor does a password reset give a pending invite its first password.
	newClient(t, f.URL+"/api/v1").must(202, "POST", "/auth/password-reset", map[string]string{"email": "vic@invite.example"}, nil)
	// The owner resends the invite: only the newest link works.
	first, _ := mailedLinks(t, "vic@invite.example", f.URL+"/accept-invite#token=")
	var invitedID struct {
		ID string `json:"id"`
	}
	jsonUnmarshal(r.Body, &invitedID)
	owner.must(202, "POST", "/members/"+invitedID.ID+"/invite", nil, nil)
	var links []string
	var mails []caughtMail
	testenv.Eventually(t, 15*time.Second, func() bool {
		links, mails = mailedLinks(t, "vic@invite.example", f.URL+"/accept-invite#token=")
		return links[0] != first[0]
	}, "no second invite mail")
	for _, m := range mailsTo(t, "vic@invite.example") {
		if strings.Contains(m.Text, "/reset-password#token=") {
			t.Errorf("a pending invite was mailed a password reset link: %q", m.Subject)
		}
	}
	if r := newClient(t, f.URL+"/api/v1").raw("POST", "/auth/invites/accept", mustJSON(t, map[string]string{"token": tokenOf(first[0]), "password": "from the old link"}), nil); r.Status != 422 {
		t.Errorf("superseded invite link: %d", r.Status)
	}
	m := mails[0]
	if !strings.Contains(m.Subject, "Org of ann@invite.example") || !strings.Contains(m.Text, "ann@invite.example invited you") ||
		!strings.Contains(m.HTML, links[0]) {
		t.Errorf("invite mail: %q\n%s", m.Subject, m.Text)
	}
	c := newClient(t, f.URL+"/api/v1")
	if r := c.raw("POST", "/auth/invites/accept", mustJSON(t, map[string]string{"token": tokenOf(links[0]) + "x", "password": "vic chose this"}), nil); r.Status != 422 {
		t.Errorf("forged invite token: %d", r.Status)
	}
	var me struct {
		Email string `json:"email"`
		Role  string `json:"role"`
	}
	c.must(200, "POST", "/auth/invites/accept", map[string]string{"token": tokenOf(links[0]), "password": "vic chose this"}, &me)
	if me.Email != "vic@invite.example" || me.Role != "admin" {
		t.Errorf("accepted as %+v", me)
	}
	c.must(200, "GET", "/endpoints", nil, nil)
	if r := newClient(t, f.URL+"/api/v1").raw("POST", "/auth/invites/accept", mustJSON(t, map[string]string{"token": tokenOf(links[0]), "password": "attacker's pick"}), nil); r.Status != 422 {
		t.Errorf("invite link used twice: %d", r.Status)
	}
	login(t, f, "vic@invite.example", "vic chose this")
	if r := owner.raw("POST", "/members/"+invitedID.ID+"/invite", nil, nil); r.Status != 409 {
		t.Errorf("resending an accepted invite: %d", r.Status)
	}
	owner.must(200, "GET", "/members", nil, &members)
	if members.Data[1].Invited {
		t.Errorf("member still listed as invited after accepting")
	}
}

func TestPasswordChangeEndsOtherSessions(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	here, _ := signUp(t, f, "ann@change.example")
	there := login(t, f, "ann@change.example", "correct horse battery")
	if r := here.raw("POST", "/me/password", mustJSON(t, map[string]string{"current_password": "not it at all", "new_password": "a brand new one"}), nil); r.Status != 401 || r.apiError(t).Error.Field != "current_password" {
		t.Errorf("wrong current password: %d %s", r.Status, r.Body)
	}
	here.must(204, "POST", "/me/password", map[string]string{"current_password": "correct horse battery", "new_password": "a brand new one"}, nil)
	here.must(200, "GET", "/me", nil, nil)
	if r := there.raw("GET", "/me", nil, nil); r.Status != 401 {
		t.Errorf("other session after a password change: %d", r.Status)
	}
	if r := newClient(t, f.URL+"/api/v1").raw("POST", "/auth/login", []byte(`{"email":"ann@change.example","password":"correct horse battery"}`), nil); r.Status != 401 {
		t.Errorf("old password: %d", r.Status)
	}
	login(t, f, "ann@change.example", "a brand new one")
}

func TestSignupIsLimitedPerAddress(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.SignupAddrLimit = 2
	f := startFerry(t, cfg)
	c := newClient(t, f.URL+"/api/v1")
	for i, email := range []string{"a@signup.example", "b@signup.example", "c@signup.example"} {
		r := c.raw("POST", "/auth/signup", mustJSON(t, map[string]string{"email": email, "password": "correct horse battery", "organization": "O"}), nil)
		want := 202
		if i == 2 {
			want = 429
		}
		if r.Status != want || (want == 429 && r.Header.Get("Retry-After") == "") {
			t.Errorf("signup %d: %d %s", i+1, r.Status, r.Body)
		}
	}
}

// staffLogin posts a staff login and returns the client and response.
func staffLogin(t *testing.T, f *ferry, email, password, code string) (*client, response) {
	t.Helper()
	c := newClient(t, f.URL+"/api/v1")
	body := map[string]string{"email": email, "password": password}
	if code != "" {
		body["totp_code"] = code
	}
	return c, c.raw("POST", "/auth/login", mustJSON(t, body), nil)
}

func TestStaffNeedTOTPInProduction(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.StaffTOTPRequired = true // what production always sets
	f := startFerry(t, cfg)
	owner, _ := signUp(t, f, "ann@totp.example")
	// Only staff have an authenticator to speak of.
	if r := owner.raw("GET", "/me", nil, nil); r.Status != 200 || strings.Contains(string(r.Body), "totp_enabled") {
		t.Errorf("a member's /me: %d %s", r.Status, r.Body)
	}
	ctx := context.Background()
	// Created with a generated password, as `ferry staff create` does.
	if _, err := f.App.Tenants.CreateStaff(ctx, tenants.StaffInput{Email: "sam@ferry.example", Password: "generated pw 123", MustChangePassword: true}); err != nil {
		t.Fatal(err)
	}
	c, r := staffLogin(t, f, "sam@ferry.example", "generated pw 123", "")
	var me struct {
		Restriction string `json:"restriction"`
		TOTPEnabled *bool  `json:"totp_enabled"`
	}
	if r.Status != 200 || jsonUnmarshal(r.Body, &me) != nil || me.Restriction != "password_change" {
		t.Fatalf("first login: %d %s; want a session that must change its password", r.Status, r.Body)
	}
	if r := c.raw("GET", "/staff/tenants", nil, nil); r.Status != 403 {
		t.Errorf("staff console before the password change: %d", r.Status)
	}
	c.must(204, "POST", "/me/password", map[string]string{"current_password": "generated pw 123", "new_password": "sam's own password"}, nil)
	c.must(200, "GET", "/me", nil, &me)
	if me.Restriction != "totp_enrolment" {
		t.Fatalf("after the password change: restriction %q, want totp_enrolment", me.Restriction)
	}
	if me.TOTPEnabled == nil || *me.TOTPEnabled {
		t.Errorf("before enrolment: totp_enabled %v, want false", me.TOTPEnabled)
	}
	// Without a second factor the console stays closed.
	if r := c.raw("GET", "/staff/tenants", nil, nil); r.Status != 403 {
		t.Errorf("staff console without TOTP: %d %s", r.Status, r.Body)
	}
	var enr struct {
		Secret string `json:"secret"`
		URL    string `json:"otpauth_url"`
	}
	c.must(201, "POST", "/me/totp", nil, &enr)
	if !strings.HasPrefix(enr.URL, "otpauth://totp/Ferry:") {
		t.Errorf("otpauth url %q", enr.URL)
	}
	if r := c.raw("POST", "/me/totp/confirm", []byte(`{"code":"123456"}`), nil); r.Status != 422 {
		t.Errorf("wrong enrolment code: %d", r.Status)
	}
	code, _ := totp.GenerateCode(enr.Secret, time.Now())
	c.must(204, "POST", "/me/totp/confirm", map[string]string{"code": code}, nil)
	c.must(200, "GET", "/staff/tenants", nil, nil)
	me.TOTPEnabled = nil
	c.must(200, "GET", "/me", nil, &me)
	if me.TOTPEnabled == nil || !*me.TOTPEnabled {
		t.Errorf("after enrolment: totp_enabled %v, want true", me.TOTPEnabled)
	}

	// From now on the password alone is refused.
	if _, r := staffLogin(t, f, "sam@ferry.example", "sam's own password", ""); r.Status != 401 || r.apiError(t).Error.Field != "totp_code" {
		t.Errorf("staff login without a code: %d %s", r.Status, r.Body)
	}
	if _, r := staffLogin(t, f, "sam@ferry.example", "sam's own password", "000000"); r.Status != 401 {
		t.Errorf("staff login with a wrong code: %d", r.Status)
	}
	if _, r := staffLogin(t, f, "sam@ferry.example", "sam's own password", code); r.Status != 401 {
		t.Errorf("a code used twice: %d", r.Status)
	}
	next, _ := totp.GenerateCode(enr.Secret, time.Now().Add(30*time.Second))
	s2, r := staffLogin(t, f, "sam@ferry.example", "sam's own password", next)
	if r.Status != 200 {
		t.Fatalf("staff login with a fresh code: %d %s", r.Status, r.Body)
	}
	s2.must(200, "GET", "/staff/tenants", nil, nil)
}

func TestStaffDisableEndsLiveSession(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	staff := staffClient(t, f, "pat@ferry.example")
	staff.must(200, "GET", "/staff/tenants", nil, nil)
	// What `ferry staff disable --email` runs.
	if _, err := f.App.Tenants.DisableStaff(context.Background(), "pat@ferry.example"); err != nil {
		t.Fatal(err)
	}
	if r := staff.raw("GET", "/staff/tenants", nil, nil); r.Status != 401 {
		t.Errorf("disabled staff session: %d", r.Status)
	}
	if _, r := staffLogin(t, f, "pat@ferry.example", "staff password 123", ""); r.Status != 401 {
		t.Errorf("disabled staff login: %d", r.Status)
	}
}

// Over HTTPS the cookies carry the __Host- prefix, and the double-submit
// CSRF check reads the prefixed names.
func TestHostPrefixedCookiesOverHTTPS(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.Dev = false // production: Secure, __Host- cookies
	f := startFerry(t, cfg)
	// Production without FERRY_METRICS_ADDR: no metrics on the public listener.
	if res, err := http.Get(f.URL + "/metrics"); err != nil || res.StatusCode != 404 {
		t.Errorf("production /metrics on the public listener: %v %v", res, err)
	} else {
		res.Body.Close()
	}
	res := confirmedSignup(t, f, "ann@host.example", "Host")
	got := map[string]*http.Cookie{}
	for _, c := range res.Cookies() {
		got[c.Name] = c
	}
	sess, csrf := got["__Host-ferry_session"], got["__Host-ferry_csrf"]
	if sess == nil || csrf == nil {
		t.Fatalf("cookies %v: want __Host-ferry_session and __Host-ferry_csrf", res.Cookies())
	}
	for _, c := range []*http.Cookie{sess, csrf} {
		if !c.Secure || c.Path != "/" || c.Domain != "" {
			t.Errorf("%s: Secure=%v Path=%q Domain=%q; __Host- needs Secure, Path=/ and no Domain", c.Name, c.Secure, c.Path, c.Domain)
		}
	}
	send := func(cookies, token string) int {
		req, _ := http.NewRequest("POST", f.URL+"/api/v1/api-keys", strings.NewReader(`{"name":"k"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Cookie", cookies)
		if token != "" {
			req.Header.Set("X-CSRF-Token", token)
		}
		r, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r.StatusCode
	}
	both := "__Host-ferry_session=" + sess.Value + "; __Host-ferry_csrf=" + csrf.Value
	if s := send(both, csrf.Value); s != 201 {
		t.Errorf("write with __Host- cookies and token: %d", s)
	}
	if s := send(both, ""); s != 403 {
		t.Errorf("write without the CSRF token: %d", s)
	}
	if s := send("ferry_session="+sess.Value+"; ferry_csrf="+csrf.Value, csrf.Value); s != 401 {
		t.Errorf("unprefixed cookies (settable by a subdomain) accepted: %d", s)
	}
}

// TestAddressVerification: a sign-up's address is verified by its
// link; an older account verifies its address from a link it asks for.
func TestAddressVerification(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	owner, _ := signUp(t, f, "ann@verify.example")
	var me struct {
		EmailVerified bool `json:"email_verified"`
	}
	owner.must(200, "GET", "/me", nil, &me)
	if !me.EmailVerified {
		t.Errorf("a finished sign-up's address is not verified")
	}
	unverify(t, f, owner)
	owner.must(200, "GET", "/me", nil, &me)
	if me.EmailVerified {
		t.Fatalf("unverified address shown as verified")
	}
	owner.must(202, "POST", "/me/verify-email", nil, nil)
	links, mails := mailedLinks(t, "ann@verify.example", f.URL+"/verify-email#token=")
	if m := mails[0]; !strings.Contains(m.Subject, "Confirm your email address") || !strings.Contains(m.HTML, links[0]) {
		t.Errorf("verification mail: %q\n%s", m.Subject, m.HTML)
	}
	c := newClient(t, f.URL+"/api/v1")
	c.must(204, "POST", "/auth/verify-email", map[string]string{"token": tokenOf(links[0])}, nil)
	if r := c.raw("POST", "/auth/verify-email", mustJSON(t, map[string]string{"token": tokenOf(links[0])}), nil); r.Status != 422 {
		t.Errorf("verification link used twice: %d", r.Status)
	}
	owner.must(200, "GET", "/me", nil, &me)
	if !me.EmailVerified {
		t.Errorf("address not verified after following the link")
	}
}

// TestInvitesAreRateLimited: a tenant sends at most so many invite
// mails an hour, new and resent alike.
func TestInvitesAreRateLimited(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.InvitesPerHour = 3
	f := startFerry(t, cfg)
	owner, _ := signUp(t, f, "ann@invite-limit.example")
	var first struct {
		ID string `json:"id"`
	}
	owner.must(201, "POST", "/members", map[string]string{"email": "m0@invite-limit.example", "role": "viewer"}, &first)
	owner.must(201, "POST", "/members", map[string]string{"email": "m1@invite-limit.example", "role": "viewer"}, nil)
	owner.must(202, "POST", "/members/"+first.ID+"/invite", nil, nil)
	for _, r := range []response{
		owner.raw("POST", "/members", mustJSON(t, map[string]string{"email": "m3@invite-limit.example", "role": "viewer"}), nil),
		owner.raw("POST", "/members/"+first.ID+"/invite", nil, nil),
	} {
		if r.Status != 429 {
			t.Errorf("an invite past the hour's budget: %d %s", r.Status, r.Body)
		}
	}
}

// confirmedSignup signs email up through the form and the mailed link,
// with plain HTTP, and returns the link's answer (which signs in) with its
// body closed.
func confirmedSignup(t *testing.T, f *ferry, email, org string) *http.Response {
	t.Helper()
	res, err := http.Post(f.URL+"/api/v1/auth/signup", "application/json",
		strings.NewReader(`{"email":"`+email+`","password":"correct horse battery","organization":"`+org+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 202 {
		t.Fatalf("signup: %d", res.StatusCode)
	}
	links, _ := mailedLinks(t, email, f.URL+"/finish-signup#token=")
	res, err = http.Post(f.URL+"/api/v1/auth/signup/confirm", "application/json",
		strings.NewReader(`{"token":"`+tokenOf(links[0])+`","password":"correct horse battery"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res
}

// TestSignupRevealsNoAccounts: the sign-up form answers the same for an
// address that has an account as for a new one; the account holder gets
// a mail saying so, and nothing is created.
func TestSignupRevealsNoAccounts(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	// The catcher keeps mail across runs: this run's account holder is new.
	ann := testenv.Name("ann") + "@enum.example"
	signUp(t, f, ann)
	anon := newClient(t, f.URL+"/api/v1")
	taken := anon.raw("POST", "/auth/signup", mustJSON(t, map[string]string{"email": ann, "password": "an attacker's pick", "organization": "X"}), nil)
	fresh := anon.raw("POST", "/auth/signup", mustJSON(t, map[string]string{"email": "nobody@enum.example", "password": "an attacker's pick", "organization": "X"}), nil)
	norm := func(b []byte) string { return strings.ReplaceAll(string(b), "nobody@", strings.Split(ann, "@")[0]+"@") }
	if taken.Status != 202 || taken.Status != fresh.Status || norm(taken.Body) != norm(fresh.Body) {
		t.Errorf("sign-up answers differ: taken %d %s, fresh %d %s", taken.Status, taken.Body, fresh.Status, fresh.Body)
	}
	var notice *caughtMail
	testenv.Eventually(t, 15*time.Second, func() bool {
		for _, m := range mailsTo(t, ann) {
			if strings.Contains(m.Subject, "already have a Ferry account") {
				notice = &m
				return true
			}
		}
		return false
	}, "no existing-account notice to the account holder")
	if !strings.Contains(notice.Text, f.URL+"/login") || !strings.Contains(notice.Text, f.URL+"/forgot-password") {
		t.Errorf("the account holder's notice:\n%s", notice.Text)
	}
	if r := anon.raw("POST", "/auth/login", mustJSON(t, map[string]string{"email": ann, "password": "an attacker's pick"}), nil); r.Status != 401 {
		t.Errorf("the second sign-up's password: %d", r.Status)
	}
}

// TestInviteRevealsNoAccounts: inviting an address whose account belongs
// to another organisation is answered, listed and handled exactly as any
// pending invite; the address's holder is mailed what happened and their
// account is untouched.
func TestInviteRevealsNoAccounts(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	// The catcher keeps mail across runs: this run's holder is new.
	bob := testenv.Name("bob") + "@elsewhere-enum.example"
	owner, _ := signUp(t, f, "ann@invite-enum.example")
	signUp(t, f, bob)

	type member struct {
		ID      string `json:"id"`
		Email   string `json:"email"`
		Role    string `json:"role"`
		Invited bool   `json:"invited"`
	}
	invite := func(email string) (response, member) {
		r := owner.raw("POST", "/members", mustJSON(t, map[string]string{"email": email, "role": "viewer"}), nil)
		var m member
		jsonUnmarshal(r.Body, &m)
		return r, m
	}
	taken, invited := invite(bob)
	fresh, cy := invite("cy@invite-enum.example")
	if taken.Status != 201 || fresh.Status != 201 || !invited.Invited || !cy.Invited || invited.Role != cy.Role {
		t.Fatalf("invites answer differently: %d %s / %d %s", taken.Status, taken.Body, fresh.Status, fresh.Body)
	}
	var list struct {
		Data []member `json:"data"`
	}
	owner.must(200, "GET", "/members", nil, &list)
	if len(list.Data) != 3 || !list.Data[1].Invited || !list.Data[2].Invited {
		t.Fatalf("members: %+v", list.Data)
	}
	owner.must(202, "POST", "/members/"+invited.ID+"/invite", nil, nil)
	var changed member
	owner.must(200, "PATCH", "/members/"+invited.ID, map[string]string{"role": "admin"}, &changed)
	if changed.Role != "admin" || !changed.Invited {
		t.Errorf("role change of the invite: %+v", changed)
	}
	if r, _ := invite(bob); r.Status != 409 {
		t.Errorf("inviting the same address twice: %d %s", r.Status, r.Body)
	}
	testenv.Eventually(t, 15*time.Second, func() bool {
		n := 0
		for _, m := range mailsTo(t, bob) {
			if strings.Contains(m.Subject, "invited you to") && strings.Contains(m.Text, "cannot join") {
				n++
			}
		}
		return n == 2 // the invite and its resend
	}, "the account holder was not told of the invite and its resend")
	owner.must(204, "DELETE", "/members/"+invited.ID, nil, nil)
	owner.must(200, "GET", "/members", nil, &list)
	if len(list.Data) != 2 {
		t.Errorf("after removing the invite: %+v", list.Data)
	}
	login(t, f, bob, "correct horse battery")
}

// TestSignupLinkNeedsItsPassword: an attacker starts a sign-up for
// someone else's address with a password of their own. The link goes to
// the address's owner; following it without that password creates
// nothing, so the attacker never holds an account in the owner's name.
func TestSignupLinkNeedsItsPassword(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	victim := testenv.Name("vic") + "@prehijack.example"
	attacker := newClient(t, f.URL+"/api/v1")
	attacker.must(202, "POST", "/auth/signup", map[string]string{"email": victim, "password": "attacker's password", "organization": "Evil"}, nil)
	links, _ := mailedLinks(t, victim, f.URL+"/finish-signup#token=")
	owner := newClient(t, f.URL+"/api/v1")
	if r := owner.raw("POST", "/auth/signup/confirm", mustJSON(t, map[string]string{"token": tokenOf(links[0]), "password": "correct horse battery"}), nil); r.Status != 422 ||
		!strings.Contains(string(r.Body), "password") {
		t.Fatalf("following someone else's sign-up link: %d %s", r.Status, r.Body)
	}
	if r := attacker.raw("POST", "/auth/login", mustJSON(t, map[string]string{"email": victim, "password": "attacker's password"}), nil); r.Status != 401 {
		t.Errorf("the attacker signs in: %d", r.Status)
	}
	// The owner signs up themselves (a second link; the first is retired)
	// and is in.
	owner.must(202, "POST", "/auth/signup", map[string]string{"email": victim, "password": "correct horse battery", "organization": "Mine"}, nil)
	testenv.Eventually(t, 15*time.Second, func() bool {
		links, _ = mailedLinks(t, victim, f.URL+"/finish-signup#token=")
		return len(links) == 2
	}, "no second sign-up link")
	owner.must(201, "POST", "/auth/signup/confirm", map[string]string{"token": tokenOf(links[0]), "password": "correct horse battery"}, nil)
	owner.must(200, "GET", "/me", nil, nil)
	if r := attacker.raw("POST", "/auth/login", mustJSON(t, map[string]string{"email": victim, "password": "attacker's password"}), nil); r.Status != 401 {
		t.Errorf("the attacker signs in after the owner's sign-up: %d", r.Status)
	}
}
