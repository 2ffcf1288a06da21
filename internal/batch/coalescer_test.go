package batch

import (
	"context"
	"sync"
	"testing"
	"time"
)

func TestLingeringCoalescer(t *testing.T) {
	tests := []struct {
		name     string
		maxBatch int
		linger   time.Duration
		add      int
		// within bounds how long the first batch may take: shorter than
		// the linger where a full batch must not wait for it.
		within  time.Duration
		batches []int
	}{
		{name: "items queued during the linger make one batch", maxBatch: 100, linger: 300 * time.Millisecond, add: 10, within: 5 * time.Second, batches: []int{10}},
		{name: "a full batch goes at once", maxBatch: 4, linger: 10 * time.Second, add: 4, within: 5 * time.Second, batches: []int{4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var got []int
			done := make(chan struct{}, 10)
			c := NewLingering(tc.maxBatch, 1, tc.linger, func(_ context.Context, b []int) {
				mu.Lock()
				got = append(got, len(b))
				mu.Unlock()
				done <- struct{}{}
			})
			for i := range tc.add {
				c.Add(context.Background(), i)
			}
			select {
			case <-done:
			case <-time.After(tc.within):
				t.Fatalf("no batch within %s", tc.within)
			}
			if err := c.Wait(context.Background()); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(got) != len(tc.batches) || got[0] != tc.batches[0] {
				t.Errorf("batches %v, want %v", got, tc.batches)
			}
		})
	}
}
