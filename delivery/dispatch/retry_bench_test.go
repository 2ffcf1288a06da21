package dispatch

import (
	"testing"
	"time"
)

// BenchmarkRetryPolicy times the next-attempt computation and the tier
// choice made after every failed attempt.
func BenchmarkRetryPolicy(b *testing.B) {
	p := RetryPolicy{Scale: 1}
	tiers := p.Tiers()
	first := time.Now()
	b.Run("next", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			n = n%14 + 1
			_, _ = p.Next(n, first, first.Add(time.Hour), 0)
		}
	})
	b.Run("tier-for", func(b *testing.B) {
		b.ReportAllocs()
		d := time.Duration(0)
		for b.Loop() {
			d = (d + 37*time.Second) % (9 * time.Hour)
			_ = TierFor(tiers, d)
		}
	})
}
