package tenants

import (
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net/mail"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"
	"golang.org/x/crypto/bcrypt"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
)

// Config tunes the Service. Zero values take the defaults.
type Config struct {
	// BcryptCost defaults to bcrypt.DefaultCost; tests lower it.
	BcryptCost int
	// LoginWindow and MaxLoginFailures bound password guessing per
	// account: at most MaxLoginFailures failed logins per LoginWindow are
	// evaluated (default 10 per 15 minutes); the rest get ERATELIMIT.
	LoginWindow      time.Duration
	MaxLoginFailures int
	// MaxLoginFailuresPerAddr bounds failed logins per client address per
	// LoginWindow, across accounts (0: no limit).
	MaxLoginFailuresPerAddr int
	// SignupsPerAddr bounds sign-ups, and separately password-reset
	// requests, per client address per SignupWindow (0: no limit;
	// SignupWindow defaults to an hour).
	SignupsPerAddr int
	SignupWindow   time.Duration
	// InvitesPerHour bounds the invite mails (new and resent) a tenant
	// sends per hour (default 20).
	InvitesPerHour int
	// APIKeyCacheTTL is how long an authenticated API key is trusted
	// without asking Postgres (default 5 s; negative turns caching off).
	// A key revoked on another replica keeps working here for up to this
	// long.
	APIKeyCacheTTL time.Duration
	// SessionCacheTTL is how long a live session is trusted without
	// asking Postgres (default 2 s, at most 5 s; negative turns caching
	// off). A session revoked on another replica keeps working here for
	// up to this long; on the replica that revoked it, it stops at once.
	SessionCacheTTL time.Duration
	// RequireStaffTOTP makes staff sign in with a TOTP code; a staff
	// member without an authenticator must enrol one before anything
	// else (production always sets it).
	RequireStaffTOTP bool
	// PortalURL is the base of links in emails (https://ferry.example).
	PortalURL string
	// ResetTokenTTL, InviteTokenTTL and VerifyTokenTTL bound how long an
	// emailed link works (default 1 h, 7 days, 2 days).
	ResetTokenTTL  time.Duration
	InviteTokenTTL time.Duration
	VerifyTokenTTL time.Duration
	// Notifier sends account emails (default: none, logged as not sent).
	Notifier Notifier
	// Sealer encrypts staff authenticator keys at rest; staff cannot
	// enrol an authenticator without one.
	Sealer Sealer
}

// Sealer encrypts small secrets at rest. aad binds a ciphertext to its
// owner, so it cannot be copied to another row.
type Sealer interface {
	Seal(plaintext, aad []byte) []byte
	Open(ciphertext, aad []byte) ([]byte, error)
}

func (c Config) withDefaults(log *slog.Logger) Config {
	if c.BcryptCost == 0 {
		c.BcryptCost = bcrypt.DefaultCost
	}
	c.LoginWindow = cmp.Or(c.LoginWindow, 15*time.Minute)
	c.MaxLoginFailures = cmp.Or(c.MaxLoginFailures, 10)
	c.SignupWindow = cmp.Or(c.SignupWindow, time.Hour)
	c.InvitesPerHour = cmp.Or(c.InvitesPerHour, 20)
	c.APIKeyCacheTTL = cmp.Or(c.APIKeyCacheTTL, 5*time.Second)
	c.SessionCacheTTL = min(cmp.Or(c.SessionCacheTTL, 2*time.Second), 5*time.Second)
	c.ResetTokenTTL = cmp.Or(c.ResetTokenTTL, time.Hour)
	c.InviteTokenTTL = cmp.Or(c.InviteTokenTTL, 7*24*time.Hour)
	c.VerifyTokenTTL = cmp.Or(c.VerifyTokenTTL, 48*time.Hour)
	c.PortalURL = strings.TrimRight(c.PortalURL, "/")
	if c.Notifier == nil {
		c.Notifier = discardNotifier{log: log}
	}
	return c
}

