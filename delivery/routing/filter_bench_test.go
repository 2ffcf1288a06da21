package routing

import (
	"encoding/json"
	"testing"
	"time"
)

// BenchmarkFilterEval measures one cached filter evaluation on a prepared
// event, and preparing (decoding) the event once.
func BenchmarkFilterEval(b *testing.B) {
	f, err := NewFilters(Config{})
	if err != nil {
		b.Fatal(err)
	}
	ev := Event{ID: "e", Type: "order.created", CreatedAt: time.Now(),
		Data: json.RawMessage(`{"amount":4200,"currency":"EUR","customer":{"tier":"gold"},"items":[{"sku":"a"},{"sku":"b"}]}`)}
	in := Prepare(ev)
	for _, src := range []string{
		`event.data.amount > 1000`,
		`event.data.amount >= 1000 && event.data.currency == "EUR" && event.data.customer.tier == "gold"`,
		`event.data.items.exists(i, i.sku == "b")`,
	} {
		b.Run(src, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if ok, err := f.Eval(src, in); err != nil || !ok {
					b.Fatal(ok, err)
				}
			}
		})
	}
	b.Run("prepare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Prepare(ev)
		}
	})
}
