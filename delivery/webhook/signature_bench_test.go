package webhook

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/uuid"
)

// BenchmarkSign signs a typical 1 KiB envelope with one key, and with two
// during a rotation's grace period.
func BenchmarkSign(b *testing.B) {
	key := bytes.Repeat([]byte{7}, 32)
	body := Envelope(uuid.New(), "invoice.paid", time.Now(), bytes.Repeat([]byte(`{"a":1}`), 140))
	id := uuid.NewString()
	b.Run("one-key", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			_ = SignatureHeader([][]byte{key}, id, 1763789000, body)
		}
	})
	b.Run("rotation-two-keys", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		b.ReportAllocs()
		for b.Loop() {
			_ = SignatureHeader([][]byte{key, key[1:]}, id, 1763789000, body)
		}
	})
	b.Run("verify", func(b *testing.B) {
		sig := Sign(key, id, 1763789000, body)
		b.ReportAllocs()
		for b.Loop() {
			if !Verify(key, id, 1763789000, body, sig) {
				b.Fatal("does not verify")
			}
		}
	})
}
