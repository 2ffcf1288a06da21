package queue

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/store"
	"github.com/ferry-dev/ferry/delivery/webhook"
	"github.com/ferry-dev/ferry/internal/pgval"
)

// PullInput is the body of a pull; nil fields take defaults.
type PullInput struct {
	// Max is how many messages to lease at most (1-100, default 1).
	Max *int `json:"max"`
	// WaitSeconds is how long to wait for a message when the queue is
	// empty (0-30, default 0).
	WaitSeconds *int `json:"wait_seconds"`
	// VisibilitySeconds is the lease (1-43200, default 30): unsettled
	// when it ends, the message goes back to the queue.
	VisibilitySeconds *int `json:"visibility_seconds"`
}

type pullParams struct {
	max        int
	wait       time.Duration
	visibility time.Duration
}

func (in PullInput) validate() (pullParams, error) {
	p := pullParams{max: 1, visibility: DefaultVisibilitySeconds * time.Second}
	if in.Max != nil {
		if *in.Max < 1 || *in.Max > MaxPull {
			return p, ferry.Invalid("max", "max must be between 1 and %d", MaxPull)
		}
		p.max = *in.Max
	}
	if in.WaitSeconds != nil {
		if *in.WaitSeconds < 0 || *in.WaitSeconds > MaxWaitSeconds {
			return p, ferry.Invalid("wait_seconds", "wait_seconds must be between 0 and %d", MaxWaitSeconds)
		}
		p.wait = time.Duration(*in.WaitSeconds) * time.Second
	}
	if in.VisibilitySeconds != nil {
		if *in.VisibilitySeconds < 1 || *in.VisibilitySeconds > MaxVisibilitySeconds {
			return p, ferry.Invalid("visibility_seconds", "visibility_seconds must be between 1 and %d", MaxVisibilitySeconds)
		}
		p.visibility = time.Duration(*in.VisibilitySeconds) * time.Second
	}
	return p, nil
}

// Message is one leased message.
type Message struct {
	// ID is the delivery's id.
	ID uuid.UUID `json:"id"`
	// Receipt settles the lease (ack, nack, reject); it works once.
	Receipt string `json:"receipt"`
	// Attempt is this lease's attempt number.
	Attempt int            `json:"attempt"`
	Event   delivery.Event `json:"event"` // the event the message carries
	// Body is the envelope exactly as a push sends it.
	Body string `json:"body"`
	// Headers are the webhook headers a push sends with Body, signature
	// included.
	Headers map[string]string `json:"headers"`
	// LeaseUntil is when the message returns to the queue unless settled.
	LeaseUntil time.Time `json:"lease_until"`
}

// Pull leases up to in.Max due messages of the tenant's queue endpoint,
// oldest first, waiting up to in.WaitSeconds for one when there are none.
// A pull that may wait holds one of the tenant's and the queue's waiting
// slots until it returns. Errors: EINVALID, ENOTFOUND, ERATELIMIT (no
// slot free), wrapped database errors.
func (s *Service) Pull(ctx context.Context, tenantID, endpointID uuid.UUID, in PullInput) ([]Message, error) {
	p, err := in.validate()
	if err != nil {
		return nil, err
	}
	if p.wait > 0 {
		// Before the endpoint is read: a refusal costs no statement.
		release, err := s.slots.acquire(tenantID, endpointID)
		if err != nil {
			return nil, err
		}
		defer release()
	}
	ep, err := s.queueEndpoint(ctx, tenantID, endpointID)
	if err != nil {
		return nil, err
	}
	return s.pull(ctx, tenantID, ep, p)
}

// pull leases up to p.max messages, waiting up to p.wait for some. When
// ctx ends (the consumer went away, or the request was cut) it leases
// nothing more, and messages it has just leased go back to the queue at
// once (release) instead of staying invisible for the lease.
func (s *Service) pull(ctx context.Context, tenantID uuid.UUID, ep endpointInfo, p pullParams) ([]Message, error) {
	msgs, _, err := s.pullRows(ctx, tenantID, ep, p)
	return msgs, err
}

// pullRows is pull, with the leased rows (to release them).
func (s *Service) pullRows(ctx context.Context, tenantID uuid.UUID, ep endpointInfo, p pullParams) ([]Message, []leasedRow, error) {
	var sub *subscription
	var wake <-chan struct{}
	if p.wait > 0 {
		sub = s.listener.subscribe(tenantID, ep.ID)
		defer sub.cancel()
		wake = sub.wake()
	}
	deadline := s.clock.Now().Add(p.wait)
	for {
		if ctx.Err() != nil {
			return []Message{}, nil, nil
		}
		// The lease runs to its end even if ctx ends meanwhile, so that
		// whether it committed is known; ctx is checked after it.
		msgs, rows, err := s.lease(context.WithoutCancel(ctx), tenantID, ep, p)
		if err != nil {
			return nil, nil, err
		}
		if len(msgs) > 0 {
			if ctx.Err() != nil {
				s.release(context.WithoutCancel(ctx), tenantID, ep.ID, rows)
				return []Message{}, nil, nil
			}
			if len(msgs) == p.max {
				// A full batch may have left messages behind: pass the
				// wake-up on to another waiter.
				s.listener.wake(ep.ID)
			}
			return msgs, rows, nil
		}
		left := deadline.Sub(s.clock.Now())
		if left <= 0 {
			return []Message{}, nil, nil
		}
		// No timer of its own re-checks the queue: a notification, or the
		// Service's shared re-check (recheck.go), wakes it when there is
		// something to lease.
		t := time.NewTimer(left)
		sub.park(true)
		select {
		case <-wake:
		case <-t.C:
		case <-ctx.Done():
		case <-s.done:
			t.Stop()
			return []Message{}, nil, nil
		}
		sub.park(false)
		t.Stop()
	}
}

