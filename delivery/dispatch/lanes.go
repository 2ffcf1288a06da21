package dispatch

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/model"
)

// errStopped is returned by Submit once the dispatcher has stopped.
var errStopped = errors.New("dispatcher stopped")

// Admission, in one worker (see docs/delivery.md, fairness):
//
//   - Each endpoint has a FIFO lane served by at most its concurrency
//     limit of workers: max_in_flight, halved on every timed-out attempt
//     and raised by one on every other, so a hanging endpoint holds few
//     connections until it recovers.
//   - Each tenant may hold MaxQueuedPerTenant jobs in memory and run
//     MaxInFlightPerTenant attempts at once; each lane MaxQueuedPerEndpoint
//     jobs; the worker MaxQueued, beyond which only tenants under their
//     share of it are admitted.
//   - A job over a cap, or for a lane that already has parked jobs (to
//     keep acceptance order), is parked in Postgres and its offset
//     committed, so the fetch loop never waits on one tenant. A parked
//     job is not an attempt. As soon as its lane has room again (every
//     finished job checks), its parked jobs come back oldest first,
//     straight into the lane.
//   - A lane hands each finished HTTP exchange to a goroutine that makes
//     the next step and the attempt log entry durable, and takes its next
//     job at once; the job counts against the caps until that is done.
//     A tenant may have MaxTakenPerTenant jobs taken and not yet done;
//     at that bound its lanes' workers wait for its own jobs to finish,
//     so endpoints that answer faster than the attempt log commits hold
//     that many goroutines, not one per queued job (a released burst
//     held 5,000, 40 MB of stacks).
type lanes struct {
	d   *Dispatcher
	cfg Config

	ready     chan struct{}   // closed by start
	ctx       context.Context // attempts and background work run under it
	parkSlots chan struct{}   // bounds parks in progress: Submit's only backpressure

	mu          sync.Mutex
	byEndpoint  map[uuid.UUID]*lane
	byTenant    map[uuid.UUID]*tenantLoad
	parkedLanes map[*lane]struct{} // lanes with jobs in the parking lot
	held        int                // jobs admitted and not yet done
	// recent maps a delivery to the attempt this worker is making, until
	// it is durable, and then for a little longer than a prefetched state
	// may be used: a duplicate job (republished by a sweeper, redelivered
	// by Kafka) arriving meanwhile, or admitted with its state prefetched
	// before the attempt finished, is skipped rather than sent twice.
	recent map[uuid.UUID]recentAttempt

	background sync.WaitGroup // workers, parkers, unparkers, finishers
}

type lane struct {
	endpointID  uuid.UUID
	tenant      *tenantLoad
	queue       []laneItem
	held        int // queued, being attempted, or being made durable
	running     int // workers
	maxInFlight int // the endpoint's setting
	limit       int // current concurrency, 1..maxInFlight
	parked      int // parked and not yet claimed back
	unparking   bool
	waiting     bool // wants a worker; its tenant is at MaxInFlightPerTenant
}

type tenantLoad struct {
	id      uuid.UUID
	lanes   int
	held    int
	running int
	waiting []*lane
	taken   int        // taken from a lane and not yet done
	room    *sync.Cond // signalled when taken falls; L is lanes.mu
}

type recentAttempt struct {
	attempt int
	doneAt  time.Time // zero while the attempt is in progress
}

type laneItem struct {
	job   model.Job
	done  func()
	state *stateRequest // prefetched near the head of the lane, or nil
}

func newLanes(d *Dispatcher, cfg Config) *lanes {
	return &lanes{
		d: d, cfg: cfg, ready: make(chan struct{}), parkSlots: make(chan struct{}, 4*maxParkBatch),
		byEndpoint: make(map[uuid.UUID]*lane), byTenant: make(map[uuid.UUID]*tenantLoad),
		parkedLanes: make(map[*lane]struct{}), recent: make(map[uuid.UUID]recentAttempt),
	}
}

