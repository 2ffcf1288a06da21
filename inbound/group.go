package inbound

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/internal/pgval"
	"github.com/ferry-dev/ferry/internal/rowid"
)

// A request to an ingest URL is answered once its capture has committed,
// and its event is made after that (docs/contract.md#inbound-sources).
// The provider then waits for one small INSERT, not for routing,
// transformations, fan-out and metering: with them on the request path,
// a provider waited 85 ms at p99 at 1,000 requests/s on a quiet 2-core
// machine (docs/benchmarks.md, h-inbound).
//
// Both steps are group commits. Concurrent captures queue, and a few
// committers each take everything queued (up to maxGroup), no sooner
// than capturePace after the last batch, and insert it in one
// statement. A capture is written once: verified, with the id its event
// will have, beside a small row in source_requests_pending that says the
// event is still to be made (the API shows it as received).
// Committed captures queue again to become events: deleting their
// pending rows claims them, then one statement for the dedupe claims and
// one per table, in one transaction. Only captures that make no event
// (duplicates, refusals) are updated. A batch that fails for any reason
// is retried capture by capture, so one tenant's refused quota never
// holds back another's captures. What is not made into an event here
// (the process died, or the database failed in between) the sweeper
// finds by age.
const (
	maxGroup = 200
	// captureCommitters: while one batch commits, the next can start.
	// One committer made larger batches (2.2 captures per statement at
	// 1,000 requests/s against 1.7) and PostgreSQL less busy, but the
	// provider's answer p99 was worse in an alternated run
	// (docs/benchmarks.md, 2026-11-26 19:49), and that answer is what
	// providers wait on.
	captureCommitters = 2
	// capturePace is how long after one capture batch the next may
	// start when it is not full. At 1,000 requests/s unpaced batches
	// held 1.05 captures: a commit per request, 83 % of PostgreSQL's
	// transactions. Paced at 2 ms they held 2.9; alternated three times,
	// PostgreSQL used 0.48–0.59 of a core against 0.57–0.70 and Ferry
	// 0.43–0.50 against 0.45–0.58, the answer's p99 unmoved and its
	// p50 about 1 ms longer (docs/benchmarks.md, 2026-11-27 08:32). At
	// 3 ms against 2 they held 3.3 against 2.35, alternated three times
	// with the flood beside a bystander: the answer's p50 0.5 ms longer
	// and its p99 shorter in each round (12.7–13.7 ms against
	// 14.7–16.4), PostgreSQL 0.43–0.48 of a core against 0.47–0.48
	// (docs/benchmarks.md, 2026-11-28 05:42). A request after a quiet
	// spell is not paced.
	capturePace = 3 * time.Millisecond
	// eventMakers work on batches nobody waits on.
	eventMakers  = 2
	groupTimeout = 30 * time.Second
	// makeLinger is how long the event maker waits for more captures
	// before making a batch that is not full: nobody waits on it, and
	// larger batches cost PostgreSQL and Ferry fewer statements and
	// commits for the same events, leaving the machine to the captures
	// that providers do wait on. 25 ms against 10, alternated at 1,000
	// requests/s: Ferry 0.50 of a core against 0.55, the bystander's
	// p99 31–33 ms against 34–39, forwarding unchanged
	// (docs/benchmarks.md, 2026-11-26 22:03–22:15). 50 ms against 25:
	// PostgreSQL 0.47–0.49 of a core against 0.51–0.58 and Ferry
	// 0.50–0.51 against 0.52–0.56, the forwarded p99 about 25 ms longer
	// (83–108 ms; docs/benchmarks.md, 2026-11-28 05:19).
	makeLinger = 50 * time.Millisecond
	// sweepAfter is how old a pending capture must be before the
	// sweeper takes it: well past the moment its own process makes it.
	sweepAfter = 5 * time.Second
	// sweepInterval is how often the sweeper looks (a scan of the
	// pending captures, normally a few young ones). It also paces the
	// captures whose events the tenant's rate of events held back: each
	// sweep makes what the rate lets through.
	sweepInterval = time.Second
)

// pendingCapture is a verified capture and the event it becomes.
type pendingCapture struct {
	capture requestRow
	ev      EventInput
	// done receives the capture's commit (nil for captures the sweeper
	// found: nobody waits for them).
	done chan error
}

