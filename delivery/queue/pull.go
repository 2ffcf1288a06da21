package queue

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/internal/pgval"
	"github.com/ferry-dev/ferry/delivery/webhook"
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
	Event   delivery.Event `json:"event"`
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
// Errors: EINVALID, ENOTFOUND, wrapped database errors.
func (s *Service) Pull(ctx context.Context, tenantID, endpointID uuid.UUID, in PullInput) ([]Message, error) {
	p, err := in.validate()
	if err != nil {
		return nil, err
	}
	ep, err := s.queueEndpoint(ctx, tenantID, endpointID)
	if err != nil {
		return nil, err
	}
	return s.pull(ctx, tenantID, ep, p)
}

func (s *Service) pull(ctx context.Context, tenantID uuid.UUID, ep endpointInfo, p pullParams) ([]Message, error) {
	var wake <-chan struct{}
	if p.wait > 0 {
		var cancel func()
		wake, cancel = s.listener.subscribe(ep.ID)
		defer cancel()
	}
	deadline := s.now().Add(p.wait)
	for {
		msgs, err := s.lease(ctx, tenantID, ep, p)
		if err != nil || len(msgs) > 0 {
			return msgs, err
		}
		left := deadline.Sub(s.now())
		if left <= 0 {
			return []Message{}, nil
		}
		t := time.NewTimer(min(left, s.cfg.PollInterval))
		select {
		case <-wake:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return []Message{}, nil
		case <-s.done:
			t.Stop()
			return []Message{}, nil
		}
		t.Stop()
	}
}

// leasedRow is a delivery as the lease statement returns it, with the
// lease it took back, if that one had run out.
type leasedRow struct {
	ID            uuid.UUID
	EventID       uuid.UUID
	LeaseID       uuid.UUID
	AttemptCount  int
	CreatedAt     time.Time
	OldStatus     delivery.Status
	OldLeasedAt   *time.Time
	OldLeaseUntil *time.Time
}

// lease takes up to p.max due messages in one transaction.
func (s *Service) lease(ctx context.Context, tenantID uuid.UUID, ep endpointInfo, p pullParams) ([]Message, error) {
	if !ep.Enabled {
		return []Message{}, nil
	}
	now := s.now().UTC()
	until := now.Add(p.visibility)
	var rows []leasedRow
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		limit := p.max
		if ep.MaxInFlight == 1 {
			// Ordered: one pull at a time, and none while a lease is live.
			if err := tx.Exec(`SELECT pg_advisory_xact_lock(hashtextextended(?::text, 0))`, ep.ID.String()).Error; err != nil {
				return fmt.Errorf("lock ordered queue: %w", err)
			}
			var live bool
			if err := tx.Raw(`SELECT EXISTS (SELECT 1 FROM deliveries WHERE tenant_id = ? AND endpoint_id = ?
				AND status IN ('pending', 'retrying') AND lease_until > ?)`, tenantID, ep.ID, now).Scan(&live).Error; err != nil {
				return fmt.Errorf("check live lease: %w", err)
			}
			if live {
				return nil
			}
			limit = 1
		}
		// Hand-written: the hot path, one statement per pull through
		// deliveries_queue_head_idx. An expired lease taken back here
		// makes the delivery retrying.
		err := tx.Raw(`WITH c AS (
				SELECT id, status AS old_status, leased_at AS old_leased_at, lease_until AS old_lease_until
				FROM deliveries
				WHERE tenant_id = ? AND endpoint_id = ? AND status IN ('pending', 'retrying')
					AND (next_attempt_at IS NULL OR next_attempt_at <= ?) AND (lease_until IS NULL OR lease_until <= ?)
				ORDER BY created_at, id LIMIT ?
				FOR UPDATE SKIP LOCKED)
			UPDATE deliveries d SET lease_id = gen_random_uuid(), leased_at = ?, lease_until = ?, next_attempt_at = ?,
				status = CASE WHEN c.old_lease_until IS NOT NULL THEN 'retrying' ELSE d.status END,
				attempt_count = d.attempt_count + 1, first_attempt_at = coalesce(d.first_attempt_at, ?),
				last_attempt_at = ?, updated_at = ?
			FROM c WHERE d.id = c.id
			RETURNING d.id, d.event_id, d.lease_id, d.attempt_count, d.created_at, c.old_status, c.old_leased_at, c.old_lease_until`,
			tenantID, ep.ID, now, now, limit, now, until, until, now, now, now).Scan(&rows).Error
		if err != nil {
			return fmt.Errorf("lease messages: %w", err)
		}
		var timeouts []attempt
		for _, r := range rows {
			if r.OldLeaseUntil != nil && r.OldLeasedAt != nil {
				timeouts = append(timeouts, attempt{tenantID: tenantID, deliveryID: r.ID, eventID: r.EventID, endpointID: ep.ID,
					number: r.AttemptCount - 1, trigger: triggerOf(r.OldStatus, r.AttemptCount-1), startedAt: *r.OldLeasedAt,
					endedAt: *r.OldLeaseUntil, outcome: delivery.OutcomeRetry, errorClass: classTimeout,
					errorMessage: "the lease ran out before the message was acked", next: &now})
			}
		}
		return insertAttempts(tx, timeouts)
	})
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		return []Message{}, nil
	}
	slices.SortFunc(rows, func(a, b leasedRow) int {
		if c := a.CreatedAt.Compare(b.CreatedAt); c != 0 {
			return c
		}
		return slices.Compare(a.ID[:], b.ID[:])
	})
	return s.messages(ctx, tenantID, ep.ID, rows, until)
}

// messages builds the leased messages: envelope, headers and signature
// exactly as a push of the same delivery.
func (s *Service) messages(ctx context.Context, tenantID, endpointID uuid.UUID, rows []leasedRow, until time.Time) ([]Message, error) {
	target, err := delivery.LoadTarget(ctx, s.db, s.cipher, endpointID, s.now())
	if err != nil {
		return nil, err
	}
	eventIDs := make([]uuid.UUID, 0, len(rows))
	for _, r := range rows {
		eventIDs = append(eventIDs, r.EventID)
	}
	var events []struct {
		ID        uuid.UUID
		Type      string
		Data      string
		CreatedAt time.Time
	}
	if err := s.db.WithContext(ctx).Raw(`SELECT id, type, data::text AS data, created_at FROM events
		WHERE tenant_id = ? AND id = ANY(?::uuid[])`, tenantID, pgval.Array(eventIDs)).Scan(&events).Error; err != nil {
		return nil, fmt.Errorf("load events: %w", err)
	}
	byID := make(map[uuid.UUID]delivery.Event, len(events))
	for _, e := range events {
		byID[e.ID] = delivery.Event{ID: e.ID, Type: e.Type, Data: json.RawMessage(e.Data), CreatedAt: e.CreatedAt.UTC()}
	}
	out := make([]Message, 0, len(rows))
	for _, r := range rows {
		ev, ok := byID[r.EventID]
		if !ok {
			continue // the event was deleted with its tenant
		}
		body := webhook.Envelope(ev.ID, ev.Type, ev.CreatedAt, ev.Data)
		h := webhook.Headers(target.Endpoint.Headers, s.cfg.UserAgent, target.Keys, ev.ID.String(), ev.CreatedAt, body)
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
