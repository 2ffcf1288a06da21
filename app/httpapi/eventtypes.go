package httpapi

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
	"go.yaml.in/yaml/v3"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/catalog"
	"github.com/ferry-dev/ferry/page"
	"github.com/ferry-dev/ferry/tenants"
)

// EventTypeService manages a tenant's event-type catalog
// (/event-types). It is satisfied by *catalog.Service.
type EventTypeService interface {
	// CreateEventType adds a type (with version 1 when it has a
	// schema). Errors: EINVALID, ECONFLICT.
	CreateEventType(ctx context.Context, tenantID uuid.UUID, in catalog.EventTypeInput) (catalog.EventType, error)
	// ListEventTypes returns a page of the tenant's types and the next
	// cursor. Errors: EINVALID (cursor).
	ListEventTypes(ctx context.Context, tenantID uuid.UUID, pg page.Request) ([]catalog.EventType, string, error)
	// EventType returns one type with its versions and recent warnings.
	// Errors: ENOTFOUND.
	EventType(ctx context.Context, tenantID uuid.UUID, name string) (catalog.EventType, error)
	// UpdateEventType applies patch. Errors: ENOTFOUND, EINVALID.
	UpdateEventType(ctx context.Context, tenantID uuid.UUID, name string, patch catalog.EventTypePatch) (catalog.EventType, error)
	// DeleteEventType removes a type. Errors: ENOTFOUND.
	DeleteEventType(ctx context.Context, tenantID uuid.UUID, name string) error
	// AddVersion adds a version. Errors: ENOTFOUND, EINVALID.
	AddVersion(ctx context.Context, tenantID uuid.UUID, name string, in catalog.VersionInput) (catalog.Version, error)
	// ImportOpenAPI imports an OpenAPI 3.1 document's webhooks.
	// Errors: EINVALID.
	ImportOpenAPI(ctx context.Context, tenantID uuid.UUID, doc json.RawMessage) (catalog.ImportResult, error)
}

// eventTypeRoutes registers the catalog: owners, admins and API keys
// write, viewers read (as for endpoints).
func (s *server) eventTypeRoutes(api fiber.Router) {
	admin := s.auth(sessionOrKey, tenants.RoleAdmin)
	viewer := s.auth(sessionOrKey, tenants.RoleViewer)
	api.Post("/event-types", admin, s.createEventType)
	api.Get("/event-types", viewer, s.listEventTypes)
	api.Post("/event-types/import", admin, s.importEventTypes)
	api.Get("/event-types/:name", viewer, s.getEventType)
	api.Patch("/event-types/:name", admin, s.updateEventType)
	api.Delete("/event-types/:name", admin, s.deleteEventType)
	api.Post("/event-types/:name/versions", admin, s.addEventTypeVersion)
}

// openAPIImport is the body of POST /event-types/import: any OpenAPI
// 3.1 document (only its webhooks and components are read).
type openAPIImport map[string]any

// pathName reads an event type name from the path; a name holding "/"
// arrives escaped (%2F).
func pathName(c *fiber.Ctx) (string, error) {
	name, err := url.PathUnescape(c.Params("name"))
	if err != nil || catalog.CheckName("name", name) != nil {
		return "", ferry.NotFound("event type")
	}
	return name, nil
}

func (s *server) createEventType(c *fiber.Ctx) error {
	var in catalog.EventTypeInput
	if err := decode(c, &in); err != nil {
		return err
	}
	et, err := s.EventTypes.CreateEventType(c.UserContext(), principal(c).TenantID, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(et)
}

func (s *server) listEventTypes(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	types, next, err := s.EventTypes.ListEventTypes(c.UserContext(), principal(c).TenantID, pg)
	if err != nil {
		return err
	}
	return c.JSON(newList(types, next))
}

func (s *server) getEventType(c *fiber.Ctx) error {
	name, err := pathName(c)
	if err != nil {
		return err
	}
	et, err := s.EventTypes.EventType(c.UserContext(), principal(c).TenantID, name)
	if err != nil {
		return err
	}
	return c.JSON(et)
}

func (s *server) updateEventType(c *fiber.Ctx) error {
	name, err := pathName(c)
	if err != nil {
		return err
	}
	var patch catalog.EventTypePatch
	if err := decode(c, &patch); err != nil {
		return err
	}
	et, err := s.EventTypes.UpdateEventType(c.UserContext(), principal(c).TenantID, name, patch)
	if err != nil {
		return err
	}
	return c.JSON(et)
}

func (s *server) deleteEventType(c *fiber.Ctx) error {
	name, err := pathName(c)
	if err != nil {
		return err
	}
	if err := s.EventTypes.DeleteEventType(c.UserContext(), principal(c).TenantID, name); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *server) addEventTypeVersion(c *fiber.Ctx) error {
	name, err := pathName(c)
	if err != nil {
		return err
	}
	var in catalog.VersionInput
	if err := decode(c, &in); err != nil {
		return err
	}
	v, err := s.EventTypes.AddVersion(c.UserContext(), principal(c).TenantID, name, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(v)
}

func (s *server) importEventTypes(c *fiber.Ctx) error {
	var doc json.RawMessage
	if isYAML(c.Get(fiber.HeaderContentType)) {
		var err error
		if doc, err = yamlToJSON(c.Body()); err != nil {
			return err
		}
	} else if err := decode(c, &doc); err != nil {
		return err
	}
	res, err := s.EventTypes.ImportOpenAPI(c.UserContext(), principal(c).TenantID, doc)
	if err != nil {
		return err
	}
	return c.JSON(res)
}

// isYAML reports a YAML request body (OpenAPI documents are often YAML).
func isYAML(contentType string) bool {
	ct := strings.ToLower(strings.TrimSpace(strings.Split(contentType, ";")[0]))
	return ct == "application/yaml" || ct == "application/x-yaml" || ct == "text/yaml"
}

// yamlToJSON turns a YAML document into the JSON the import reads. The
// body is already bounded by the request limit, and the YAML decoder
// refuses documents whose aliases would expand out of proportion.
func yamlToJSON(body []byte) (json.RawMessage, error) {
	var doc any
	if err := yaml.Unmarshal(body, &doc); err != nil {
		return nil, &ferry.Error{Code: ferry.EBADREQUEST, Message: "request body is not valid YAML: " + err.Error()}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, &ferry.Error{Code: ferry.EBADREQUEST, Message: "the YAML document has no JSON form (keys must be strings): " + err.Error()}
	}
	return b, nil
}
