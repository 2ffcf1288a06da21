package kafka

import (
	"math/rand/v2"
	"testing"
)

// TestOffsetsCommitOnlyContiguousDone checks that the offset to commit
// never passes a job still being handled, whatever order jobs finish in.
func TestOffsetsCommitOnlyContiguousDone(t *testing.T) {
	t.Parallel()
	o := newOffsets()
	for off := int64(10); off < 15; off++ {
		o.fetched(0, off)
	}
	o.fetched(1, 100)
	if got := o.committable(); got[0] != 10 || got[1] != 100 {
		t.Fatalf("nothing done yet: committable %v, want {0:10 1:100} (no progress)", got)
	}
	o.markCommitted(0, 10)
	o.markCommitted(1, 100)
	if got := o.committable(); len(got) != 0 {
		t.Fatalf("no progress since the last commit: committable %v, want nothing", got)
	}
	o.done(0, 12)
	o.done(0, 13)
	if got := o.committable(); len(got) != 0 {
		t.Fatalf("10 and 11 still pending: committable %v, want nothing", got)
	}
	o.done(0, 10)
	if got := o.committable(); got[0] != 11 {
		t.Fatalf("10 done, 11 pending: committable %v, want 0:11", got)
	}
	o.done(0, 11)
	if got := o.committable(); got[0] != 14 {
		t.Fatalf("10-13 done, 14 pending: committable %v, want 0:14", got)
	}
	o.done(0, 14)
	o.done(1, 100)
	if got := o.committable(); got[0] != 15 || got[1] != 101 {
		t.Fatalf("all done: committable %v, want {0:15 1:101}", got)
	}
}

// TestOffsetsDuplicateFetch checks an offset handed out twice (kafka-go
// may after a rebalance) is held until both handlers are done.
func TestOffsetsDuplicateFetch(t *testing.T) {
	t.Parallel()
	o := newOffsets()
	o.fetched(0, 5)
	o.fetched(0, 5)
	o.done(0, 5)
	if got := o.committable(); got[0] != 5 {
		t.Fatalf("one of two handlers of 5 pending: committable %v, want 0:5", got)
	}
	o.done(0, 5)
	if got := o.committable(); got[0] != 6 {
		t.Fatalf("committable %v, want 0:6", got)
	}
}

// TestOffsetsRandomOrder checks the invariant under random completion.
func TestOffsetsRandomOrder(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	o := newOffsets()
	const n = 500
	pending := map[int64]bool{}
	for off := int64(0); off < n; off++ {
		o.fetched(0, off)
		pending[off] = true
	}
	order := r.Perm(n)
	for _, i := range order {
		o.done(0, int64(i))
		delete(pending, int64(i))
		to := o.committable()[0]
		for off := range pending {
			if off < to {
				t.Fatalf("would commit %d while %d is still pending", to, off)
			}
		}
		if len(pending) > 0 {
			o.markCommitted(0, to)
		}
	}
	if got := o.committable()[0]; got != n {
		t.Fatalf("all done: committable %d, want %d", got, n)
	}
}
