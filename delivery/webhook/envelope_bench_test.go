package webhook

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/uuid"
)

// BenchmarkEnvelope builds the POST body for small and 64 KiB payloads.
func BenchmarkEnvelope(b *testing.B) {
	id := uuid.New()
	at := time.Date(2026, 11, 22, 5, 23, 8, 123e6, time.UTC)
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"small", []byte(`{"amount":4200,"currency":"eur"}`)},
		{"64KiB", bytes.Repeat([]byte(`{"k":"vvvvvvvvvvvvvvvvvvvvvvvvvv"},`), 2048)},
	} {
		data := tc.data
		if data[len(data)-1] == ',' {
			data = append(append([]byte{'['}, data[:len(data)-1]...), ']')
		}
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				_ = Envelope(id, "invoice.paid", at, data)
			}
		})
	}
}
