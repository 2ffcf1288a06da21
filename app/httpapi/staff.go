package httpapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/page"
	"github.com/ferry-dev/ferry/tenants"
)

// Staff routes: every one is written to the audit log (who, what, which
// tenant, when, why) before it runs, so no staff action goes unrecorded.

// staffTenant loads the :id tenant for a staff route.
func (s *server) staffTenant(c *fiber.Ctx) (tenants.Tenant, error) {
	id, err := pathID(c, "tenant")
	if err != nil {
		return tenants.Tenant{}, err
	}
	return s.Tenants.Tenant(c.UserContext(), id)
}

func (s *server) staffSearchTenants(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	q := c.Query("q")
	if err := s.Tenants.Audit(c.UserContext(), principal(c), nil, tenants.AuditSearchTenants, "", fiber.Map{"q": q}); err != nil {
		return err
	}
	found, next, err := s.Tenants.SearchTenants(c.UserContext(), q, pg.Limit, pg.Cursor)
	if err != nil {
		return err
	}
	return c.JSON(newList(found, next))
}

// staffTenantView is a tenant as the staff console shows it, with its
// usage and health; custom header values of its endpoints are redacted.
type staffTenantView struct {
	tenants.Tenant
	Members   []tenants.User      `json:"members"`
	Endpoints []delivery.Endpoint `json:"endpoints"`
	Health    staffTenantHealth   `json:"health"`
}

func (s *server) staffGetTenant(c *fiber.Ctx) error {
	t, err := s.staffTenant(c)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	if err := s.Tenants.Audit(ctx, principal(c), &t.ID, tenants.AuditViewTenant, "", nil); err != nil {
		return err
	}
	members, err := s.Tenants.ListMembers(ctx, t.ID)
	if err != nil {
		return err
	}
	eps, _, err := s.Insight.StaffEndpoints(ctx, t.ID, page.Request{Limit: page.MaxSize})
	if err != nil {
		return err
	}
	health, err := s.tenantHealth(ctx, t.ID)
	if err != nil {
		return err
	}
	return c.JSON(staffTenantView{Tenant: t, Members: members, Endpoints: eps, Health: health})
}

func (s *server) staffListEvents(c *fiber.Ctx) error {
	t, err := s.staffTenant(c)
	if err != nil {
		return err
	}
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
	if err := s.Tenants.Audit(c.UserContext(), principal(c), &t.ID, tenants.AuditListEvents, "",
		fiber.Map{"type": f.Type, "status": f.Status, "endpoint_id": f.EndpointID, "since": f.Since, "until": f.Until}); err != nil {
		return err
	}
	events, next, err := s.Delivery.ListEvents(c.UserContext(), t.ID, f, pg)
	if err != nil {
		return err
	}
	// With their deliveries, so the console shows each one's status and
	// endpoint as the portal does.
	detailed, err := s.Delivery.WithDeliveries(c.UserContext(), t.ID, events)
	if err != nil {
		return err
	}
	return c.JSON(newList(detailed, next))
}

func (s *server) staffGetEvent(c *fiber.Ctx) error {
	t, err := s.staffTenant(c)
	if err != nil {
		return err
	}
	eventID, err := uuid.Parse(c.Params("event_id"))
	if err != nil {
		return ferry.NotFound("event")
	}
	if err := s.Tenants.Audit(c.UserContext(), principal(c), &t.ID, tenants.AuditViewEvent, "",
		fiber.Map{"event_id": eventID}); err != nil {
		return err
	}
	ev, err := s.Insight.StaffEvent(c.UserContext(), t.ID, eventID)
	if err != nil {
		return err
	}
	return c.JSON(ev)
}

