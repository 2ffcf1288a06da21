package httpapi

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/tenants"
)

// AuthService signs callers up, in and out and finds who a credential
// belongs to: the auth middleware and the /auth and /me routes of
// auth.go. It is satisfied by *tenants.Service.
type AuthService interface {
	// Signup mails the address a link that finishes the sign-up, and
	// returns nil too for an address with an account. Errors: EINVALID,
	// ERATELIMIT, wrapped database errors.
	Signup(ctx context.Context, in tenants.SignupInput, clientAddr string) error
	// FinishSignup creates the tenant and owner of the sign-up whose
	// emailed token is token. Errors: EINVALID, ECONFLICT, wrapped
	// database errors.
	FinishSignup(ctx context.Context, token, password string) (tenants.Principal, error)
	// Login checks credentials. Errors: EUNAUTHORIZED (field totp_code
	// for a missing or wrong second factor), ERATELIMIT.
	Login(ctx context.Context, in tenants.LoginInput) (tenants.Principal, error)
	// StartSession records a server-side session lasting ttl and returns
	// p with its SessionID.
	StartSession(ctx context.Context, p tenants.Principal, ttl time.Duration) (tenants.Principal, error)
	// EndSession revokes p's session.
	EndSession(ctx context.Context, p tenants.Principal) error
	// Refresh re-reads a session principal as of now. Errors:
	// EUNAUTHORIZED.
	Refresh(ctx context.Context, p tenants.Principal) (tenants.Principal, error)
	// AuthenticateAPIKey returns the principal of a key. Errors:
	// EUNAUTHORIZED (unknown or revoked).
	AuthenticateAPIKey(ctx context.Context, key string) (tenants.Principal, error)
	// EmailVerified reports whether p's address is verified. Errors:
	// wrapped database errors.
	EmailVerified(ctx context.Context, p tenants.Principal) (bool, error)
	// TOTPEnrolled reports whether a staff member has an authenticator.
	// Errors: wrapped database errors.
	TOTPEnrolled(ctx context.Context, p tenants.Principal) (bool, error)
	// Tenant returns one tenant. Errors: ENOTFOUND.
	Tenant(ctx context.Context, id uuid.UUID) (tenants.Tenant, error)
}

// SessionTokens signs and checks session tokens (the session cookie's
// value). It is satisfied by *tenants.Sessions.
type SessionTokens interface {
	// Issue returns a signed token for p (with a SessionID).
	Issue(p tenants.Principal) (string, error)
	// TTL is how long an issued session lasts.
	TTL() time.Duration
	// Verify returns a token's principal. Errors: EUNAUTHORIZED.
	Verify(token string) (tenants.Principal, error)
}

// Cookie names. Over HTTPS (SecureCookies) they carry the __Host- prefix,
// which browsers accept only with Secure, Path=/ and no Domain: no
// subdomain or plain-HTTP page can then set or shadow them. Browsers
// refuse __Host- cookies on http://, so dev keeps the plain names.
const (
	sessionCookie = "ferry_session"
	csrfCookie    = "ferry_csrf"
	hostPrefix    = "__Host-"
	csrfHeader    = "X-CSRF-Token"
	principalKey  = "principal"
)

// cookie returns the name a cookie has in this deployment.
func (s *server) cookie(name string) string {
	if s.SecureCookies {
		return hostPrefix + name
	}
	return name
}

// credentials says which kinds of caller a route accepts.
type credentials int

const (
	sessionOnly credentials = iota
	sessionOrKey
	staffOnly
	// anySession is a tenant user's or a staff member's portal session.
	anySession
	// restrictedSession is anySession including a session confined by a
	// Restriction (forced password change, TOTP enrolment): the few
	// routes that lift it.
	restrictedSession
)

// auth authenticates the request (API key or session cookie), enforces
// the double-submit CSRF token on cookie-authenticated writes, and checks
// the caller's role.
func (s *server) auth(route credentials, minRole tenants.Role) fiber.Handler {
	return func(c *fiber.Ctx) error {
		accept := route
		p, err := s.authenticate(c)
		if err != nil {
			return err
		}
		if !p.IsStaff() {
			if err := s.limiter.admit(c, p.TenantID); err != nil {
				return err
			}
		}
		if err := permit(p, accept, minRole); err != nil {
			return err
		}
		c.Locals(principalKey, p)
		return s.idempotent(c, principalScope(p))
	}
}

