package httpapi

import (
	"context"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/tenants"
)

// APIKeyService manages a tenant's API keys (/api-keys). It is satisfied
// by *tenants.Service.
type APIKeyService interface {
	// CreateAPIKey returns a new key and its secret.
	CreateAPIKey(ctx context.Context, tenantID uuid.UUID, name string) (tenants.APIKey, string, error)
	// ListAPIKeys returns the tenant's keys, revoked included.
	ListAPIKeys(ctx context.Context, tenantID uuid.UUID) ([]tenants.APIKey, error)
	// RevokeAPIKey revokes one key. Errors: ENOTFOUND.
	RevokeAPIKey(ctx context.Context, tenantID, id uuid.UUID) error
}

// apiKeyInput is the body of POST /api-keys.
type apiKeyInput struct {
	Name string `json:"name" required:"true" description:"label"`
}

// apiKeyCreated answers POST /api-keys.
type apiKeyCreated struct {
	tenants.APIKey
	// Key is shown once and never again.
	Key string `json:"key" description:"shown once"`
}

func (s *server) createAPIKey(c *fiber.Ctx) error {
	var in apiKeyInput
	if err := decode(c, &in); err != nil {
		return err
	}
	k, secret, err := s.APIKeys.CreateAPIKey(c.UserContext(), principal(c).TenantID, in.Name)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(apiKeyCreated{APIKey: k, Key: secret})
}

func (s *server) listAPIKeys(c *fiber.Ctx) error {
	keys, err := s.APIKeys.ListAPIKeys(c.UserContext(), principal(c).TenantID)
	if err != nil {
		return err
	}
	return c.JSON(newList(keys, ""))
}

func (s *server) revokeAPIKey(c *fiber.Ctx) error {
	id, err := pathID(c, "api key")
	if err != nil {
		return err
	}
	if err := s.APIKeys.RevokeAPIKey(c.UserContext(), principal(c).TenantID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
