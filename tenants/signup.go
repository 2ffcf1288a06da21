package tenants

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/ferry-dev/ferry"
)

// Sign-up proves the address before anything exists. The form's answer
// is the same whether or not the address already has an account, so it
// tells nobody who uses Ferry; the mail to the address says what
// happened: a link that finishes the sign-up, or a note that an account
// exists with links to sign in or reset its password. The tenant and its
// owner are created when the link is followed (FinishSignup), with the
// address verified by that act.

// SignupInput is what the sign-up form sends.
type SignupInput struct {
	Email        string `json:"email"` // the owner's address; the link that finishes the sign-up is mailed there
	Password     string `json:"password"`
	Organization string `json:"organization"`
}

// pendingSignupRow is a row of pending_signups.
type pendingSignupRow struct {
	TokenHash    []byte `gorm:"primaryKey"`
	Email        string
	PasswordHash string
	Organization string
	CreatedAt    time.Time
	ExpiresAt    time.Time
}

func (pendingSignupRow) TableName() string { return "pending_signups" }

// maxOrganizationLen bounds an organisation's name, in characters.
const maxOrganizationLen = 200

// Signup starts a sign-up: it mails the address a link that finishes it,
// or, when the address already has an account, a note saying so. Either
// way it returns nil, so the caller answers the same. A new sign-up for
// an address replaces its earlier unfinished ones. Errors: EINVALID (bad
// fields), ERATELIMIT (clientAddr has signed up too often), wrapped
// database errors.
func (s *Service) Signup(ctx context.Context, in SignupInput, clientAddr string) error {
	email, err := normalizeEmail("email", in.Email)
	if err != nil {
		return err
	}
	if err := s.reserve(ctx, throttleLimit{key: keySignupAddr + clientKey(clientAddr), max: s.cfg.SignupsPerAddr,
		window: s.cfg.SignupWindow, message: "too many sign-ups from this address; try again later"}); err != nil {
		return err
	}
	if err := validatePassword(in.Password); err != nil {
		return err
	}
	org := strings.TrimSpace(in.Organization)
	if org == "" {
		return ferry.Invalid("organization", "organization is required")
	}
	if utf8.RuneCountInString(org) > maxOrganizationLen || !utf8.ValidString(org) {
		return ferry.Invalid("organization", "organization must be at most %d characters of valid UTF-8", maxOrganizationLen)
	}
	// Hashed on both paths, so both take as long.
	hash, err := hashPassword(in.Password, s.cfg.BcryptCost)
	if err != nil {
		return err
	}
	existing, _, err := s.findCredentials(ctx, email)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	if existing.Kind != "" {
		// Mail bombing an account holder is bounded; the answer does not
		// change.
		if err := s.reserve(ctx, throttleLimit{key: keySignupAccount + email, max: 5, window: s.cfg.SignupWindow}); err != nil {
			s.log.WarnContext(ctx, "sign-up mails to an existing account throttled", "user_id", existing.UserID)
			return nil
		}
		signIn, reset := s.cfg.PortalURL+"/login", s.cfg.PortalURL+"/forgot-password"
		s.sendMail(ctx, "account_exists", func(ctx context.Context) error { return s.mail.AccountExists(ctx, email, signIn, reset) })
		return nil
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return fmt.Errorf("token randomness: %w", err)
	}
	tok := base64.RawURLEncoding.EncodeToString(b)
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("lower(email) = ? OR expires_at < ?", email, now).Delete(&pendingSignupRow{}).Error; err != nil {
			return fmt.Errorf("retire earlier sign-ups: %w", err)
		}
		row := pendingSignupRow{TokenHash: hashToken(tok), Email: email, PasswordHash: hash, Organization: org,
			CreatedAt: now, ExpiresAt: now.Add(s.cfg.VerifyTokenTTL)}
		if err := tx.Create(&row).Error; err != nil {
			return fmt.Errorf("store sign-up: %w", err)
		}
		return nil
	})
	if err != nil {
		return err
	}
	link := s.link("finish-signup", tok)
	s.sendMail(ctx, "finish_signup", func(ctx context.Context) error { return s.mail.FinishSignup(ctx, email, org, link) })
	return nil
}

// FinishSignup creates the tenant and its owner of the sign-up whose
// emailed token is token, with the address verified, and returns the
// owner (the caller starts a session). The token works once.
//
// The password chosen at sign-up must be given again: anyone can start a
// sign-up for someone else's address with a password of their own, and
// the address's owner, following that link unawares, would otherwise
// create an account its starter can sign in to. Errors: EINVALID (bad,
// used or expired token; a password other than the one chosen, field
// "password", the link still working), ECONFLICT (the address got an
// account meanwhile), wrapped database errors.
func (s *Service) FinishSignup(ctx context.Context, token, password string) (Principal, error) {
	invalid := ferry.Invalid("token", "this link is invalid, used or expired; sign up again")
	if token == "" || len(token) > 100 {
		return Principal{}, invalid
	}
	now := s.now().UTC()
	var p Principal
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []pendingSignupRow
		if err := tx.Clauses(clause.Returning{}).Where("token_hash = ?", hashToken(token)).Delete(&rows).Error; err != nil {
			return fmt.Errorf("take sign-up: %w", err)
		}
		if len(rows) == 0 || !now.Before(rows[0].ExpiresAt) {
			return invalid
		}
		su := rows[0]
		ok, err := checkPassword(su.PasswordHash, password)
		if err != nil {
			return err
		}
		if !ok {
			// Rolled back: the link keeps working for whoever chose it.
			return ferry.Invalid("password", "this is not the password chosen when signing up with this link")
		}
		tenantID, userID := uuid.New(), uuid.New()
		// Plan is left empty so the column default (free) applies.
		if err := tx.Create(&tenantRow{ID: tenantID, Name: su.Organization, CreatedAt: now}).Error; err != nil {
			return fmt.Errorf("insert tenant: %w", err)
		}
		err = tx.Create(&userRow{ID: userID, TenantID: tenantID, Email: su.Email, PasswordHash: su.PasswordHash, Role: RoleOwner,
			CreatedAt: now, EmailVerifiedAt: &now}).Error
		if isUniqueViolation(err) {
			return &ferry.Error{Code: ferry.ECONFLICT, Message: "an account with this email already exists; sign in instead", Field: "email"}
		}
		if err != nil {
			return fmt.Errorf("insert user: %w", err)
		}
		p = Principal{Kind: KindUser, TenantID: tenantID, UserID: userID, Email: su.Email, Role: RoleOwner}
		return nil
	})
	if err != nil {
		return Principal{}, err
	}
	s.log.InfoContext(ctx, "tenant signed up", "tenant_id", p.TenantID, "user_id", p.UserID)
	return p, nil
}
