package webhook

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// secretPrefix starts every endpoint signing secret (Standard Webhooks).
const secretPrefix = "whsec_"

// NewSigningSecret returns a fresh whsec_ secret of 32 random bytes.
func NewSigningSecret() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return secretPrefix + base64.StdEncoding.EncodeToString(b)
}

// SecretKey returns the HMAC key bytes of a whsec_ secret.
func SecretKey(secret string) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
	if err != nil {
		return nil, fmt.Errorf("decode signing secret: %w", err)
	}
	if len(b) < 24 || len(b) > 64 {
		return nil, errors.New("signing secret must hold 24 to 64 bytes")
	}
	return b, nil
}
