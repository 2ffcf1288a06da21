package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/internal/pgval"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/store"

	"github.com/ferry-dev/ferry/dbtx"
)

// Group commit for ingest. Concurrent Ingest calls queue up here; a few
// committer goroutines each take everything queued (up to
// maxIngestBatch) and write it in ONE transaction of two round trips,
// whatever the batch holds (commitPipelined): the reads (the events
// holding the batch's idempotency keys, one routing query, each tenant's
// plan), then BEGIN, billing's metering statement per tenant, one
// statement for the events, deliveries and outbox rows, and COMMIT (one
// WAL flush). Each round trip is a pgx batch: a round trip costs more in
// waiting for a busy CPU than in the network, and sending the same
// transaction statement by statement (six round trips) made an event's
// commit at 500 events/s 1–3 ms slower (docs/benchmarks.md, 2026-11-26
// 14:57). Idempotency keys are settled in the batch too: a request whose
// key an event holds gets that event, and of several requests with one
// new key the first is written and the others get its event. Every
// caller still returns only after the transaction holding its event
// committed (docs/contract.md#durability-on-ingest).
// Under light load a batch is a single event, so latency does not suffer;
// under heavy load round trips and commits are shared by hundreds of
// events and far fewer pooled connections are held.
//
// When a tenant's limits refuse its events, the batch is written again
// with as many of them as the limits said would fit, and the others get
// the refusal; when the other committer took one of its idempotency keys
// meanwhile, it is read and written again. A batch that fails for any
// other reason is retried event by event on the ordinary path, so each
// caller gets its own answer.
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

// ingestBatched queues one validated event and waits until its
// transaction committed. When a committer is free the caller commits the
// batch itself (batch.Coalescer.Do); otherwise it waits for a committer
// or until ctx ends (the event may then still be committed, as with any
// abandoned request).
func (s *Service) ingestBatched(ctx context.Context, tenantID uuid.UUID, in EventInput, ev Event) (Event, bool, error) {
	req := &ingestRequest{tenantID: tenantID, in: in, ev: ev, done: make(chan ingestResult, 1)}
	s.ingest.Do(ctx, req)
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
	c, err := s.commitPipelined(tctx, batch)
	for _, r := range c.later {
		s.transformLater(ctx, r)
	}
	for _, a := range c.answered {
		a.r.done <- a.res
	}
	if err != nil {
		s.log.Debug("ingest batch failed; retrying its events one by one", "err", err, "events", len(c.committed))
		for _, r := range c.committed {
			s.commitOne(ctx, tctx, r)
		}
		for _, k := range c.repeats {
			s.commitOne(ctx, tctx, k.r)
		}
		return
	}
	committed := make(map[*ingestRequest]bool, len(c.committed))
	for _, r := range c.committed {
		committed[r] = true
	}
	for _, k := range c.repeats {
		if committed[k.first] {
			k.r.done <- k.answer()
		} else {
			// first left the batch (transformations to run, or its
			// tenant's limits): the key is settled alone.
			s.commitOne(ctx, tctx, k.r)
		}
	}
	if len(c.committed) == 0 {
		return
	}
	s.wakeQueues(c.queues)
	if len(c.jobs) > 0 {
		s.relay.Enqueue(c.jobs)
	}
	for _, r := range c.committed {
		s.accepted(r.tenantID)
		r.done <- ingestResult{ev: r.ev, created: true}
	}
	s.cfg.IngestBatch.Observe(float64(len(c.committed)))
}

// batchCommit is what commitPipelined did with a batch's requests.
type batchCommit struct {
	// committed are in the committed transaction (or, when it failed,
	// are to be retried one by one).
	committed []*ingestRequest
	// later have transformations to run first (transformLater).
	later []*ingestRequest
	// answered are answered without being written: their idempotency
	// key is held by an event accepted within the window (they get it, or
	// EKEYREUSED for a different event), or their tenant's limits refused
	// them.
	answered []answered
	// repeats claim the idempotency key of an earlier request of the
	// batch (first): once that commits they get its event, or EKEYREUSED;
	// if first left the batch, they are settled one by one.
	repeats []keyRepeat
	jobs    []model.Job
	queues  []uuid.UUID
}