// captureVerified commits a verified capture, its event pending, and
// waits for the commit; its event is made in the background. When ctx
// ends first the capture may still commit, like any request whose
// client went away after sending it.
func (s *Service) captureVerified(ctx context.Context, capture requestRow, ev EventInput) error {
	eventID := rowid.New()
	capture.Status, capture.EventID, ev.ID = StatusVerified, &eventID, eventID
	p := &pendingCapture{capture: capture, ev: ev, done: make(chan error, 1)}
	s.captures.Add(ctx, p)
	select {
	case err := <-p.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// commitCaptures inserts a batch of captures, then hands those committed
// to the event maker and answers their requests.
func (s *Service) commitCaptures(ctx context.Context, batch []*pendingCapture) {
	ctx, cancel := context.WithTimeout(ctx, groupTimeout)
	defer cancel()
	settle := func(ps []*pendingCapture, err error) {
		for _, p := range ps {
			if err == nil {
				s.making.Add(ctx, p)
			}
			p.done <- err
		}
	}
	if len(batch) > 1 {
		err := insertPending(ctx, s.db, batch)
		if err == nil {
			settle(batch, nil)
			return
		}
		s.log.DebugContext(ctx, "capture batch failed; committing its captures one by one", "err", err, "captures", len(batch))
	}
	for _, p := range batch {
		settle([]*pendingCapture{p}, insertPending(ctx, s.db, []*pendingCapture{p}))
	}
}

// insertPending inserts the captures of batch, verified with their
// events' ids, and their pending rows, in one statement. Hand-written:
// its text is the same for any number of captures, so PostgreSQL parses
// and plans it once per connection, and each column is one array
// parameter instead of one parameter per value.
func insertPending(ctx context.Context, db *gorm.DB, batch []*pendingCapture) error {
	n := len(batch)
	ids, tenants, sources, events := make([]uuid.UUID, n), make([]uuid.UUID, n), make([]uuid.UUID, n), make([]uuid.UUID, n)
	methods, paths, queries, headers, types := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
	ats, bodies, keys := make([]time.Time, n), make([][]byte, n), make([]*string, n)
	for i, p := range batch {
		c := p.capture
		h, err := json.Marshal(c.Headers.V)
		if err != nil {
			return fmt.Errorf("encode headers: %w", err)
		}
		ids[i], tenants[i], sources[i], events[i] = c.ID, c.TenantID, c.SourceID, p.ev.ID
		methods[i], paths[i], queries[i], headers[i], types[i] = c.Method, c.Path, c.Query, string(h), c.ContentType
		ats[i], bodies[i], keys[i] = c.ReceivedAt, c.Body, c.DedupeKey
	}
	err := db.WithContext(ctx).Exec(`WITH c AS (INSERT INTO source_requests
			(id, tenant_id, source_id, received_at, method, path, query, headers, content_type, body, status, dedupe_key, event_id)
		SELECT id, tenant_id, source_id, received_at, method, path, query, headers, content_type, body, ?, dedupe_key, event_id
		FROM unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::timestamptz[], ?::text[], ?::text[], ?::text[], ?::jsonb[], ?::text[], ?::bytea[], ?::text[], ?::uuid[])
			AS t(id, tenant_id, source_id, received_at, method, path, query, headers, content_type, body, dedupe_key, event_id)
		RETURNING id, received_at)
		INSERT INTO source_requests_pending (request_id, received_at) SELECT id, received_at FROM c`,
		string(StatusVerified), pgval.Array(ids), pgval.Array(tenants), pgval.Array(sources), &ats, &methods, &paths, &queries, &headers, &types,
		&bodies, &keys, pgval.Array(events)).Error
	if err != nil {
		return fmt.Errorf("capture %d requests: %w", n, err)
	}
	return nil
}

// makeEvents turns pending captures into events, all in one
// transaction or, when that fails, one by one. A capture whose event the
// plan refuses is marked refused; one that fails otherwise (the database,
// the tenant's rate of events) stays pending for the sweeper. It
// returns how many captures were settled and the tenants whose rate of
// events was used up: their other captures in batch were not tried, as
// they would fail the same way.
func (s *Service) makeEvents(ctx context.Context, batch []*pendingCapture) (settled int, limited []uuid.UUID) {
	ctx, cancel := context.WithTimeout(ctx, groupTimeout)
	defer cancel()
	if len(batch) > 1 {
		n, err := s.makeEventsTx(ctx, batch)
		if err == nil {
			return n, nil
		}
		s.log.DebugContext(ctx, "event batch failed; making its events one by one", "err", err, "captures", len(batch))
		for _, p := range batch {
			p.capture.Status, p.capture.Reason = StatusVerified, ""
		}
	}
	isLimited := map[uuid.UUID]bool{}
	for _, p := range batch {
		if isLimited[p.capture.TenantID] {
			continue
		}
		n, err := s.makeEventsTx(ctx, []*pendingCapture{p})
		if err == nil {
			settled += n
			continue
		}
		if refusal := planRefusal(err); refusal != "" {
			if err := s.refuse(ctx, p.capture.ID, refusal); err != nil {
				s.log.WarnContext(ctx, "mark capture refused", "request", p.capture.ID, "err", err)
				continue
			}
			settled++
			continue
		}
		if ferry.ErrorCode(err) == ferry.ERATELIMIT {
			isLimited[p.capture.TenantID] = true
			limited = append(limited, p.capture.TenantID)
			continue
		}
		s.log.WarnContext(ctx, "make event of capture; the sweeper retries", "request", p.capture.ID, "source", p.capture.SourceID, "err", err)
	}
	return settled, limited
}

// planRefusal is the reason to keep on a capture whose event failed with
// err for good: the plan refused it. Other failures pass ("").
func planRefusal(err error) string {
	var fe *ferry.Error
	if !errors.As(err, &fe) {
		return ""
	}
	switch fe.Code {
	case ferry.EQUOTA, ferry.EPAYMENT, ferry.EINVALID:
		return fe.Message
	}
	return ""
}

// refuse settles a pending capture as refused, with no event.
func (s *Service) refuse(ctx context.Context, requestID uuid.UUID, reason string) error {
	return s.db.WithContext(ctx).Exec(`WITH p AS (DELETE FROM source_requests_pending WHERE request_id = ? RETURNING request_id)
		UPDATE source_requests SET status = ?, reason = ?, event_id = NULL WHERE id IN (SELECT request_id FROM p)`,
		requestID, StatusRefused, reason).Error
}

// makeEventsTx makes the events of batch in one transaction and calls
// their after-commit work. It returns how many captures it settled.
func (s *Service) makeEventsTx(ctx context.Context, batch []*pendingCapture) (int, error) {
	var after func()
	var settled int
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		settled, after, err = s.makeEventsInTx(ctx, tx, batch)
		return err
	})
	if err != nil {
		return 0, err
	}
	if after != nil {
		after()
	}
	return settled, nil
}

