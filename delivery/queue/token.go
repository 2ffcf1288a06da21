package queue

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
)

// Consumer tokens let a consumer use one queue's routes and nothing else.
// Like API keys, the token is shown once and only its SHA-256 is kept: it
// carries 160 random bits, so a fast hash is right.
const (
	tokenScheme    = "fqc_"
	tokenPrefixLen = len(tokenScheme) + 6
	maxTokenName   = 100
)

var tokenEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// ConsumerToken is a queue's consumer credential as listed.
type ConsumerToken struct {
	ID         uuid.UUID  `json:"id"`          // the token's id
	EndpointID uuid.UUID  `json:"endpoint_id"` // the queue endpoint the token may pull from
	Name       string     `json:"name"`        // the label given at creation
	Prefix     string     `json:"prefix"`      // visible prefix of the token, e.g. fqc_ab12cd
	CreatedAt  time.Time  `json:"created_at"`  // when the token was created
	RevokedAt  *time.Time `json:"revoked_at"`  // when it was revoked; null while it works
}

// TokenInput is the body of a consumer token creation.
type TokenInput struct {
	Name string `json:"name"` // a label for the token
}

// Scope is what a consumer token may use: one queue of one tenant.
type Scope struct {
	TenantID   uuid.UUID
	EndpointID uuid.UUID
	TokenID    uuid.UUID
}

// LooksLikeToken reports whether s has a consumer token's shape.
func LooksLikeToken(s string) bool { return strings.HasPrefix(s, tokenScheme) }

func hashToken(tok string) []byte {
	h := sha256.Sum256([]byte(tok))
	return h[:]
}

// CreateToken issues a consumer token for the tenant's queue endpoint and
// returns it with the token itself (shown only now). Errors: EINVALID,
// ENOTFOUND.
func (s *Service) CreateToken(ctx context.Context, tenantID, endpointID uuid.UUID, in TokenInput) (ConsumerToken, string, error) {
	name := strings.TrimSpace(in.Name)
	if name == "" || !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxTokenName {
		return ConsumerToken{}, "", ferry.Invalid("name", "name must be 1 to %d characters", maxTokenName)
	}
	if _, err := s.queueEndpoint(ctx, tenantID, endpointID); err != nil {
		return ConsumerToken{}, "", err
	}
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		return ConsumerToken{}, "", fmt.Errorf("random token: %w", err)
	}
	tok := tokenScheme + tokenEncoding.EncodeToString(b)
	t := ConsumerToken{ID: uuid.New(), EndpointID: endpointID, Name: name, Prefix: tok[:tokenPrefixLen], CreatedAt: s.clock.Now().UTC()}
	if err := s.db.WithContext(ctx).Exec(`INSERT INTO queue_consumer_tokens (id, tenant_id, endpoint_id, name, prefix, token_hash, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, t.ID, tenantID, endpointID, t.Name, t.Prefix, hashToken(tok), t.CreatedAt).Error; err != nil {
		return ConsumerToken{}, "", fmt.Errorf("insert consumer token: %w", err)
	}
	return t, tok, nil
}

// Tokens lists the consumer tokens of the tenant's queue, newest first.
// Errors: ENOTFOUND.
func (s *Service) Tokens(ctx context.Context, tenantID, endpointID uuid.UUID) ([]ConsumerToken, error) {
	if _, err := s.queueEndpoint(ctx, tenantID, endpointID); err != nil {
		return nil, err
	}
	out := []ConsumerToken{}
	if err := s.db.WithContext(ctx).Raw(`SELECT id, endpoint_id, name, prefix, created_at, revoked_at FROM queue_consumer_tokens
		WHERE tenant_id = ? AND endpoint_id = ? ORDER BY created_at DESC, id DESC`, tenantID, endpointID).Scan(&out).Error; err != nil {
		return nil, fmt.Errorf("list consumer tokens: %w", err)
	}
	return out, nil
}

// RevokeToken revokes one consumer token of the tenant's queue at once.
// Errors: ENOTFOUND.
func (s *Service) RevokeToken(ctx context.Context, tenantID, endpointID, tokenID uuid.UUID) error {
	res := s.db.WithContext(ctx).Exec(`UPDATE queue_consumer_tokens SET revoked_at = coalesce(revoked_at, ?)
		WHERE id = ? AND tenant_id = ? AND endpoint_id = ?`, s.clock.Now().UTC(), tokenID, tenantID, endpointID)
	if res.Error != nil {
		return fmt.Errorf("revoke consumer token %s: %w", tokenID, res.Error)
	}
	if res.RowsAffected == 0 {
		return ferry.NotFound("consumer token")
	}
	return nil
}

// Authenticate returns the scope of a live consumer token. Errors:
// EUNAUTHORIZED (unknown or revoked), wrapped database errors.
func (s *Service) Authenticate(ctx context.Context, tok string) (Scope, error) {
	if !LooksLikeToken(tok) {
		return Scope{}, ferry.Errorf(ferry.EUNAUTHORIZED, "invalid consumer token")
	}
	var rows []struct {
		ID         uuid.UUID
		TenantID   uuid.UUID
		EndpointID uuid.UUID
	}
	if err := s.db.WithContext(ctx).Raw(`SELECT t.id, t.tenant_id, t.endpoint_id FROM queue_consumer_tokens t
		JOIN endpoints e ON e.id = t.endpoint_id AND e.deleted_at IS NULL
		WHERE t.token_hash = ? AND t.revoked_at IS NULL`, hashToken(tok)).Scan(&rows).Error; err != nil {
		return Scope{}, fmt.Errorf("look up consumer token: %w", err)
	}
	if len(rows) == 0 {
		return Scope{}, ferry.Errorf(ferry.EUNAUTHORIZED, "invalid or revoked consumer token")
	}
	return Scope{TenantID: rows[0].TenantID, EndpointID: rows[0].EndpointID, TokenID: rows[0].ID}, nil
}
