// Package batch gathers concurrent requests into batches so that many
// callers share one round trip or one commit.
package batch

import (
	"context"
	"sync"
	"time"
)

// Coalescer gathers concurrent requests into batches: callers queue items,
// and up to maxWorkers goroutines each take everything queued (at most
// maxBatch) and hand it to process, until the queue is empty. Under light
// load a batch is one item, so no caller waits for others; under heavy
// load a round trip (and a commit) is shared by many. Ingest group commit
// (through Do, so that its callers run the batch) and the dispatcher's
// state reads use it, inbound captures a paced one
// (NewPaced) and inbound's event maker a lingering one (NewLingering).
type Coalescer[T any] struct {
	maxBatch, maxWorkers int
	linger, pace         time.Duration
	// full cuts a linger or a pace short once a full batch is queued.
	full    chan struct{}
	process func(ctx context.Context, batch []T)

	mu       sync.Mutex
	pending  []T
	workers  int
	lastTake time.Time // when a worker last took a batch (paced only)
	running  sync.WaitGroup
}

// New returns a Coalescer that hands batches of at most maxBatch items to
// process, from at most maxWorkers goroutines at a time.
func New[T any](maxBatch, maxWorkers int, process func(context.Context, []T)) *Coalescer[T] {
	return &Coalescer[T]{maxBatch: maxBatch, maxWorkers: maxWorkers, process: process}
}

// NewLingering is New for work nobody waits on: before taking a batch
// that is not full, a worker waits linger for more items, trading that
// much latency for fewer, larger batches (fewer round trips and commits
// for the same work).
func NewLingering[T any](maxBatch, maxWorkers int, linger time.Duration, process func(context.Context, []T)) *Coalescer[T] {
	return &Coalescer[T]{maxBatch: maxBatch, maxWorkers: maxWorkers, linger: linger, full: make(chan struct{}, 1), process: process}
}

// NewPaced is New for work callers wait on that is worth batching under
// load: a worker takes a batch that is not full no sooner than pace after
// the last batch was taken. An item arriving after a quiet spell goes at
// once; under a steady flow batches grow to what arrives in pace, so each
// caller waits at most pace longer and the flow costs fewer round trips
// and commits.
func NewPaced[T any](maxBatch, maxWorkers int, pace time.Duration, process func(context.Context, []T)) *Coalescer[T] {
	return &Coalescer[T]{maxBatch: maxBatch, maxWorkers: maxWorkers, pace: pace, full: make(chan struct{}, 1), process: process}
}

// Add queues item. A worker started here is not cancelled with ctx (the
// batch it takes also holds other callers' items, each of which watches
// its own context) but is tracked: Wait returns once it has finished.
func (c *Coalescer[T]) Add(ctx context.Context, item T) {
	c.mu.Lock()
	c.pending = append(c.pending, item)
	if c.full != nil && len(c.pending) >= c.maxBatch {
		select {
		case c.full <- struct{}{}:
		default:
		}
	}
	start := c.workers < c.maxWorkers
	if start {
		c.workers++
		c.running.Add(1)
	}
	c.mu.Unlock()
	if start {
		go c.run(context.WithoutCancel(ctx))
	}
}

// Wait blocks until no worker is running or ctx ends; owners call it on
// shutdown so that no batch outlives them.
func (c *Coalescer[T]) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		c.running.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Do queues item, and when a worker slot is free the caller takes it:
// it processes one batch itself (its own item in it unless more than
// maxBatch were queued ahead) and leaves what is queued after that to a
// worker of its own. A caller that waits for its item anyway loses
// nothing by doing the work, and a request at a low rate then costs no
// goroutine start and no thread woken to run it. Only for coalescers
// made with New: a lingering or paced batch would hold the caller.
func (c *Coalescer[T]) Do(ctx context.Context, item T) {
	if c.linger > 0 || c.pace > 0 {
		c.Add(ctx, item)
		return
	}
	c.mu.Lock()
	c.pending = append(c.pending, item)
	if c.workers >= c.maxWorkers {
		c.mu.Unlock()
		return
	}
	c.workers++
	c.running.Add(1)
	batch := c.takeLocked()
	c.mu.Unlock()
	ctx = context.WithoutCancel(ctx)
	c.process(ctx, batch)
	c.mu.Lock()
	more := len(c.pending) > 0
	if !more {
		c.workers--
	}
	c.mu.Unlock()
	if more {
		go c.run(ctx)
		return
	}
	c.running.Done()
}

// run processes queued batches until the queue is empty.
func (c *Coalescer[T]) run(ctx context.Context) {
	defer c.running.Done()
	for {
		if c.linger > 0 {
			c.mu.Lock()
			full := len(c.pending) >= c.maxBatch
			c.mu.Unlock()
			if !full {
				c.sleep(c.linger)
			}
		}
		c.mu.Lock()
		if len(c.pending) == 0 {
			c.workers--
			c.mu.Unlock()
			return
		}
		if c.pace > 0 {
			if wait := time.Until(c.lastTake.Add(c.pace)); wait > 0 && len(c.pending) < c.maxBatch {
				c.mu.Unlock()
				c.sleep(wait)
				continue
			}
			c.lastTake = time.Now()
		}
		batch := c.takeLocked()
		c.mu.Unlock()
		c.process(ctx, batch)
	}
}

// takeLocked removes and returns the oldest queued items, at most
// maxBatch; c.mu is held.
func (c *Coalescer[T]) takeLocked() []T {
	n := min(len(c.pending), c.maxBatch)
	batch := make([]T, n)
	copy(batch, c.pending)
	rest := copy(c.pending, c.pending[n:])
	clear(c.pending[rest:])
	c.pending = c.pending[:rest]
	return batch
}

// sleep waits d, or less once a full batch is queued.
func (c *Coalescer[T]) sleep(d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-c.full:
	}
}
