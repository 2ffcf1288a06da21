package tenants

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/ferry-dev/ferry"
)

// tokenPurpose says what an emailed one-time token is for.
type tokenPurpose string

const (
	purposeReset  tokenPurpose = "password_reset"
	purposeInvite tokenPurpose = "invite"
	purposeVerify tokenPurpose = "verify_email"
)

// accountTokenRow is a row of account_tokens. Only the SHA-256 of the
// token is stored, so a database reader cannot use a pending link.
type accountTokenRow struct {
	ID        uuid.UUID `gorm:"primaryKey"`
	Purpose   tokenPurpose
	TokenHash []byte
	SubjectID uuid.UUID
	Kind      PrincipalKind
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    *time.Time
}

func (accountTokenRow) TableName() string { return "account_tokens" }

func hashToken(tok string) []byte {
	h := sha256.Sum256([]byte(tok))
	return h[:]
}

// newAccountToken stores a fresh token for subject and returns it (256
// random bits, base64url). Earlier unused tokens of the same purpose for
// subject are retired, so only the newest link works.
func newAccountToken(tx *gorm.DB, now time.Time, purpose tokenPurpose, kind PrincipalKind, subject uuid.UUID, ttl time.Duration) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("token randomness: %w", err)
	}
	tok := base64.RawURLEncoding.EncodeToString(b)
	if err := tx.Model(&accountTokenRow{}).Where("subject_id = ? AND purpose = ? AND used_at IS NULL", subject, purpose).
		Update("used_at", now).Error; err != nil {
		return "", fmt.Errorf("retire old %s tokens: %w", purpose, err)
	}
	row := accountTokenRow{ID: uuid.New(), Purpose: purpose, TokenHash: hashToken(tok), SubjectID: subject, Kind: kind,
		CreatedAt: now, ExpiresAt: now.Add(ttl)}
	if err := tx.Create(&row).Error; err != nil {
		return "", fmt.Errorf("insert %s token: %w", purpose, err)
	}
	return tok, nil
}

// useAccountToken marks a live token of purpose used, once, and returns
// its row. An unknown, used or expired token is EINVALID on field
// "token" with one message for all three, so nothing is learnt by trying.
func useAccountToken(tx *gorm.DB, now time.Time, purpose tokenPurpose, tok string) (accountTokenRow, error) {
	bad := ferry.Invalid("token", "this link is invalid, used or expired; ask for a new one")
	if tok == "" || len(tok) > 200 {
		return accountTokenRow{}, bad
	}
	var rows []accountTokenRow
	res := tx.Model(&rows).Clauses(clause.Returning{}).
		Where("token_hash = ? AND purpose = ? AND used_at IS NULL AND expires_at > ?", hashToken(tok), purpose, now).
		Update("used_at", now)
	if res.Error != nil {
		return accountTokenRow{}, fmt.Errorf("use %s token: %w", purpose, res.Error)
	}
	if len(rows) == 0 {
		return accountTokenRow{}, bad
	}
	return rows[0], nil
}

// link returns the portal URL of a page that takes tok. The token is in
// the fragment, which browsers never send to a server or in a Referer.
func (s *Service) link(page, tok string) string {
	return s.cfg.PortalURL + "/" + page + "#token=" + tok
}

// sendMail runs send in the background, so a request's timing never
// depends on whether a mail was sent (no account enumeration) nor on the
// mail server's speed. Failures are logged.
func (s *Service) sendMail(ctx context.Context, what string, send func(context.Context) error) {
	ctx = context.WithoutCancel(ctx)
	s.mailWG.Add(1)
	go func() {
		defer s.mailWG.Done()
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := send(ctx); err != nil {
			s.log.ErrorContext(ctx, "send mail", "mail", what, "err", err)
		}
	}()
}

// WaitMail waits for mails being sent in the background (shutdown).
func (s *Service) WaitMail() { s.mailWG.Wait() }
