package delivery

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// Pending transformations. A delivery made inside a transaction that
// others share (an operational event, emitted with the attempts of many
// tenants that caused it) cannot wait there for its endpoint's
// transformation. It is stored with a pending result
// (delivery_transforms.pending) and no outbox row, so nothing sends it;
// after the commit, FinishTransforms runs the transformation and, in one
// transaction, replaces the pending mark with the result and adds the
// outbox row. A crash in between leaves the pending row, which
// FinishPendingTransforms finds by age.

// PendingTransforms are deliveries whose transformations are still to run
// (EmitOperational).
type PendingTransforms []pendingTransform

type pendingTransform struct {
	DeliveryID, TenantID, EndpointID uuid.UUID
	src                              string
	headers                          map[string]string
	ev                               Event
}

// removedTransformation is the result of a pending transformation whose
// endpoint lost it before it ran: the delivery was made for it, and is
// dropped rather than sent untransformed.
const removedTransformation = "the endpoint's transformation was removed before it ran"

// FinishTransforms runs the transformations of pending, stores their
// results in place of the pending marks with their deliveries' outbox
// rows, and hands those deliveries to relay (nil: the outbox sweeper
// publishes them). Each tenant's are run (concurrently; the sandbox
// bounds the tenant's share), stored and handed on by themselves, as
// soon as they are done: one tenant's slow transformations do not hold
// back another's deliveries made in the same transaction. A delivery
// another process finished first is skipped. Those whose run could not
// happen (the sandbox is unavailable) stay pending for
// FinishPendingTransforms, and the error says so. Errors: the sandbox's,
// wrapped database errors.
func FinishTransforms(ctx context.Context, db *gorm.DB, router *Router, relay Enqueuer, pending PendingTransforms, now time.Time) error {
	byTenant := map[uuid.UUID]PendingTransforms{}
	for _, p := range pending {
		byTenant[p.TenantID] = append(byTenant[p.TenantID], p)
	}
	var mu sync.Mutex
	var errs []error
	var wg sync.WaitGroup
	for _, group := range byTenant {
		wg.Go(func() {
			jobs, err := finishTransforms(ctx, db, router, group, now)
			if len(jobs) > 0 && relay != nil {
				relay.Enqueue(jobs)
			}
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// finishTransforms is FinishTransforms for one tenant's pending, returning
// the jobs of the deliveries it finished.
func finishTransforms(ctx context.Context, db *gorm.DB, router *Router, pending PendingTransforms, now time.Time) ([]model.Job, error) {
	results := make([]*Transformed, len(pending))
	errs := make([]error, len(pending))
	var wg sync.WaitGroup
	for i, p := range pending {
		if p.src == "" {
			results[i] = &Transformed{Err: removedTransformation}
			continue
		}
		wg.Go(func() {
			t, err := router.transform(ctx, p.TenantID, p.src, false, p.ev, p.headers)
			if err != nil {
				errs[i] = err
				return
			}
			results[i] = &t
		})
	}
	wg.Wait()
	now = now.UTC().Truncate(time.Millisecond)
	var done []pendingTransform
	var rows []store.Transform
	for i, p := range pending {
		if results[i] != nil {
			done = append(done, p)
			rows = append(rows, newTransformRow(p.DeliveryID, p.TenantID, results[i], now))
		}
	}
	jobs, err := storeFinished(ctx, db, done, rows, now)
	return jobs, errors.Join(append(errs, err)...)
}

// storeFinished replaces the pending marks of done's deliveries with rows
// and adds their outbox rows, in one transaction.
func storeFinished(ctx context.Context, db *gorm.DB, done []pendingTransform, rows []store.Transform, now time.Time) ([]model.Job, error) {
	if len(done) == 0 {
		return nil, nil
	}
	var jobs []model.Job
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		finished, err := store.FinishTransforms(ctx, store.Gorm(tx), rows)
		if err != nil {
			return err
		}
		mine := make(map[uuid.UUID]bool, len(finished))
		for _, id := range finished {
			mine[id] = true
		}
		jobs = nil
		for _, p := range done {
			if !mine[p.DeliveryID] {
				continue // finished by another process
			}
			jobs = append(jobs, model.Job{DeliveryID: p.DeliveryID, EventID: p.ev.ID, EndpointID: p.EndpointID, TenantID: p.TenantID,
				Attempt: 1, Trigger: model.TriggerInitial, AcceptedAt: p.ev.CreatedAt, OutboxAt: now})
		}
		return store.InsertOutbox(ctx, store.Gorm(tx), jobs)
	})
	if err != nil {
		return nil, err
	}
	return jobs, nil
}

// FinishPendingTransforms finishes (FinishTransforms) up to limit
// deliveries left pending for longer than olderThan, oldest first: the
// transformations of a process that stopped before running them. It runs
// each endpoint's transformation as it is now, and returns how many it
// found. Errors: as FinishTransforms.
func FinishPendingTransforms(ctx context.Context, db *gorm.DB, router *Router, relay Enqueuer, olderThan time.Duration, limit int, now time.Time) (int, error) {
	var rows []struct {
		DeliveryID, TenantID, EndpointID, EventID uuid.UUID
		Type                                      string
		Data                                      json.RawMessage
		CreatedAt                                 time.Time
		Transformation                            string
		Headers                                   pgval.JSON[map[string]string]
	}
	// Across tenants, like the outbox sweeper: each join is on the
	// owning tenant too. delivery_transforms_pending_idx finds the rows.
	if err := db.WithContext(ctx).Raw(`SELECT t.delivery_id, t.tenant_id, d.endpoint_id, e.id AS event_id, e.type, e.data, e.created_at,
			ep.transformation, ep.headers
		FROM delivery_transforms t
		JOIN deliveries d ON d.id = t.delivery_id AND d.tenant_id = t.tenant_id
		JOIN events e ON e.id = d.event_id AND e.tenant_id = t.tenant_id
		JOIN endpoints ep ON ep.id = d.endpoint_id AND ep.tenant_id = t.tenant_id
		WHERE t.pending AND t.created_at < ?
		ORDER BY t.created_at LIMIT ?`, now.Add(-olderThan), limit).Scan(&rows).Error; err != nil {
		return 0, fmt.Errorf("find pending transformations: %w", err)
	}
	pending := make(PendingTransforms, len(rows))
	for i, r := range rows {
		pending[i] = pendingTransform{DeliveryID: r.DeliveryID, TenantID: r.TenantID, EndpointID: r.EndpointID,
			src: r.Transformation, headers: r.Headers.V,
			ev: Event{ID: r.EventID, Type: r.Type, Data: r.Data, CreatedAt: r.CreatedAt.UTC()}}
	}
	return len(rows), FinishTransforms(ctx, db, router, relay, pending, now)
}
