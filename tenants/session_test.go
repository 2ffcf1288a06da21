package tenants

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
)

type sessionBundle struct {
	sessions *Sessions
	now      time.Time
	user     Principal
}

func setupSessions(t *testing.T) *sessionBundle {
	t.Helper()
	b := &sessionBundle{now: time.Date(2026, 11, 22, 5, 0, 0, 0, time.UTC),
		user: Principal{Kind: KindUser, TenantID: uuid.New(), UserID: uuid.New(), Email: "ann@example.com", Role: RoleAdmin,
			SessionID: uuid.New()}}
	s, err := NewSessions(bytes.Repeat([]byte("k"), 32), time.Hour, func() time.Time { return b.now })
	if err != nil {
		t.Fatal(err)
	}
	b.sessions = s
	return b
}

func (b *sessionBundle) issue(t *testing.T) string {
	t.Helper()
	tok, err := b.sessions.Issue(b.user)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

func requireUnauthorized(t *testing.T, s *Sessions, tok string) {
	t.Helper()
	p, err := s.Verify(tok)
	if ferry.ErrorCode(err) != ferry.EUNAUTHORIZED {
		t.Fatalf("Verify accepted the token (principal %+v, err %v); want unauthorized", p, err)
	}
}

func TestSessionRoundTrip(t *testing.T) {
	t.Parallel()
	b := setupSessions(t)
	p, err := b.sessions.Verify(b.issue(t))
	if err != nil {
		t.Fatal(err)
	}
	if p != b.user {
		t.Errorf("principal = %+v, want %+v", p, b.user)
	}
	staff := Principal{Kind: KindStaff, UserID: uuid.New(), Email: "sam@ferry.dev", SessionID: uuid.New()}
	tok, err := b.sessions.Issue(staff)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := b.sessions.Verify(tok); err != nil || !p.IsStaff() || p.TenantID != uuid.Nil {
		t.Errorf("staff session = %+v, %v", p, err)
	}
	if _, err := b.sessions.Issue(Principal{Kind: KindAPIKey, SessionID: uuid.New()}); err == nil {
		t.Error("issued a session for an API key")
	}
}

func TestSessionRejectsAlgNone(t *testing.T) {
	t.Parallel()
	b := setupSessions(t)
	claims := jwt.MapClaims{"sub": b.user.UserID.String(), "tid": b.user.TenantID.String(), "role": "owner",
		"iss": "ferry", "iat": b.now.Unix(), "exp": b.now.Add(time.Hour).Unix()}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodNone, claims).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	requireUnauthorized(t, b.sessions, tok)
	// Also a hand-made "none" token with an empty signature segment.
	enc := base64.RawURLEncoding.EncodeToString
	requireUnauthorized(t, b.sessions, enc([]byte(`{"alg":"none","typ":"JWT"}`))+"."+strings.Split(tok, ".")[1]+".")
}

func TestSessionRejectsWrongKey(t *testing.T) {
	t.Parallel()
	b := setupSessions(t)
	other, err := NewSessions(bytes.Repeat([]byte("x"), 32), time.Hour, func() time.Time { return b.now })
	if err != nil {
		t.Fatal(err)
	}
	tok, err := other.Issue(b.user)
	if err != nil {
		t.Fatal(err)
	}
	requireUnauthorized(t, b.sessions, tok)
	// Another algorithm with the same secret (HS512) is refused too.
	hs512, err := jwt.NewWithClaims(jwt.SigningMethodHS512, jwt.MapClaims{"sub": b.user.UserID.String(),
		"tid": b.user.TenantID.String(), "role": "owner", "iss": "ferry", "iat": b.now.Unix(),
		"exp": b.now.Add(time.Hour).Unix()}).SignedString(bytes.Repeat([]byte("k"), 32))
	if err != nil {
		t.Fatal(err)
	}
	requireUnauthorized(t, b.sessions, hs512)
}

func TestSessionRejectsTamperedToken(t *testing.T) {
	t.Parallel()
	b := setupSessions(t)
	parts := strings.Split(b.issue(t), ".")
	payload, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		t.Fatal(err)
	}
	// Promote the admin to owner, keeping the signature.
	forged := strings.Replace(string(payload), `"role":"admin"`, `"role":"owner"`, 1)
	if forged == string(payload) {
		t.Fatalf("payload %s has no role to tamper with", payload)
	}
	requireUnauthorized(t, b.sessions, parts[0]+"."+base64.RawURLEncoding.EncodeToString([]byte(forged))+"."+parts[2])
	// A flipped signature byte.
	sig := []byte(parts[2])
	sig[3] ^= 1
	requireUnauthorized(t, b.sessions, parts[0]+"."+parts[1]+"."+string(sig))
	requireUnauthorized(t, b.sessions, "not.a.jwt")
	requireUnauthorized(t, b.sessions, "")
}

func TestSessionRejectsExpiredToken(t *testing.T) {
	t.Parallel()
	b := setupSessions(t)
	tok := b.issue(t)
	b.now = b.now.Add(59 * time.Minute)
	if _, err := b.sessions.Verify(tok); err != nil {
		t.Fatalf("token rejected before expiry: %v", err)
	}
	b.now = b.now.Add(2 * time.Minute)
	requireUnauthorized(t, b.sessions, tok)
	// A token without exp is refused as well.
	noExp, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"sub": b.user.UserID.String(),
		"tid": b.user.TenantID.String(), "role": "owner", "iss": "ferry", "iat": b.now.Unix()}).
		SignedString(bytes.Repeat([]byte("k"), 32))
	if err != nil {
		t.Fatal(err)
	}
	requireUnauthorized(t, b.sessions, noExp)
}
