package tenants

import (
	"errors"
	"fmt"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
)

// Sessions issues and verifies portal session tokens: HS256 JWTs carrying
// jti (the server-side session, see Service.StartSession), sub (user or
// staff id), tid (tenant id, empty for staff) and role. A valid signature
// is not enough: Service.Refresh also checks that the session is live.
type Sessions struct {
	secret []byte
	ttl    time.Duration
	now    func() time.Time
}

// NewSessions returns a Sessions signing with secret. now may be nil.
func NewSessions(secret []byte, ttl time.Duration, now func() time.Time) (*Sessions, error) {
	if len(secret) < 32 {
		return nil, errors.New("session secret must be at least 32 bytes")
	}
	if now == nil {
		now = time.Now
	}
	return &Sessions{secret: secret, ttl: ttl, now: now}, nil
}

// TTL is how long an issued session lasts.
func (s *Sessions) TTL() time.Duration { return s.ttl }

type sessionClaims struct {
	TenantID string `json:"tid"`
	Role     string `json:"role"`
	Email    string `json:"email"`
	jwt.RegisteredClaims
}

// roleStaff marks a staff session in the role claim.
const roleStaff = "staff"

// Issue returns a signed token for p (a user or staff principal with a
// SessionID from Service.StartSession).
func (s *Sessions) Issue(p Principal) (string, error) {
	if p.SessionID == uuid.Nil {
		return "", errors.New("issue session: principal has no session id")
	}
	now := s.now()
	c := sessionClaims{
		Role:  string(p.Role),
		Email: p.Email,
		RegisteredClaims: jwt.RegisteredClaims{
			ID:        p.SessionID.String(),
			Subject:   p.UserID.String(),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(s.ttl)),
			Issuer:    "ferry",
		},
	}
	switch p.Kind {
	case KindStaff:
		c.Role = roleStaff
	case KindUser:
		c.TenantID = p.TenantID.String()
	default:
		return "", fmt.Errorf("issue session for %s principal", p.Kind)
	}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(s.secret)
	if err != nil {
		return "", fmt.Errorf("sign session: %w", err)
	}
	return tok, nil
}

// Verify parses token and returns its principal. Tokens with another
// algorithm (including "none"), another key, a bad signature or past
// expiry are rejected with EUNAUTHORIZED.
func (s *Sessions) Verify(token string) (Principal, error) {
	var c sessionClaims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return s.secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithTimeFunc(s.now),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithIssuer("ferry"),
	)
	if err != nil {
		return Principal{}, &ferry.Error{Code: ferry.EUNAUTHORIZED, Message: "session is invalid or expired"}
	}
	sub, err := uuid.Parse(c.Subject)
	if err != nil {
		return Principal{}, ferry.Errorf(ferry.EUNAUTHORIZED, "session is invalid")
	}
	sid, err := uuid.Parse(c.ID)
	if err != nil {
		return Principal{}, ferry.Errorf(ferry.EUNAUTHORIZED, "session is invalid; sign in again")
	}
	if c.Role == roleStaff {
		return Principal{Kind: KindStaff, UserID: sub, Email: c.Email, SessionID: sid}, nil
	}
	tid, err := uuid.Parse(c.TenantID)
	if err != nil || !Role(c.Role).Valid() {
		return Principal{}, ferry.Errorf(ferry.EUNAUTHORIZED, "session is invalid")
	}
	return Principal{Kind: KindUser, TenantID: tid, UserID: sub, Email: c.Email, Role: Role(c.Role), SessionID: sid}, nil
}