// Service implements sign-up, login, sessions, password lifecycle, API
// keys and staff accounts on PostgreSQL.
type Service struct {
	db  *gorm.DB
	cfg Config
	log *slog.Logger
	now func() time.Time
	// dummyHash is compared against when an account has no usable
	// password (unknown email, pending invite), so a login takes as long
	// for a stranger as for a member. Its password is random and never
	// kept: nothing can match it, and login refuses such accounts anyway.
	dummyHash string
	keys      *apiKeyCache
	sessions  *sessionCache
	mail      Notifier
	mailWG    sync.WaitGroup
}

// NewService returns a Service using db.
func NewService(db *gorm.DB, cfg Config, log *slog.Logger, now func() time.Time) (*Service, error) {
	cfg = cfg.withDefaults(log)
	if now == nil {
		now = time.Now
	}
	dummy, err := hashPassword(rand.Text(), cfg.BcryptCost)
	if err != nil {
		return nil, err
	}
	return &Service{db: db, cfg: cfg, log: log, now: now, dummyHash: dummy,
		keys: newAPIKeyCache(cfg.APIKeyCacheTTL, 100_000), sessions: newSessionCache(cfg.SessionCacheTTL, 100_000),
		mail: cfg.Notifier}, nil
}

// maxEmailLen is the longest email address (RFC 5321 path limit less the
// angle brackets); staff search takes queries up to the same length.
const maxEmailLen = 254

// normalizeEmail validates and lower-cases an email address.
func normalizeEmail(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", ferry.Invalid(field, "email is required")
	}
	if len(s) > maxEmailLen || !utf8.ValidString(s) {
		return "", ferry.Invalid(field, "email is not a valid address")
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || !strings.Contains(s, "@") {
		return "", ferry.Invalid(field, "email is not a valid address")
	}
	return strings.ToLower(s), nil
}

// LoginInput is what the login form sends, plus the client's address.
type LoginInput struct {
	Email    string `json:"email"`
	Password string `json:"password"`
	// TOTPCode is the staff second factor (RFC 6238, 6 digits).
	TOTPCode   string `json:"totp_code,omitempty"`
	ClientAddr string `json:"-"`
}

// Login checks an email and password against tenant users, then staff.
//
// Guessing is bounded before any password is compared: a failed-login
// slot is reserved atomically per account and per client address (see
// reserve), and given back only when the password was right. Once an
// account has MaxLoginFailures failures in the window, Login answers
// ERATELIMIT with the wait, the same for right and wrong passwords.
// Wrong credentials give EUNAUTHORIZED; a staff member who must give a
// TOTP code and gave none or a wrong one gets EUNAUTHORIZED with field
// "totp_code".
func (s *Service) Login(ctx context.Context, in LoginInput) (Principal, error) {
	email, err := normalizeEmail("email", in.Email)
	if err != nil {
		return Principal{}, err
	}
	accountKey, addrKey := keyLoginAccount+email, keyLoginAddr+clientKey(in.ClientAddr)
	if err := s.reserve(ctx, s.loginLimit(accountKey),
		throttleLimit{key: addrKey, max: s.cfg.MaxLoginFailuresPerAddr, window: s.cfg.LoginWindow,
			message: "too many failed logins from this address; try again later"}); err != nil {
		return Principal{}, err
	}
	p, hash, err := s.findCredentials(ctx, email)
	if err != nil {
		return Principal{}, err
	}
	// An account without a password (an invite not yet accepted) can
	// only be entered through its invite link; the compare still runs so
	// that it answers in the same time as any other wrong password.
	usable := hash != "" && p.Kind != ""
	if !usable {
		hash = s.dummyHash
	}
	ok, err := checkPassword(hash, in.Password)
	if err != nil {
		return Principal{}, err
	}
	if !ok || !usable {
		return Principal{}, ferry.Errorf(ferry.EUNAUTHORIZED, "email or password is incorrect")
	}
	if p.Kind == KindStaff {
		if err := s.checkStaffTOTP(ctx, p.UserID, in.TOTPCode); err != nil {
			if ferry.ErrorCode(err) == ferry.EUNAUTHORIZED && in.TOTPCode == "" {
				// The password was right: asking for the code is not a failure.
				_ = s.release(ctx, accountKey, addrKey)
			}
			return Principal{}, err
		}
	}
	keys := []string{accountKey}
	if s.cfg.MaxLoginFailuresPerAddr > 0 {
		keys = append(keys, addrKey)
	}
	if err := s.release(ctx, keys...); err != nil {
		return Principal{}, err
	}
	return s.Refresh(ctx, p)
}

