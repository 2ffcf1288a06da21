package httpapi

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/webhook"
	"github.com/ferry-dev/ferry/page"
)

// EventService accepts and reads a tenant's events (/events). It is
// satisfied by *delivery.Service.
type EventService interface {
	// Ingest accepts an event once it is committed; created is false
	// when an idempotency key matched an earlier event. Errors: EINVALID,
	// EQUOTA, ERATELIMIT, wrapped database errors.
	Ingest(ctx context.Context, tenantID uuid.UUID, in delivery.EventInput) (ev delivery.Event, created bool, err error)
	// ListEvents returns a page of the tenant's events and the next
	// cursor. Errors: EINVALID.
	ListEvents(ctx context.Context, tenantID uuid.UUID, f delivery.EventFilter, pg page.Request) ([]delivery.Event, string, error)
	// WithDeliveries returns events with their deliveries.
	WithDeliveries(ctx context.Context, tenantID uuid.UUID, events []delivery.Event) ([]delivery.EventDetail, error)
	// Event returns one event with its deliveries. Errors: ENOTFOUND.
	Event(ctx context.Context, tenantID, id uuid.UUID) (delivery.EventDetail, error)
	// EventAttempts lists an event's attempts. Errors: ENOTFOUND.
	EventAttempts(ctx context.Context, tenantID, eventID uuid.UUID) ([]model.Attempt, error)
}

// EventCounter counts the events the API accepted (POST /events and test
// events). It is satisfied by telemetry.Metrics.EventsAccepted.
type EventCounter interface {
	Inc()
}

// eventAccepted answers POST /events.
type eventAccepted struct {
	ID        string `json:"id" format:"uuid"`              // the event's id, sent to receivers as webhook-id
	Type      string `json:"type"`                          // the event type
	CreatedAt string `json:"created_at" format:"date-time"` // when Ferry accepted the event
	// SchemaWarning says how data fails its type's schema when the
	// catalog's validation of the type is warn.
	SchemaWarning string `json:"schema_warning,omitempty" description:"how data fails its type's schema (validation warn); absent when it matches"`
}

func (s *server) createEvent(c *fiber.Ctx) error {
	var in delivery.EventInput
	if err := decode(c, &in); err != nil {
		return err
	}
	if len(in.Data) > delivery.MaxPayloadBytes {
		return &ferry.Error{Code: ferry.ETOOLARGE, Message: "data exceeds " + ferry.FormatBytes(delivery.MaxPayloadBytes), Field: "data"}
	}
	if h := c.Get("Idempotency-Key"); h != "" {
		if in.IdempotencyKey != "" && in.IdempotencyKey != h {
			return ferry.Invalid("idempotency_key", "idempotency_key differs from the Idempotency-Key header")
		}
		in.IdempotencyKey = h
	}
	ev, created, err := s.Events.Ingest(c.UserContext(), principal(c).TenantID, in)
	if err != nil {
		return err
	}
	if created {
		s.EventsAccepted.Inc()
	} else {
		c.Set("Idempotent-Replayed", "true")
	}
	return c.Status(fiber.StatusAccepted).JSON(eventAccepted{
		ID: ev.ID.String(), Type: ev.Type, CreatedAt: ev.CreatedAt.UTC().Format(webhook.TimeFormat), SchemaWarning: ev.SchemaWarning})
}

func (s *server) listEvents(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	f := delivery.EventFilter{Type: c.Query("type"), Status: c.Query("status"), Customer: c.Query("customer")}
	if f.Since, err = queryTime(c, "since"); err != nil {
		return err
	}
	if f.Until, err = queryTime(c, "until"); err != nil {
		return err
	}
	if f.EndpointID, err = queryUUID(c, "endpoint_id"); err != nil {
		return err
	}
	events, next, err := s.Events.ListEvents(c.UserContext(), principal(c).TenantID, f, pg)
	if err != nil {
		return err
	}
	detailed, err := s.Events.WithDeliveries(c.UserContext(), principal(c).TenantID, events)
	if err != nil {
		return err
	}
	return c.JSON(newList(detailed, next))
}

func queryUUID(c *fiber.Ctx, name string) (*uuid.UUID, error) {
	v := c.Query(name)
	if v == "" {
		return nil, nil
	}
	id, err := uuid.Parse(v)
	if err != nil {
		return nil, ferry.Invalid(name, "%s must be a UUID", name)
	}
	return &id, nil
}

func queryTime(c *fiber.Ctx, name string) (*time.Time, error) {
	v := c.Query(name)
	if v == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, ferry.Invalid(name, "%s must be an RFC 3339 time such as 2026-11-22T05:23:08Z", name)
	}
	return &t, nil
}

func (s *server) getEvent(c *fiber.Ctx) error {
	id, err := pathID(c, "event")
	if err != nil {
		return err
	}
	ev, err := s.Events.Event(c.UserContext(), principal(c).TenantID, id)
	if err != nil {
		return err
	}
	return c.JSON(ev)
}

func (s *server) eventAttempts(c *fiber.Ctx) error {
	id, err := pathID(c, "event")
	if err != nil {
		return err
	}
	p := principal(c)
	attempts, err := s.Events.EventAttempts(c.UserContext(), p.TenantID, id)
	if err != nil {
		return err
	}
	return c.JSON(newList(visibility(p).Attempts(attempts), ""))
}
