package delivery

import (
	"context"
	"sync"
)

// coalescer gathers concurrent requests into batches: callers queue items,
// and up to maxWorkers goroutines each take everything queued (at most
// maxBatch) and hand it to process, until the queue is empty. Under light
// load a batch is one item, so no caller waits for others; under heavy
// load a round trip (and a commit) is shared by many. Ingest group commit
// and the dispatcher's state reads use it.
type coalescer[T any] struct {
	maxBatch, maxWorkers int
	process              func(ctx context.Context, batch []T)

	mu      sync.Mutex
	pending []T
	workers int
}

func newCoalescer[T any](maxBatch, maxWorkers int, process func(context.Context, []T)) *coalescer[T] {
	return &coalescer[T]{maxBatch: maxBatch, maxWorkers: maxWorkers, process: process}
}

// add queues item. A worker started here runs detached from ctx's
// cancellation: the batch it takes also holds other callers' items.
func (c *coalescer[T]) add(ctx context.Context, item T) {
	c.mu.Lock()
	c.pending = append(c.pending, item)
	start := c.workers < c.maxWorkers
	if start {
		c.workers++
	}
	c.mu.Unlock()
	if start {
		go c.run(context.WithoutCancel(ctx))
	}
}

// run processes queued batches until the queue is empty.
func (c *coalescer[T]) run(ctx context.Context) {
	for {
		c.mu.Lock()
		n := min(len(c.pending), c.maxBatch)
		if n == 0 {
			c.workers--
			c.mu.Unlock()
			return
		}
		batch := make([]T, n)
		copy(batch, c.pending)
		rest := copy(c.pending, c.pending[n:])
		clear(c.pending[rest:])
		c.pending = c.pending[:rest]
		c.mu.Unlock()
		c.process(ctx, batch)
	}
}
