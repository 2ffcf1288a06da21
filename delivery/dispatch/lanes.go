package dispatch

import (
	"context"
	"sync"
	"time"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/google/uuid"
)

// lanes schedules jobs per endpoint: each endpoint has a FIFO lane served
// by at most max_in_flight workers, so first attempts start in the order
// they were fetched (acceptance order) and a slow endpoint only ever holds
// its own workers, never another endpoint's.
type lanes struct {
	d       *Dispatcher
	slots   chan struct{} // one per job held in memory
	laneCap int           // jobs one lane may hold before new ones are parked

	mu         sync.Mutex
	byEndpoint map[uuid.UUID]*lane
	workCtx    context.Context
	pending    sync.WaitGroup
}

type lane struct {
	queue   []laneItem
	running int
}

type laneItem struct {
	job  delivery.Job
	done func()
}

func newLanes(d *Dispatcher, maxQueued, laneCap int) *lanes {
	return &lanes{d: d, slots: make(chan struct{}, maxQueued), laneCap: laneCap, byEndpoint: make(map[uuid.UUID]*lane),
		workCtx: context.Background()}
}

func (l *lanes) setWorkContext(ctx context.Context) {
	l.mu.Lock()
	l.workCtx = ctx
	l.mu.Unlock()
}

func (l *lanes) submit(ctx context.Context, job delivery.Job, done func()) error {
	l.mu.Lock()
	full := false
	if ln := l.byEndpoint[job.EndpointID]; ln != nil {
		full = len(ln.queue) >= l.laneCap
	}
	l.mu.Unlock()
	if full {
		// Parking keeps this endpoint's backlog from taking the slots
		// every other endpoint needs (no head-of-line blocking).
		if err := l.d.park(ctx, job); err != nil {
			return err
		}
		done()
		return nil
	}
	select {
	case l.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	maxInFlight := delivery.DefaultMaxInFlight
	if tgt, err := l.d.endpoints.get(ctx, job.EndpointID); err == nil && !tgt.deleted {
		maxInFlight = max(1, tgt.endpoint.MaxInFlight)
	}
	l.pending.Add(1)
	l.d.metrics.Queued.Inc()
	l.mu.Lock()
	ln := l.byEndpoint[job.EndpointID]
	if ln == nil {
		ln = &lane{}
		l.byEndpoint[job.EndpointID] = ln
	}
	ln.queue = append(ln.queue, laneItem{job: job, done: done})
	start := ln.running < maxInFlight
	if start {
		ln.running++
	}
	workCtx := l.workCtx
	l.mu.Unlock()
	if start {
		go l.work(workCtx, job.EndpointID, ln)
	}
	return nil
}

// work serves one lane until it is empty.
func (l *lanes) work(ctx context.Context, endpointID uuid.UUID, ln *lane) {
	for {
		l.mu.Lock()
		if len(ln.queue) == 0 {
			ln.running--
			if ln.running == 0 && l.byEndpoint[endpointID] == ln {
				delete(l.byEndpoint, endpointID)
			}
			l.mu.Unlock()
			return
		}
		item := ln.queue[0]
		ln.queue[0] = laneItem{}
		ln.queue = ln.queue[1:]
		l.mu.Unlock()

		l.d.metrics.Queued.Dec()
		l.d.metrics.InFlight.Inc()
		if l.handle(ctx, item.job) {
			item.done()
		}
		l.d.metrics.InFlight.Dec()
		<-l.slots
		l.pending.Done()
	}
}

// handle retries Handle until it succeeds (true) or ctx ends (false: the
// job is handed back to Kafka uncommitted).
func (l *lanes) handle(ctx context.Context, job delivery.Job) bool {
	backoff := 100 * time.Millisecond
	for {
		err := l.d.Handle(ctx, job)
		if err == nil {
			return true
		}
		if ctx.Err() != nil {
			return false
		}
		l.d.log.Warn("handling job failed; retrying", "err", err, "delivery_id", job.DeliveryID,
			"endpoint_id", job.EndpointID, "tenant_id", job.TenantID, "backoff", backoff)
		select {
		case <-ctx.Done():
			return false
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 10*time.Second)
	}
}

func (l *lanes) drain(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		l.pending.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
