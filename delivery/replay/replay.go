package replay

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/page"
)

// Replays (docs/contract.md#replay) reuse the event's id and bytes: a replayed
// delivery goes back to pending and gets a job for its next attempt
// number with trigger "replay" and the actor who asked, committed with
// its outbox row in one transaction and then handed to the relay. Its
// retry window starts again at the replayed attempt.

// ReplayResult says which deliveries a replay re-queued.
type ReplayResult struct {
	EventID    uuid.UUID   `json:"event_id"`   // the event replayed
	Deliveries []uuid.UUID `json:"deliveries"` // the deliveries sent again
}

// ReplayEvent replays one event to all of its deliveries, or, with
// endpointID, to that endpoint only — creating a delivery when the
// endpoint never had one for this event. actor is recorded on the
// attempts. Each re-queued delivery is metered like an ingested event.
// Errors: ENOTFOUND (event or endpoint), EINVALID (disabled endpoint, or
// an event with no deliveries), ERATELIMIT, EQUOTA.
func (s *Service) ReplayEvent(ctx context.Context, tenantID, eventID uuid.UUID, endpointID *uuid.UUID, actor string) (ReplayResult, error) {
	res := ReplayResult{EventID: eventID, Deliveries: []uuid.UUID{}}
	var jobs []model.Job
	var ids []uuid.UUID
	// A new delivery's transformation runs between two transactions,
	// never inside one (see delivery.Service.AddDelivery).
	var done *delivery.NewDeliveryTransform
	for {
		var ev delivery.Event
		err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			q := tx.Raw(`SELECT id, type, data, customer_uid, created_at FROM events WHERE id = ? AND tenant_id = ?`, eventID, tenantID).Scan(&ev)
			if q.Error != nil {
				return fmt.Errorf("load event %s: %w", eventID, q.Error)
			}
			if q.RowsAffected == 0 {
				return ferry.NotFound("event")
			}
			if endpointID != nil {
				if err := replayableEndpoint(tx, tenantID, *endpointID); err != nil {
					return err
				}
				if err := sameCustomer(tx, tenantID, *endpointID, ev.Customer); err != nil {
					return err
				}
				if err := tx.Raw(`SELECT id FROM deliveries WHERE tenant_id = ? AND event_id = ? AND endpoint_id = ?`,
					tenantID, eventID, *endpointID).Scan(&ids).Error; err != nil {
					return fmt.Errorf("find delivery: %w", err)
				}
				if len(ids) == 0 {
					id, err := s.delivery.AddDelivery(tx, tenantID, eventID, *endpointID, done)
					if err != nil {
						return err
					}
					ids = []uuid.UUID{id}
				}
			} else {
				if err := tx.Raw(`SELECT d.id FROM deliveries d JOIN endpoints e ON e.id = d.endpoint_id
					WHERE d.tenant_id = ? AND d.event_id = ? AND e.enabled AND e.deleted_at IS NULL
					ORDER BY d.created_at, d.id`, tenantID, eventID).Scan(&ids).Error; err != nil {
					return fmt.Errorf("find deliveries: %w", err)
				}
				if len(ids) == 0 {
					return ferry.Invalid("endpoint_id", "the event has no deliveries to enabled endpoints; pass endpoint_id to send it to one")
				}
			}
			if err := s.meterReplay(ctx, tx, tenantID, len(ids)); err != nil {
				return err
			}
			var err error
			jobs, err = s.requeue(tx, tenantID, ids, actor)
			return err
		})
		var need *delivery.NeedTransform
		if !errors.As(err, &need) {
			if err != nil {
				return ReplayResult{}, err
			}
			break
		}
		if done, err = s.delivery.RunTransform(ctx, tenantID, need, ev); err != nil {
			return ReplayResult{}, err
		}
	}
	// Every delivery is re-queued; only those of http endpoints have jobs.
	res.Deliveries = append(res.Deliveries, ids...)
	s.relay.Enqueue(jobs)
	s.log.InfoContext(ctx, "event replayed", "tenant_id", tenantID, "event_id", eventID, "deliveries", len(ids), "actor", actor)
	return res, nil
}

// ReplayDelivery replays one delivery, metered like an ingested event.
// Errors: ENOTFOUND, EINVALID (its endpoint is disabled or deleted),
// ERATELIMIT, EQUOTA.
func (s *Service) ReplayDelivery(ctx context.Context, tenantID, deliveryID uuid.UUID, actor string) (ReplayResult, error) {
	var jobs []model.Job
	var row struct{ EndpointID, EventID uuid.UUID }
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		q := tx.Raw(`SELECT endpoint_id, event_id FROM deliveries WHERE id = ? AND tenant_id = ?`, deliveryID, tenantID).Scan(&row)
		if q.Error != nil {
			return fmt.Errorf("load delivery %s: %w", deliveryID, q.Error)
		}
		if q.RowsAffected == 0 {
			return ferry.NotFound("delivery")
		}
		if err := replayableEndpoint(tx, tenantID, row.EndpointID); err != nil {
			return err
		}
		if err := s.meterReplay(ctx, tx, tenantID, 1); err != nil {
			return err
		}
		var err error
		jobs, err = s.requeue(tx, tenantID, []uuid.UUID{deliveryID}, actor)
		return err
	})
	if err != nil {
		return ReplayResult{}, err
	}
	s.relay.Enqueue(jobs)
	return ReplayResult{EventID: row.EventID, Deliveries: []uuid.UUID{deliveryID}}, nil
}