// makeEventsInTx claims the captures of batch still pending (another
// replica's sweeper may hold or have settled some) by deleting their
// pending rows, claims their dedupe keys, makes the events of those that
// are not duplicates, with the ids stored on the captures, and records
// the duplicates. It returns what to call once tx has committed.
func (s *Service) makeEventsInTx(ctx context.Context, tx *gorm.DB, batch []*pendingCapture) (int, func(), error) {
	ids := make([]uuid.UUID, len(batch))
	for i, p := range batch {
		ids[i] = p.capture.ID
	}
	claimed, err := claimPending(ctx, tx, ids)
	if err != nil {
		return 0, nil, fmt.Errorf("claim %d captures: %w", len(ids), err)
	}
	mine := make(map[uuid.UUID]bool, len(claimed))
	for _, id := range claimed {
		mine[id] = true
	}
	var held []*pendingCapture
	for _, p := range batch {
		if mine[p.capture.ID] {
			held = append(held, p)
		}
	}
	if len(held) == 0 {
		return 0, nil, nil
	}
	if err := claimDedupeKeys(tx, held); err != nil {
		return 0, nil, err
	}
	var evs []TenantEvent
	var outcomes []*pendingCapture
	for _, p := range held {
		if p.capture.Status == StatusDuplicate {
			outcomes = append(outcomes, p)
			continue
		}
		evs = append(evs, TenantEvent{TenantID: p.capture.TenantID, Event: p.ev})
	}
	var after func()
	switch len(evs) {
	case 0:
	case 1:
		_, after, err = s.events.IngestInTx(ctx, dbtx.Wrap(tx), evs[0].TenantID, evs[0].Event)
	default:
		after, err = s.events.IngestBatchInTx(ctx, dbtx.Wrap(tx), evs)
	}
	if err != nil {
		return 0, nil, err
	}
	if err := recordOutcomes(tx, outcomes); err != nil {
		return 0, nil, err
	}
	return len(held), after, nil
}

