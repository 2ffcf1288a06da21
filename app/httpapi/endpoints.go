package httpapi

import (
	"github.com/gofiber/fiber/v2"

	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/webhook"
)

// endpointCreated answers POST /endpoints.
type endpointCreated struct {
	delivery.Endpoint
	Secret string `json:"secret" description:"whsec_ signing secret; GET /endpoints/{id}/secret shows it again"`
}

func (s *server) createEndpoint(c *fiber.Ctx) error {
	var in delivery.EndpointInput
	if err := decode(c, &in); err != nil {
		return err
	}
	ep, secret, err := s.Delivery.CreateEndpoint(c.UserContext(), principal(c).TenantID, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(endpointCreated{Endpoint: ep, Secret: secret})
}

func (s *server) listEndpoints(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	p := principal(c)
	eps, next, err := s.Delivery.ListEndpoints(c.UserContext(), p.TenantID, pg)
	if err != nil {
		return err
	}
	return c.JSON(newList(visibility(p).Endpoints(eps), next))
}

func (s *server) getEndpoint(c *fiber.Ctx) error {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return err
	}
	p := principal(c)
	ep, err := s.Delivery.Endpoint(c.UserContext(), p.TenantID, id)
	if err != nil {
		return err
	}
	return c.JSON(visibility(p).Endpoint(ep))
}

func (s *server) updateEndpoint(c *fiber.Ctx) error {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return err
	}
	var patch delivery.EndpointPatch
	if err := decode(c, &patch); err != nil {
		return err
	}
	ep, err := s.Delivery.UpdateEndpoint(c.UserContext(), principal(c).TenantID, id, patch)
	if err != nil {
		return err
	}
	return c.JSON(ep)
}

func (s *server) deleteEndpoint(c *fiber.Ctx) error {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return err
	}
	if err := s.Delivery.DeleteEndpoint(c.UserContext(), principal(c).TenantID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *server) getSecret(c *fiber.Ctx) error {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return err
	}
	info, err := s.Delivery.Secret(c.UserContext(), principal(c).TenantID, id)
	if err != nil {
		return err
	}
	return c.JSON(info)
}

func (s *server) rotateSecret(c *fiber.Ctx) error {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return err
	}
	info, err := s.Delivery.RotateSecret(c.UserContext(), principal(c).TenantID, id)
	if err != nil {
		return err
	}
	return c.JSON(info)
}

func (s *server) endpointAttempts(c *fiber.Ctx) error {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return err
	}
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	p := principal(c)
	attempts, next, err := s.Delivery.EndpointAttempts(c.UserContext(), p.TenantID, id, c.Query("outcome"), pg)
	if err != nil {
		return err
	}
	return c.JSON(newList(visibility(p).Attempts(attempts), next))
}

func (s *server) testRouting(c *fiber.Ctx) error {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return err
	}
	p := principal(c)
	// Each test may run a transformation for up to its deadline: a
	// tenant gets a few a second, whoever of its members asks.
	if err := s.testRoutingLimiter.allow(p.TenantID); err != nil {
		return err
	}
	var in delivery.RoutingTestInput
	if err := decode(c, &in); err != nil {
		return err
	}
	res, err := s.Delivery.TestRouting(c.UserContext(), p.TenantID, id, in, visibility(p))
	if err != nil {
		return err
	}
	return c.JSON(visibility(p).RoutingTest(res))
}

// sendTestEvent: POST /endpoints/{id}/test sends a ferry.test event to
// this endpoint alone.
func (s *server) sendTestEvent(c *fiber.Ctx) error {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return err
	}
	ev, err := s.Delivery.SendTestEvent(c.UserContext(), principal(c).TenantID, id)
	if err != nil {
		return err
	}
	s.Metrics.EventsAccepted.Inc()
	return c.Status(fiber.StatusAccepted).JSON(eventAccepted{
		ID: ev.ID.String(), Type: ev.Type, CreatedAt: ev.CreatedAt.UTC().Format(webhook.TimeFormat)})
}