// staffReplay replays for a tenant: one event (optionally to one
// endpoint), one delivery, or in bulk by filters. reason is required.
func (s *server) staffReplay(c *fiber.Ctx) error {
	t, err := s.staffTenant(c)
	if err != nil {
		return err
	}
	var in staffReplayInput
	if err := decode(c, &in); err != nil {
		return err
	}
	reason, err := tenants.ValidateReason(in.Reason)
	if err != nil {
		return err
	}
	eventID, err := optionalUUID("event_id", in.EventID)
	if err != nil {
		return err
	}
	deliveryID, err := optionalUUID("delivery_id", in.DeliveryID)
	if err != nil {
		return err
	}
	f, err := in.filter()
	if err != nil {
		return err
	}
	p, ctx := principal(c), c.UserContext()
	detail := fiber.Map{"event_id": eventID, "delivery_id": deliveryID, "endpoint_id": f.EndpointID,
		"event_type": f.EventType, "since": f.Since, "until": f.Until, "status": f.Status}
	if err := s.Tenants.Audit(ctx, p, &t.ID, tenants.AuditReplay, reason, detail); err != nil {
		return err
	}
	switch {
	case eventID != nil:
		res, err := s.Replays.ReplayEvent(ctx, t.ID, *eventID, f.EndpointID, p.Actor())
		if err != nil {
			return err
		}
		return c.Status(fiber.StatusAccepted).JSON(res)
	case deliveryID != nil:
		res, err := s.Replays.ReplayDelivery(ctx, t.ID, *deliveryID, p.Actor())
		if err != nil {
			return err
		}
		return c.Status(fiber.StatusAccepted).JSON(res)
	default:
		job, err := s.Replays.CreateReplayJob(ctx, t.ID, f, p.Actor(), reason)
		if err != nil {
			return err
		}
		return c.Status(fiber.StatusAccepted).JSON(job)
	}
}

func (s *server) staffGetReplay(c *fiber.Ctx) error {
	t, err := s.staffTenant(c)
	if err != nil {
		return err
	}
	id, err := uuid.Parse(c.Params("replay_id"))
	if err != nil {
		return ferry.NotFound("replay")
	}
	if err := s.Tenants.Audit(c.UserContext(), principal(c), &t.ID, tenants.AuditViewReplay, "",
		fiber.Map{"replay_id": id}); err != nil {
		return err
	}
	job, err := s.Replays.ReplayJob(c.UserContext(), t.ID, id)
	if err != nil {
		return err
	}
	return c.JSON(job)
}

// staffAudit: GET /staff/audit, the audit log filtered by tenant, actor,
// action, kind (write or read) and time range, newest first.
func (s *server) staffAudit(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	f := tenants.AuditFilter{Limit: pg.Limit, Cursor: pg.Cursor, Actor: c.Query("actor"), Action: c.Query("action"), Kind: c.Query("kind")}
	if f.TenantID, err = queryUUID(c, "tenant_id"); err != nil {
		return err
	}
	if f.Since, err = queryTime(c, "since"); err != nil {
		return err
	}
	if f.Until, err = queryTime(c, "until"); err != nil {
		return err
	}
	entries, next, err := s.Tenants.ListAudit(c.UserContext(), f)
	if err != nil {
		return err
	}
	return c.JSON(newList(entries, next))
}

// staffEndpointAttempts: GET /staff/tenants/:id/endpoints/:endpoint_id/attempts,
// an endpoint's attempt log as staff see it (receiver credentials
// redacted), newest first.
func (s *server) staffEndpointAttempts(c *fiber.Ctx) error {
	t, err := s.staffTenant(c)
	if err != nil {
		return err
	}
	endpointID, err := uuid.Parse(c.Params("endpoint_id"))
	if err != nil {
		return ferry.NotFound("endpoint")
	}
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	outcome := c.Query("outcome")
	if err := s.Tenants.Audit(c.UserContext(), principal(c), &t.ID, tenants.AuditEndpointAttempts, "",
		fiber.Map{"endpoint_id": endpointID, "outcome": outcome}); err != nil {
		return err
	}
	attempts, next, err := s.Insight.StaffEndpointAttempts(c.UserContext(), t.ID, endpointID, outcome, pg)
	if err != nil {
		return err
	}
	return c.JSON(newList(attempts, next))
}

// staffPreviewReplay: POST /staff/tenants/:id/replays/preview, how many
// deliveries a bulk replay with these filters would re-send. It changes
// nothing, so it needs no reason; it is audited as a read.
func (s *server) staffPreviewReplay(c *fiber.Ctx) error {
	t, err := s.staffTenant(c)
	if err != nil {
		return err
	}
	f, err := decodeReplayFilter(c)
	if err != nil {
		return err
	}
	if err := s.Tenants.Audit(c.UserContext(), principal(c), &t.ID, tenants.AuditPreviewReplay, "",
		fiber.Map{"endpoint_id": f.EndpointID, "event_type": f.EventType, "since": f.Since, "until": f.Until, "status": f.Status}); err != nil {
		return err
	}
	res, err := s.Replays.PreviewReplay(c.UserContext(), t.ID, f)
	if err != nil {
		return err
	}
	return c.JSON(res)
}
