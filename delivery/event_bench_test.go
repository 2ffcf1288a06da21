package delivery

import (
	"bytes"
	"encoding/json"
	"testing"
)

// BenchmarkEventValidate measures the validation (compaction) ingest does
// first, for small and 64 KiB payloads.
func BenchmarkEventValidate(b *testing.B) {
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
			raw, _ := json.Marshal(map[string]any{"type": "invoice.paid", "data": json.RawMessage(data)})
			b.SetBytes(int64(len(raw)))
			b.ReportAllocs()
			for b.Loop() {
				var in EventInput
				if err := json.Unmarshal(raw, &in); err != nil {
					b.Fatal(err)
				}
				if err := in.validate(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
