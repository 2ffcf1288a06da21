// Package seal encrypts small secrets at rest (endpoint signing secrets,
// source tokens and secrets, staff authenticator keys) with AES-256-GCM
// under the master key from configuration, each bound to its owner by
// additional data so a ciphertext copied to another row does not open.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
)

// Cipher seals and opens secrets with one master key.
type Cipher struct {
	aead cipher.AEAD
}

// New returns a Cipher for a 32-byte master key.
func New(masterKey []byte) (*Cipher, error) {
	if len(masterKey) != 32 {
		return nil, fmt.Errorf("master key must be 32 bytes, got %d", len(masterKey))
	}
	block, err := aes.NewCipher(masterKey)
	if err != nil {
		return nil, fmt.Errorf("new aes cipher: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("new gcm: %w", err)
	}
	return &Cipher{aead: aead}, nil
}

// Seal encrypts plaintext; the random nonce is prepended. aad binds the
// ciphertext to its owner so it cannot be moved to another row.
func (c *Cipher) Seal(plaintext, aad []byte) []byte {
	nonce := make([]byte, c.aead.NonceSize(), c.aead.NonceSize()+len(plaintext)+c.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return c.aead.Seal(nonce, nonce, plaintext, aad)
}

// Open decrypts what Seal produced with the same aad.
func (c *Cipher) Open(ciphertext, aad []byte) ([]byte, error) {
	n := c.aead.NonceSize()
	if len(ciphertext) < n {
		return nil, errors.New("ciphertext too short")
	}
	pt, err := c.aead.Open(nil, ciphertext[:n], ciphertext[n:], aad)
	if err != nil {
		return nil, fmt.Errorf("decrypt secret: %w", err)
	}
	return pt, nil
}