// permit checks that p may use a route that accepts route callers with
// at least minRole.
func permit(p tenants.Principal, route credentials, minRole tenants.Role) error {
	if route == restrictedSession {
		route = anySession
	} else if p.Restriction != "" {
		return &ferry.Error{Code: ferry.EFORBIDDEN, Message: restrictionMessage(p.Restriction)}
	}
	switch {
	case route == staffOnly && !p.IsStaff():
		return ferry.NotFound("route") // staff routes do not exist for tenants
	case route == anySession && p.Kind == tenants.KindAPIKey:
		return &ferry.Error{Code: ferry.EFORBIDDEN, Message: "this route needs a portal session, not an API key"}
	case route == anySession && p.IsStaff():
	case route != staffOnly && p.IsStaff():
		return &ferry.Error{Code: ferry.EFORBIDDEN, Message: "support staff use the staff console routes"}
	case route == sessionOnly && p.Kind == tenants.KindAPIKey:
		return &ferry.Error{Code: ferry.EFORBIDDEN, Message: "this route needs a portal session, not an API key"}
	case !p.IsStaff() && !p.Role.AtLeast(minRole):
		return &ferry.Error{Code: ferry.EFORBIDDEN, Message: "your role does not allow this action"}
	}
	return nil
}

func restrictionMessage(r tenants.Restriction) string {
	if r == tenants.RestrictTOTPEnrolment {
		return "enrol an authenticator app (TOTP) before using the staff console"
	}
	return "change your password before continuing (POST /api/v1/me/password)"
}

// credential is what a request authenticates with: the bearer token of
// its Authorization header (an API key, or a consumer token on queue
// routes) or else its session cookie. Streams keep it to re-run the same
// lookup while they last.
type credential struct {
	bearer  string
	session string
}

// credentialOf reads the request's credential. Errors: EUNAUTHORIZED
// (none, or a malformed Authorization header).
func (s *server) credentialOf(c *fiber.Ctx) (credential, error) {
	if h := c.Get(fiber.HeaderAuthorization); h != "" {
		key, ok := strings.CutPrefix(h, "Bearer ")
		if !ok {
			return credential{}, ferry.Errorf(ferry.EUNAUTHORIZED, "Authorization must be \"Bearer <API key>\"")
		}
		return credential{bearer: strings.TrimSpace(key)}, nil
	}
	tok := c.Cookies(s.cookie(sessionCookie))
	if tok == "" {
		return credential{}, ferry.Errorf(ferry.EUNAUTHORIZED, "sign in, or send an API key as \"Authorization: Bearer <key>\"")
	}
	return credential{session: tok}, nil
}

// principalOf looks up who cred belongs to, as of now: an API key that
// is not revoked, or a session that is live (not ended, not expired) of
// a user who is still a member, or of a staff account still enabled,
// with the role they have now. Errors: EUNAUTHORIZED, wrapped database
// errors.
func (s *server) principalOf(ctx context.Context, cred credential) (tenants.Principal, error) {
	if cred.session == "" {
		return s.Auth.AuthenticateAPIKey(ctx, cred.bearer)
	}
	p, err := s.Sessions.Verify(cred.session)
	if err != nil {
		return tenants.Principal{}, err
	}
	// A revoked session, a removed member or a disabled staff account
	// loses access at once; a role change applies now.
	return s.Auth.Refresh(ctx, p)
}

func (s *server) authenticate(c *fiber.Ctx) (tenants.Principal, error) {
	cred, err := s.credentialOf(c)
	if err != nil {
		return tenants.Principal{}, err
	}
	p, err := s.principalOf(c.UserContext(), cred)
	if err != nil || cred.session == "" {
		return p, err
	}
	switch c.Method() {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
	default:
		cookie, header := c.Cookies(s.cookie(csrfCookie)), c.Get(csrfHeader)
		if cookie == "" || subtle.ConstantTimeCompare([]byte(cookie), []byte(header)) != 1 {
			return tenants.Principal{}, &ferry.Error{Code: ferry.EFORBIDDEN,
				Message: "missing or wrong X-CSRF-Token header (echo the " + s.cookie(csrfCookie) + " cookie)"}
		}
	}
	return p, nil
}

func principal(c *fiber.Ctx) tenants.Principal {
	p, _ := c.Locals(principalKey).(tenants.Principal)
	return p
}

// startSession records a server-side session for p, sets the session
// cookie and a fresh CSRF cookie, and returns p with its SessionID.
func (s *server) startSession(c *fiber.Ctx, p tenants.Principal) (tenants.Principal, error) {
	p, err := s.Auth.StartSession(c.UserContext(), p, s.Sessions.TTL())
	if err != nil {
		return p, err
	}
	tok, err := s.Sessions.Issue(p)
	if err != nil {
		return p, err
	}
	exp := time.Now().Add(s.Sessions.TTL())
	c.Cookie(&fiber.Cookie{Name: s.cookie(sessionCookie), Value: tok, Path: "/", Expires: exp,
		HTTPOnly: true, Secure: s.SecureCookies, SameSite: fiber.CookieSameSiteLaxMode})
	c.Cookie(&fiber.Cookie{Name: s.cookie(csrfCookie), Value: randomToken(), Path: "/", Expires: exp,
		HTTPOnly: false, Secure: s.SecureCookies, SameSite: fiber.CookieSameSiteStrictMode})
	return p, nil
}