// leasedRow is a leased message with its event.
type leasedRow struct {
	store.Leased
	Event delivery.Event
}

// leased adds their events to the rows a lease returned.
func leased(ls []store.Leased, err error) ([]leasedRow, error) {
	if err != nil {
		return nil, err
	}
	out := make([]leasedRow, len(ls))
	for i, l := range ls {
		out[i] = leasedRow{Leased: l, Event: delivery.Event{ID: l.EventID, Type: l.EventType, Data: l.EventData, CreatedAt: l.EventCreatedAt}}
	}
	return out, nil
}

// lease takes up to p.max due messages. The lease commits before the
// messages are answered: a consumer that vanishes in between gets them
// back through release, or when the lease runs out.
func (s *Service) lease(ctx context.Context, tenantID uuid.UUID, ep endpointInfo, p pullParams) ([]Message, []leasedRow, error) {
	// Postgres keeps microseconds: lease_until reads back as answered.
	s.cfg.Metrics.Leases.Inc()
	now := s.clock.Now().UTC().Truncate(time.Microsecond)
	until := now.Add(p.visibility)
	var rows []leasedRow
	var after func(context.Context)
	err := pgval.WithConn(ctx, s.db, func(pc *pgx.Conn) error {
		if ep.MaxInFlight != 1 {
			// One statement in its own transaction: no BEGIN/COMMIT
			// round trips on the hot path.
			var err error
			rows, err = leased(store.Lease(ctx, pc, tenantID, ep.ID, now, until, p.max))
			return err
		}
		return pgx.BeginFunc(ctx, pc, func(tx pgx.Tx) error {
			// Ordered: one pull at a time, and none while a lease is live.
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtextextended($1::text, 0))`, ep.ID.String()); err != nil {
				return fmt.Errorf("lock ordered queue: %w", err)
			}
			var live bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM deliveries WHERE tenant_id = $1 AND endpoint_id = $2
				AND status IN `+model.SQLUnfinished+` AND lease_until > $3)`, tenantID, ep.ID, now).Scan(&live); err != nil {
				return fmt.Errorf("check live lease: %w", err)
			}
			if live {
				return nil
			}
			var err error
			windowStart := now.Add(-s.cfg.Policy.Window())
			if rows, err = leased(store.LeaseOrdered(ctx, tx, tenantID, ep.ID, now, until, windowStart)); err != nil {
				return err
			}
			var timeouts []attempt
			for _, r := range rows {
				if r.OldLeaseUntil != nil && r.OldLeasedAt != nil {
					timeouts = append(timeouts, attempt{tenantID: tenantID, deliveryID: r.ID, eventID: r.Event.ID, endpointID: ep.ID,
						number: r.AttemptCount - 1, trigger: triggerOf(r.OldStatus, r.AttemptCount-1), startedAt: *r.OldLeasedAt,
						endedAt: *r.OldLeaseUntil, outcome: model.OutcomeRetry, status: model.StatusRetrying,
						firstAttemptAt: r.OldFirst, errorClass: classTimeout, errorMessage: timeoutMessage, next: &now})
				}
			}
			after, err = s.recordAttempts(ctx, tx, timeouts)
			return err
		})
	})
	if err != nil {
		return nil, nil, err
	}
	if after != nil {
		after(ctx)
	}
	if len(rows) == 0 {
		return []Message{}, nil, nil
	}
	slices.SortFunc(rows, func(a, b leasedRow) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return slices.Compare(a.ID[:], b.ID[:])
	})
	msgs, err := s.messages(ctx, ep.ID, rows, until)
	if err != nil {
		// The consumer gets an error, not the messages: hand them back.
		s.release(context.WithoutCancel(ctx), tenantID, ep.ID, rows)
		return nil, nil, err
	}
	s.traceLeases(ctx, tenantID, rows)
	return msgs, rows, nil
}

// messages builds the leased messages: envelope, headers and signature
// exactly as a push of the same delivery.
func (s *Service) messages(ctx context.Context, endpointID uuid.UUID, rows []leasedRow, until time.Time) ([]Message, error) {
	target, err := s.target(ctx, endpointID, rows[0].Fingerprint)
	if err != nil {
		return nil, err
	}
	out := make([]Message, 0, len(rows))
	now := s.clock.Now()
	for _, r := range rows {
		ev := r.Event
		if r.AttemptCount == 1 && r.OldStatus == model.StatusPending {
			s.cfg.Leased.Observe(max(0, now.Sub(ev.CreatedAt).Seconds()))
		}
		body := webhook.Envelope(ev.ID, ev.Type, ev.CreatedAt, ev.Data)
		h := webhook.Headers(target.headers, s.cfg.UserAgent, target.keys, ev.ID.String(), target.signing.SigningTime(ev.CreatedAt, now), body)
		headers := make(map[string]string, len(h))
		for k, v := range h {
			if len(v) > 0 {
				headers[k] = v[0]
			}
		}
		out = append(out, Message{ID: r.ID, Receipt: encodeReceipt(r.ID, r.LeaseID), Attempt: r.AttemptCount,
			Event: ev, Body: string(body), Headers: headers, LeaseUntil: until})
	}
	return out, nil
}
