package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/inbound"
	"github.com/ferry-dev/ferry/page"
	"github.com/ferry-dev/ferry/tenants"
)

// SourceService manages a tenant's inbound sources and their captured
// requests (/sources). It is satisfied by *inbound.Service.
type SourceService interface {
	// CreateSource stores a source with a fresh ingest token. Errors:
	// EINVALID.
	CreateSource(ctx context.Context, tenantID uuid.UUID, in inbound.SourceInput) (inbound.Source, error)
	// ListSources returns a page of the tenant's sources and the next
	// cursor. Errors: EINVALID (cursor).
	ListSources(ctx context.Context, tenantID uuid.UUID, pg page.Request) ([]inbound.Source, string, error)
	// Source returns one source. Errors: ENOTFOUND.
	Source(ctx context.Context, tenantID, id uuid.UUID) (inbound.Source, error)
	// UpdateSource applies patch. Errors: ENOTFOUND, EINVALID.
	UpdateSource(ctx context.Context, tenantID, id uuid.UUID, patch inbound.SourcePatch) (inbound.Source, error)
	// DeleteSource deletes a source. Errors: ENOTFOUND.
	DeleteSource(ctx context.Context, tenantID, id uuid.UUID) error
	// RotateToken gives the source a fresh ingest token. Errors:
	// ENOTFOUND.
	RotateToken(ctx context.Context, tenantID, id uuid.UUID) (inbound.Source, error)
	// ListRequests returns a page of a source's captured requests and
	// the next cursor. Errors: ENOTFOUND, EINVALID.
	ListRequests(ctx context.Context, tenantID, sourceID uuid.UUID, status string, pg page.Request) ([]inbound.Request, string, error)
	// RequestDetail returns one captured request whole. Errors:
	// ENOTFOUND.
	RequestDetail(ctx context.Context, tenantID, sourceID, requestID uuid.UUID) (inbound.RequestDetail, error)
	// Replay turns a stored request into a new event. Errors: ENOTFOUND,
	// EINVALID, and those of ingesting an event.
	Replay(ctx context.Context, tenantID, sourceID, requestID uuid.UUID) (inbound.ReplayResult, error)
}

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

// credentialWords mark the names of headers and query parameters that
// may carry a sender's credentials (Authorization, X-Gitlab-Token,
// X-Api-Key, a ?token= or ?secret= in the URL): viewers see their values
// redacted.
var credentialWords = []string{"auth", "token", "secret", "key", "password", "passwd", "cookie", "session",
	"signature", "credential", "jwt", "sig"}

// isCredentialName reports whether a header or parameter name looks like
// one that carries a credential.
func isCredentialName(name string) bool {
	name = strings.ToLower(name)
	for _, w := range credentialWords {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// redactRequest is a captured request as a caller without full
// visibility sees it: every query value redacted (a provider may put its
// secret there under any name), and the path past the ingest token too
// (some providers are given a URL with a secret segment).
func redactRequest(r inbound.Request) inbound.Request {
	if r.Query != "" {
		var parts []string
		for _, kv := range strings.Split(r.Query, "&") {
			name, _, _ := strings.Cut(kv, "=")
			parts = append(parts, name+"="+delivery.Redacted)
		}
		r.Query = strings.Join(parts, "&")
	}
	const tokenPath = "/in/{token}"
	if strings.HasPrefix(r.Path, tokenPath+"/") && len(r.Path) > len(tokenPath)+1 {
		r.Path = tokenPath + "/" + delivery.Redacted
	}
	return r
}

// redactHeaders is h with the values of credential-bearing headers
// redacted.
func redactHeaders(h http.Header) http.Header {
	out := http.Header{}
	for k, v := range h {
		if isCredentialName(k) {
			v = []string{delivery.Redacted}
		}
		out[k] = v
	}
	return out
}

func (s *server) createSource(c *fiber.Ctx) error {
	var in inbound.SourceInput
	if err := decode(c, &in); err != nil {
		return err
	}
	src, err := s.Sources.CreateSource(c.UserContext(), principal(c).TenantID, in)
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
	srcs, next, err := s.Sources.ListSources(c.UserContext(), p.TenantID, pg)
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
	src, err := s.Sources.Source(c.UserContext(), p.TenantID, id)
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
	src, err := s.Sources.UpdateSource(c.UserContext(), principal(c).TenantID, id, patch)
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
	if err := s.Sources.DeleteSource(c.UserContext(), principal(c).TenantID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *server) rotateSourceToken(c *fiber.Ctx) error {
	id, err := pathID(c, "source")
	if err != nil {
		return err
	}
	src, err := s.Sources.RotateToken(c.UserContext(), principal(c).TenantID, id)
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
	p := principal(c)
	reqs, next, err := s.Sources.ListRequests(c.UserContext(), p.TenantID, id, c.Query("status"), pg)
	if err != nil {
		return err
	}
	if visibility(p) != delivery.VisibilityFull {
		for i := range reqs {
			reqs[i] = redactRequest(reqs[i])
		}
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
	d, err := s.Sources.RequestDetail(c.UserContext(), p.TenantID, id, rid)
	if err != nil {
		return err
	}
	out := sourceRequestDetail{RequestDetail: d}
	if d.EventID != nil {
		ev, err := s.Events.Event(c.UserContext(), p.TenantID, *d.EventID)
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
		out.Request = redactRequest(out.Request)
		out.Headers = redactHeaders(out.Headers)
	}
	return c.JSON(out)
}

func (s *server) replaySourceRequest(c *fiber.Ctx) error {
	id, rid, err := sourceRequestIDs(c)
	if err != nil {
		return err
	}
	res, err := s.Sources.Replay(c.UserContext(), principal(c).TenantID, id, rid)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(res)
}