// meterReplay counts n replayed deliveries like n ingested events, in tx:
// against the plan's events-per-second limit and monthly quota, and in
// the month's usage. Errors: ERATELIMIT, EQUOTA, database errors.
func (s *Service) meterReplay(ctx context.Context, tx *gorm.DB, tenantID uuid.UUID, n int) error {
	if s.limits == nil {
		return nil
	}
	return s.limits.Meter(dbtx.Wrap(tx)).ConsumeEvents(ctx, tenantID, n)
}

// sameCustomer refuses to send an event of one customer to another
// customer's endpoint: an endpoint of a customer receives that
// customer's events only (the tenant's own endpoints receive any).
func sameCustomer(tx *gorm.DB, tenantID, endpointID uuid.UUID, customer *string) error {
	var uid *string
	if err := tx.Raw(`SELECT customer_uid FROM endpoints WHERE id = ? AND tenant_id = ?`, endpointID, tenantID).Scan(&uid).Error; err != nil {
		return fmt.Errorf("load endpoint %s: %w", endpointID, err)
	}
	if uid != nil && (customer == nil || *customer != *uid) {
		return ferry.Invalid("endpoint_id", "the endpoint belongs to customer %q and receives only that customer's events", *uid)
	}
	return nil
}

// replayableEndpoint returns ENOTFOUND for an endpoint the tenant does not
// have and EINVALID for a disabled one (the dispatcher would not send).
func replayableEndpoint(tx *gorm.DB, tenantID, endpointID uuid.UUID) error {
	var row struct {
		Enabled   bool
		DeletedAt *time.Time
	}
	q := tx.Raw(`SELECT enabled, deleted_at FROM endpoints WHERE id = ? AND tenant_id = ?`, endpointID, tenantID).Scan(&row)
	if q.Error != nil {
		return fmt.Errorf("load endpoint %s: %w", endpointID, q.Error)
	}
	if q.RowsAffected == 0 || row.DeletedAt != nil {
		return ferry.NotFound("endpoint")
	}
	if !row.Enabled {
		return ferry.Invalid("endpoint_id", "the endpoint is disabled; enable it before replaying")
	}
	return nil
}

// requeue sets deliveries back to pending and writes one replay job per
// delivery of an http endpoint to the outbox, in tx; deliveries of queue
// endpoints drop any lease and wait for a pull (their consumers are
// notified at commit). The caller enqueues the returned jobs after commit.
func (s *Service) requeue(tx *gorm.DB, tenantID uuid.UUID, ids []uuid.UUID, actor string) ([]model.Job, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	// The outbox key is (delivery_id, created_at) at Postgres' microsecond
	// precision; the relay deletes by exactly this value.
	now := s.now().UTC().Truncate(time.Microsecond)
	ctx := tx.Statement.Context
	rows, err := store.ResetForReplay(ctx, store.Gorm(tx), tenantID, ids, now)
	if err != nil {
		return nil, err
	}
	var queues []uuid.UUID
	var jobs []model.Job
	for _, r := range rows {
		if delivery.Kind(r.EndpointKind) == delivery.KindQueue {
			queues = append(queues, r.EndpointID)
			continue
		}
		jobs = append(jobs, model.Job{DeliveryID: r.ID, EventID: r.EventID, EndpointID: r.EndpointID, TenantID: tenantID,
			Attempt: r.AttemptCount + 1, Trigger: model.TriggerReplay, Actor: actor, AcceptedAt: now, OutboxAt: now})
	}
	if err := store.InsertFanOut(ctx, store.Gorm(tx), store.FanOut{Jobs: jobs, Queues: queues}); err != nil {
		return nil, err
	}
	return jobs, nil
}

// Replay job states.
const (
	ReplayQueued    = "queued"
	ReplayRunning   = "running"
	ReplayCompleted = "completed"
	ReplayCancelled = "cancelled"
	ReplayFailed    = "failed"
)

// maxReplayReason bounds the reason a staff replay must give (bytes).
const maxReplayReason = 2000