// start lets jobs in; attempts run under ctx. A background loop retries
// unparking once a second, in case no finishing job of a lane triggers it.
func (l *lanes) start(ctx context.Context) {
	l.ctx = ctx
	close(l.ready)
	l.background.Add(1)
	go func() {
		defer l.background.Done()
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				l.mu.Lock()
				for ln := range l.parkedLanes {
					l.unparkLocked(ln)
				}
				old := l.d.now().Add(-2 * maxPrefetchAge)
				for id, a := range l.recent {
					if !a.doneAt.IsZero() && a.doneAt.Before(old) {
						delete(l.recent, id)
					}
				}
				l.mu.Unlock()
			}
		}
	}()
}

// wait returns once every goroutine of the lanes has ended (after the
// context given to start is cancelled).
func (l *lanes) wait() { l.background.Wait() }

func (l *lanes) submit(ctx context.Context, job model.Job, done func()) error {
	select {
	case <-l.ready:
	case <-ctx.Done():
		return ctx.Err()
	}
	if l.ctx.Err() != nil {
		return errStopped
	}
	maxInFlight := delivery.DefaultMaxInFlight
	if tgt, err := l.d.endpoints.get(ctx, job.EndpointID); err == nil && !tgt.deleted {
		maxInFlight = max(1, tgt.endpoint.MaxInFlight)
	}
	l.mu.Lock()
	ln := l.laneLocked(job, maxInFlight)
	t := ln.tenant
	if ln.parked > 0 || ln.held >= l.cfg.MaxQueuedPerEndpoint || t.held >= l.cfg.MaxQueuedPerTenant ||
		(l.held >= l.cfg.MaxQueued && t.held >= l.cfg.MaxQueued/len(l.byTenant)) {
		ln.parked++
		l.parkedLanes[ln] = struct{}{}
		l.mu.Unlock()
		return l.park(ctx, ln, job, done)
	}
	l.admitLocked(ln, laneItem{job: job, done: done})
	l.mu.Unlock()
	return nil
}

// laneLocked returns job's lane, creating it (and its tenant's load).
func (l *lanes) laneLocked(job model.Job, maxInFlight int) *lane {
	ln := l.byEndpoint[job.EndpointID]
	if ln == nil {
		t := l.byTenant[job.TenantID]
		if t == nil {
			t = &tenantLoad{id: job.TenantID, room: sync.NewCond(&l.mu)}
			l.byTenant[job.TenantID] = t
		}
		t.lanes++
		ln = &lane{endpointID: job.EndpointID, tenant: t, maxInFlight: maxInFlight, limit: maxInFlight}
		l.byEndpoint[job.EndpointID] = ln
	}
	if ln.maxInFlight != maxInFlight { // the endpoint was edited
		ln.maxInFlight, ln.limit = maxInFlight, min(max(ln.limit, 1), maxInFlight)
	}
	return ln
}

func (l *lanes) admitLocked(ln *lane, item laneItem) {
	ln.queue = append(ln.queue, item)
	l.prefetchLocked(ln, len(ln.queue)-1)
	ln.held++
	ln.tenant.held++
	l.held++
	l.d.metrics.Queued.Inc()
	l.startWorkerLocked(ln)
}

// prefetchLocked starts reading the delivery state of ln.queue[i] if it
// is within two rounds of the lane's workers: near the head the read
// overlaps the wait for a worker; deeper in a backlog it would only go
// stale (older than maxPrefetchAge) and be read again.
func (l *lanes) prefetchLocked(ln *lane, i int) {
	if i < 0 || i >= len(ln.queue) || i >= 2*ln.limit || ln.queue[i].state != nil {
		return
	}
	ln.queue[i].state = l.d.states.prefetch(l.ctx, ln.queue[i].job.DeliveryID, l.d.now())
}

// startWorkerLocked starts a worker for ln if its concurrency allows and
// its tenant has an in-flight slot; otherwise the lane waits for one.
func (l *lanes) startWorkerLocked(ln *lane) {
	if ln.running >= ln.limit || len(ln.queue) == 0 {
		return
	}
	t := ln.tenant
	if t.running >= l.cfg.MaxInFlightPerTenant {
		if !ln.waiting {
			ln.waiting = true
			t.waiting = append(t.waiting, ln)
		}
		return
	}
	ln.running++
	t.running++
	l.background.Add(1)
	go l.work(ln)
}

