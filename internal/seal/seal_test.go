package seal

import (
	"bytes"
	"testing"
)

func TestSealOpen(t *testing.T) {
	t.Parallel()
	c, err := New(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	ct := c.Seal([]byte("whsec_secret"), []byte("endpoint-1"))
	if bytes.Contains(ct, []byte("whsec_secret")) {
		t.Fatal("the plaintext shows in the ciphertext")
	}
	if pt, err := c.Open(ct, []byte("endpoint-1")); err != nil || string(pt) != "whsec_secret" {
		t.Fatalf("open: %q, %v", pt, err)
	}
	if bytes.Equal(ct, c.Seal([]byte("whsec_secret"), []byte("endpoint-1"))) {
		t.Error("two seals of one secret are equal: the nonce is not random")
	}
	for name, tc := range map[string]struct {
		ct, aad []byte
	}{
		"another owner": {ct, []byte("endpoint-2")},
		"tampered":      {append(append([]byte{}, ct[:len(ct)-1]...), ct[len(ct)-1]^1), []byte("endpoint-1")},
		"too short":     {ct[:5], []byte("endpoint-1")},
	} {
		if _, err := c.Open(tc.ct, tc.aad); err == nil {
			t.Errorf("%s: opened", name)
		}
	}
	other, _ := New(bytes.Repeat([]byte{8}, 32))
	if _, err := other.Open(ct, []byte("endpoint-1")); err == nil {
		t.Error("another master key opened it")
	}
	if _, err := New(make([]byte, 16)); err == nil {
		t.Error("a 16-byte master key was accepted")
	}
}
