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

// A Cipher with other keys opens what they sealed, seals only with its
// own, and Reseal moves a secret to its own key (and leaves one already
// there as it was).
func TestRotation(t *testing.T) {
	t.Parallel()
	oldKey, newKey, strange := bytes.Repeat([]byte{1}, 32), bytes.Repeat([]byte{2}, 32), bytes.Repeat([]byte{3}, 32)
	old, err := New(oldKey)
	if err != nil {
		t.Fatal(err)
	}
	both, err := New(newKey, oldKey)
	if err != nil {
		t.Fatal(err)
	}
	onlyNew, _ := New(newKey)
	aad := []byte("source-1")
	underOld := old.Seal([]byte("tok_1"), aad)
	if pt, err := both.Open(underOld, aad); err != nil || string(pt) != "tok_1" {
		t.Fatalf("the other key's secret: %q, %v", pt, err)
	}
	if _, err := onlyNew.Open(underOld, aad); err == nil {
		t.Fatal("the new key alone opened the old key's secret")
	}
	if _, err := old.Open(both.Seal([]byte("tok_2"), aad), aad); err == nil {
		t.Error("a Cipher sealed with one of its other keys")
	}

	moved, changed, err := both.Reseal(underOld, aad)
	if err != nil || !changed {
		t.Fatalf("reseal the old key's secret: changed %v, %v", changed, err)
	}
	if pt, err := onlyNew.Open(moved, aad); err != nil || string(pt) != "tok_1" {
		t.Fatalf("the resealed secret under the new key alone: %q, %v", pt, err)
	}
	if again, changed, err := both.Reseal(moved, aad); err != nil || changed || !bytes.Equal(again, moved) {
		t.Errorf("reseal a secret already under the sealing key: changed %v, same %v, %v", changed, bytes.Equal(again, moved), err)
	}
	if _, _, err := both.Reseal(underOld, []byte("source-2")); err == nil {
		t.Error("resealed a secret under another owner's additional data")
	}
	stranger, _ := New(strange)
	if _, _, err := both.Reseal(stranger.Seal([]byte("x"), aad), aad); err == nil {
		t.Error("resealed a secret that none of the keys sealed")
	}
	if _, err := New(newKey, make([]byte, 16)); err == nil {
		t.Error("a 16-byte other key was accepted")
	}
}
