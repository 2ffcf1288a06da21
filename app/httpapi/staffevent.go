package httpapi

import (
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery/insight"
	"github.com/ferry-dev/ferry/tenants"
)

// staffEventLookup answers GET /staff/events/{event_id}: the event's tenant and
// the event as staff see it (receiver credentials redacted).
type staffEventLookup struct {
	Tenant tenants.Tenant           `json:"tenant"` // the tenant the event belongs to
	Event  insight.StaffEventDetail `json:"event"`  // the event with its deliveries, attempts and endpoints
}

// staffLookupEvent: GET /staff/events/:event_id, an event found by id across
// tenants, the first thing a support ticket names. Audited like the
// tenant-scoped event view; a lookup that finds nothing is audited
// without a tenant.
func (s *server) staffLookupEvent(c *fiber.Ctx) error {
	eventID, err := uuid.Parse(c.Params("event_id"))
	if err != nil {
		return ferry.NotFound("event")
	}
	ctx := c.UserContext()
	tenantID, err := s.StaffDelivery.EventTenant(ctx, eventID)
	if ferry.ErrorCode(err) == ferry.ENOTFOUND {
		// A lookup that finds nothing is recorded too, without a tenant.
		if err := s.Staff.Audit(ctx, principal(c), nil, tenants.AuditViewEvent, "",
			fiber.Map{"event_id": eventID, "lookup": true}); err != nil {
			return err
		}
		return ferry.NotFound("event")
	}
	if err != nil {
		return err
	}
	t, err := s.Staff.Tenant(ctx, tenantID)
	if err != nil {
		return err
	}
	if err := s.Staff.Audit(ctx, principal(c), &t.ID, tenants.AuditViewEvent, "",
		fiber.Map{"event_id": eventID, "lookup": true}); err != nil {
		return err
	}
	ev, err := s.StaffDelivery.StaffEvent(ctx, t.ID, eventID)
	if err != nil {
		return err
	}
	return c.JSON(staffEventLookup{Tenant: t, Event: ev})
}