// claimPending deletes the pending rows of ids that no other
// transaction holds, and returns whose it deleted. SKIP LOCKED: a capture
// another transaction is making is its own, and waiting for it could
// deadlock two overlapping batches.
//
// Replanned (pgval.Replan): the pending rows are a queue, empty when a
// connection's plan may be made, and thousands deep when a tenant's rate
// of events holds its captures back.
func claimPending(ctx context.Context, tx *gorm.DB, ids []uuid.UUID) ([]uuid.UUID, error) {
	rows, err := tx.Statement.ConnPool.QueryContext(ctx, `DELETE FROM source_requests_pending WHERE request_id IN (
			SELECT request_id FROM source_requests_pending WHERE request_id = ANY($1::uuid[]) FOR UPDATE SKIP LOCKED)
		RETURNING request_id`, pgval.Replan, pgval.Array(ids))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	claimed := make([]uuid.UUID, 0, len(ids))
	for rows.Next() {
		var id uuid.UUID
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		claimed = append(claimed, id)
	}
	return claimed, rows.Err()
}

// recordOutcomes records the captures of batch that made no event.
func recordOutcomes(tx *gorm.DB, batch []*pendingCapture) error {
	if len(batch) == 0 {
		return nil
	}
	ids := make([]uuid.UUID, len(batch))
	statuses, reasons := make([]string, len(batch)), make([]string, len(batch))
	for i, p := range batch {
		ids[i], statuses[i], reasons[i] = p.capture.ID, string(p.capture.Status), p.capture.Reason
	}
	// Hand-written: one UPDATE for the batch. Slices are passed by
	// pointer so that GORM binds each as one array.
	if err := tx.Exec(`UPDATE source_requests r SET status = u.status, reason = u.reason, event_id = NULL
		FROM unnest(?::uuid[], ?::text[], ?::text[]) AS u(id, status, reason) WHERE r.id = u.id`,
		pgval.Array(ids), &statuses, &reasons).Error; err != nil {
		return fmt.Errorf("record %d captures' outcomes: %w", len(ids), err)
	}
	return nil
}

// sweepPending makes the events of captures left pending for longer
// than sweepAfter, oldest first, a batch at a time, until none is left
// or a batch settles none. A tenant whose rate of events is used up is
// left out for the rest of the sweep, so its backlog neither costs a
// failed transaction per capture nor holds back other tenants'
// captures. It first forgets pending rows whose capture is gone (its
// tenant was deleted).
func (s *Service) sweepPending(ctx context.Context) error {
	before := s.clock.Now().Add(-sweepAfter)
	if err := s.db.WithContext(ctx).Exec(`DELETE FROM source_requests_pending p WHERE p.received_at < ?
		AND NOT EXISTS (SELECT 1 FROM source_requests r WHERE r.id = p.request_id)`, before).Error; err != nil {
		return fmt.Errorf("forget pending rows of deleted captures: %w", err)
	}
	var skip []uuid.UUID
	for {
		var rows []requestRow
		if err := s.db.WithContext(ctx).Raw(`SELECT r.* FROM source_requests_pending p JOIN source_requests r ON r.id = p.request_id
			WHERE p.received_at < ? AND r.tenant_id <> ALL(?::uuid[]) ORDER BY p.received_at LIMIT ?`,
			before, pgval.Array(skip), maxGroup).Scan(&rows).Error; err != nil {
			return fmt.Errorf("find pending captures: %w", err)
		}
		if len(rows) == 0 {
			return nil
		}
		rules, err := s.eventTypeRules(ctx, rows)
		if err != nil {
			return err
		}
		batch := make([]*pendingCapture, 0, len(rows))
		for _, r := range rows {
			if r.EventID == nil {
				s.log.ErrorContext(ctx, "pending capture has no event id; left pending", "request", r.ID)
				continue
			}
			ev := s.eventInput(rules[r.SourceID], r)
			ev.ID = *r.EventID
			batch = append(batch, &pendingCapture{capture: r, ev: ev})
		}
		settled, limited := s.makeEvents(ctx, batch)
		s.log.DebugContext(ctx, "swept pending captures", "found", len(rows), "settled", settled, "rate-limited tenants", len(limited))
		skip = append(skip, limited...)
		if len(rows) < maxGroup || (settled == 0 && len(limited) == 0) {
			return nil
		}
	}
}