// ReplayFilter selects the deliveries a bulk replay re-sends. Every field
// is optional; Until defaults to when the job was created, so a job never
// chases deliveries created after it.
type ReplayFilter struct {
	EndpointID *uuid.UUID `json:"endpoint_id"` // only deliveries to this endpoint; null: any
	EventType  string     `json:"event_type"`
	Since      *time.Time `json:"since"` // only events created at or after; null: no lower bound
	Until      *time.Time `json:"until"` // only events created before; null: when the job was created
	Status     string     `json:"status"`
}

func (f *ReplayFilter) validate() error {
	f.EventType = strings.TrimSpace(f.EventType)
	if f.EventType != "" {
		if err := delivery.CheckEventType("event_type", f.EventType); err != nil {
			return err
		}
	}
	if err := delivery.CheckStatus(f.Status); err != nil {
		return err
	}
	if f.Since != nil && f.Until != nil && !f.Since.Before(*f.Until) {
		return ferry.Invalid("until", "until must be after since")
	}
	return nil
}

// ReplayJob is a bulk replay and its progress.
type ReplayJob struct {
	ID         uuid.UUID    `json:"id"`               // the job's id
	State      string       `json:"state"`            // queued, running, completed, cancelled or failed
	Filter     ReplayFilter `json:"filter"`           // which deliveries the job re-sends
	Actor      string       `json:"actor"`            // who started it: a user email, an API key prefix or Ferry support
	Reason     string       `json:"reason,omitempty"` // staff's reason; absent for the tenant's own jobs
	Total      int          `json:"total"`            // matching deliveries
	Done       int          `json:"done"`             // re-queued so far
	Error      string       `json:"error,omitempty"`
	CreatedAt  time.Time    `json:"created_at"`  // when the job was started
	UpdatedAt  time.Time    `json:"updated_at"`  // when its progress last changed
	StartedAt  *time.Time   `json:"started_at"`  // when a worker first claimed it; null while queued
	FinishedAt *time.Time   `json:"finished_at"` // when it completed, was cancelled or failed; null before
}

type replayJobRow struct {
	ID           uuid.UUID
	TenantID     uuid.UUID
	Actor        string
	Reason       string
	EndpointID   *uuid.UUID
	EventType    string
	Since        *time.Time
	Until        *time.Time
	StatusFilter string
	State        string
	Total        int
	Done         int
	CursorAt     *time.Time
	CursorID     *uuid.UUID
	Error        string
	CreatedAt    time.Time
	UpdatedAt    time.Time
	StartedAt    *time.Time
	FinishedAt   *time.Time
}

const replayJobColumns = `id, tenant_id, actor, reason, endpoint_id, event_type, since, until, status_filter, state,
	total, done, cursor_at, cursor_id, error, created_at, updated_at, started_at, finished_at`

// replayJobColumnsOf is replayJobColumns qualified by a table alias.
func replayJobColumnsOf(alias string) string {
	cols := strings.Split(replayJobColumns, ",")
	for i, c := range cols {
		cols[i] = alias + "." + strings.TrimSpace(c)
	}
	return strings.Join(cols, ", ")
}

// MaxOpenReplayJobs is how many bulk replay jobs a tenant may have queued
// or running at once.
const MaxOpenReplayJobs = 3

func (r replayJobRow) job() ReplayJob {
	return ReplayJob{ID: r.ID, State: r.State, Actor: r.Actor, Reason: r.Reason, Total: r.Total, Done: r.Done,
		Error: r.Error, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, StartedAt: r.StartedAt, FinishedAt: r.FinishedAt,
		Filter: ReplayFilter{EndpointID: r.EndpointID, EventType: r.EventType, Since: r.Since, Until: r.Until, Status: r.StatusFilter}}
}

