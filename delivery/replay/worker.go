package replay

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"golang.org/x/time/rate"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/delivery/model"
)

// DefaultRatePerSecond is WorkerConfig.RatePerSecond when
// unset, and FERRY_REPLAY_RATE_LIMIT's default.
const DefaultRatePerSecond = 200

// WorkerConfig tunes the bulk replay worker.
type WorkerConfig struct {
	// RatePerSecond bounds deliveries re-queued per second by one worker
	// (default DefaultRatePerSecond).
	RatePerSecond int
	// PageSize is how many deliveries one transaction re-queues
	// (default 100, at most RatePerSecond, and at most the tenant's
	// events-per-second limit).
	PageSize int
	// TurnPages is how many pages a worker works on one job before
	// handing it back so other tenants' jobs get their turn (default 10).
	TurnPages int
	// PollInterval is how often an idle worker looks for jobs (default 1 s).
	PollInterval time.Duration
	// Lease is how long a claimed job stays claimed without progress
	// before another worker resumes it (default 30 s).
	Lease time.Duration
}

func (c WorkerConfig) withDefaults() WorkerConfig {
	c.RatePerSecond = cmp.Or(c.RatePerSecond, DefaultRatePerSecond)
	c.PageSize = min(cmp.Or(c.PageSize, 100), c.RatePerSecond)
	c.TurnPages = cmp.Or(c.TurnPages, 10)
	c.PollInterval = cmp.Or(c.PollInterval, time.Second)
	c.Lease = cmp.Or(c.Lease, 30*time.Second)
	return c
}

// Worker runs bulk replay jobs in turns, fairly across tenants. It
// claims one job with FOR UPDATE SKIP LOCKED — a queued or running job
// that nobody holds (or whose holder's lease ran out because it died),
// of the tenant whose jobs had a turn longest ago — counts the matching
// deliveries on first start, then re-queues them page by page in
// (created_at, id) order for at most TurnPages pages, and hands the job
// back. So one tenant's three huge jobs take turns with another tenant's
// small one instead of running first-come-first-served.
//
// Each page and the job's progress commit together, so a job resumes
// after its last page, and a cancelled job stops before its next one.
// Every page is metered like ingested events: the replayed deliveries
// count against the tenant's events-per-second limit and monthly usage.
// A page the rate limit refuses waits (not_before) while other jobs run;
// a job whose plan's monthly events are used up fails with that reason.
type Worker struct {
	svc     *Service
	cfg     WorkerConfig
	log     *slog.Logger
	limiter *rate.Limiter
}

// NewWorker returns a worker re-queuing through svc.
func NewWorker(svc *Service, cfg WorkerConfig, log *slog.Logger) *Worker {
	cfg = cfg.withDefaults()
	return &Worker{svc: svc, cfg: cfg, log: log,
		limiter: rate.NewLimiter(rate.Limit(cfg.RatePerSecond), cfg.PageSize)}
}

