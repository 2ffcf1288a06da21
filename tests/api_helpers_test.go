package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/ferry-dev/ferry/tests/testenv"

	"github.com/ferry-dev/ferry/app"
	"github.com/ferry-dev/ferry/tenants"
)

// apiError is the one error shape of the API.
type apiError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Field   string `json:"field"`
	} `json:"error"`
}

// response is what raw returns.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// apiError decodes the body as the error shape, failing the test if it
// is not one.
func (r response) apiError(t *testing.T) apiError {
	t.Helper()
	var e apiError
	if err := json.Unmarshal(r.Body, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
		t.Fatalf("status %d: body is not the error shape: %s", r.Status, r.Body)
	}
	return e
}

// raw sends body as is with the client's credentials (API key, or
// cookies plus CSRF token) and the given headers, which override.
func (c *client) raw(method, path string, body []byte, headers map[string]string) response {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(body))
	if err != nil {
		c.t.Fatalf("build request: %v", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	for _, ck := range c.http.Jar.Cookies(req.URL) {
		if ck.Name == "ferry_csrf" {
			req.Header.Set("X-CSRF-Token", ck.Value)
		}
	}
	for k, v := range headers {
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return response{Status: res.StatusCode, Header: res.Header, Body: b}
}

// login returns a session client for an existing account.
func login(t *testing.T, f *ferry, email, password string) *client {
	t.Helper()
	c := newClient(t, f.URL+"/api/v1")
	c.must(200, "POST", "/auth/login", map[string]string{"email": email, "password": password}, nil)
	return c
}

// staffClient creates a support staff account and logs it in.
func staffClient(t *testing.T, f *ferry, email string) *client {
	t.Helper()
	if _, err := f.App.Tenants.CreateStaff(context.Background(), tenants.StaffInput{Email: email, Password: "staff password 123"}); err != nil {
		t.Fatalf("create staff: %v", err)
	}
	return login(t, f, email, "staff password 123")
}

// member invites a member with role through the owner's session, accepts
// the invite from the emailed link (read from the mail catcher) and
// returns a session client for them and their user id.
func member(t *testing.T, f *ferry, owner *client, email, role string) (*client, string) {
	t.Helper()
	var m struct {
		ID string `json:"id"`
	}
	owner.must(201, "POST", "/members", map[string]string{"email": email, "role": role}, &m)
	return acceptInvite(t, f, email, "member password 123"), m.ID
}

// unverify makes the session's member an account from before sign-up
// proved addresses: its address is not verified.
func unverify(t *testing.T, f *ferry, c *client) {
	t.Helper()
	var me struct {
		UserID string `json:"user_id"`
	}
	c.must(200, "GET", "/me", nil, &me)
	if _, err := testenv.DB(t, f.Cfg.DatabaseURL).Exec(`UPDATE users SET email_verified_at = NULL WHERE id = $1`, me.UserID); err != nil {
		t.Fatal(err)
	}
}

// verifyOwnEmail asks for an address-verification link for the session's
// member and follows it, as they would.
func verifyOwnEmail(t *testing.T, f *ferry, c *client) {
	t.Helper()
	var me struct {
		Email string `json:"email"`
	}
	c.must(200, "GET", "/me", nil, &me)
	c.must(202, "POST", "/me/verify-email", nil, nil)
	links, _ := mailedLinks(t, me.Email, f.URL+"/verify-email#token=")
	c.must(204, "POST", "/auth/verify-email", map[string]string{"token": tokenOf(links[0])}, nil)
}

// apiRoutes lists the app's /api/v1 routes as "METHOD /path" with Fiber
// parameters (":id").
func apiRoutes(a *app.App) []string {
	var out []string
	for _, r := range a.Routes() {
		if r.Method == http.MethodHead || len(r.Path) < len("/api/v1/") || r.Path[:len("/api/v1/")] != "/api/v1/" {
			continue
		}
		out = append(out, r.Method+" "+r.Path[len("/api/v1"):])
	}
	return out
}

type idOnly struct {
	ID string `json:"id"`
}

// mustJSON encodes v (nil stays nil).
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }
