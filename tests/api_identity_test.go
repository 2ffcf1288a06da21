package tests

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestIdentityOverHTTP covers the session cookie's flags, CSRF
// double-submit, forged and revoked credentials, removed members, and
// login throttling, through the real server.
func TestIdentityOverHTTP(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	base := f.URL + "/api/v1"

	// Sign-up sets an httpOnly SameSite session cookie and a readable CSRF cookie.
	res := confirmedSignup(t, f, "ann@id.example", "Id")
	cookies := map[string]*http.Cookie{}
	for _, c := range res.Cookies() {
		cookies[c.Name] = c
	}
	sess, csrf := cookies["ferry_session"], cookies["ferry_csrf"]
	if res.StatusCode != 201 || sess == nil || csrf == nil {
		t.Fatalf("signup: %d, cookies %v", res.StatusCode, res.Cookies())
	}
	if !sess.HttpOnly || sess.SameSite == http.SameSiteNoneMode || sess.SameSite == 0 {
		t.Errorf("session cookie %+v: want httpOnly and SameSite", sess)
	}
	if csrf.HttpOnly || csrf.Value == "" {
		t.Errorf("csrf cookie %+v: want readable", csrf)
	}
	if parts := strings.Split(sess.Value, "."); len(parts) != 3 {
		t.Errorf("session is not a JWT: %q", sess.Value)
	}

	owner := newClient(t, base)
	owner.must(200, "POST", "/auth/login", map[string]string{"email": "ann@id.example", "password": "correct horse battery"}, nil)

	t.Run("csrf", func(t *testing.T) {
		body := []byte(`{"name":"k"}`)
		if r := owner.raw("POST", "/api-keys", body, map[string]string{"X-CSRF-Token": ""}); r.Status != 403 || r.apiError(t).Error.Code != "forbidden" {
			t.Errorf("cookie write without X-CSRF-Token: %d %s", r.Status, r.Body)
		}
		if r := owner.raw("POST", "/api-keys", body, map[string]string{"X-CSRF-Token": "wrong"}); r.Status != 403 {
			t.Errorf("cookie write with a wrong token: %d", r.Status)
		}
		if r := owner.raw("GET", "/api-keys", nil, map[string]string{"X-CSRF-Token": ""}); r.Status != 200 {
			t.Errorf("cookie read without token: %d", r.Status)
		}
		if r := owner.raw("POST", "/api-keys", body, nil); r.Status != 201 {
			t.Errorf("cookie write with the token: %d %s", r.Status, r.Body)
		}
		// Header without the cookie (a cross-site attacker knows neither).
		bare := newClient(t, base)
		u, _ := url.Parse(base)
		for _, c := range owner.http.Jar.Cookies(u) {
			if c.Name == "ferry_session" {
				bare.http.Jar.SetCookies(u, []*http.Cookie{c})
			}
		}
		if r := bare.raw("POST", "/api-keys", body, map[string]string{"X-CSRF-Token": csrf.Value}); r.Status != 403 {
			t.Errorf("token without csrf cookie: %d", r.Status)
		}
	})

	t.Run("forged sessions", func(t *testing.T) {
		u, _ := url.Parse(base)
		var tok string
		for _, c := range owner.http.Jar.Cookies(u) {
			if c.Name == "ferry_session" {
				tok = c.Value
			}
		}
		parts := strings.Split(tok, ".")
		none := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"none","typ":"JWT"}`)) + "." + parts[1] + "."
		payload, _ := base64.RawURLEncoding.DecodeString(parts[1])
		viewerPayload := strings.Replace(string(payload), `"role":"owner"`, `"role":"viewer"`, 1)
		tampered := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(viewerPayload)) + "." + parts[2]
		for name, v := range map[string]string{"alg none": none, "tampered": tampered, "garbage": "x.y.z"} {
			c := newClient(t, base)
			c.http.Jar.SetCookies(u, []*http.Cookie{{Name: "ferry_session", Value: v, Path: "/"}})
			if r := c.raw("GET", "/me", nil, nil); r.Status != 401 || r.apiError(t).Error.Code != "unauthorized" {
				t.Errorf("%s session: %d %s", name, r.Status, r.Body)
			}
		}
	})

	t.Run("api key revocation", func(t *testing.T) {
		var k struct {
			ID  string `json:"id"`
			Key string `json:"key"`
		}
		owner.must(201, "POST", "/api-keys", map[string]string{"name": "ci"}, &k)
		kc := newClient(t, base)
		kc.apiKey = k.Key
		kc.must(200, "GET", "/endpoints", nil, nil)
		var keys struct {
			Data []struct {
				ID         string  `json:"id"`
				Prefix     string  `json:"prefix"`
				LastUsedAt *string `json:"last_used_at"`
			} `json:"data"`
		}
		owner.must(200, "GET", "/api-keys", nil, &keys)
		for _, x := range keys.Data {
			if x.ID == k.ID && (x.LastUsedAt == nil || !strings.HasPrefix(k.Key, x.Prefix)) {
				t.Errorf("key listed as %+v", x)
			}
		}
		if strings.Contains(string(owner.raw("GET", "/api-keys", nil, nil).Body), k.Key) {
			t.Error("the key is shown again after creation")
		}
		owner.must(204, "DELETE", "/api-keys/"+k.ID, nil, nil)
		if r := kc.raw("GET", "/endpoints", nil, nil); r.Status != 401 {
			t.Errorf("revoked key: %d", r.Status)
		}
		if r := kc.raw("GET", "/endpoints", nil, map[string]string{"Authorization": "Basic abc"}); r.Status != 401 {
			t.Errorf("non-bearer authorization: %d", r.Status)
		}
	})

	t.Run("removed member loses access", func(t *testing.T) {
		vic, id := member(t, f, owner, "vic@id.example", "admin")
		vic.must(200, "GET", "/endpoints", nil, nil)
		owner.must(200, "PATCH", "/members/"+id, map[string]string{"role": "viewer"}, nil)
		if r := vic.raw("POST", "/endpoints", []byte(`{"url":"http://127.0.0.1:9/x"}`), nil); r.Status != 403 {
			t.Errorf("demoted member still writes: %d", r.Status)
		}
		owner.must(204, "DELETE", "/members/"+id, nil, nil)
		if r := vic.raw("GET", "/endpoints", nil, nil); r.Status != 401 {
			t.Errorf("removed member's session: %d", r.Status)
		}
		var me struct {
			UserID string `json:"user_id"`
		}
		owner.must(200, "GET", "/me", nil, &me)
		if r := owner.raw("DELETE", "/members/"+me.UserID, nil, nil); r.Status != 409 {
			t.Errorf("removing the last owner: %d %s", r.Status, r.Body)
		}
	})

	t.Run("logout", func(t *testing.T) {
		c := login(t, f, "ann@id.example", "correct horse battery")
		c.must(204, "POST", "/auth/logout", nil, nil)
		if r := c.raw("GET", "/me", nil, nil); r.Status != 401 {
			t.Errorf("after logout: %d", r.Status)
		}
	})

	t.Run("login throttling", func(t *testing.T) {
		c := newClient(t, base)
		for i := range 10 {
			if r := c.raw("POST", "/auth/login", []byte(`{"email":"ann@id.example","password":"wrong password!"}`), nil); r.Status != 401 {
				t.Fatalf("failure %d: %d", i+1, r.Status)
			}
		}
		r := c.raw("POST", "/auth/login", []byte(`{"email":"ann@id.example","password":"correct horse battery"}`), nil)
		if r.Status != 429 || r.Header.Get("Retry-After") == "" || r.apiError(t).Error.Code != "rate_limited" {
			t.Errorf("11th login: %d Retry-After=%q %s", r.Status, r.Header.Get("Retry-After"), r.Body)
		}
	})
}