// park stores job in the parking lot off the fetch loop; done is called
// once it is durable. Only a backed-up parking lot makes it wait.
func (l *lanes) park(ctx context.Context, ln *lane, job model.Job, done func()) error {
	select {
	case l.parkSlots <- struct{}{}:
	case <-ctx.Done():
		l.mu.Lock()
		ln.parked--
		l.forgetLocked(ln)
		l.mu.Unlock()
		return ctx.Err()
	}
	stored := l.d.parking.park(l.ctx, job)
	l.background.Add(1)
	go func() {
		defer l.background.Done()
		defer func() { <-l.parkSlots }()
		err := <-stored
		l.mu.Lock()
		defer l.mu.Unlock()
		if err != nil { // stopping: the job stays uncommitted in Kafka
			ln.parked--
			l.forgetLocked(ln)
			return
		}
		l.d.metrics.Parked.Inc()
		done()
		l.unparkLocked(ln)
	}()
	return nil
}

// unparkLocked claims ln's parked jobs back into the lane when it, its
// tenant and the worker have room.
func (l *lanes) unparkLocked(ln *lane) {
	t := ln.tenant
	if ln.parked == 0 || ln.unparking || l.ctx.Err() != nil || ln.held > l.cfg.MaxQueuedPerEndpoint/2 {
		return
	}
	room := min(l.cfg.MaxQueuedPerEndpoint-ln.held, l.cfg.MaxQueuedPerTenant-t.held, l.cfg.MaxQueued-l.held, maxParkBatch)
	if room <= 0 {
		return
	}
	ln.unparking = true
	l.background.Add(1)
	go func() {
		defer l.background.Done()
		jobs, err := l.d.parking.claim(l.ctx, ln.endpointID, room)
		l.mu.Lock()
		defer l.mu.Unlock()
		ln.unparking = false
		if err != nil {
			if l.ctx.Err() == nil {
				l.d.log.Warn("taking parked jobs back failed; retrying", "endpoint_id", ln.endpointID, "err", err)
			}
			return // the once-a-second loop tries again
		}
		ln.parked -= len(jobs)
		if ln.parked == 0 {
			delete(l.parkedLanes, ln)
		}
		for _, pj := range jobs {
			id := pj.id
			l.admitLocked(ln, laneItem{job: pj.job, done: func() {
				if err := l.d.parking.release(l.ctx, id); err != nil {
					l.d.log.Warn("releasing a parked job's row failed; it will be republished", "err", err)
				}
			}})
		}
		l.forgetLocked(ln)
	}()
}

// work serves one lane until it is empty or over its concurrency limit.
func (l *lanes) work(ln *lane) {
	defer l.background.Done()
	t := ln.tenant
	for {
		l.mu.Lock()
		for t.taken >= l.cfg.MaxTakenPerTenant && l.ctx.Err() == nil {
			t.room.Wait()
		}
		if len(ln.queue) == 0 || ln.running > ln.limit || l.ctx.Err() != nil {
			// A wake-up this worker does not use passes on to another of
			// the tenant's waiting workers; when stopping, all of them.
			if l.ctx.Err() != nil {
				t.room.Broadcast()
			} else {
				t.room.Signal()
			}
			ln.running--
			t.running--
			for len(t.waiting) > 0 && t.running < l.cfg.MaxInFlightPerTenant {
				next := t.waiting[0]
				t.waiting = t.waiting[1:]
				next.waiting = false
				l.startWorkerLocked(next)
			}
			l.forgetLocked(ln)
			l.mu.Unlock()
			return
		}
		item := ln.queue[0]
		ln.queue[0] = laneItem{}
		ln.queue = ln.queue[1:]
		t.taken++
		l.prefetchLocked(ln, 2*ln.limit-1) // the job that just moved into the window
		job := item.job
		if l.recent[job.DeliveryID].attempt >= job.Attempt {
			l.mu.Unlock()
			l.d.metrics.Queued.Dec()
			l.d.metrics.Skipped.Inc()
			l.background.Add(1)
			go l.finish(ln, item, nil, true, false)
			continue
		}
		l.recent[job.DeliveryID] = recentAttempt{attempt: job.Attempt}
		l.mu.Unlock()

		l.d.metrics.Queued.Dec()
		l.d.metrics.InFlight.Inc()
		p, ok := l.attempt(item.job, item.state)
		l.d.metrics.InFlight.Dec()
		if p != nil {
			l.mu.Lock()
			if p.timedOut {
				ln.limit = max(1, ln.limit/2)
			} else if ln.limit < ln.maxInFlight {
				ln.limit++
			}
			l.mu.Unlock()
		}
		l.background.Add(1)
		go l.finish(ln, item, p, ok, true)
	}
}

