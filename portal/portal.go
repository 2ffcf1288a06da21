// Package portal lets a tenant give one of its customers a webhook portal
// (docs/customer-portal.md): the tenant's backend mints a session for the
// customer with capabilities and an external user; the session's URL
// carries a single-use code in its fragment, which the portal page
// exchanges for short bearer tokens it renews while the session lives.
// Every request re-checks the session (expiry, revocation, the customer
// still there), so a revocation takes effect on the next request. The
// package also keeps each tenant's framing allow-list and theme, and the
// audit of what customers' users did.
package portal

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// Capabilities a session may grant (docs/customer-portal.md).
const (
	CapView            = "view"
	CapManageEndpoints = "manage_endpoints"
	CapViewSecret      = "view_secret"
	CapRotateSecret    = "rotate_secret"
	CapReplay          = "replay"
	CapSendTest        = "send_test"
	CapManageRouting   = "manage_routing"
)

// allCapabilities lists every capability, in the order the API names them.
func allCapabilities() []string {
	return []string{CapView, CapManageEndpoints, CapViewSecret, CapRotateSecret, CapReplay, CapSendTest, CapManageRouting}
}

// Timings and bounds of sessions (docs/contract.md#customer-portal).
const (
	CodeTTL           = 120 * time.Second
	TokenTTL          = 10 * time.Minute
	DefaultSessionTTL = time.Hour
	MinSessionTTL     = time.Minute
	MaxSessionTTL     = 24 * time.Hour
	MaxEndpointIDs    = 100
	MaxOrigins        = 20
	maxExternalField  = 256
	maxThemeField     = 512
)

// Customers is what portal needs of the tenant's customers: Ferry's id for
// a live customer's uid, and its name. app plugs customers in.
type Customers interface {
	// Lookup returns the id and name of the tenant's live customer uid.
	// Errors: ENOTFOUND.
	Lookup(ctx context.Context, tenantID uuid.UUID, uid string) (id uuid.UUID, name string, err error)
}

// Theme is how the portal looks; empty fields take the tenant's (or
// Ferry's) defaults.
type Theme struct {
	LogoURL      string `json:"logo_url,omitempty"`      // https URL of a logo shown in the header
	PrimaryColor string `json:"primary_color,omitempty"` // accent color, #rrggbb
	Dark         *bool  `json:"dark,omitempty"`          // dark mode; absent: the browser decides
}

// ExternalUser is the customer's user a session is for; actions are
// audited with it.
type ExternalUser struct {
	ID    string `json:"id"`              // your id for the user
	Email string `json:"email,omitempty"` // the user's email, if you gave it
}

// ThemeInput is a Theme as requests give it.
type ThemeInput Theme

// ExternalUserInput is an ExternalUser as requests give it.
type ExternalUserInput ExternalUser

// SessionInput is the body of POST /customers/{uid}/portal-sessions.
type SessionInput struct {
	Capabilities []string          `json:"capabilities"`  // what the user may do: view, manage_endpoints, view_secret, rotate_secret, replay, send_test, manage_routing (default: view)
	EndpointIDs  []uuid.UUID       `json:"endpoint_ids"`  // limit the session to these endpoints of the customer (default: all)
	ReadOnly     bool              `json:"read_only"`     // forbid every write, whatever the capabilities
	TTLSeconds   int               `json:"ttl_seconds"`   // session lifetime in seconds (default 3600)
	Theme        *ThemeInput       `json:"theme"`         // this session's look, over the portal settings' theme
	ExternalUser ExternalUserInput `json:"external_user"` // the user you open the portal for
}

// SettingsInput is the body of PUT /portal-settings.
type SettingsInput struct {
	AllowedOrigins []string   `json:"allowed_origins"` // origins (https://app.example.com) that may frame the portal
	Theme          ThemeInput `json:"theme"`           // the default look of the portal
}

// Minted answers POST /customers/{uid}/portal-sessions.
type Minted struct {
	SessionID uuid.UUID `json:"session_id"` // the session's id
	// URL opens the portal; its fragment carries the single-use code.
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expires_at"` // when the link and the session expire
}

// CustomerRef names the session's customer.
type CustomerRef struct {
	UID  string `json:"uid"`  // the customer's uid
	Name string `json:"name"` // the customer's name
}

