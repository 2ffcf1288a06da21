// Package seal encrypts small secrets at rest (endpoint signing secrets,
// source tokens and secrets, staff authenticator keys) with AES-256-GCM
// under the master key from configuration, each bound to its owner by
// additional data so a ciphertext copied to another row does not open.
//
// A Cipher may also hold other master keys, which open but never seal:
// that is how the master key is rotated (docs/operations.md, Rotating
// secrets). Reseal moves a secret sealed under one of them to the
// sealing key.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"fmt"
)

// Cipher seals secrets with one master key and opens them with it or
// with any of its other keys.
type Cipher struct {
	aead cipher.AEAD
	// others open what the master keys before (or after) this one sealed.
	others []cipher.AEAD
}

// New returns a Cipher that seals with masterKey and opens with it or
// any of others; every key is 32 bytes.
func New(masterKey []byte, others ...[]byte) (*Cipher, error) {
	aead, err := newAEAD(masterKey)
	if err != nil {
		return nil, err
	}
	c := &Cipher{aead: aead}
	for i, k := range others {
		o, err := newAEAD(k)
		if err != nil {
			return nil, fmt.Errorf("other master key %d: %w", i+1, err)
		}
		c.others = append(c.others, o)
	}
	return c, nil
}

func newAEAD(key []byte) (cipher.AEAD, error) {
	if len(key) != 32 {
		return nil, fmt.Errorf("master key must be 32 bytes, got %d", len(key))
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("new aes cipher: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("new gcm: %w", err)
	}
	return aead, nil
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

// Open decrypts what Seal produced with the same aad, under the sealing
// key or any other key of the Cipher.
func (c *Cipher) Open(ciphertext, aad []byte) ([]byte, error) {
	pt, _, err := c.open(ciphertext, aad)
	return pt, err
}

// Reseal returns ciphertext sealed under the sealing key: itself when it
// already is (changed false), or sealed again when one of the other keys
// opened it (changed true). Errors: no key opens it.
func (c *Cipher) Reseal(ciphertext, aad []byte) (_ []byte, changed bool, err error) {
	pt, byOther, err := c.open(ciphertext, aad)
	if err != nil || !byOther {
		return ciphertext, false, err
	}
	return c.Seal(pt, aad), true, nil
}

// open decrypts ciphertext and says whether a key other than the sealing
// key was needed.
func (c *Cipher) open(ciphertext, aad []byte) (_ []byte, byOther bool, _ error) {
	n := c.aead.NonceSize()
	if len(ciphertext) < n {
		return nil, false, errors.New("ciphertext too short")
	}
	pt, err := c.aead.Open(nil, ciphertext[:n], ciphertext[n:], aad)
	if err == nil {
		return pt, false, nil
	}
	for _, o := range c.others {
		if pt, oerr := o.Open(nil, ciphertext[:n], ciphertext[n:], aad); oerr == nil {
			return pt, true, nil
		}
	}
	return nil, false, fmt.Errorf("decrypt secret: %w", err)
}