// eventTypeRules returns the event-type rule of each source of rows,
// deleted sources included: what was captured still becomes an event.
func (s *Service) eventTypeRules(ctx context.Context, rows []requestRow) (map[uuid.UUID]EventTypeRule, error) {
	ids := map[uuid.UUID]bool{}
	var list []uuid.UUID
	for _, r := range rows {
		if !ids[r.SourceID] {
			ids[r.SourceID] = true
			list = append(list, r.SourceID)
		}
	}
	var srcs []sourceRow
	if err := s.db.WithContext(ctx).Where("id IN ?", list).Find(&srcs).Error; err != nil {
		return nil, fmt.Errorf("load sources of received captures: %w", err)
	}
	out := make(map[uuid.UUID]EventTypeRule, len(srcs))
	for _, src := range srcs {
		out[src.ID] = src.EventType.V
	}
	return out, nil
}

// claimDedupeKeys claims the dedupe keys of batch in one statement and
// marks the captures whose key a request within DedupeWindow holds (or
// an earlier capture of the same batch) as duplicates. Keys repeated in
// the batch are settled here first: one upsert may not touch a row twice.
func claimDedupeKeys(tx *gorm.DB, batch []*pendingCapture) error {
	type sourceKey struct {
		source uuid.UUID
		key    string
	}
	seen := map[sourceKey]bool{}
	var sources, keys, requests []string
	var ats []time.Time
	for _, p := range batch {
		if p.capture.DedupeKey == nil {
			continue
		}
		k := sourceKey{p.capture.SourceID, *p.capture.DedupeKey}
		if seen[k] {
			p.capture.Status, p.capture.Reason = StatusDuplicate, duplicateReason
			continue
		}
		seen[k] = true
		sources, keys = append(sources, k.source.String()), append(keys, k.key)
		requests, ats = append(requests, p.capture.ID.String()), append(ats, p.capture.ReceivedAt)
	}
	if len(keys) == 0 {
		return nil
	}
	var claimed []uuid.UUID
	// Hand-written: an upsert over the batch that takes over only keys
	// older than the window; RETURNING names the requests that won.
	err := tx.Raw(`INSERT INTO source_dedupe (source_id, key, request_id, created_at)
		SELECT s::uuid, k, r::uuid, c FROM unnest(?::text[], ?::text[], ?::text[], ?::timestamptz[]) AS t(s, k, r, c)
		ON CONFLICT (source_id, key) DO UPDATE SET request_id = EXCLUDED.request_id, created_at = EXCLUDED.created_at
		WHERE source_dedupe.created_at <= EXCLUDED.created_at - ? * interval '1 second'
		RETURNING request_id`, &sources, &keys, &requests, &ats, DedupeWindow.Seconds()).Scan(&claimed).Error
	if err != nil {
		return fmt.Errorf("claim %d dedupe keys: %w", len(keys), err)
	}
	won := make(map[uuid.UUID]bool, len(claimed))
	for _, id := range claimed {
		won[id] = true
	}
	for _, p := range batch {
		if p.capture.DedupeKey != nil && p.capture.Status != StatusDuplicate && !won[p.capture.ID] {
			p.capture.Status, p.capture.Reason = StatusDuplicate, duplicateReason
		}
	}
	return nil
}

// duplicateReason is kept on a duplicate capture.
const duplicateReason = "dedupe key seen within 24 hours"
