package httpapi

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/tenants"
)

const (
	sessionCookie = "ferry_session"
	csrfCookie    = "ferry_csrf"
	csrfHeader    = "X-CSRF-Token"
	principalKey  = "principal"
)

// credentials says which kinds of caller a route accepts.
type credentials int

const (
	sessionOnly credentials = iota
	sessionOrKey
	staffOnly
	// anySession is a tenant user's or a staff member's portal session.
	anySession
)

// auth authenticates the request (API key or session cookie), enforces
// the double-submit CSRF token on cookie-authenticated writes, and checks
// the caller's role.
func (s *server) auth(accept credentials, minRole tenants.Role) fiber.Handler {
	return func(c *fiber.Ctx) error {
		p, err := s.authenticate(c)
		if err != nil {
			return err
		}
		if !p.IsStaff() {
			if err := s.limiter.allow(p.TenantID); err != nil {
				return err
			}
		}
		switch {
		case accept == staffOnly && !p.IsStaff():
			return ferry.NotFound("route") // staff routes do not exist for tenants
		case accept == anySession && p.Kind == tenants.KindAPIKey:
			return &ferry.Error{Code: ferry.EFORBIDDEN, Message: "this route needs a portal session, not an API key"}
		case accept == anySession && p.IsStaff():
		case accept != staffOnly && p.IsStaff():
			return &ferry.Error{Code: ferry.EFORBIDDEN, Message: "support staff use the staff console routes"}
		case accept == sessionOnly && p.Kind == tenants.KindAPIKey:
			return &ferry.Error{Code: ferry.EFORBIDDEN, Message: "this route needs a portal session, not an API key"}
		case !p.IsStaff() && !p.Role.AtLeast(minRole):
			return &ferry.Error{Code: ferry.EFORBIDDEN, Message: "your role does not allow this action"}
		}
		c.Locals(principalKey, p)
		return c.Next()
	}
}

func (s *server) authenticate(c *fiber.Ctx) (tenants.Principal, error) {
	if h := c.Get(fiber.HeaderAuthorization); h != "" {
		key, ok := strings.CutPrefix(h, "Bearer ")
		if !ok {
			return tenants.Principal{}, ferry.Errorf(ferry.EUNAUTHORIZED, "Authorization must be \"Bearer <API key>\"")
		}
		return s.Tenants.AuthenticateAPIKey(c.UserContext(), strings.TrimSpace(key))
	}
	tok := c.Cookies(sessionCookie)
	if tok == "" {
		return tenants.Principal{}, ferry.Errorf(ferry.EUNAUTHORIZED, "sign in, or send an API key as \"Authorization: Bearer <key>\"")
	}
	p, err := s.Sessions.Verify(tok)
	if err != nil {
		return tenants.Principal{}, err
	}
	// A removed member loses access at once; a role change applies now.
	if p, err = s.Tenants.Refresh(c.UserContext(), p); err != nil {
		return tenants.Principal{}, err
	}
	switch c.Method() {
	case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
	default:
		cookie, header := c.Cookies(csrfCookie), c.Get(csrfHeader)
		if cookie == "" || subtle.ConstantTimeCompare([]byte(cookie), []byte(header)) != 1 {
			return tenants.Principal{}, &ferry.Error{Code: ferry.EFORBIDDEN, Message: "missing or wrong X-CSRF-Token header (echo the ferry_csrf cookie)"}
		}
	}
	return p, nil
}

func principal(c *fiber.Ctx) tenants.Principal {
	p, _ := c.Locals(principalKey).(tenants.Principal)
	return p
}

// startSession sets the session cookie and a fresh CSRF cookie.
func (s *server) startSession(c *fiber.Ctx, p tenants.Principal) error {
	tok, err := s.Sessions.Issue(p)
	if err != nil {
		return err
	}
	exp := time.Now().Add(s.Sessions.TTL())
	c.Cookie(&fiber.Cookie{Name: sessionCookie, Value: tok, Path: "/", Expires: exp,
		HTTPOnly: true, Secure: s.SecureCookies, SameSite: fiber.CookieSameSiteLaxMode})
	c.Cookie(&fiber.Cookie{Name: csrfCookie, Value: randomToken(), Path: "/", Expires: exp,
		HTTPOnly: false, Secure: s.SecureCookies, SameSite: fiber.CookieSameSiteStrictMode})
	return nil
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
	Email    string `json:"email" required:"true" format:"email"`
	Password string `json:"password" required:"true"`
}

// meResponse is who is signed in, as /me, signup and login answer.
type meResponse struct {
	Kind   tenants.PrincipalKind `json:"kind"`
	UserID string                `json:"user_id" format:"uuid"`
	Email  string                `json:"email"`
	Role   string                `json:"role"`
	Tenant *tenants.Tenant       `json:"tenant,omitempty"`
}

func (s *server) signup(c *fiber.Ctx) error {
	var in tenants.SignupInput
	if err := decode(c, &in); err != nil {
		return err
	}
	p, err := s.Tenants.Signup(c.UserContext(), in)
	if err != nil {
		return err
	}
	if err := s.startSession(c, p); err != nil {
		return err
	}
	return s.writeMe(c, fiber.StatusCreated, p)
}

func (s *server) login(c *fiber.Ctx) error {
	var in loginInput
	if err := decode(c, &in); err != nil {
		return err
	}
	p, err := s.Tenants.Login(c.UserContext(), in.Email, in.Password)
	if err != nil {
		return err
	}
	if err := s.startSession(c, p); err != nil {
		return err
	}
	return s.writeMe(c, fiber.StatusOK, p)
}

func (s *server) logout(c *fiber.Ctx) error {
	for _, name := range []string{sessionCookie, csrfCookie} {
		c.Cookie(&fiber.Cookie{Name: name, Value: "", Path: "/", Expires: time.Unix(0, 0), MaxAge: -1,
			HTTPOnly: name == sessionCookie, Secure: s.SecureCookies, SameSite: fiber.CookieSameSiteLaxMode})
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *server) me(c *fiber.Ctx) error {
	return s.writeMe(c, fiber.StatusOK, principal(c))
}

func (s *server) writeMe(c *fiber.Ctx, status int, p tenants.Principal) error {
	out := meResponse{Kind: p.Kind, UserID: p.UserID.String(), Email: p.Email, Role: string(p.Role)}
	if p.IsStaff() {
		out.Role = "staff"
	} else {
		t, err := s.Tenants.Tenant(c.UserContext(), p.TenantID)
		if err != nil {
			return err
		}
		out.Tenant = &t
	}
	return c.Status(status).JSON(out)
}
