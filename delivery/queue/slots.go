package queue

import (
	"sync"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
)

// Default caps on the consumers waiting at once in one process.
const (
	DefaultMaxWaitersPerTenant = 100
	DefaultMaxWaitersPerQueue  = 20
)

// waitRetryAfter is the Retry-After of a consumer refused a waiting
// slot: a slot frees up as soon as another long-poll returns (at most
// MaxWaitSeconds later) or a stream ends, and a refused consumer that
// retries sooner only spends requests.
const waitRetryAfter = 5

// waitSlots caps the long-polls and streams that wait at once in this
// process, per tenant and per queue. Each waiter holds a connection to
// the HTTP server and a place in the listener's line, and every one a
// notification wakes runs a lease statement; without a cap a tenant
// could hold thousands at its API rate and make the database work for
// them all. Counts are per process: with N API replicas a tenant may
// hold N times the caps, as with the API rate limit.
type waitSlots struct {
	perTenant, perQueue int

	mu      sync.Mutex
	tenants map[uuid.UUID]int
	queues  map[uuid.UUID]int
}

func newWaitSlots(perTenant, perQueue int) *waitSlots {
	return &waitSlots{perTenant: perTenant, perQueue: perQueue, tenants: map[uuid.UUID]int{}, queues: map[uuid.UUID]int{}}
}

// acquire takes a slot of tenantID and of its queue endpointID, or
// returns ERATELIMIT (with Retry-After) when either is full. release
// gives the slot back; calling it again does nothing.
func (w *waitSlots) acquire(tenantID, endpointID uuid.UUID) (release func(), err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.queues[endpointID] >= w.perQueue:
		return nil, &ferry.Error{Code: ferry.ERATELIMIT, RetryAfterSeconds: waitRetryAfter,
			Message: "too many consumers waiting on this queue at once (long-polls and streams); retry later or use fewer consumers"}
	case w.tenants[tenantID] >= w.perTenant:
		return nil, &ferry.Error{Code: ferry.ERATELIMIT, RetryAfterSeconds: waitRetryAfter,
			Message: "too many consumers waiting on this tenant's queues at once (long-polls and streams); retry later or use fewer consumers"}
	}
	w.tenants[tenantID]++
	w.queues[endpointID]++
	var once sync.Once
	return func() { once.Do(func() { w.release(tenantID, endpointID) }) }, nil
}

func (w *waitSlots) release(tenantID, endpointID uuid.UUID) {
	w.mu.Lock()
	defer w.mu.Unlock()
	// Zero counts are deleted: the maps hold only tenants and queues with
	// waiters now.
	if w.tenants[tenantID]--; w.tenants[tenantID] <= 0 {
		delete(w.tenants, tenantID)
	}
	if w.queues[endpointID]--; w.queues[endpointID] <= 0 {
		delete(w.queues, endpointID)
	}
}

// held returns how many slots tenantID holds, and how many its queue
// endpointID holds.
func (w *waitSlots) held(tenantID, endpointID uuid.UUID) (tenant, queue int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.tenants[tenantID], w.queues[endpointID]
}
