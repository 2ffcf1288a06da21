package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/webhook"
	"github.com/ferry-dev/ferry/page"
)

// EndpointService manages a tenant's endpoints (/endpoints). It is
// satisfied by *delivery.Service.
type EndpointService interface {
	// CreateEndpoint stores an endpoint and returns it with its signing
	// secret. Errors: EINVALID, EPLANLIMIT.
	CreateEndpoint(ctx context.Context, tenantID uuid.UUID, in delivery.EndpointInput) (delivery.Endpoint, string, error)
	// ListEndpoints returns a page of the tenant's endpoints that f
	// keeps, and the next cursor.
	ListEndpoints(ctx context.Context, tenantID uuid.UUID, f delivery.EndpointFilter, pg page.Request) ([]delivery.Endpoint, string, error)
	// Endpoint returns one endpoint. Errors: ENOTFOUND.
	Endpoint(ctx context.Context, tenantID, id uuid.UUID) (delivery.Endpoint, error)
	// UpdateEndpoint applies patch. Errors: ENOTFOUND, EINVALID.
	UpdateEndpoint(ctx context.Context, tenantID, id uuid.UUID, patch delivery.EndpointPatch) (delivery.Endpoint, error)
	// DeleteEndpoint deletes an endpoint. Errors: ENOTFOUND.
	DeleteEndpoint(ctx context.Context, tenantID, id uuid.UUID) error
	// Secret reveals the endpoint's secrets. Errors: ENOTFOUND.
	Secret(ctx context.Context, tenantID, id uuid.UUID) (delivery.SecretInfo, error)
	// RotateSecret makes a new current secret. Errors: ENOTFOUND.
	RotateSecret(ctx context.Context, tenantID, id uuid.UUID) (delivery.SecretInfo, error)
	// EndpointAttempts returns a page of an endpoint's attempts. Errors:
	// ENOTFOUND, EINVALID.
	EndpointAttempts(ctx context.Context, tenantID, endpointID uuid.UUID, outcome string, pg page.Request) ([]model.Attempt, string, error)
	// TestRouting runs the endpoint's routing on a sample event. Errors:
	// ENOTFOUND, EINVALID.
	TestRouting(ctx context.Context, tenantID, endpointID uuid.UUID, in delivery.RoutingTestInput, vis delivery.Visibility) (delivery.RoutingTestResult, error)
	// SendTestEvent sends a ferry.test event to the endpoint alone.
	// Errors: ENOTFOUND, EINVALID, EQUOTA, ERATELIMIT, EPAYMENT,
	// EUNAVAILABLE, wrapped database errors.
	SendTestEvent(ctx context.Context, tenantID, id uuid.UUID, sample *delivery.TestSample) (delivery.Event, error)
	// CustomerEndpointHealth sums up the live endpoints of each customer
	// in uids (one without endpoints is absent).
	CustomerEndpointHealth(ctx context.Context, tenantID uuid.UUID, uids []string) (map[string]delivery.EndpointHealth, error)
}

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
	ep, secret, err := s.Endpoints.CreateEndpoint(c.UserContext(), principal(c).TenantID, in)
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
	eps, next, err := s.Endpoints.ListEndpoints(c.UserContext(), p.TenantID, delivery.EndpointFilter{Customer: c.Query("customer")}, pg)
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
	ep, err := s.Endpoints.Endpoint(c.UserContext(), p.TenantID, id)
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
	ep, err := s.Endpoints.UpdateEndpoint(c.UserContext(), principal(c).TenantID, id, patch)
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
	if err := s.Endpoints.DeleteEndpoint(c.UserContext(), principal(c).TenantID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *server) getSecret(c *fiber.Ctx) error {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return err
	}
	info, err := s.Endpoints.Secret(c.UserContext(), principal(c).TenantID, id)
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
	info, err := s.Endpoints.RotateSecret(c.UserContext(), principal(c).TenantID, id)
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
	attempts, next, err := s.Endpoints.EndpointAttempts(c.UserContext(), p.TenantID, id, c.Query("outcome"), pg)
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
	if err := s.testRoutingLimiter.allow(c.UserContext(), p.TenantID); err != nil {
		return err
	}
	var in delivery.RoutingTestInput
	if err := decode(c, &in); err != nil {
		return err
	}
	res, err := s.Endpoints.TestRouting(c.UserContext(), p.TenantID, id, in, visibility(p))
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
	sample, err := s.testSample(c, principal(c).TenantID)
	if err != nil {
		return err
	}
	ev, err := s.Endpoints.SendTestEvent(c.UserContext(), principal(c).TenantID, id, sample)
	if err != nil {
		return err
	}
	s.EventsAccepted.Inc()
	return c.Status(fiber.StatusAccepted).JSON(eventAccepted{
		ID: ev.ID.String(), Type: ev.Type, CreatedAt: ev.CreatedAt.UTC().Format(webhook.TimeFormat)})
}

// testEventInput is the optional body of a test event's route: send the
// catalog's example of this type instead of ferry.test.
type testEventInput struct {
	EventType string `json:"event_type" description:"send the event-type catalog's first example of this type (default: ferry.test)"`
	Example   int    `json:"example" description:"which example of the latest version (from 0)"`
}

// testSample returns the catalog example a test event asks for, or nil
// for ferry.test. Errors: EINVALID (no such type or example), EBADREQUEST.
func (s *server) testSample(c *fiber.Ctx, tenantID uuid.UUID) (*delivery.TestSample, error) {
	if len(c.Body()) == 0 {
		return nil, nil
	}
	var in testEventInput
	if err := decode(c, &in); err != nil {
		return nil, err
	}
	if in.EventType == "" {
		return nil, nil
	}
	if s.EventTypes == nil {
		return nil, ferry.Invalid("event_type", "the event-type catalog is not enabled")
	}
	et, err := s.EventTypes.EventType(c.UserContext(), tenantID, in.EventType)
	if ferry.ErrorCode(err) == ferry.ENOTFOUND {
		return nil, ferry.Invalid("event_type", "the catalog has no event type of this name")
	}
	if err != nil {
		return nil, err
	}
	if len(et.Versions) == 0 || in.Example < 0 || in.Example >= len(et.Versions[0].Examples) {
		return nil, ferry.Invalid("example", "the event type's latest version has no such example")
	}
	return &delivery.TestSample{Type: et.Name, Data: et.Versions[0].Examples[in.Example]}, nil
}
