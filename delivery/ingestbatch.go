package delivery

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/store"

	"github.com/ferry-dev/ferry/dbtx"
)

// Group commit for ingest. Concurrent Ingest calls without an idempotency
// key queue up here; a few committer goroutines each take everything
// queued (up to maxIngestBatch) and write it in ONE transaction: one
// routing query, billing's two per tenant (its plan; its terms and
// counters), one statement for the events, deliveries and outbox rows,
// one commit (one WAL flush). Every caller still returns only after the
// transaction holding its event committed
// (docs/contract.md#durability-on-ingest).
// Under light load a batch is a single event, so latency does not suffer;
// under heavy load round trips and commits are shared by hundreds of
// events and far fewer pooled connections are held.
//
// A batch that fails for any reason is retried event by event on the
// ordinary path, so each caller gets its own answer (a quota refusal for
// one tenant never fails another's event).
//
// Transformations never run in a batch's transaction, nor while other
// events wait: the committer routes the batch (one read, in the
// transaction), commits at once the events none of whose endpoints has a
// transformation, and hands the others to a goroutine of their own,
// which runs their transformations (at most a few of a tenant's at a
// time, in the sandbox) and queues them again with the results, to be
// committed by a later batch without routing them again. An event whose
// tenant's transformations hang waits for them alone.
const (
	maxIngestBatch = 500
	// Two committers keep one commit's fsync overlapping the next batch's
	// statements; more only split batches and collide on billing's
	// counter rows (measured: 2,650 → 2,735 events/s going from 4 to 2).
	maxIngestCommitters = 2
	ingestBatchTimeout  = 30 * time.Second
)

type ingestRequest struct {
	tenantID uuid.UUID
	in       EventInput
	ev       Event
	done     chan ingestResult
	// routed says matches holds the endpoints the event goes to (route),
	// with their transformations' results once run.
	routed  bool
	matches []batchMatch
}

// pendingTransforms reports whether a transformation of r's matches is
// still to run.
func (r *ingestRequest) pendingTransforms() bool {
	for k := range r.matches {
		if r.matches[k].needsTransform() {
			return true
		}
	}
	return false
}

type ingestResult struct {
	ev      Event
	created bool
	err     error
}

// ingestBatched queues one validated event without an idempotency key
// and waits until its transaction committed (or ctx ends: the event may
// then still be committed, as with any abandoned request).
func (s *Service) ingestBatched(ctx context.Context, tenantID uuid.UUID, in EventInput, ev Event) (Event, bool, error) {
	req := &ingestRequest{tenantID: tenantID, in: in, ev: ev, done: make(chan ingestResult, 1)}
	s.ingest.Add(ctx, req)
	select {
	case r := <-req.done:
		return r.ev, r.created, r.err
	case <-ctx.Done():
		return Event{}, false, ctx.Err()
	}
}

func (s *Service) commitBatch(ctx context.Context, batch []*ingestRequest) {
	tctx, cancel := context.WithTimeout(ctx, ingestBatchTimeout)
	defer cancel()
	if len(batch) == 1 {
		s.commitOne(ctx, tctx, batch[0])
		return
	}
	var jobs []model.Job
	var queues []uuid.UUID
	rest := batch // what this transaction commits, or else the fallback
	var later []*ingestRequest
	err := s.db.WithContext(tctx).Transaction(func(tx *gorm.DB) error {
		if err := s.route(tx, batch); err != nil {
			return err
		}
		rest, later = splitPending(batch)
		if len(rest) == 0 {
			return nil
		}
		var err error
		jobs, queues, _, err = s.insertBatch(tctx, tx, rest) // nothing deferred on this path
		return err
	})
	for _, r := range later {
		s.transformLater(ctx, r)
	}
	if err != nil {
		s.log.Debug("ingest batch failed; retrying its events one by one", "err", err, "events", len(rest))
		for _, r := range rest {
			s.commitOne(ctx, tctx, r)
		}
		return
	}
	if len(rest) == 0 {
		return
	}
	s.wakeQueues(queues)
	if len(jobs) > 0 {
		s.relay.Enqueue(jobs)
	}
	for _, r := range rest {
		s.accepted(r.tenantID)
		r.done <- ingestResult{ev: r.ev, created: true}
	}
	s.cfg.IngestBatch.Observe(float64(len(rest)))
}

// splitPending splits routed requests into those ready to commit and
// those with transformations still to run.
func splitPending(batch []*ingestRequest) (ready, pending []*ingestRequest) {
	for _, r := range batch {
		if r.pendingTransforms() {
			pending = append(pending, r)
		} else {
			ready = append(ready, r)
		}
	}
	return ready, pending
}

// commitOne commits r in a transaction of its own (with tctx, the
// batch's deadline), or hands it to transformLater when its
// transformations are still to run.
func (s *Service) commitOne(ctx, tctx context.Context, r *ingestRequest) {
	ev, created, err := s.ingestOne(tctx, r, false)
	if errors.Is(err, errTransformFirst) {
		s.transformLater(ctx, r)
		return
	}
	r.done <- ingestResult{ev, created, err}
	if err == nil && created {
		s.cfg.IngestBatch.Observe(1)
	}
}

// transformLater runs r's pending transformations on a goroutine of its
// own and queues r again to be committed with their results; r's caller
// keeps waiting on r.done. ctx is not cancelled with any caller's request
// (as a batch's is not): the sandbox's deadline bounds each run.
func (s *Service) transformLater(ctx context.Context, r *ingestRequest) {
	ctx = context.WithoutCancel(ctx)
	s.background.Add(1)
	go func() {
		defer s.background.Done()
		if err := s.transformMatches(ctx, r.tenantID, r.ev, r.matches); err != nil {
			r.done <- ingestResult{err: err}
			return
		}
		s.ingest.Add(ctx, r)
	}()
}

// insertBatch writes the events of batch, their deliveries and outbox
// rows in tx, and returns the jobs to publish and the queue endpoints to
// wake once tx commits. Every request of batch is routed, its
// transformations run or deferred: a deferred one's delivery is stored
// pending, without an outbox row, and returned in pending for
// FinishTransforms once tx commits.
func (s *Service) insertBatch(ctx context.Context, tx *gorm.DB, batch []*ingestRequest) ([]model.Job, []uuid.UUID, PendingTransforms, error) {
	if s.limits != nil {
		perTenant := map[uuid.UUID]int{}
		for _, r := range batch {
			perTenant[r.tenantID]++
		}
		meter := s.limits.Meter(dbtx.Wrap(tx))
		for tenantID, n := range perTenant {
			if err := meter.ConsumeEvents(ctx, tenantID, n); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	events := make([]store.Event, len(batch))
	rows := fanOutRows{FanOut: store.FanOut{Sender: s.queueSender()}}
	for i, r := range batch {
		events[i] = store.Event{ID: r.ev.ID, TenantID: r.tenantID, Type: r.ev.Type, Data: string(r.ev.Data),
			CustomerID: r.ev.customerID, CustomerUID: r.ev.Customer, CreatedAt: r.ev.CreatedAt}
		rows.add(r.tenantID, r.ev, r.matches)
	}
	inserted, err := store.InsertEventsFanOut(ctx, store.Gorm(tx), events, rows.FanOut)
	if err != nil {
		return nil, nil, nil, err
	}
	if inserted != len(batch) {
		return nil, nil, nil, fmt.Errorf("insert events: %d of %d were new", inserted, len(batch))
	}
	return rows.Jobs, rows.Queues, rows.pending, nil
}