// commitPipelined commits batch in one transaction of two round trips on
// one connection, each a pgx batch of statements: the reads
// (idempotency keys, routing, the tenants' plans), then BEGIN, billing's
// metering, the statement writing the events, deliveries and outbox rows
// and COMMIT. Anything failing in the second aborts the transaction, so
// its COMMIT commits nothing: a refusal of billing's (which then says
// how many of the tenant's events would fit), an event whose idempotency
// key another committer took meanwhile. After a refusal the writes are
// sent again with only the events that fit (leave), so that no tenant's
// refusal fails or slows another's events beyond a round trip.
func (s *Service) commitPipelined(ctx context.Context, batch []*ingestRequest) (batchCommit, error) {
	c := batchCommit{committed: batch}
	err := pgval.WithConn(ctx, s.db, func(pc *pgx.Conn) error {
		defer endTx(ctx, pc)
		reads := &pgx.Batch{}
		priors := queueKeyLookup(reads, batch)
		if err := s.queueRoute(reads, batch); err != nil {
			return err
		}
		var meter PipelineMeter
		if s.limits != nil {
			meter = s.limits.Pipeline()
			meter.QueuePlans(reads, slices.Collect(maps.Keys(countByTenant(batch))))
		}
		if reads.Len() > 0 {
			if err := pc.SendBatch(ctx, reads).Close(); err != nil {
				return err
			}
		}
		release := c.claimKeys(priors)
		c.committed, c.later = splitPending(c.committed)
		keysReread := false
		for len(c.committed) > 0 {
			writes := &pgx.Batch{}
			writes.Queue("BEGIN")
			if len(release) > 0 {
				writes.Queue(`UPDATE events SET idempotency_key = NULL WHERE id = ANY($1::uuid[])`, pgval.Array(release))
			}
			checks := map[uuid.UUID]func() (int, error){}
			if meter != nil {
				for tenantID, n := range countByTenant(c.committed) {
					checks[tenantID] = meter.QueueConsumeEvents(writes, tenantID, n)
				}
			}
			events := make([]store.Event, len(c.committed))
			rows := fanOutRows{FanOut: store.FanOut{Sender: s.queueSender()}}
			for i, r := range c.committed {
				events[i] = store.Event{ID: r.ev.ID, TenantID: r.tenantID, Type: r.ev.Type, Data: string(r.ev.Data),
					IdempotencyKey: r.ev.IdempotencyKey, CustomerID: r.ev.customerID, CustomerUID: r.ev.Customer,
					CreatedAt: r.ev.CreatedAt}
				rows.add(r.tenantID, r.ev, r.matches)
			}
			if err := store.QueueEventsFanOut(writes, events, rows.FanOut); err != nil {
				return err
			}
			writes.Queue("COMMIT")
			sendErr := pc.SendBatch(ctx, writes).Close()
			refused := map[uuid.UUID]refusal{}
			for tenantID, check := range checks {
				if fits, err := check(); err != nil {
					if _, isRefusal := errors.AsType[*ferry.Error](err); isRefusal {
						refused[tenantID] = refusal{err, fits}
					}
				}
			}
			if len(refused) > 0 {
				// The refusal aborted the transaction before COMMIT.
				endTx(ctx, pc)
				c.leave(refused)
				continue
			}
			if keyTaken(sendErr) && !keysReread {
				// The other committer took one of the batch's idempotency
				// keys since the reads: read them again rather than write
				// every event of the batch one by one.
				keysReread = true
				endTx(ctx, pc)
				for _, k := range c.repeats {
					c.committed = append(c.committed, k.r)
				}
				c.repeats = nil
				reads := &pgx.Batch{}
				priors := queueKeyLookup(reads, c.committed)
				if err := pc.SendBatch(ctx, reads).Close(); err != nil {
					return err
				}
				release = c.claimKeys(priors)
				continue
			}
			if sendErr != nil {
				return sendErr
			}
			c.jobs, c.queues = rows.Jobs, rows.Queues
			return nil
		}
		return nil
	})
	return c, err
}

// keyTaken reports whether err is an event's idempotency key found taken
// by the events insert (events_idempotency_key).
func keyTaken(err error) bool {
	pgErr, ok := errors.AsType[*pgconn.PgError](err)
	return ok && pgErr.Code == "23505" && pgErr.ConstraintName == "events_idempotency_key"
}

// answered is a request's answer, given without writing its event.
type answered struct {
	r   *ingestRequest
	res ingestResult
}

// refusal is a tenant's limits refusing its events in a batch: err, and
// how many of them (the first, in the batch's order) would fit.
type refusal struct {
	err  error
	fits int
}

// keyRepeat is a request whose idempotency key first, a request of the
// same batch, claims.
type keyRepeat struct{ r, first *ingestRequest }

// answer is the repeat's answer once first's event has committed.
func (k keyRepeat) answer() ingestResult {
	if !sameRequest(k.first.ev, k.r.in) {
		return ingestResult{err: errKeyReused()}
	}
	return ingestResult{ev: k.first.ev}
}

