package inbound

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/dbtx"
)

// Group commit of verified captures. Each capture must be committed (with
// its event, deliveries, outbox rows and metering) before its request is
// answered; one transaction per request made the pool's connections,
// each waiting on its own commit, the limit (about 150 requests/s with
// 20 connections on a busy machine). Concurrent captures therefore queue
// here, and a few committers each take everything queued (up to
// maxGroup) and write it in one transaction: one statement for the dedupe
// claims, then one per table. A batch that fails for any reason is
// retried capture by capture, so each request gets its own answer (one
// tenant's refused quota never fails another's request).
const (
	maxGroup      = 200
	maxCommitters = 2
	groupTimeout  = 30 * time.Second
)

// pendingCapture is a verified capture waiting for its commit.
type pendingCapture struct {
	capture requestRow
	ev      EventInput
	done    chan error
}

// commitVerified commits a verified capture (as a duplicate when its
// dedupe key is taken) with its event, and waits for the commit. When
// ctx ends first the capture may still commit, like any request whose
// client went away after sending it.
func (s *Service) commitVerified(ctx context.Context, capture requestRow, ev EventInput) error {
	p := &pendingCapture{capture: capture, ev: ev, done: make(chan error, 1)}
	s.group.Add(ctx, p)
	select {
	case err := <-p.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *Service) commitGroup(ctx context.Context, batch []*pendingCapture) {
	ctx, cancel := context.WithTimeout(ctx, groupTimeout)
	defer cancel()
	if len(batch) > 1 {
		var after func()
		err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			var err error
			after, err = s.insertGroup(ctx, tx, batch)
			return err
		})
		if err == nil {
			if after != nil {
				after()
			}
			for _, p := range batch {
				p.done <- nil
			}
			return
		}
		s.log.DebugContext(ctx, "capture batch failed; committing its captures one by one", "err", err, "captures", len(batch))
		for _, p := range batch {
			p.capture.Status, p.capture.Reason, p.capture.EventID = StatusVerified, "", nil
		}
	}
	for _, p := range batch {
		var after func()
		err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			var err error
			after, err = s.insertGroup(ctx, tx, []*pendingCapture{p})
			return err
		})
		if err == nil && after != nil {
			after()
		}
		p.done <- err
	}
}

// insertGroup writes batch in tx: dedupe claims, the events of the
// captures that are not duplicates, then every capture. It returns what
// to call once tx has committed.
func (s *Service) insertGroup(ctx context.Context, tx *gorm.DB, batch []*pendingCapture) (func(), error) {
	if err := claimDedupeKeys(tx, batch); err != nil {
		return nil, err
	}
	var evs []TenantEvent
	var owners []*pendingCapture
	for _, p := range batch {
		if p.capture.Status == StatusDuplicate {
			continue
		}
		evs = append(evs, TenantEvent{TenantID: p.capture.TenantID, Event: p.ev})
		owners = append(owners, p)
	}
	var after func()
	switch len(evs) {
	case 0:
	case 1:
		id, a, err := s.events.IngestInTx(ctx, dbtx.Wrap(tx), evs[0].TenantID, evs[0].Event)
		if err != nil {
			return nil, err
		}
		owners[0].capture.EventID, after = &id, a
	default:
		ids, a, err := s.events.IngestBatchInTx(ctx, dbtx.Wrap(tx), evs)
		if err != nil {
			return nil, err
		}
		if len(ids) != len(owners) {
			return nil, fmt.Errorf("ingest %d captures: %d events", len(owners), len(ids))
		}
		for i := range owners {
			id := ids[i]
			owners[i].capture.EventID = &id
		}
		after = a
	}
	rows := make([]requestRow, len(batch))
	for i, p := range batch {
		rows[i] = p.capture
	}
	if err := tx.Create(&rows).Error; err != nil {
		return nil, fmt.Errorf("capture %d requests: %w", len(rows), err)
	}
	return after, nil
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