func randomToken() string {
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// loginInput is the body of POST /auth/login.
type loginInput struct {
	Email    string `json:"email" required:"true" format:"email"` // the account's address
	Password string `json:"password" required:"true"`             // the account's password
	// TOTPCode is a staff member's second factor (6 digits).
	TOTPCode string `json:"totp_code,omitempty"`
}

// meResponse is who is signed in, as /me, signup and login answer.
type meResponse struct {
	Kind   tenants.PrincipalKind `json:"kind"`                  // user (a member), staff, or api_key
	UserID string                `json:"user_id" format:"uuid"` // the member's or staff member's id
	Email  string                `json:"email"`                 // their address
	Role   string                `json:"role"`                  // the member's role, or staff
	Tenant *tenants.Tenant       `json:"tenant,omitempty"`      // the organisation; absent for staff
	// Restriction, when set, is what the session must do first:
	// password_change or totp_enrolment.
	Restriction tenants.Restriction `json:"restriction,omitempty"`
	// EmailVerified is false for a member who has not proved their
	// address yet (accounts older than sign-up by emailed link); invites
	// need it (POST /me/verify-email mails a link).
	EmailVerified bool `json:"email_verified"`
	// TOTPEnabled, for staff only, says whether an authenticator is
	// enrolled (sign-in then asks for its code).
	TOTPEnabled *bool `json:"totp_enabled,omitempty"`
}

// signupAccepted answers a sign-up: the same whether or not the address
// already has an account.
type signupAccepted struct {
	Email   string `json:"email" description:"the address the link was mailed to"`
	Message string `json:"message"` // what happens next, for people
}

// signup: POST /auth/signup mails the address a link that finishes the
// sign-up (or, for an address with an account, a note saying so).
func (s *server) signup(c *fiber.Ctx) error {
	var in tenants.SignupInput
	if err := decode(c, &in); err != nil {
		return err
	}
	if err := s.Auth.Signup(c.UserContext(), in, c.IP()); err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(signupAccepted{Email: strings.TrimSpace(in.Email),
		Message: "check your inbox: follow the link we sent to finish signing up"})
}

// finishSignupInput is the emailed token of a sign-up and the password
// chosen with it (proof that whoever follows the link started it).
type finishSignupInput struct {
	Token    string `json:"token"`    // from the emailed link
	Password string `json:"password"` // the owner's password, 10 to 72 characters
}

// finishSignup: POST /auth/signup/confirm creates the tenant and its
// owner from the emailed link and signs the owner in.
func (s *server) finishSignup(c *fiber.Ctx) error {
	var in finishSignupInput
	if err := decode(c, &in); err != nil {
		return err
	}
	p, err := s.Auth.FinishSignup(c.UserContext(), in.Token, in.Password)
	if err != nil {
		return err
	}
	if p, err = s.startSession(c, p); err != nil {
		return err
	}
	return s.writeMe(c, fiber.StatusCreated, p)
}

func (s *server) login(c *fiber.Ctx) error {
	var body loginInput
	if err := decode(c, &body); err != nil {
		return err
	}
	in := tenants.LoginInput{Email: body.Email, Password: body.Password, TOTPCode: body.TOTPCode, ClientAddr: c.IP()}
	p, err := s.Auth.Login(c.UserContext(), in)
	if err != nil {
		return err
	}
	if p, err = s.startSession(c, p); err != nil {
		return err
	}
	return s.writeMe(c, fiber.StatusOK, p)
}

// logout ends the session itself (server-side), not only the cookie: a
// copy of the cookie stops working too.
func (s *server) logout(c *fiber.Ctx) error {
	if tok := c.Cookies(s.cookie(sessionCookie)); tok != "" {
		if p, err := s.Sessions.Verify(tok); err == nil {
			if err := s.Auth.EndSession(c.UserContext(), p); err != nil {
				return err
			}
		}
	}
	s.clearCookies(c)
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *server) clearCookies(c *fiber.Ctx) {
	for _, name := range []string{sessionCookie, csrfCookie} {
		c.Cookie(&fiber.Cookie{Name: s.cookie(name), Value: "", Path: "/", Expires: time.Unix(0, 0), MaxAge: -1,
			HTTPOnly: name == sessionCookie, Secure: s.SecureCookies, SameSite: fiber.CookieSameSiteLaxMode})
	}
}

func (s *server) me(c *fiber.Ctx) error {
	return s.writeMe(c, fiber.StatusOK, principal(c))
}

func (s *server) writeMe(c *fiber.Ctx, status int, p tenants.Principal) error {
	out := meResponse{Kind: p.Kind, UserID: p.UserID.String(), Email: p.Email, Role: string(p.Role), Restriction: p.Restriction,
		EmailVerified: true}
	if p.IsStaff() {
		out.Role = "staff"
		enrolled, err := s.Auth.TOTPEnrolled(c.UserContext(), p)
		if err != nil {
			return err
		}
		out.TOTPEnabled = &enrolled
	} else {
		t, err := s.Auth.Tenant(c.UserContext(), p.TenantID)
		if err != nil {
			return err
		}
		out.Tenant = &t
		if out.EmailVerified, err = s.Auth.EmailVerified(c.UserContext(), p); err != nil {
			return err
		}
	}
	return c.Status(status).JSON(out)
}