// Session is what a portal page knows of its session.
type Session struct {
	ID           uuid.UUID    `json:"id"`                   // the session's id
	Customer     CustomerRef  `json:"customer"`             // the customer the session is for
	Capabilities []string     `json:"capabilities"`         // what the user may do: view, manage_endpoints, view_secret, rotate_secret, replay, send_test, manage_routing
	ReadOnly     bool         `json:"read_only"`            // true: no writes at all, whatever the capabilities
	EndpointIDs  []uuid.UUID  `json:"endpoint_ids"`         // the endpoints the session may see; empty: all of the customer
	Theme        Theme        `json:"theme"`                // the look of the portal for this session
	ExternalUser ExternalUser `json:"external_user"`        // the user the session was minted for
	ExpiresAt    time.Time    `json:"expires_at"`           // when the session ends
	CreatedAt    time.Time    `json:"created_at"`           // when it was minted
	RevokedAt    *time.Time   `json:"revoked_at,omitempty"` // when it was revoked; absent while it works

	// TenantID and CustomerID scope every request of the session.
	TenantID   uuid.UUID `json:"-"`
	CustomerID uuid.UUID `json:"-"`
}

// Can reports whether the session grants capability c.
func (s Session) Can(c string) bool { return slices.Contains(s.Capabilities, c) }

// Shows reports whether the session may see the customer's endpoint id
// (a session limited to endpoint_ids sees those only).
func (s Session) Shows(id uuid.UUID) bool {
	return s.EndpointIDs == nil || slices.Contains(s.EndpointIDs, id)
}

// Token is a bearer token of a session.
type Token struct {
	Token     string    `json:"token"`            // the session's bearer token
	ExpiresAt time.Time `json:"token_expires_at"` // when the token expires (renew it before)
}

// Exchanged answers POST /portal/exchange.
type Exchanged struct {
	Token
	Session Session `json:"session"` // the session the token belongs to
}

// Settings are a tenant's portal settings.
type Settings struct {
	// AllowedOrigins may frame the portal (frame-ancestors); none: no
	// page may.
	AllowedOrigins []string `json:"allowed_origins"`
	Theme          Theme    `json:"theme"` // the default look of the portal
}

// AuditEntry is one action of a customer's user.
type AuditEntry struct {
	ID           int64        `json:"id"`            // the entry's id
	SessionID    uuid.UUID    `json:"session_id"`    // the portal session the user acted in
	Customer     string       `json:"customer"`      // the customer's uid
	ExternalUser ExternalUser `json:"external_user"` // the customer's user who acted
	Action       string       `json:"action"`        // what they did, e.g. endpoint.created or endpoint.secret.revealed
	Target       string       `json:"target"`        // what it was done to, e.g. the endpoint id
	At           time.Time    `json:"at"`            // when
}

// Config tunes the Service.
type Config struct {
	// PublicURL is where Ferry is reached (FERRY_PUBLIC_URL): session URLs
	// are built from it, never from a request.
	PublicURL string
	// AllowHTTPOrigins accepts http:// framing origins (dev and tests).
	AllowHTTPOrigins bool
}

// Service manages portal sessions and settings.
type Service struct {
	db        *gorm.DB
	customers Customers
	cfg       Config
	log       *slog.Logger
	now       func() time.Time
}

// New returns a Service; now may be nil.
func New(db *gorm.DB, customers Customers, cfg Config, log *slog.Logger, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	return &Service{db: db, customers: customers, cfg: cfg, log: log, now: now}
}

// errSession is the answer to any token, code or session that does not
// (or no longer) work: which of them it was is not said.
func errSession() error {
	return &ferry.Error{Code: ferry.EUNAUTHORIZED, Message: "the portal session has ended or the link was already used; open the portal again"}
}

// secret returns 32 random bytes as base64url and their SHA-256 in hex
// (what is stored).
func secret() (string, string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	h := sha256.Sum256(b)
	return base64.RawURLEncoding.EncodeToString(b), hex.EncodeToString(h[:])
}

