package batch

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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

func TestPacedCoalescer(t *testing.T) {
	const pace = 300 * time.Millisecond
	var mu sync.Mutex
	var got []int
	var at []time.Duration
	start := time.Now()
	c := NewPaced(4, 2, pace, func(_ context.Context, b []int) {
		mu.Lock()
		got = append(got, len(b))
		at = append(at, time.Since(start))
		mu.Unlock()
	})
	wait := func() {
		t.Helper()
		if err := c.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
	}

	// After a quiet spell an item goes at once.
	c.Add(context.Background(), 0)
	wait()
	// Right after a batch, items wait for the pace and go together.
	for i := range 3 {
		c.Add(context.Background(), i)
	}
	wait()
	// A full batch does not wait for the pace.
	fullAt := time.Since(start)
	for i := range 4 {
		c.Add(context.Background(), i)
	}
	wait()

	mu.Lock()
	defer mu.Unlock()
	if want := []int{1, 3, 4}; len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("batches %v, want %v", got, want)
	}
	if at[0] >= pace/2 {
		t.Errorf("the first item waited %s: nothing came before it", at[0])
	}
	if gap := at[1] - at[0]; gap < pace-10*time.Millisecond {
		t.Errorf("the second batch went %s after the first, want ≥ %s", gap, pace)
	}
	if waited := at[2] - fullAt; waited >= pace/2 {
		t.Errorf("a full batch waited %s", waited)
	}
}

func TestDoRunsInTheCallerWhenASlotIsFree(t *testing.T) {
	var mu sync.Mutex
	var got [][]int
	release := make(chan struct{})
	c := New(10, 1, func(_ context.Context, b []int) {
		if b[0] == 0 {
			<-release // holds the only slot while 1 and 2 queue
		}
		mu.Lock()
		got = append(got, b)
		mu.Unlock()
	})
	processed := func() [][]int {
		mu.Lock()
		defer mu.Unlock()
		return append([][]int(nil), got...)
	}

	first := make(chan struct{})
	go func() {
		c.Do(context.Background(), 0)
		close(first)
	}()
	require.Eventually(t, func() bool { c.mu.Lock(); defer c.mu.Unlock(); return c.workers == 1 },
		5*time.Second, time.Millisecond, "the first caller took the only slot")
	// The slot is taken: these return at once and wait for a worker.
	c.Do(context.Background(), 1)
	c.Do(context.Background(), 2)
	if n := len(processed()); n != 0 {
		t.Fatalf("%d batches processed while the only slot was held", n)
	}
	close(release)
	<-first
	if err := c.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if b := processed(); len(b) != 2 || len(b[0]) != 1 || len(b[1]) != 2 {
		t.Fatalf("batches %v, want [[0] [1 2]]", b)
	}

	// With the slot free again, the caller's item is processed before Do returns.
	c.Do(context.Background(), 3)
	if b := processed(); len(b) != 3 || b[2][0] != 3 {
		t.Fatalf("after Do returned, batches %v: want [3] processed by the caller", b)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.workers != 0 {
		t.Errorf("%d workers left running", c.workers)
	}
}