// attempt calls Dispatcher.attempt until it succeeds; false means the
// dispatcher is stopping and the job goes back to Kafka uncommitted.
func (l *lanes) attempt(job model.Job, pre *stateRequest) (*pendingAttempt, bool) {
	wait := 100 * time.Millisecond
	for {
		p, err := l.d.attempt(l.ctx, job, pre)
		pre = nil // a retry reads afresh
		if err == nil {
			return p, true
		}
		if l.ctx.Err() != nil {
			return nil, false
		}
		l.d.log.Warn("handling job failed; retrying", "err", err, "delivery_id", job.DeliveryID,
			"endpoint_id", job.EndpointID, "tenant_id", job.TenantID, "backoff", wait)
		t := time.NewTimer(wait)
		select {
		case <-l.ctx.Done():
			t.Stop()
			return nil, false
		case <-t.C:
		}
		wait = min(wait*2, 10*time.Second)
	}
}

// finish makes an attempt durable (p is nil for a skipped job), then lets
// its offset be committed and frees its room in the caps. attempted says
// the job holds its delivery's entry in recent.
func (l *lanes) finish(ln *lane, item laneItem, p *pendingAttempt, ok, attempted bool) {
	defer l.background.Done()
	if ok && p != nil {
		ok = l.d.complete(l.ctx, p) == nil
	}
	if ok {
		item.done()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if r := l.recent[item.job.DeliveryID]; attempted && r.attempt == item.job.Attempt {
		if ok && p != nil {
			l.recent[item.job.DeliveryID] = recentAttempt{attempt: r.attempt, doneAt: l.d.now()}
		} else {
			delete(l.recent, item.job.DeliveryID)
		}
	}
	ln.held--
	ln.tenant.held--
	l.held--
	ln.tenant.taken--
	ln.tenant.room.Signal()
	l.unparkLocked(ln)
	// Room freed in the tenant or the worker may let another lane's
	// parked jobs back; map order spreads the chances.
	tries := 0
	for other := range l.parkedLanes {
		if tries++; tries > 4 {
			break
		}
		l.unparkLocked(other)
	}
	l.forgetLocked(ln)
}

// forgetLocked drops an idle lane, and its tenant's load once that has no
// lane left, so memory follows the work in flight.
func (l *lanes) forgetLocked(ln *lane) {
	if ln.held > 0 || ln.parked > 0 || ln.running > 0 || ln.unparking || ln.waiting || l.byEndpoint[ln.endpointID] != ln {
		return
	}
	delete(l.byEndpoint, ln.endpointID)
	delete(l.parkedLanes, ln)
	t := ln.tenant
	if t.lanes--; t.lanes == 0 {
		delete(l.byTenant, t.id)
	}
}

// drain waits until no admitted job is left, or ctx ends. Unparking may
// still admit jobs while it waits; they are waited for too.
func (l *lanes) drain(ctx context.Context) error {
	t := time.NewTicker(10 * time.Millisecond)
	defer t.Stop()
	for {
		l.mu.Lock()
		held := l.held
		l.mu.Unlock()
		if held == 0 {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}
