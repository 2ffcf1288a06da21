package tenants

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"strings"
	"time"

	"github.com/google/uuid"
)

// APIKey is a tenant application's credential. The key itself is shown
// once at creation; Ferry stores only its SHA-256 and a visible prefix.
type APIKey struct {
	ID         uuid.UUID  `json:"id"`   // the key's id
	Name       string     `json:"name"` // the label given at creation
	Prefix     string     `json:"prefix"`
	CreatedAt  time.Time  `json:"created_at"`   // when the key was created
	LastUsedAt *time.Time `json:"last_used_at"` // when a request last authenticated with the key; null if never
	RevokedAt  *time.Time `json:"revoked_at"`   // when the key was revoked; null while it works
}

const (
	apiKeyScheme    = "fry_live_"
	apiKeyPrefixLen = len(apiKeyScheme) + 6
)

var keyEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// newAPIKeySecret returns a fresh key (fry_live_ + 160 random bits) and
// its visible prefix.
func newAPIKeySecret() (key, prefix string) {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	key = apiKeyScheme + keyEncoding.EncodeToString(b)
	return key, key[:apiKeyPrefixLen]
}

// hashAPIKey is what the store keeps. A fast hash is right here: the key
// carries 160 random bits, so there is nothing to brute-force.
func hashAPIKey(key string) [32]byte {
	return sha256.Sum256([]byte(key))
}

// looksLikeAPIKey reports whether s has the shape of a Ferry API key.
func looksLikeAPIKey(s string) bool {
	return strings.HasPrefix(s, apiKeyScheme) && len(s) == len(apiKeyScheme)+32
}
