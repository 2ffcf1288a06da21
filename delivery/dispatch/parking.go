package dispatch

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry/delivery/internal/backoff"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/batch"
	"github.com/ferry-dev/ferry/internal/clock"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// Parking timings: a live worker refreshes its heartbeat every
// heartbeatEvery; a worker silent for orphanAfter is presumed dead and its
// parked jobs are republished to Kafka by whichever worker sweeps first.
const (
	heartbeatEvery = 5 * time.Second
	orphanAfter    = 30 * time.Second
	sweepEvery     = 10 * time.Second
	sweepBatch     = 1000
	maxParkBatch   = 2000
	// One writer keeps a lot's rows in the order jobs were parked (ids
	// are assigned per statement), which is acceptance order per lane.
	maxParkWriters = 1
)

// parkingLot keeps jobs a worker admitted but had no room for in the
// parked_jobs table, owned by this worker (one owner id per process run).
// Rows are deleted only once their job is handled, so a crash loses
// nothing: the sweeper of a surviving worker republishes them.
type parkingLot struct {
	db    *gorm.DB
	pub   model.Publisher
	owner uuid.UUID
	log   *slog.Logger
	clock clock.Clock
	now   func() time.Time

	inserts *batch.Coalescer[*parkRequest]
	deletes *batch.Coalescer[*releaseRequest]
}

type parkRequest struct {
	job  model.Job
	done chan error
}

type releaseRequest struct {
	id   int64
	done chan error
}

// parkedJob is a job claimed back from the lot; id names its row.
type parkedJob struct {
	id  int64
	job model.Job
}

func newParkingLot(db *gorm.DB, pub model.Publisher, log *slog.Logger, clk clock.Clock) *parkingLot {
	owner := uuid.New()
	p := &parkingLot{db: db, pub: pub, owner: owner, log: log.With("component", "parking", "owner", owner), clock: clk, now: clk.Now}
	p.inserts = batch.New(maxParkBatch, maxParkWriters, p.insertBatch)
	p.deletes = batch.New(maxParkBatch, 2, p.deleteBatch)
	return p
}

// park queues job for storage, in call order, and returns a channel
// that receives the outcome once it is committed.
func (p *parkingLot) park(ctx context.Context, job model.Job) <-chan error {
	req := &parkRequest{job: job, done: make(chan error, 1)}
	p.inserts.Add(ctx, req)
	return req.done
}

// Hand-written: a multi-row insert from arrays, one statement per batch of
// up to maxParkBatch jobs parked at thousands a second.
func (p *parkingLot) insertBatch(ctx context.Context, reqs []*parkRequest) {
	endpoints := make([]uuid.UUID, len(reqs))
	tenants := make([]uuid.UUID, len(reqs))
	jobs := make([]string, len(reqs))
	for i, r := range reqs {
		b, err := json.Marshal(r.job)
		if err != nil {
			panic(fmt.Sprintf("encode job %s: %v", r.job.DeliveryID, err)) // a Job always encodes
		}
		endpoints[i], tenants[i], jobs[i] = r.job.EndpointID, r.job.TenantID, string(b)
	}
	err := backoff.Until(ctx, p.log, "park jobs", func() error {
		return p.db.WithContext(ctx).Exec(`INSERT INTO parked_jobs (owner, endpoint_id, tenant_id, job, parked_at)
			SELECT ?, e, t, j::jsonb, ? FROM unnest(?::uuid[], ?::uuid[], ?::text[]) WITH ORDINALITY AS x(e, t, j, n) ORDER BY n`,
			p.owner, p.now().UTC(), pgval.Array(endpoints), pgval.Array(tenants), pgval.Array(jobs)).Error
	})
	for _, r := range reqs {
		r.done <- err
	}
}

// claim marks up to n of this worker's parked jobs for endpointID as
// taken, oldest first, and returns them. The rows stay until release.
func (p *parkingLot) claim(ctx context.Context, endpointID uuid.UUID, n int) ([]parkedJob, error) {
	// Hand-written: the claim must pick the oldest rows and flag them in
	// one statement. Replanned (pgval.Replan): the lot is empty until a
	// tenant floods an endpoint, and a plan made while it was empty would
	// scan every parked row per claim.
	rows, err := p.db.Statement.ConnPool.QueryContext(ctx, `UPDATE parked_jobs SET claimed = true WHERE id IN (
			SELECT id FROM parked_jobs WHERE owner = $1 AND endpoint_id = $2 AND NOT claimed ORDER BY id LIMIT $3)
		RETURNING id, job::text AS job`, pgval.Replan, p.owner, endpointID, n)
	if err != nil {
		return nil, fmt.Errorf("claim parked jobs of endpoint %s: %w", endpointID, err)
	}
	defer rows.Close()
	var out []parkedJob
	for rows.Next() {
		var id int64
		var raw []byte
		if err := rows.Scan(&id, &raw); err != nil {
			return nil, fmt.Errorf("claim parked jobs of endpoint %s: %w", endpointID, err)
		}
		var j model.Job
		if err := json.Unmarshal(raw, &j); err != nil {
			return nil, fmt.Errorf("decode parked job %d: %w", id, err)
		}
		out = append(out, parkedJob{id: id, job: j})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("claim parked jobs of endpoint %s: %w", endpointID, err)
	}
	slices.SortFunc(out, func(a, b parkedJob) int { return int(a.id - b.id) })
	return out, nil
}