// Run works on jobs until ctx ends.
func (w *Worker) Run(ctx context.Context) error {
	t := time.NewTicker(w.cfg.PollInterval)
	defer t.Stop()
	for {
		for {
			worked, err := w.RunOnce(ctx)
			if err != nil && ctx.Err() == nil {
				w.log.Warn("replay worker", "err", err)
			}
			if !worked || err != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// RunOnce claims one job and works one turn of it: up to TurnPages
// pages, until the job completes, is cancelled or fails, its tenant's
// rate limit holds it back, or ctx ends. It reports whether it found a
// job.
func (w *Worker) RunOnce(ctx context.Context) (bool, error) {
	job, ok, err := w.claim(ctx)
	if err != nil || !ok {
		return false, err
	}
	log := w.log.With("tenant_id", job.TenantID, "replay_id", job.ID)
	log.Debug("replay job turn", "total", job.Total, "done", job.Done)
	for range w.cfg.TurnPages {
		if err := w.limiter.WaitN(ctx, w.cfg.PageSize); err != nil {
			return true, nil // shutting down; the lease lets a worker resume
		}
		more, err := w.page(ctx, &job)
		switch {
		case errors.Is(err, errReplayStopped):
			log.Info("replay job stopped", "done", job.Done)
			return true, nil
		case errors.Is(err, errReplayThrottled):
			return true, nil
		case err != nil:
			if ctx.Err() != nil {
				return true, nil
			}
			return true, fmt.Errorf("replay job %s: %w", job.ID, err)
		case !more:
			log.Info("replay job completed", "done", job.Done)
			return true, nil
		}
	}
	return true, w.release(ctx, job.ID, nil)
}

var (
	errReplayStopped   = errors.New("replay job is no longer running")
	errReplayThrottled = errors.New("replay job held back by its tenant's rate limit")
)

// claim takes one job, counting its deliveries on first start. Among the
// claimable jobs it picks the tenant whose open jobs had their latest
// turn longest ago (a tenant with only fresh jobs first), then that
// tenant's job that waited longest for a turn.
func (w *Worker) claim(ctx context.Context) (replayJobRow, bool, error) {
	var job replayJobRow
	var found bool
	now := w.svc.now().UTC()
	err := w.svc.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		q := tx.Raw(`SELECT `+replayJobColumnsOf("j")+` FROM replay_jobs j
			CROSS JOIN LATERAL (SELECT max(o.turn_at) AS last_turn FROM replay_jobs o
				WHERE o.tenant_id = j.tenant_id AND o.state IN ('queued', 'running')) t
			WHERE (j.state = 'queued' OR (j.state = 'running' AND (j.claimed_until IS NULL OR j.claimed_until < ?)))
			AND (j.not_before IS NULL OR j.not_before <= ?)
			ORDER BY t.last_turn NULLS FIRST, j.turn_at NULLS FIRST, j.created_at, j.id
			LIMIT 1 FOR UPDATE OF j SKIP LOCKED`, now, now).Scan(&job)
		if q.Error != nil {
			return fmt.Errorf("claim replay job: %w", q.Error)
		}
		if q.RowsAffected == 0 {
			return nil
		}
		found = true
		if job.State == ReplayQueued {
			var total int64
			if err := matching(tx, job, "count(*)", 0).Scan(&total).Error; err != nil {
				return fmt.Errorf("count replay deliveries: %w", err)
			}
			job.Total = int(total)
			job.StartedAt = &now
		}
		job.State = ReplayRunning
		return tx.Exec(`UPDATE replay_jobs SET state = 'running', total = ?, started_at = ?, updated_at = ?,
			claimed_until = ?, turn_at = ? WHERE id = ?`,
			job.Total, job.StartedAt, now, now.Add(w.cfg.Lease), now, job.ID).Error
	})
	return job, found, err
}

// release hands a job back after its turn; notBefore, when set, keeps it
// waiting until then.
func (w *Worker) release(ctx context.Context, id uuid.UUID, notBefore *time.Time) error {
	if err := w.svc.db.WithContext(ctx).Exec(`UPDATE replay_jobs SET claimed_until = NULL, not_before = ?
		WHERE id = ? AND state = 'running'`, notBefore, id).Error; err != nil {
		return fmt.Errorf("release replay job %s: %w", id, err)
	}
	return nil
}

// matching selects sel over the job's deliveries; with a limit, one page
// after the job's cursor. Deliveries to disabled or deleted endpoints are
// left out: the dispatcher would not send them.
func matching(tx *gorm.DB, job replayJobRow, sel string, limit int) *gorm.DB {
	sql := `SELECT ` + sel + ` FROM deliveries d JOIN endpoints e ON e.id = d.endpoint_id
		JOIN events ev ON ev.id = d.event_id
		WHERE d.tenant_id = ? AND e.enabled AND e.deleted_at IS NULL
		AND (?::uuid IS NULL OR d.endpoint_id = ?)
		AND (? = '' OR ev.type = ?)
		AND (?::timestamptz IS NULL OR d.created_at >= ?)
		AND (?::timestamptz IS NULL OR d.created_at < ?)
		AND (? = '' OR d.status = ?)`
	args := []any{job.TenantID, job.EndpointID, job.EndpointID, job.EventType, job.EventType,
		job.Since, job.Since, job.Until, job.Until, job.StatusFilter, job.StatusFilter}
	if limit > 0 {
		sql += ` AND (?::timestamptz IS NULL OR (d.created_at, d.id) > (?, ?)) ORDER BY d.created_at, d.id LIMIT ?`
		args = append(args, job.CursorAt, job.CursorAt, job.CursorID, limit)
	}
	return tx.Raw(sql, args...)
}

// pageSize is how many deliveries one page of the tenant's job may
// re-queue: never more than its plan accepts in a second.
func (w *Worker) pageSize(ctx context.Context, tenantID uuid.UUID) (int, error) {
	if w.svc.limits == nil {
		return w.cfg.PageSize, nil
	}
	eps, err := w.svc.limits.EventsPerSecond(ctx, tenantID)
	if err != nil {
		return 0, fmt.Errorf("events per second of tenant %s: %w", tenantID, err)
	}
	if eps <= 0 {
		return w.cfg.PageSize, nil
	}
	return min(w.cfg.PageSize, eps), nil
}

// page re-queues the next page of the job's deliveries, meters them, and
// records progress in the same transaction. It reports whether more may
// follow. Errors: errReplayStopped (cancelled, or failed now because the
// plan's monthly events are used up), errReplayThrottled (the tenant's
// rate limit refused the page; the job is handed back until the next
// second), database errors.
func (w *Worker) page(ctx context.Context, job *replayJobRow) (bool, error) {
	size, err := w.pageSize(ctx, job.TenantID)
	if err != nil {
		return false, err
	}
	more := false
	var jobs []model.Job
	var refused *ferry.Error
	err = w.svc.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// Progress is read from the locked row, not from memory: should a
		// stalled worker's lease run out and another resume the job, the
		// two take turns and never replay the same page twice.
		var cur struct {
			State    string
			Total    int
			Done     int
			CursorAt *time.Time
			CursorID *uuid.UUID
		}
		if err := tx.Raw(`SELECT state, total, done, cursor_at, cursor_id FROM replay_jobs WHERE id = ? FOR UPDATE`,
			job.ID).Scan(&cur).Error; err != nil {
			return fmt.Errorf("lock replay job: %w", err)
		}
		if cur.State != ReplayRunning {
			return errReplayStopped
		}
		job.Total, job.Done, job.CursorAt, job.CursorID = cur.Total, cur.Done, cur.CursorAt, cur.CursorID
		q := matching(tx, *job, "d.id, d.created_at", size)
		var rows []struct {
			ID        uuid.UUID
			CreatedAt time.Time
		}
		if err := q.Scan(&rows).Error; err != nil {
			return fmt.Errorf("select replay page: %w", err)
		}
		now := w.svc.now().UTC()
		if len(rows) == 0 {
			return tx.Exec(`UPDATE replay_jobs SET state = 'completed', finished_at = ?, updated_at = ?, claimed_until = NULL
				WHERE id = ?`, now, now, job.ID).Error
		}
		// Metered in a savepoint: a refused page rolls back its count but
		// not the job row's lock.
		if w.svc.limits != nil {
			err := tx.Transaction(func(sp *gorm.DB) error {
				return w.svc.limits.Meter(dbtx.Wrap(sp)).ConsumeEvents(ctx, job.TenantID, len(rows))
			})
			if errors.As(err, &refused) && (refused.Code == ferry.ERATELIMIT || refused.Code == ferry.EQUOTA) {
				return nil
			}
			if err != nil {
				return err
			}
		}
		ids := make([]uuid.UUID, len(rows))
		for i, r := range rows {
			ids[i] = r.ID
		}
		if jobs, err = w.svc.requeue(tx, job.TenantID, ids, job.Actor); err != nil {
			return err
		}
		last := rows[len(rows)-1]
		job.CursorAt, job.CursorID = &last.CreatedAt, &last.ID
		job.Done += len(rows)
		if job.Done > job.Total {
			job.Total = job.Done
		}
		more = len(rows) == size
		state := ReplayRunning
		var finished *time.Time
		claimed := now.Add(w.cfg.Lease)
		claimedUntil := &claimed
		if !more {
			state, finished, claimedUntil = ReplayCompleted, &now, nil
		}
		if err := tx.Exec(`UPDATE replay_jobs SET done = ?, total = ?, cursor_at = ?, cursor_id = ?, state = ?,
			finished_at = ?, updated_at = ?, claimed_until = ? WHERE id = ?`,
			job.Done, job.Total, job.CursorAt, job.CursorID, state, finished, now, claimedUntil, job.ID).Error; err != nil {
			return fmt.Errorf("record replay progress: %w", err)
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	if refused != nil {
		return false, w.refused(ctx, job, refused)
	}
	// Jobs are published only once committed; the outbox covers a crash.
	w.svc.relay.Enqueue(jobs)
	return more, nil
}

// refused handles a page the tenant's plan refused: over the rate limit,
// the job waits for the next window while other jobs run; over the
// monthly quota, it fails with the plan's reason.
func (w *Worker) refused(ctx context.Context, job *replayJobRow, e *ferry.Error) error {
	now := w.svc.now().UTC()
	if e.Code == ferry.ERATELIMIT {
		wait := now.Add(time.Duration(max(e.RetryAfterSeconds, 1)) * time.Second)
		if err := w.release(ctx, job.ID, &wait); err != nil {
			return err
		}
		return errReplayThrottled
	}
	if err := w.svc.db.WithContext(ctx).Exec(`UPDATE replay_jobs SET state = 'failed', error = ?, finished_at = ?,
		updated_at = ?, claimed_until = NULL WHERE id = ? AND state = 'running'`, e.Message, now, now, job.ID).Error; err != nil {
		return fmt.Errorf("fail replay job %s: %w", job.ID, err)
	}
	w.log.Info("replay job failed", "tenant_id", job.TenantID, "replay_id", job.ID, "reason", e.Message)
	return errReplayStopped
}
