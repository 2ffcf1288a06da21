package httpapi

import (
	"time"

	"github.com/ferry-dev/ferry/delivery/webhook"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
)

// eventAccepted answers POST /events.
type eventAccepted struct {
	ID        string `json:"id" format:"uuid"`
	Type      string `json:"type"`
	CreatedAt string `json:"created_at" format:"date-time"`
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
	ev, created, err := s.Delivery.Ingest(c.UserContext(), principal(c).TenantID, in)
	if err != nil {
		return err
	}
	if created {
		s.Metrics.EventsAccepted.Inc()
	} else {
		c.Set("Idempotent-Replayed", "true")
	}
	return c.Status(fiber.StatusAccepted).JSON(eventAccepted{
		ID: ev.ID.String(), Type: ev.Type, CreatedAt: ev.CreatedAt.UTC().Format(webhook.TimeFormat)})
}

func (s *server) listEvents(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	f := delivery.EventFilter{Type: c.Query("type"), Status: c.Query("status")}
	if f.Since, err = queryTime(c, "since"); err != nil {
		return err
	}
	if f.Until, err = queryTime(c, "until"); err != nil {
		return err
	}
	if f.EndpointID, err = queryUUID(c, "endpoint_id"); err != nil {
		return err
	}
	events, next, err := s.Delivery.ListEvents(c.UserContext(), principal(c).TenantID, f, pg)
	if err != nil {
		return err
	}
	detailed, err := s.Delivery.WithDeliveries(c.UserContext(), principal(c).TenantID, events)
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
	ev, err := s.Delivery.Event(c.UserContext(), principal(c).TenantID, id)
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
	attempts, err := s.Delivery.EventAttempts(c.UserContext(), p.TenantID, id)
	if err != nil {
		return err
	}
	return c.JSON(newList(visibility(p).Attempts(attempts), ""))
}