// queueKeyLookup queues onto b the lookup of the events holding the
// idempotency keys of batch's requests; once b has run, the map returned
// holds each keyed request's (a request without one, or whose key no
// event holds, is absent).
func queueKeyLookup(b *pgx.Batch, batch []*ingestRequest) map[*ingestRequest]Event {
	var keyed []*ingestRequest
	var tenants []uuid.UUID
	var keys []string
	for _, r := range batch {
		if r.in.IdempotencyKey != "" {
			keyed, tenants, keys = append(keyed, r), append(tenants, r.tenantID), append(keys, r.in.IdempotencyKey)
		}
	}
	priors := map[*ingestRequest]Event{}
	if len(keyed) == 0 {
		return priors
	}
	// Each key is probed through events_idempotency_key on its own (the
	// LATERAL subquery), whatever the planner believes of the table.
	b.Queue(`SELECT k.i::int, e.id, e.type, e.data::text, e.customer_uid, e.created_at
		FROM unnest($1::uuid[], $2::text[]) WITH ORDINALITY AS k(tenant_id, key, i)
		CROSS JOIN LATERAL (SELECT id, type, data, customer_uid, created_at FROM events
			WHERE tenant_id = k.tenant_id AND idempotency_key = k.key AND idempotency_key IS NOT NULL) e`,
		pgval.Array(tenants), pgval.Array(keys)).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var i int
			var prior Event
			var data string
			if err := rows.Scan(&i, &prior.ID, &prior.Type, &data, &prior.Customer, &prior.CreatedAt); err != nil {
				return fmt.Errorf("look up idempotency keys: %w", err)
			}
			r := keyed[i-1]
			prior.Data, prior.IdempotencyKey = json.RawMessage(data), &r.in.IdempotencyKey
			priors[r] = prior
		}
		if err := rows.Err(); err != nil {
			return fmt.Errorf("look up idempotency keys: %w", err)
		}
		return nil
	})
	return priors
}

// claimKeys settles the idempotency keys of c.committed with priors, the
// events holding them: a request whose key an event accepted within the
// window holds is answered with it (or refused, for a different event);
// of several requests with one new key, the first stays and the others
// are answered with its event once it commits. It returns the events
// whose keys have expired: the transaction releases them before taking
// them again.
func (c *batchCommit) claimKeys(priors map[*ingestRequest]Event) (release []uuid.UUID) {
	type tenantKey struct {
		tenantID uuid.UUID
		key      string
	}
	claimed := map[tenantKey]*ingestRequest{}
	kept := c.committed[:0:0]
	for _, r := range c.committed {
		if r.in.IdempotencyKey == "" {
			kept = append(kept, r)
			continue
		}
		if prior, found := priors[r]; found {
			if r.ev.CreatedAt.Sub(prior.CreatedAt) < idempotencyKeyWindow {
				res := ingestResult{ev: prior}
				if !sameRequest(prior, r.in) {
					res = ingestResult{err: errKeyReused()}
				}
				c.answered = append(c.answered, answered{r, res})
				continue
			}
			release = append(release, prior.ID)
		}
		k := tenantKey{r.tenantID, r.in.IdempotencyKey}
		if first := claimed[k]; first != nil {
			c.repeats = append(c.repeats, keyRepeat{r, first})
			continue
		}
		claimed[k] = r
		kept = append(kept, r)
	}
	c.committed = kept
	return release
}

// leave keeps in c.committed, of each refused tenant's requests, as
// many as fit (the first in the batch's order, as one-by-one metering
// would accept), and answers the others with the refusal. Nothing of a
// refused tenant is retried alone: its flood costs the batch one more
// round trip, not one transaction per event.
func (c *batchCommit) leave(refused map[uuid.UUID]refusal) {
	kept := c.committed[:0:0]
	taken := map[uuid.UUID]int{}
	for _, r := range c.committed {
		no, ok := refused[r.tenantID]
		if ok && taken[r.tenantID] >= no.fits {
			c.answered = append(c.answered, answered{r, ingestResult{err: no.err}})
			continue
		}
		taken[r.tenantID]++
		kept = append(kept, r)
	}
	c.committed = kept
}

// endTx rolls back pc's open or failed transaction, if any; a connection
// that cannot is closed, so that the pool discards it.
func endTx(ctx context.Context, pc *pgx.Conn) {
	if pc.IsClosed() || pc.PgConn().TxStatus() == 'I' {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if _, err := pc.Exec(ctx, "ROLLBACK"); err != nil {
		pc.Close(ctx)
	}
}

func countByTenant(batch []*ingestRequest) map[uuid.UUID]int {
	n := map[uuid.UUID]int{}
	for _, r := range batch {
		n[r.tenantID]++
	}
	return n
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
		meter := s.limits.Meter(dbtx.Wrap(tx))
		for tenantID, n := range countByTenant(batch) {
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
