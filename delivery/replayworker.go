package delivery

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
)

// DefaultReplayRatePerSecond is ReplayWorkerConfig.RatePerSecond when
// unset, and FERRY_REPLAY_RATE_LIMIT's default.
const DefaultReplayRatePerSecond = 200

// ReplayWorkerConfig tunes the bulk replay worker.
type ReplayWorkerConfig struct {
	// RatePerSecond bounds deliveries re-queued per second by one worker
	// (default DefaultReplayRatePerSecond).
	RatePerSecond int
	// PageSize is how many deliveries one transaction re-queues
	// (default 100, at most RatePerSecond).
	PageSize int
	// PollInterval is how often an idle worker looks for jobs (default 1 s).
	PollInterval time.Duration
	// Lease is how long a running job stays claimed without progress
	// before another worker resumes it (default 30 s).
	Lease time.Duration
}

func (c ReplayWorkerConfig) withDefaults() ReplayWorkerConfig {
	c.RatePerSecond = cmp.Or(c.RatePerSecond, DefaultReplayRatePerSecond)
	c.PageSize = min(cmp.Or(c.PageSize, 100), c.RatePerSecond)
	c.PollInterval = cmp.Or(c.PollInterval, time.Second)
	c.Lease = cmp.Or(c.Lease, 30*time.Second)
	return c
}

// ReplayWorker runs bulk replay jobs: it claims one with FOR UPDATE SKIP
// LOCKED (a queued job, or a running one whose lease ran out because its
// worker died), counts the matching deliveries, then re-queues them page
// by page in (created_at, id) order. Each page and the job's progress
// commit together, so a restarted job resumes after its last page, and a
// cancelled job stops before its next one.
type ReplayWorker struct {
	svc     *Service
	cfg     ReplayWorkerConfig
	log     *slog.Logger
	limiter *rate.Limiter
}

// NewReplayWorker returns a worker re-queuing through svc.
func NewReplayWorker(svc *Service, cfg ReplayWorkerConfig, log *slog.Logger) *ReplayWorker {
	cfg = cfg.withDefaults()
	return &ReplayWorker{svc: svc, cfg: cfg, log: log,
		limiter: rate.NewLimiter(rate.Limit(cfg.RatePerSecond), cfg.PageSize)}
}

// Run works on jobs until ctx ends.
func (w *ReplayWorker) Run(ctx context.Context) error {
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

// RunOnce claims one job and works it to its end (completed, cancelled,
// or ctx done). It reports whether it found a job.
func (w *ReplayWorker) RunOnce(ctx context.Context) (bool, error) {
	job, ok, err := w.claim(ctx)
	if err != nil || !ok {
		return false, err
	}
	log := w.log.With("tenant_id", job.TenantID, "replay_id", job.ID)
	log.Info("replay job started", "total", job.Total, "done", job.Done)
	for {
		if err := w.limiter.WaitN(ctx, w.cfg.PageSize); err != nil {
			return true, nil // shutting down; the lease lets a worker resume
		}
		more, err := w.page(ctx, &job)
		if errors.Is(err, errReplayStopped) {
			log.Info("replay job cancelled", "done", job.Done)
			return true, nil
		}
		if err != nil {
			if ctx.Err() != nil {
				return true, nil
			}
			return true, fmt.Errorf("replay job %s: %w", job.ID, err)
		}
		if !more {
			log.Info("replay job completed", "done", job.Done)
			return true, nil
		}
	}
}

var errReplayStopped = errors.New("replay job is no longer running")

// claim takes one job, counting its deliveries on first start.
func (w *ReplayWorker) claim(ctx context.Context) (replayJobRow, bool, error) {
	var job replayJobRow
	var found bool
	now := w.svc.now().UTC()
	err := w.svc.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		q := tx.Raw(`SELECT `+replayJobColumns+` FROM replay_jobs
			WHERE state = 'queued' OR (state = 'running' AND updated_at < ?)
			ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED`, now.Add(-w.cfg.Lease)).Scan(&job)
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
		return tx.Exec(`UPDATE replay_jobs SET state = 'running', total = ?, started_at = ?, updated_at = ? WHERE id = ?`,
			job.Total, job.StartedAt, now, job.ID).Error
	})
	return job, found, err
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

// page re-queues the next page of the job's deliveries and records
// progress in the same transaction. It reports whether more may follow.
func (w *ReplayWorker) page(ctx context.Context, job *replayJobRow) (bool, error) {
	more := false
	var jobs []Job
	err := w.svc.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
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
		q := matching(tx, *job, "d.id, d.created_at", w.cfg.PageSize)
		var rows []struct {
			ID        uuid.UUID
			CreatedAt time.Time
		}
		if err := q.Scan(&rows).Error; err != nil {
			return fmt.Errorf("select replay page: %w", err)
		}
		now := w.svc.now().UTC()
		if len(rows) == 0 {
			return tx.Exec(`UPDATE replay_jobs SET state = 'completed', finished_at = ?, updated_at = ? WHERE id = ?`,
				now, now, job.ID).Error
		}
		ids := make([]uuid.UUID, len(rows))
		for i, r := range rows {
			ids[i] = r.ID
		}
		var err error
		if jobs, err = w.svc.requeue(tx, job.TenantID, ids, job.Actor); err != nil {
			return err
		}
		last := rows[len(rows)-1]
		job.CursorAt, job.CursorID = &last.CreatedAt, &last.ID
		job.Done += len(rows)
		if job.Done > job.Total {
			job.Total = job.Done
		}
		more = len(rows) == w.cfg.PageSize
		state := ReplayRunning
		var finished *time.Time
		if !more {
			state, finished = ReplayCompleted, &now
		}
		if err := tx.Exec(`UPDATE replay_jobs SET done = ?, total = ?, cursor_at = ?, cursor_id = ?, state = ?,
			finished_at = ?, updated_at = ? WHERE id = ?`,
			job.Done, job.Total, job.CursorAt, job.CursorID, state, finished, now, job.ID).Error; err != nil {
			return fmt.Errorf("record replay progress: %w", err)
		}
		return nil
	})
	if err != nil {
		return false, err
	}
	// Jobs are published only once committed; the outbox covers a crash.
	w.svc.relay.Enqueue(jobs)
	return more, nil
}
