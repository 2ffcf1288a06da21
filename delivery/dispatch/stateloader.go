package dispatch

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/batch"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// stateLoader answers the dispatcher's "what does Postgres record for this
// delivery?" for many attempts with one query. Every attempt asks before
// it sends (docs/contract.md#durability-on-ingest: a finished delivery is never sent again), so at
// thousands of attempts a second one query each was the largest share of
// Postgres' work. Concurrent callers' delivery ids are coalesced and read
// with one `= ANY($1)` query per batch.
type stateLoader struct {
	db *gorm.DB
	// plannedOnce: db's connections plan each statement once, with
	// index probes only (pgval.OpenLookups); otherwise every read is
	// planned afresh (pgval.Replan).
	plannedOnce bool
	batches     *batch.Coalescer[*stateRequest]
	// batchSize observes how many deliveries each query read
	// (telemetry.Metrics.StateBatch).
	batchSize prometheus.Observer
}

const maxStateBatch = 500

// StateConns is how many state reads run at once, and so the size of
// the pool Config.StateDB needs.
const StateConns = 2

type stateRequest struct {
	deliveryID uuid.UUID
	done       chan stateResult
	startedAt  time.Time // for prefetches: how fresh the answer is
}

type stateResult struct {
	state deliveryState
	found bool
	err   error
}

// deliveryState is what the dispatcher needs of a delivery and its event.
type deliveryState struct {
	ID             uuid.UUID // the delivery's
	TenantID       uuid.UUID
	EndpointID     uuid.UUID
	Status         model.Status
	AttemptCount   int
	FirstAttemptAt *time.Time
	Type           string
	Data           []byte
	CreatedAt      time.Time
	// Raw is set when the event came from an inbound source; RawBody and
	// RawContentType are its captured body, loaded only for raw endpoints
	// (RawLoaded).
	Raw            bool
	RawLoaded      bool
	RawBody        []byte
	RawContentType string
	// The stored result of the endpoint's transformation, if the
	// delivery has one (TransformPresent).
	TransformPresent   bool
	TransformCancelled bool
	TransformError     *string
	TransformBody      []byte
	TransformHeaders   *string
}

func newStateLoader(db *gorm.DB, plannedOnce bool, batchSize prometheus.Observer) *stateLoader {
	l := &stateLoader{db: db, plannedOnce: plannedOnce, batchSize: batchSize}
	l.batches = batch.New(maxStateBatch, StateConns, l.loadBatch)
	return l
}

// prefetch starts loading the delivery's state and returns at once; a
// lane calls it for jobs near its head, so the read overlaps the wait for
// a worker instead of holding one. now records how fresh the answer is.
func (l *stateLoader) prefetch(ctx context.Context, deliveryID uuid.UUID, now time.Time) *stateRequest {
	req := &stateRequest{deliveryID: deliveryID, done: make(chan stateResult, 1), startedAt: now}
	l.batches.Add(ctx, req)
	return req
}

// wait returns what the load found; found is false when Postgres has no
// such delivery (its event or endpoint was deleted).
func (r *stateRequest) wait(ctx context.Context) (deliveryState, bool, error) {
	select {
	case res := <-r.done:
		return res.state, res.found, res.err
	case <-ctx.Done():
		return deliveryState{}, false, ctx.Err()
	}
}

func (l *stateLoader) loadBatch(ctx context.Context, batch []*stateRequest) {
	ids := make([]uuid.UUID, len(batch))
	for i, r := range batch {
		ids[i] = r.deliveryID
	}
	l.batchSize.Observe(float64(len(ids)))
	qctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	rows, err := l.read(qctx, ids)
	if err != nil {
		err = fmt.Errorf("load %d deliveries: %w", len(ids), err)
		for _, r := range batch {
			r.done <- stateResult{err: err}
		}
		return
	}
	byID := make(map[uuid.UUID]deliveryState, len(rows))
	for _, row := range rows {
		byID[row.ID] = row
	}
	for _, r := range batch {
		st, ok := byID[r.deliveryID]
		r.done <- stateResult{state: st, found: ok}
	}
}

// read returns the state of the deliveries ids names that exist.
// A plan made while deliveries, events or the raw bodies were small
// hash-joins a scan of the whole table into every batch as the table
// grows: the read is either planned once with index probes only
// (plannedOnce) or replanned at every execution (pgval.Replan).
func (l *stateLoader) read(ctx context.Context, ids []uuid.UUID) ([]deliveryState, error) {
	args := []any{pgval.Array(ids)}
	if !l.plannedOnce {
		args = append([]any{pgval.Replan}, args...)
	}
	// The raw body of a source's event is read only for raw endpoints;
	// envelope endpoints pay one index probe for its existence. The
	// transformation's stored result comes with the same read (a
	// primary-key probe that finds nothing for endpoints without one).
	rows, err := l.db.Statement.ConnPool.QueryContext(ctx, `SELECT d.id, d.tenant_id, d.endpoint_id, d.status, d.attempt_count, d.first_attempt_at, e.type,
			e.data::text AS data, e.created_at, r.event_id IS NOT NULL AS raw, p.id IS NOT NULL AS raw_loaded,
			CASE WHEN p.id IS NOT NULL THEN r.body END AS raw_body, coalesce(r.content_type, '') AS raw_content_type,
			t.delivery_id IS NOT NULL AS transform_present,
			coalesce(t.cancelled, false) AS transform_cancelled, t.error AS transform_error, t.body AS transform_body,
			t.headers::text AS transform_headers
		FROM deliveries d JOIN events e ON e.id = d.event_id
		LEFT JOIN event_raw_bodies r ON r.event_id = d.event_id
		LEFT JOIN endpoints p ON r.event_id IS NOT NULL AND p.id = d.endpoint_id AND p.format = 'raw'
		LEFT JOIN delivery_transforms t ON t.delivery_id = d.id
		WHERE d.id = ANY($1)`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := make([]deliveryState, 0, len(ids))
	for rows.Next() {
		var st deliveryState
		if err := l.db.ScanRows(rows, &st); err != nil {
			return nil, err
		}
		out = append(out, st)
	}
	return out, rows.Err()
}