// hash is the stored form of a presented code or token; "" if it cannot
// be one of ours.
func hash(s string) string {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != 32 {
		return ""
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func checkTheme(t Theme) (Theme, error) {
	t.LogoURL, t.PrimaryColor = strings.TrimSpace(t.LogoURL), strings.TrimSpace(t.PrimaryColor)
	if t.LogoURL != "" {
		u, err := url.Parse(t.LogoURL)
		if err != nil || len(t.LogoURL) > maxThemeField || (u.Scheme != "https" && u.Scheme != "data") {
			return Theme{}, ferry.Invalid("theme.logo_url", "theme.logo_url must be an https:// or data: URL of at most %d bytes", maxThemeField)
		}
	}
	if t.PrimaryColor != "" && !validColor(t.PrimaryColor) {
		return Theme{}, ferry.Invalid("theme.primary_color", "theme.primary_color must be a #rgb or #rrggbb colour")
	}
	return t, nil
}

func validColor(c string) bool {
	if len(c) != 4 && len(c) != 7 || c[0] != '#' {
		return false
	}
	for _, r := range c[1:] {
		if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
			return false
		}
	}
	return true
}

// Mint creates a session for the tenant's customer uid and returns its
// URL. Errors: ENOTFOUND (customer), EINVALID.
func (s *Service) Mint(ctx context.Context, tenantID uuid.UUID, customerUID string, in SessionInput) (Minted, error) {
	customerID, _, err := s.customers.Lookup(ctx, tenantID, customerUID)
	if err != nil {
		return Minted{}, err
	}
	caps := []string{CapView}
	if !in.ReadOnly {
		for _, c := range in.Capabilities {
			if !slices.Contains(allCapabilities(), c) {
				return Minted{}, ferry.Invalid("capabilities", "capabilities must be among %s", strings.Join(allCapabilities(), ", "))
			}
			if !slices.Contains(caps, c) {
				caps = append(caps, c)
			}
		}
	}
	ttl := DefaultSessionTTL
	if in.TTLSeconds != 0 {
		ttl = time.Duration(in.TTLSeconds) * time.Second
	}
	if ttl < MinSessionTTL || ttl > MaxSessionTTL {
		return Minted{}, ferry.Invalid("ttl_seconds", "ttl_seconds must be between %d and %d", int(MinSessionTTL.Seconds()), int(MaxSessionTTL.Seconds()))
	}
	if len(in.EndpointIDs) > MaxEndpointIDs {
		return Minted{}, ferry.Invalid("endpoint_ids", "at most %d endpoint_ids", MaxEndpointIDs)
	}
	in.ExternalUser.ID, in.ExternalUser.Email = strings.TrimSpace(in.ExternalUser.ID), strings.TrimSpace(in.ExternalUser.Email)
	if in.ExternalUser.ID == "" || len(in.ExternalUser.ID) > maxExternalField || !utf8.ValidString(in.ExternalUser.ID) {
		return Minted{}, ferry.Invalid("external_user.id", "external_user.id is required: at most %d bytes naming the customer's user", maxExternalField)
	}
	if len(in.ExternalUser.Email) > maxExternalField || !utf8.ValidString(in.ExternalUser.Email) {
		return Minted{}, ferry.Invalid("external_user.email", "external_user.email must be at most %d bytes", maxExternalField)
	}
	var theme Theme
	if in.Theme != nil {
		if theme, err = checkTheme(Theme(*in.Theme)); err != nil {
			return Minted{}, err
		}
	}
	var endpointIDs *pgval.JSON[[]uuid.UUID] // NULL: every endpoint of the customer
	if in.EndpointIDs != nil {
		endpointIDs = &pgval.JSON[[]uuid.UUID]{V: in.EndpointIDs}
	}
	code, codeHash := secret()
	now := s.now().UTC()
	m := Minted{SessionID: uuid.New(), ExpiresAt: now.Add(ttl)}
	if err := s.db.WithContext(ctx).Exec(`INSERT INTO portal_sessions (id, tenant_id, customer_id, customer_uid, capabilities,
			endpoint_ids, read_only, theme, external_user_id, external_user_email, code_hash, code_expires_at, created_at, expires_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		m.SessionID, tenantID, customerID, customerUID, pgval.JSON[[]string]{V: caps}, endpointIDs, in.ReadOnly, pgval.JSON[Theme]{V: theme},
		in.ExternalUser.ID, in.ExternalUser.Email, codeHash, now.Add(CodeTTL), now, m.ExpiresAt).Error; err != nil {
		return Minted{}, fmt.Errorf("insert portal session: %w", err)
	}
	m.URL = fmt.Sprintf("%s/embed/%s#code=%s", s.cfg.PublicURL, m.SessionID, code)
	// Opening the portal is the first thing its user does: audited too
	// (a tenant's member opening it "as the customer" is named so).
	if err := s.Audit(ctx, Session{ID: m.SessionID, TenantID: tenantID, Customer: CustomerRef{UID: customerUID},
		ExternalUser: ExternalUser(in.ExternalUser)}, "session.opened", m.SessionID.String()); err != nil {
		return Minted{}, err
	}
	s.log.InfoContext(ctx, "portal session minted", "tenant_id", tenantID, "customer", customerUID, "session_id", m.SessionID,
		"external_user", in.ExternalUser.ID)
	return m, nil
}