// loginLimit is the per-account failed-login limit on key.
func (s *Service) loginLimit(key string) throttleLimit {
	return throttleLimit{key: key, max: s.cfg.MaxLoginFailures, window: s.cfg.LoginWindow,
		message: "too many failed logins for this account; try again later, or reset the password by email"}
}

// findCredentials returns the principal and password hash for email: a
// member, else an enabled staff account, else a zero Principal. An
// invited member who has not accepted yet has an empty hash.
func (s *Service) findCredentials(ctx context.Context, email string) (Principal, string, error) {
	db := s.db.WithContext(ctx)
	var users []userRow
	if err := db.Select("id", "tenant_id", "role", "password_hash").Where("lower(email) = ?", email).
		Limit(1).Find(&users).Error; err != nil {
		return Principal{}, "", fmt.Errorf("find user: %w", err)
	}
	if len(users) == 1 {
		u := users[0]
		return Principal{Kind: KindUser, TenantID: u.TenantID, UserID: u.ID, Email: email, Role: u.Role}, u.PasswordHash, nil
	}
	var staff []staffRow
	if err := db.Select("id", "password_hash").Where("lower(email) = ? AND disabled_at IS NULL", email).
		Limit(1).Find(&staff).Error; err != nil {
		return Principal{}, "", fmt.Errorf("find staff: %w", err)
	}
	if len(staff) == 1 {
		return Principal{Kind: KindStaff, UserID: staff[0].ID, Email: email}, staff[0].PasswordHash, nil
	}
	return Principal{}, "", nil
}

// Tenant returns one tenant, or ENOTFOUND.
func (s *Service) Tenant(ctx context.Context, id uuid.UUID) (Tenant, error) {
	var row tenantRow
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Tenant{}, ferry.NotFound("tenant")
	}
	if err != nil {
		return Tenant{}, fmt.Errorf("load tenant %s: %w", id, err)
	}
	return row.tenant(), nil
}

// TenantOfMember returns the tenant whose member (not a pending invitee)
// signs in with email, or ENOTFOUND. Operator commands take it so that
// whoever signed up can name their tenant by the address they know.
func (s *Service) TenantOfMember(ctx context.Context, email string) (Tenant, error) {
	var ids []uuid.UUID
	err := s.db.WithContext(ctx).Model(&userRow{}).Where("lower(email) = lower(?) AND password_hash <> ''", strings.TrimSpace(email)).
		Limit(1).Pluck("tenant_id", &ids).Error
	if err != nil {
		return Tenant{}, fmt.Errorf("find the tenant of %s: %w", email, err)
	}
	if len(ids) == 0 {
		return Tenant{}, ferry.NotFound("tenant")
	}
	return s.Tenant(ctx, ids[0])
}