// release deletes a claimed row once its job is handled.
func (p *parkingLot) release(ctx context.Context, id int64) error {
	req := &releaseRequest{id: id, done: make(chan error, 1)}
	p.deletes.Add(ctx, req)
	return <-req.done
}

func (p *parkingLot) deleteBatch(ctx context.Context, reqs []*releaseRequest) {
	ids := make([]int64, len(reqs))
	for i, r := range reqs {
		ids[i] = r.id
	}
	err := backoff.Until(ctx, p.log, "release parked jobs", func() error {
		_, err := p.db.Statement.ConnPool.ExecContext(ctx, `DELETE FROM parked_jobs WHERE id = ANY($1)`,
			pgval.Replan, pgval.Array(ids))
		return err
	})
	for _, r := range reqs {
		r.done <- err
	}
}

// run keeps this worker's heartbeat fresh and sweeps dead workers' jobs
// until ctx ends, then withdraws the heartbeat so that what is still
// parked here is republished by the next sweep (here or elsewhere).
func (p *parkingLot) run(ctx context.Context) error {
	beat := p.clock.NewTicker(heartbeatEvery)
	defer beat.Stop()
	sweep := p.clock.NewTicker(sweepEvery)
	defer sweep.Stop()
	p.runOnce(ctx)
	for {
		select {
		case <-ctx.Done():
			bg, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if err := p.inserts.Wait(bg); err != nil {
				p.log.Warn("parking writes still running at shutdown", "err", err)
			}
			if err := p.deletes.Wait(bg); err != nil {
				p.log.Warn("parking deletes still running at shutdown", "err", err)
			}
			if err := p.db.WithContext(bg).Exec(`DELETE FROM dispatch_workers WHERE id = ?`, p.owner).Error; err != nil {
				p.log.Warn("withdraw heartbeat", "err", err)
			}
			return nil
		case <-beat.C():
			p.heartbeat(ctx)
		case <-sweep.C():
			p.sweep(ctx)
		}
	}
}

// runOnce does each of run's periodic jobs once: the heartbeat, then the
// sweep of dead workers' jobs.
func (p *parkingLot) runOnce(ctx context.Context) {
	p.heartbeat(ctx)
	p.sweep(ctx)
}

func (p *parkingLot) heartbeat(ctx context.Context) {
	err := p.db.WithContext(ctx).Exec(`INSERT INTO dispatch_workers (id, heartbeat_at) VALUES (?, ?)
		ON CONFLICT (id) DO UPDATE SET heartbeat_at = EXCLUDED.heartbeat_at`, p.owner, p.now().UTC()).Error
	if err != nil && ctx.Err() == nil {
		p.log.Warn("parking heartbeat failed", "err", err)
	}
}

// sweep republishes, to the deliveries topic, the parked jobs of every
// owner whose heartbeat is stale or gone, then deletes their rows: a
// crash between the two republishes them again, which the dispatcher
// tolerates (it skips attempts already logged).
func (p *parkingLot) sweep(ctx context.Context) {
	stale := p.now().UTC().Add(-orphanAfter)
	for ctx.Err() == nil {
		n, err := p.sweepOnce(ctx, stale)
		if err != nil {
			if ctx.Err() == nil {
				p.log.Warn("sweeping orphaned parked jobs failed", "err", err)
			}
			return
		}
		if n < sweepBatch {
			break
		}
	}
	err := p.db.WithContext(ctx).Exec(`DELETE FROM dispatch_workers w WHERE heartbeat_at < ?
		AND NOT EXISTS (SELECT 1 FROM parked_jobs p WHERE p.owner = w.id)`, stale).Error
	if err != nil && ctx.Err() == nil {
		p.log.Warn("forgetting dead workers failed", "err", err)
	}
}

func (p *parkingLot) sweepOnce(ctx context.Context, stale time.Time) (int, error) {
	n := 0
	err := p.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []struct {
			ID  int64
			Job []byte
		}
		err := tx.Raw(`SELECT id, job::text AS job FROM parked_jobs p
			WHERE owner <> ? AND NOT EXISTS (SELECT 1 FROM dispatch_workers w WHERE w.id = p.owner AND w.heartbeat_at >= ?)
			ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED`, p.owner, stale, sweepBatch).Scan(&rows).Error
		if err != nil {
			return fmt.Errorf("select orphaned parked jobs: %w", err)
		}
		if n = len(rows); n == 0 {
			return nil
		}
		msgs := make([]model.Message, 0, n)
		ids := make([]int64, n)
		for i, r := range rows {
			var j model.Job
			if err := json.Unmarshal(r.Job, &j); err != nil {
				return fmt.Errorf("decode parked job %d: %w", r.ID, err)
			}
			j.DueAt, j.EnqueuedAt = time.Time{}, time.Time{}
			msgs = append(msgs, model.Message{Topic: model.TopicDeliveries, Job: j})
			ids[i] = r.ID
		}
		if err := p.pub.Publish(ctx, msgs); err != nil {
			return fmt.Errorf("republish parked jobs: %w", err)
		}
		if err := tx.Exec(`DELETE FROM parked_jobs WHERE id = ANY(?)`, pgval.Array(ids)).Error; err != nil {
			return fmt.Errorf("delete republished parked jobs: %w", err)
		}
		p.log.Info("republished a dead worker's parked jobs", "count", n)
		return nil
	})
	return n, err
}