// CreateReplayJob queues a bulk replay of the tenant's deliveries matching
// f; a replay worker runs it. reason is kept for staff replays. A tenant
// may have MaxOpenReplayJobs queued or running at once. Errors: EINVALID,
// ENOTFOUND (endpoint), EREPLAYLIMIT (too many open jobs).
func (s *Service) CreateReplayJob(ctx context.Context, tenantID uuid.UUID, f ReplayFilter, actor, reason string) (ReplayJob, error) {
	if err := f.validate(); err != nil {
		return ReplayJob{}, err
	}
	if !utf8.ValidString(reason) || len(reason) > maxReplayReason {
		return ReplayJob{}, ferry.Invalid("reason", "reason must be at most %d bytes of valid UTF-8", maxReplayReason)
	}
	db := s.db.WithContext(ctx)
	if f.EndpointID != nil {
		var n int64
		if err := db.Raw(`SELECT count(*) FROM endpoints WHERE id = ? AND tenant_id = ? AND deleted_at IS NULL`,
			*f.EndpointID, tenantID).Scan(&n).Error; err != nil {
			return ReplayJob{}, fmt.Errorf("check endpoint: %w", err)
		}
		if n == 0 {
			return ReplayJob{}, ferry.NotFound("endpoint")
		}
	}
	now := s.now().UTC()
	until := f.Until
	if until == nil || until.After(now) {
		until = &now
	}
	row := replayJobRow{ID: uuid.New(), TenantID: tenantID, Actor: actor, Reason: reason, EndpointID: f.EndpointID,
		EventType: f.EventType, Since: f.Since, Until: until, StatusFilter: f.Status, State: ReplayQueued,
		CreatedAt: now, UpdatedAt: now}
	err := db.Transaction(func(tx *gorm.DB) error {
		// Serialize the tenant's job creations so parallel requests cannot
		// pass the limit together. Hand-written: no builder form.
		if err := tx.Exec(`SELECT pg_advisory_xact_lock(hashtextextended('ferry.replay_jobs:' || ?::text, 0))`,
			tenantID).Error; err != nil {
			return fmt.Errorf("lock replay jobs of tenant %s: %w", tenantID, err)
		}
		var open int64
		if err := tx.Raw(`SELECT count(*) FROM replay_jobs WHERE tenant_id = ? AND state IN ('queued', 'running')`,
			tenantID).Scan(&open).Error; err != nil {
			return fmt.Errorf("count open replay jobs: %w", err)
		}
		if open >= MaxOpenReplayJobs {
			return &ferry.Error{Code: ferry.EREPLAYLIMIT, RetryAfterSeconds: 10, Message: fmt.Sprintf(
				"%d bulk replays are already queued or running; wait for one to finish or cancel one", open)}
		}
		if err := tx.Exec(`INSERT INTO replay_jobs (id, tenant_id, actor, reason, endpoint_id, event_type, since, until,
			status_filter, state, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			row.ID, tenantID, actor, reason, row.EndpointID, row.EventType, row.Since, row.Until, row.StatusFilter,
			row.State, now, now).Error; err != nil {
			return fmt.Errorf("insert replay job: %w", err)
		}
		return nil
	})
	if err != nil {
		return ReplayJob{}, err
	}
	s.log.InfoContext(ctx, "replay job queued", "tenant_id", tenantID, "replay_id", row.ID, "actor", actor)
	return row.job(), nil
}

// ReplayJob returns one of the tenant's replay jobs. Errors: ENOTFOUND.
func (s *Service) ReplayJob(ctx context.Context, tenantID, id uuid.UUID) (ReplayJob, error) {
	var row replayJobRow
	q := s.db.WithContext(ctx).Raw(`SELECT `+replayJobColumns+` FROM replay_jobs WHERE id = ? AND tenant_id = ?`,
		id, tenantID).Scan(&row)
	if q.Error != nil {
		return ReplayJob{}, fmt.Errorf("load replay job %s: %w", id, q.Error)
	}
	if q.RowsAffected == 0 {
		return ReplayJob{}, ferry.NotFound("replay")
	}
	return row.job(), nil
}

// ListReplayJobs returns a page of the tenant's replay jobs, newest first.
func (s *Service) ListReplayJobs(ctx context.Context, tenantID uuid.UUID, pg page.Request) ([]ReplayJob, string, error) {
	cur, err := page.DecodeAt(pg.Cursor)
	if err != nil {
		return nil, "", err
	}
	var rows []replayJobRow
	if err := s.db.WithContext(ctx).Raw(`SELECT `+replayJobColumns+` FROM replay_jobs
		WHERE tenant_id = ? AND (?::timestamptz IS NULL OR (created_at, id) < (?, ?))
		ORDER BY created_at DESC, id DESC LIMIT ?`, tenantID, cur.AtPtr(), cur.At, cur.ID, pg.Size()+1).
		Scan(&rows).Error; err != nil {
		return nil, "", fmt.Errorf("list replay jobs: %w", err)
	}
	out := make([]ReplayJob, len(rows))
	for i, r := range rows {
		out[i] = r.job()
	}
	out, next := page.Trim(out, pg.Size(), func(j ReplayJob) page.Cursor { return page.Cursor{At: j.CreatedAt, ID: j.ID} })
	return out, next, nil
}

// CancelReplayJob stops a queued or running job; the worker notices
// before its next page. Cancelling a finished job returns it unchanged.
// Errors: ENOTFOUND.
func (s *Service) CancelReplayJob(ctx context.Context, tenantID, id uuid.UUID) (ReplayJob, error) {
	now := s.now().UTC()
	if err := s.db.WithContext(ctx).Exec(`UPDATE replay_jobs SET state = 'cancelled', finished_at = ?, updated_at = ?, claimed_until = NULL
		WHERE id = ? AND tenant_id = ? AND state IN ('queued', 'running')`, now, now, id, tenantID).Error; err != nil {
		return ReplayJob{}, fmt.Errorf("cancel replay job %s: %w", id, err)
	}
	return s.ReplayJob(ctx, tenantID, id)
}