// CreateAPIKey creates a key for tenantID and returns it with the secret,
// which is never retrievable again.
func (s *Service) CreateAPIKey(ctx context.Context, tenantID uuid.UUID, name string) (APIKey, string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return APIKey{}, "", ferry.Invalid("name", "name is required")
	}
	if utf8.RuneCountInString(name) > 100 || !utf8.ValidString(name) {
		return APIKey{}, "", ferry.Invalid("name", "name must be at most 100 characters of valid UTF-8")
	}
	secret, prefix := newAPIKeySecret()
	k := APIKey{ID: uuid.New(), Name: name, Prefix: prefix, CreatedAt: s.now().UTC()}
	hash := hashAPIKey(secret)
	err := s.db.WithContext(ctx).Create(&apiKeyRow{ID: k.ID, TenantID: tenantID, Name: k.Name, Prefix: k.Prefix,
		KeyHash: hash[:], CreatedAt: k.CreatedAt}).Error
	if err != nil {
		return APIKey{}, "", fmt.Errorf("insert api key: %w", err)
	}
	return k, secret, nil
}

// ListAPIKeys returns the tenant's keys, newest first, revoked included.
func (s *Service) ListAPIKeys(ctx context.Context, tenantID uuid.UUID) ([]APIKey, error) {
	var rows []apiKeyRow
	err := s.db.WithContext(ctx).Select("id", "name", "prefix", "created_at", "last_used_at", "revoked_at").
		Scopes(forTenant(tenantID)).Order("created_at DESC").Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("list api keys: %w", err)
	}
	keys := make([]APIKey, len(rows))
	for i, r := range rows {
		keys[i] = r.apiKey()
	}
	return keys, nil
}

// RevokeAPIKey revokes one key; ENOTFOUND if the tenant has no such key.
func (s *Service) RevokeAPIKey(ctx context.Context, tenantID, id uuid.UUID) error {
	res := s.db.WithContext(ctx).Model(&apiKeyRow{}).Scopes(forTenant(tenantID)).Where("id = ?", id).
		Update("revoked_at", gorm.Expr("coalesce(revoked_at, ?)", s.now().UTC()))
	if res.Error != nil {
		return fmt.Errorf("revoke api key: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return ferry.NotFound("api key")
	}
	s.keys.forget(id)
	return nil
}

// AuthenticateAPIKey returns the principal for a presented key, or
// EUNAUTHORIZED when the key is unknown or revoked.
func (s *Service) AuthenticateAPIKey(ctx context.Context, key string) (Principal, error) {
	if !looksLikeAPIKey(key) {
		return Principal{}, ferry.Errorf(ferry.EUNAUTHORIZED, "API key is invalid")
	}
	hash := hashAPIKey(key)
	now := s.now().UTC()
	cached, hit := s.keys.get(hash, now)
	store := !hit
	if !hit {
		var rows []apiKeyRow
		// The key cache in front keeps this off the per-request path, so
		// it is ordinary query building.
		if err := s.db.WithContext(ctx).Select("id", "tenant_id", "prefix", "last_used_at").
			Where("key_hash = ? AND revoked_at IS NULL", hash[:]).Limit(1).Find(&rows).Error; err != nil {
			return Principal{}, fmt.Errorf("find api key: %w", err)
		}
		if len(rows) == 0 {
			return Principal{}, ferry.Errorf(ferry.EUNAUTHORIZED, "API key is invalid or revoked")
		}
		row := rows[0]
		cached = cachedKey{loadedAt: now,
			principal: Principal{Kind: KindAPIKey, TenantID: row.TenantID, KeyID: row.ID, KeyPrefix: row.Prefix, Role: RoleAdmin}}
		if row.LastUsedAt != nil {
			cached.lastUsed = *row.LastUsedAt
		}
	}
	// Recording every use would put a write on every request; a minute's
	// resolution is what the portal shows anyway.
	if now.Sub(cached.lastUsed) > time.Minute {
		if err := s.db.WithContext(ctx).Model(&apiKeyRow{}).Where("id = ?", cached.principal.KeyID).
			Update("last_used_at", now).Error; err != nil {
			s.log.WarnContext(ctx, "record api key use", "err", err, "tenant_id", cached.principal.TenantID)
		} else {
			cached.lastUsed = now
			store = true
		}
	}
	if store {
		s.keys.put(hash, cached)
	}
	return cached.principal, nil
}

func isUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "23505"
}
