package batch

import (
	"context"
	"time"
)

// Pace spaces the batches of one writer that takes its items from a
// channel: a batch that is not full begins no sooner than Every after the
// previous one began. An item after a quiet spell goes at once; under a
// steady flow each batch holds what arrived in Every, so writes that no
// request or delivery waits on (the attempt log, the relay's deletes)
// cost fewer statements and commits for the same rows. The zero Pace
// never waits. A Pace is not safe for concurrent use.
type Pace[T any] struct {
	Every time.Duration
	began time.Time
}

// Fill adds to a batch from ch: what arrives until Every has passed since
// the previous batch began, then what is already queued; it stops early
// once full reports true or ctx ends. It then counts the batch as begun.
func (p *Pace[T]) Fill(ctx context.Context, ch <-chan T, add func(T), full func() bool) {
	defer func() { p.began = time.Now() }()
	if wait := time.Until(p.began.Add(p.Every)); wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
	paced:
		for !full() {
			select {
			case item := <-ch:
				add(item)
			case <-t.C:
				break paced
			case <-ctx.Done():
				return
			}
		}
	}
	for !full() {
		select {
		case item := <-ch:
			add(item)
		default:
			return
		}
	}
}
