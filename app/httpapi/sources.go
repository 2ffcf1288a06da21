package httpapi

import (
	"errors"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/inbound"
	"github.com/ferry-dev/ferry/tenants"
)

// sourceRoutes registers inbound source management (roles as for
// endpoints) and the public ingest URL.
func (s *server) sourceRoutes(api fiber.Router) {
	admin := s.auth(sessionOrKey, tenants.RoleAdmin)
	viewer := s.auth(sessionOrKey, tenants.RoleViewer)
	api.Post("/sources", admin, s.createSource)
	api.Get("/sources", viewer, s.listSources)
	api.Get("/sources/:id", viewer, s.getSource)
	api.Patch("/sources/:id", admin, s.updateSource)
	api.Delete("/sources/:id", admin, s.deleteSource)
	api.Post("/sources/:id/rotate-token", admin, s.rotateSourceToken)
	api.Get("/sources/:id/requests", viewer, s.listSourceRequests)
	api.Get("/sources/:id/requests/:request_id", viewer, s.getSourceRequest)
	api.Post("/sources/:id/requests/:request_id/replay", admin, s.replaySourceRequest)
}

// sourceView hides the ingest token from viewers and staff: the URL is
// a credential that lets anyone send events to the tenant.
func sourceView(p tenants.Principal, src inbound.Source) inbound.Source {
	if visibility(p) == delivery.VisibilityFull {
		return src
	}
	if i := strings.LastIndex(src.IngestURL, "/in/"); i >= 0 {
		src.IngestURL = src.IngestURL[:i] + "/in/" + redactedToken
	}
	return src
}

// redactedToken stands for an ingest token a caller may not see.
const redactedToken = delivery.Redacted

// credentialHeaders carry a sender's credentials; viewers see them redacted.
var credentialHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie"}

func (s *server) createSource(c *fiber.Ctx) error {
	var in inbound.SourceInput
	if err := decode(c, &in); err != nil {
		return err
	}
	src, err := s.Inbound.CreateSource(c.UserContext(), principal(c).TenantID, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(src)
}

func (s *server) listSources(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	p := principal(c)
	srcs, next, err := s.Inbound.ListSources(c.UserContext(), p.TenantID, pg)
	if err != nil {
		return err
	}
	for i := range srcs {
		srcs[i] = sourceView(p, srcs[i])
	}
	return c.JSON(newList(srcs, next))
}

func (s *server) getSource(c *fiber.Ctx) error {
	id, err := pathID(c, "source")
	if err != nil {
		return err
	}
	p := principal(c)
	src, err := s.Inbound.Source(c.UserContext(), p.TenantID, id)
	if err != nil {
		return err
	}
	return c.JSON(sourceView(p, src))
}

func (s *server) updateSource(c *fiber.Ctx) error {
	id, err := pathID(c, "source")
	if err != nil {
		return err
	}
	var patch inbound.SourcePatch
	if err := decode(c, &patch); err != nil {
		return err
	}
	src, err := s.Inbound.UpdateSource(c.UserContext(), principal(c).TenantID, id, patch)
	if err != nil {
		return err
	}
	return c.JSON(src)
}

func (s *server) deleteSource(c *fiber.Ctx) error {
	id, err := pathID(c, "source")
	if err != nil {
		return err
	}
	if err := s.Inbound.DeleteSource(c.UserContext(), principal(c).TenantID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *server) rotateSourceToken(c *fiber.Ctx) error {
	id, err := pathID(c, "source")
	if err != nil {
		return err
	}
	src, err := s.Inbound.RotateToken(c.UserContext(), principal(c).TenantID, id)
	if err != nil {
		return err
	}
	return c.JSON(src)
}

func (s *server) listSourceRequests(c *fiber.Ctx) error {
	id, err := pathID(c, "source")
	if err != nil {
		return err
	}
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	reqs, next, err := s.Inbound.ListRequests(c.UserContext(), principal(c).TenantID, id, c.Query("status"), pg)
	if err != nil {
		return err
	}
	return c.JSON(newList(reqs, next))
}

// sourceRequestDetail answers GET /sources/{id}/requests/{request_id}.
type sourceRequestDetail struct {
	inbound.RequestDetail
	Event *delivery.EventDetail `json:"event" description:"the event the request became, with its deliveries; null when none (rejected, duplicate, or the event is gone)"`
}

// sourceRequestIDs parses :id and :request_id; a malformed one is not found.
func sourceRequestIDs(c *fiber.Ctx) (uuid.UUID, uuid.UUID, error) {
	id, err := pathID(c, "source")
	if err != nil {
		return uuid.Nil, uuid.Nil, err
	}
	rid, err := uuid.Parse(c.Params("request_id"))
	if err != nil {
		return uuid.Nil, uuid.Nil, ferry.NotFound("request")
	}
	return id, rid, nil
}

func (s *server) getSourceRequest(c *fiber.Ctx) error {
	id, rid, err := sourceRequestIDs(c)
	if err != nil {
		return err
	}
	p := principal(c)
	d, err := s.Inbound.RequestDetail(c.UserContext(), p.TenantID, id, rid)
	if err != nil {
		return err
	}
	out := sourceRequestDetail{RequestDetail: d}
	if d.EventID != nil {
		ev, err := s.Delivery.Event(c.UserContext(), p.TenantID, *d.EventID)
		var fe *ferry.Error
		switch {
		case err == nil:
			out.Event = &ev
		case errors.As(err, &fe) && fe.Code == ferry.ENOTFOUND:
		default:
			return err
		}
	}
	if visibility(p) != delivery.VisibilityFull {
		h := http.Header{}
		for k, v := range out.Headers {
			h[k] = v
		}
		for _, k := range credentialHeaders {
			if _, ok := h[k]; ok {
				h[k] = []string{delivery.Redacted}
			}
		}
		out.Headers = h
	}
	return c.JSON(out)
}

func (s *server) replaySourceRequest(c *fiber.Ctx) error {
	id, rid, err := sourceRequestIDs(c)
	if err != nil {
		return err
	}
	res, err := s.Inbound.Replay(c.UserContext(), principal(c).TenantID, id, rid)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(res)
}
