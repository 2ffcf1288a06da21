package batch

import (
	"context"
	"testing"
)

// BenchmarkOneCallerAtATime is a request at a low rate: each caller
// queues one item and waits for its batch before the next comes.
func BenchmarkOneCallerAtATime(b *testing.B) {
	for _, tc := range []struct {
		name string
		call func(c *Coalescer[chan struct{}], done chan struct{})
	}{
		{"Add", func(c *Coalescer[chan struct{}], done chan struct{}) { c.Add(context.Background(), done) }},
		{"Do", func(c *Coalescer[chan struct{}], done chan struct{}) { c.Do(context.Background(), done) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			c := New(100, 2, func(_ context.Context, batch []chan struct{}) {
				for _, d := range batch {
					d <- struct{}{}
				}
			})
			done := make(chan struct{}, 1)
			b.ReportAllocs()
			for b.Loop() {
				tc.call(c, done)
				<-done
			}
		})
	}
}
