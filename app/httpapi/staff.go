package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/insight"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/page"
	"github.com/ferry-dev/ferry/tenants"
)

// StaffService is what the staff console asks of tenants: finding
// tenants, their members, and the audit log every staff action is
// written to first (staff routes, also in billing.go). It is satisfied by
// *tenants.Service.
type StaffService interface {
	// SearchTenants returns a page of tenants matching q and the next
	// cursor. Errors: EINVALID.
	SearchTenants(ctx context.Context, q string, limit int, cursor string) ([]tenants.TenantSummary, string, error)
	// Tenant returns one tenant. Errors: ENOTFOUND.
	Tenant(ctx context.Context, id uuid.UUID) (tenants.Tenant, error)
	// ListMembers returns the tenant's users.
	ListMembers(ctx context.Context, tenantID uuid.UUID) ([]tenants.User, error)
	// Audit records a staff action before it runs.
	Audit(ctx context.Context, staff tenants.Principal, tenantID *uuid.UUID, action, reason string, detail any) error
	// ListAudit returns the audit entries f selects and the next cursor.
	// Errors: EINVALID.
	ListAudit(ctx context.Context, f tenants.AuditFilter) ([]tenants.AuditEntry, string, error)
}

// StaffDeliveryService is what the staff console reads of a tenant's
// deliveries beyond what tenants see (receiver credentials redacted); it
// replays through ReplayService and lists events through EventService.
// It is satisfied by *delivery.Service.
type StaffDeliveryService interface {
	// StaffEndpoints returns a page of a tenant's endpoints, redacted.
	// Errors: EINVALID (cursor).
	StaffEndpoints(ctx context.Context, tenantID uuid.UUID, pg page.Request) ([]delivery.Endpoint, string, error)
	// StaffEvent returns one event with deliveries and attempts,
	// redacted. Errors: ENOTFOUND.
	StaffEvent(ctx context.Context, tenantID, eventID uuid.UUID) (insight.StaffEventDetail, error)
	// StaffEndpointAttempts returns a page of an endpoint's attempts,
	// redacted. Errors: ENOTFOUND, EINVALID.
	StaffEndpointAttempts(ctx context.Context, tenantID, endpointID uuid.UUID, outcome string, pg page.Request) ([]model.Attempt, string, error)
	// StaffEndpointCounts counts a tenant's endpoints by state.
	StaffEndpointCounts(ctx context.Context, tenantID uuid.UUID) (insight.EndpointCounts, error)
	// EventTenant returns the tenant an event belongs to. Errors:
	// ENOTFOUND.
	EventTenant(ctx context.Context, eventID uuid.UUID) (uuid.UUID, error)
}

// Staff routes: every one is written to the audit log (who, what, which
// tenant, when, why) before it runs, so no staff action goes unrecorded.

// staffTenant loads the :id tenant for a staff route.
func (s *server) staffTenant(c *fiber.Ctx) (tenants.Tenant, error) {
	id, err := pathID(c, "tenant")
	if err != nil {
		return tenants.Tenant{}, err
	}
	return s.Staff.Tenant(c.UserContext(), id)
}

func (s *server) staffSearchTenants(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	q := c.Query("q")
	if err := s.Staff.Audit(c.UserContext(), principal(c), nil, tenants.AuditSearchTenants, "", fiber.Map{"q": q}); err != nil {
		return err
	}
	found, next, err := s.Staff.SearchTenants(c.UserContext(), q, pg.Limit, pg.Cursor)
	if err != nil {
		return err
	}
	return c.JSON(newList(found, next))
}

// staffTenantView is a tenant as the staff console shows it, with its
// usage and health; custom header values of its endpoints are redacted.
type staffTenantView struct {
	tenants.Tenant
	Members   []tenants.User      `json:"members"`   // the tenant's members
	Endpoints []delivery.Endpoint `json:"endpoints"` // the tenant's endpoints, custom header values redacted
	Health    staffTenantHealth   `json:"health"`    // usage and delivery health
}

func (s *server) staffGetTenant(c *fiber.Ctx) error {
	t, err := s.staffTenant(c)
	if err != nil {
		return err
	}
	ctx := c.UserContext()
	if err := s.Staff.Audit(ctx, principal(c), &t.ID, tenants.AuditViewTenant, "", nil); err != nil {
		return err
	}
	members, err := s.Staff.ListMembers(ctx, t.ID)
	if err != nil {
		return err
	}
	eps, _, err := s.StaffDelivery.StaffEndpoints(ctx, t.ID, page.Request{Limit: page.MaxSize})
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
	if err := s.Staff.Audit(c.UserContext(), principal(c), &t.ID, tenants.AuditListEvents, "",
		fiber.Map{"type": f.Type, "status": f.Status, "endpoint_id": f.EndpointID, "since": f.Since, "until": f.Until}); err != nil {
		return err
	}
	events, next, err := s.Events.ListEvents(c.UserContext(), t.ID, f, pg)
	if err != nil {
		return err
	}
	// With their deliveries, so the console shows each one's status and
	// endpoint as the portal does.
	detailed, err := s.Events.WithDeliveries(c.UserContext(), t.ID, events)
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
	if err := s.Staff.Audit(c.UserContext(), principal(c), &t.ID, tenants.AuditViewEvent, "",
		fiber.Map{"event_id": eventID}); err != nil {
		return err
	}
	ev, err := s.StaffDelivery.StaffEvent(c.UserContext(), t.ID, eventID)
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
	if err := s.Staff.Audit(ctx, p, &t.ID, tenants.AuditReplay, reason, detail); err != nil {
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
	if err := s.Staff.Audit(c.UserContext(), principal(c), &t.ID, tenants.AuditViewReplay, "",
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
	entries, next, err := s.Staff.ListAudit(c.UserContext(), f)
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
	if err := s.Staff.Audit(c.UserContext(), principal(c), &t.ID, tenants.AuditEndpointAttempts, "",
		fiber.Map{"endpoint_id": endpointID, "outcome": outcome}); err != nil {
		return err
	}
	attempts, next, err := s.StaffDelivery.StaffEndpointAttempts(c.UserContext(), t.ID, endpointID, outcome, pg)
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
	if err := s.Staff.Audit(c.UserContext(), principal(c), &t.ID, tenants.AuditPreviewReplay, "",
		fiber.Map{"endpoint_id": f.EndpointID, "event_type": f.EventType, "since": f.Since, "until": f.Until, "status": f.Status}); err != nil {
		return err
	}
	res, err := s.Replays.PreviewReplay(c.UserContext(), t.ID, f)
	if err != nil {
		return err
	}
	return c.JSON(res)
}
