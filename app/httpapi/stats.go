package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/delivery/insight"
)

// StatsService answers the delivery stats routes (/stats, and the
// staff console's tenant health). It is satisfied by *delivery.Service.
type StatsService interface {
	// EndpointStats returns one endpoint's stats over window (1h, 24h,
	// 7d). Errors: EINVALID (window), ENOTFOUND.
	EndpointStats(ctx context.Context, tenantID, endpointID uuid.UUID, window string) (insight.Stats, error)
	// TenantStats returns the stats of the tenant's endpoints over
	// window. Errors: EINVALID (window).
	TenantStats(ctx context.Context, tenantID uuid.UUID, window string) (insight.TenantStats, error)
	// CustomerStats is TenantStats of one customer's endpoints (customer
	// "": all). Errors: EINVALID.
	CustomerStats(ctx context.Context, tenantID uuid.UUID, customer, window string) (insight.TenantStats, error)
}

// endpointStats answers GET /endpoints/{id}/stats?window=1h|24h|7d.
func (s *server) endpointStats(c *fiber.Ctx) error {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return err
	}
	st, err := s.Stats.EndpointStats(c.UserContext(), principal(c).TenantID, id, c.Query("window", "24h"))
	if err != nil {
		return err
	}
	return c.JSON(st)
}

// tenantStats answers GET /stats?window=1h|24h|7d: the dashboard.
func (s *server) tenantStats(c *fiber.Ctx) error {
	st, err := s.Stats.CustomerStats(c.UserContext(), principal(c).TenantID, c.Query("customer"), c.Query("window", "24h"))
	if err != nil {
		return err
	}
	return c.JSON(st)
}
