package delivery

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/pgval"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/page"
)

// CheckStatus returns EINVALID naming field "status" unless status is
// empty (no filter) or names a model.Status.
func CheckStatus(status string) error {
	if status == "" || model.Status(status).Valid() {
		return nil
	}
	return ferry.Invalid("status", "status must be %s, %s, %s, %s or %s",
		model.StatusPending, model.StatusRetrying, model.StatusSucceeded, model.StatusDropped, model.StatusExhausted)
}

// Delivery is one event's journey to one endpoint.
type Delivery struct {
	ID             uuid.UUID    `json:"id"`               // the delivery's id
	EventID        uuid.UUID    `json:"event_id"`         // the event delivered
	EndpointID     uuid.UUID    `json:"endpoint_id"`      // the endpoint delivered to
	Status         model.Status `json:"status"`           // pending, retrying, succeeded, dropped or exhausted
	AttemptCount   int          `json:"attempt_count"`    // attempts made so far
	FirstAttemptAt *time.Time   `json:"first_attempt_at"` // when the first attempt started; null before it
	LastAttemptAt  *time.Time   `json:"last_attempt_at"`  // when the latest attempt started; null before the first
	NextAttemptAt  *time.Time   `json:"next_attempt_at"`  // when the next attempt is due; null when none is scheduled
	CreatedAt      time.Time    `json:"created_at"`       // when the event was fanned out to the endpoint
	UpdatedAt      time.Time    `json:"updated_at"`       // when the delivery last changed
}

// EventDetail is an event with its deliveries.
type EventDetail struct {
	Event
	Deliveries []Delivery `json:"deliveries"` // one per endpoint the event was fanned out to
}

const deliveryColumns = `id, event_id, endpoint_id, status, attempt_count, first_attempt_at, last_attempt_at,
	next_attempt_at, created_at, updated_at`

// Event returns one event with its deliveries. Errors: ENOTFOUND.
func (s *Service) Event(ctx context.Context, tenantID, id uuid.UUID) (EventDetail, error) {
	var ev Event
	res := s.db.WithContext(ctx).Raw(`SELECT id, type, data, idempotency_key, customer_uid, created_at FROM events
		WHERE id = ? AND tenant_id = ?`, id, tenantID).Scan(&ev)
	if res.Error != nil {
		return EventDetail{}, fmt.Errorf("load event %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return EventDetail{}, ferry.NotFound("event")
	}
	ds := []Delivery{}
	if err := s.db.WithContext(ctx).Raw(`SELECT `+deliveryColumns+` FROM deliveries
		WHERE event_id = ? AND tenant_id = ? ORDER BY created_at, id`, id, tenantID).Scan(&ds).Error; err != nil {
		return EventDetail{}, fmt.Errorf("load deliveries of event %s: %w", id, err)
	}
	return EventDetail{Event: ev, Deliveries: ds}, nil
}

// EventFilter narrows ListEvents. Status and EndpointID match events
// having at least one delivery in that status, to that endpoint (both:
// one delivery to that endpoint in that status).
type EventFilter struct {
	Type       string
	Status     string
	EndpointID *uuid.UUID
	Since      *time.Time
	Until      *time.Time
	// Customer, a uid, keeps the events sent for that customer.
	Customer string
}

// ListEvents returns a page of the tenant's events, newest first.
// Errors: EINVALID.
func (s *Service) ListEvents(ctx context.Context, tenantID uuid.UUID, f EventFilter, pg page.Request) ([]Event, string, error) {
	if err := CheckStatus(f.Status); err != nil {
		return nil, "", err
	}
	cur, err := page.DecodeAt(pg.Cursor)
	if err != nil {
		return nil, "", err
	}
	events := []Event{}
	err = s.db.WithContext(ctx).Raw(`SELECT e.id, e.type, e.data, e.idempotency_key, e.customer_uid, e.created_at FROM events e
		WHERE e.tenant_id = ?
		AND (? = '' OR e.customer_uid = ?)
		AND (? = '' OR e.type = ?)
		AND (?::timestamptz IS NULL OR e.created_at >= ?)
		AND (?::timestamptz IS NULL OR e.created_at < ?)
		AND ((? = '' AND ?::uuid IS NULL) OR EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = e.id
			AND (? = '' OR d.status = ?) AND (?::uuid IS NULL OR d.endpoint_id = ?)))
		AND (?::timestamptz IS NULL OR (e.created_at, e.id) < (?, ?))
		ORDER BY e.created_at DESC, e.id DESC LIMIT ?`,
		tenantID, f.Customer, f.Customer, f.Type, f.Type, f.Since, f.Since, f.Until, f.Until, f.Status, f.EndpointID, f.Status, f.Status, f.EndpointID, f.EndpointID,
		cur.AtPtr(), cur.At, cur.ID, pg.Size()+1).Scan(&events).Error
	if err != nil {
		return nil, "", fmt.Errorf("list events: %w", err)
	}
	events, next := page.Trim(events, pg.Size(), func(e Event) page.Cursor { return page.Cursor{At: e.CreatedAt, ID: e.ID} })
	return events, next, nil
}

// WithDeliveries returns events with their deliveries (for the events
// list's per-delivery status), in one query.
func (s *Service) WithDeliveries(ctx context.Context, tenantID uuid.UUID, events []Event) ([]EventDetail, error) {
	out := make([]EventDetail, len(events))
	if len(events) == 0 {
		return out, nil
	}
	ids := make([]uuid.UUID, len(events))
	for i, ev := range events {
		ids[i] = ev.ID
	}
	var ds []Delivery
	if err := s.db.WithContext(ctx).Raw(`SELECT `+deliveryColumns+` FROM deliveries
		WHERE tenant_id = ? AND event_id = ANY(?::uuid[]) ORDER BY created_at, id`, tenantID, pgval.Array(ids)).
		Scan(&ds).Error; err != nil {
		return nil, fmt.Errorf("load deliveries of %d events: %w", len(events), err)
	}
	byEvent := map[uuid.UUID][]Delivery{}
	for _, d := range ds {
		byEvent[d.EventID] = append(byEvent[d.EventID], d)
	}
	for i, ev := range events {
		out[i] = EventDetail{Event: ev, Deliveries: byEvent[ev.ID]}
		if out[i].Deliveries == nil {
			out[i].Deliveries = []Delivery{}
		}
	}
	return out, nil
}

// MarshalJSON keeps deliveries; without it Event's MarshalJSON, promoted
// by embedding, would drop them.
func (d EventDetail) MarshalJSON() ([]byte, error) {
	ev, err := d.Event.MarshalJSON()
	if err != nil {
		return nil, err
	}
	deliveries, err := json.Marshal(d.Deliveries)
	if err != nil {
		return nil, err
	}
	out := append(ev[:len(ev)-1:len(ev)-1], `,"deliveries":`...)
	out = append(out, deliveries...)
	return append(out, '}'), nil
}
