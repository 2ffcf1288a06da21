package httpapi

import (
	"github.com/gofiber/fiber/v2"
)

// endpointStats answers GET /endpoints/{id}/stats?window=1h|24h|7d.
func (s *server) endpointStats(c *fiber.Ctx) error {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return err
	}
	st, err := s.Insight.EndpointStats(c.UserContext(), principal(c).TenantID, id, c.Query("window", "24h"))
	if err != nil {
		return err
	}
	return c.JSON(st)
}

// tenantStats answers GET /stats?window=1h|24h|7d: the dashboard.
func (s *server) tenantStats(c *fiber.Ctx) error {
	st, err := s.Insight.TenantStats(c.UserContext(), principal(c).TenantID, c.Query("window", "24h"))
	if err != nil {
		return err
	}
	return c.JSON(st)
}
