package httpapi

import (
	"context"
	"io/fs"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/catalog"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/replay"
	"github.com/ferry-dev/ferry/page"
	"github.com/ferry-dev/ferry/portal"
	"github.com/ferry-dev/ferry/tenants"
)

// PortalService mints and checks customer portal sessions and keeps the
// tenants' portal settings (docs/customer-portal.md). It is satisfied by
// *portal.Service.
type PortalService interface {
	// Mint creates a session for the tenant's customer. Errors:
	// ENOTFOUND, EINVALID.
	Mint(ctx context.Context, tenantID uuid.UUID, customerUID string, in portal.SessionInput) (portal.Minted, error)
	// Exchange trades a session's single-use code for a token. Errors:
	// EUNAUTHORIZED.
	Exchange(ctx context.Context, sessionID uuid.UUID, code string) (portal.Exchanged, error)
	// Authenticate returns the live session of a token. Errors:
	// EUNAUTHORIZED.
	Authenticate(ctx context.Context, token string) (portal.Session, error)
	// Themed returns the session with the theme its page shows.
	Themed(ctx context.Context, sess portal.Session) (portal.Session, error)
	// Renew issues a fresh token of a live session. Errors: EUNAUTHORIZED.
	Renew(ctx context.Context, sess portal.Session) (portal.Token, error)
	// Revoke ends one of the tenant's sessions. Errors: ENOTFOUND.
	Revoke(ctx context.Context, tenantID, sessionID uuid.UUID) error
	// RevokeCustomer ends the live sessions of a customer (or of one of
	// its users) and returns how many.
	RevokeCustomer(ctx context.Context, tenantID uuid.UUID, customerUID, externalUserID string) (int64, error)
	// ListSessions returns a page of the tenant's sessions.
	ListSessions(ctx context.Context, tenantID uuid.UUID, customerUID string, pg page.Request) ([]portal.Session, string, error)
	// Settings returns the tenant's portal settings.
	Settings(ctx context.Context, tenantID uuid.UUID) (portal.Settings, error)
	// SetSettings replaces them. Errors: EINVALID.
	SetSettings(ctx context.Context, tenantID uuid.UUID, in portal.SettingsInput) (portal.Settings, error)
	// FrameAncestors returns the frame-ancestors sources of a session's
	// embed page.
	FrameAncestors(ctx context.Context, sessionID uuid.UUID) string
	// Audit records an action of the session's user.
	Audit(ctx context.Context, sess portal.Session, action, target string) error
	// ListAudit returns a page of the customers' users' actions.
	ListAudit(ctx context.Context, tenantID uuid.UUID, customerUID string, pg page.Request) ([]portal.AuditEntry, string, error)
}

const portalSessionKey = "portal.session"

// OperationalEvents emits operational events of a tenant in their own
// transaction; it is satisfied by *opevents.Emitter.
type OperationalEvents interface {
	EmitInOwnTx(ctx context.Context, evs []model.OperationalEvent) ([]model.OperationalEvent, error)
}

// announce tells the tenant, as an operational event, what the session's
// user did to one of the customer's endpoints. The action is done and
// audited already: a failure to announce is logged, not answered.
func (s *server) announce(c *fiber.Ctx, typ string, ep delivery.Endpoint) {
	if s.OperationalEvents == nil {
		return
	}
	sess := portalSessionOf(c)
	ev := model.OperationalEvent{TenantID: sess.TenantID, Type: typ, Key: typ + ":" + uuid.NewString(), About: ep.ID,
		Data: model.CustomerEndpointData{Customer: sess.Customer.UID, EndpointID: ep.ID, URL: ep.URL,
			ExternalUser: model.CustomerUser{ID: sess.ExternalUser.ID, Email: sess.ExternalUser.Email}}}
	if _, err := s.OperationalEvents.EmitInOwnTx(context.WithoutCancel(c.UserContext()), []model.OperationalEvent{ev}); err != nil {
		s.Log.WarnContext(c.UserContext(), "customer portal action not announced", "type", typ, "endpoint_id", ep.ID, "err", err)
	}
}

// exchangeInput is the body of POST /portal/exchange.
type exchangeInput struct {
	SessionID string `json:"session_id" format:"uuid"` // the session id of the portal link
	Code      string `json:"code"`                     // the single-use code from the portal link's fragment
}

// revokeInput is the body of POST /customers/{uid}/portal-sessions/revoke.
type revokeInput struct {
	ExternalUserID string `json:"external_user_id" description:"only this user's sessions (default: every session of the customer)"`
}

// revoked answers a revocation of many sessions.
type revoked struct {
	Revoked int64 `json:"revoked"` // how many sessions were revoked
}

// recoverInput is the body of POST /portal/recover and its preview.
type recoverInput struct {
	EndpointID string    `json:"endpoint_id" format:"uuid"` // one of the customer's endpoints
	Since      time.Time `json:"since"`                     // failed deliveries created at or after this time (RFC 3339)
}

// recovered answers POST /portal/recover and its preview: how many failed
// deliveries are (or were) sent again.
type recovered struct {
	Count int64 `json:"count"` // failed deliveries counted (preview) or re-queued
}

// portalEndpointInput creates an endpoint from the portal: the tenant's
// input without the customer, which is the session's.
type portalEndpointInput struct {
	URL            string            `json:"url"`            // where Ferry pushes the events (https)
	Description    string            `json:"description"`    // a label
	EventTypes     []string          `json:"event_types"`    // event types, or patterns ending in * (order.*); empty: every type
	Headers        map[string]string `json:"headers"`        // custom headers sent with every attempt
	Filter         string            `json:"filter"`         // CEL expression the event must satisfy; empty: every event
	Transformation string            `json:"transformation"` // JavaScript defining function handler(webhook), run once per delivery; empty: none
	// SignatureTimestamp: event (default) or attempt, for receivers
	// verifying with a Standard Webhooks library's 5-minute tolerance.
	SignatureTimestamp delivery.SignatureTimestamp `json:"signature_timestamp"`
}

func (s *server) portalRoutes(api fiber.Router) {
	// The tenant's side.
	api.Post("/customers/:uid/portal-sessions", s.auth(sessionOrKey, tenants.RoleAdmin), s.mintPortalSession)
	api.Post("/customers/:uid/portal-sessions/revoke", s.auth(sessionOrKey, tenants.RoleAdmin), s.revokeCustomerSessions)
	api.Get("/portal-sessions", s.auth(sessionOrKey, tenants.RoleViewer), s.listPortalSessions)
	api.Delete("/portal-sessions/:id", s.auth(sessionOrKey, tenants.RoleAdmin), s.revokePortalSession)
	api.Get("/portal-settings", s.auth(sessionOrKey, tenants.RoleViewer), s.getPortalSettings)
	api.Put("/portal-settings", s.auth(sessionOrKey, tenants.RoleAdmin), s.putPortalSettings)
	api.Get("/portal-audit", s.auth(sessionOrKey, tenants.RoleViewer), s.listPortalAudit)

	// The customer's side: a portal token, nothing else.
	p := api.Group("/portal")
	p.Post("/exchange", s.portalExchange)
	p.Post("/renew", s.portalAuth(""), s.portalRenew)
	p.Get("/session", s.portalAuth(""), s.portalSession)
	p.Get("/endpoints", s.portalAuth(portal.CapView), s.portalListEndpoints)
	p.Post("/endpoints", s.portalAuth(portal.CapManageEndpoints), s.portalCreateEndpoint)
	p.Get("/endpoints/:id", s.portalAuth(portal.CapView), s.portalGetEndpoint)
	p.Patch("/endpoints/:id", s.portalAuth(portal.CapManageEndpoints), s.portalUpdateEndpoint)
	p.Delete("/endpoints/:id", s.portalAuth(portal.CapManageEndpoints), s.portalDeleteEndpoint)
	p.Get("/endpoints/:id/secret", s.portalAuth(portal.CapViewSecret), s.portalSecret)
	p.Post("/endpoints/:id/secret/rotate", s.portalAuth(portal.CapRotateSecret), s.portalRotateSecret)
	p.Post("/endpoints/:id/test", s.portalAuth(portal.CapSendTest), s.portalSendTest)
	p.Get("/endpoints/:id/attempts", s.portalAuth(portal.CapView), s.portalEndpointAttempts)
	p.Get("/endpoints/:id/stats", s.portalAuth(portal.CapView), s.portalEndpointStats)
	p.Get("/event-types", s.portalAuth(portal.CapView), s.portalListEventTypes)
	p.Get("/event-types/:name", s.portalAuth(portal.CapView), s.portalGetEventType)
	p.Get("/events", s.portalAuth(portal.CapView), s.portalListEvents)
	p.Get("/events/:id", s.portalAuth(portal.CapView), s.portalGetEvent)
	p.Get("/events/:id/attempts", s.portalAuth(portal.CapView), s.portalEventAttempts)
	p.Post("/events/:id/replay", s.portalAuth(portal.CapReplay), s.portalReplayEvent)
	p.Post("/recover/preview", s.portalAuth(portal.CapReplay), s.portalRecoverPreview)
	p.Post("/recover", s.portalAuth(portal.CapReplay), s.portalRecover)
}

// portalAuth admits requests with a live portal token whose session
// grants capability (none: any session), under the tenant's API rate
// limit. A session that has ended answers 401; a capability it lacks,
// 403.
func (s *server) portalAuth(capability string) fiber.Handler {
	return func(c *fiber.Ctx) error {
		tok, ok := strings.CutPrefix(c.Get(fiber.HeaderAuthorization), "Bearer ")
		if !ok {
			return &ferry.Error{Code: ferry.EUNAUTHORIZED, Message: "a portal token is required (Authorization: Bearer)"}
		}
		sess, err := s.CustomerPortal.Authenticate(c.UserContext(), strings.TrimSpace(tok))
		if err != nil {
			return err
		}
		if err := s.limiter.admit(c, sess.TenantID); err != nil {
			return err
		}
		if capability != "" && !sess.Can(capability) {
			return &ferry.Error{Code: ferry.EFORBIDDEN, Message: "this portal session may not " + strings.ReplaceAll(capability, "_", " ")}
		}
		c.Locals(portalSessionKey, sess)
		// A customer's keys are its own: two customers' portals may well
		// generate the same ones.
		return s.idempotent(c, "customer:"+sess.TenantID.String()+":"+sess.CustomerID.String())
	}
}

func portalSessionOf(c *fiber.Ctx) portal.Session {
	sess, _ := c.Locals(portalSessionKey).(portal.Session)
	return sess
}

// actor names the session's user on attempts, replays and audit.
func portalActor(sess portal.Session) string {
	return "portal:" + sess.Customer.UID + ":" + sess.ExternalUser.ID
}

func (s *server) mintPortalSession(c *fiber.Ctx) error {
	var in portal.SessionInput
	if err := decode(c, &in); err != nil {
		return err
	}
	m, err := s.CustomerPortal.Mint(c.UserContext(), principal(c).TenantID, c.Params("uid"), in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(m)
}

func (s *server) revokeCustomerSessions(c *fiber.Ctx) error {
	var in revokeInput
	if len(c.Body()) > 0 {
		if err := decode(c, &in); err != nil {
			return err
		}
	}
	n, err := s.CustomerPortal.RevokeCustomer(c.UserContext(), principal(c).TenantID, c.Params("uid"), in.ExternalUserID)
	if err != nil {
		return err
	}
	return c.JSON(revoked{Revoked: n})
}

func (s *server) listPortalSessions(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	ss, next, err := s.CustomerPortal.ListSessions(c.UserContext(), principal(c).TenantID, c.Query("customer"), pg)
	if err != nil {
		return err
	}
	return c.JSON(newList(ss, next))
}

func (s *server) revokePortalSession(c *fiber.Ctx) error {
	id, err := pathID(c, "portal session")
	if err != nil {
		return err
	}
	if err := s.CustomerPortal.Revoke(c.UserContext(), principal(c).TenantID, id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *server) getPortalSettings(c *fiber.Ctx) error {
	st, err := s.CustomerPortal.Settings(c.UserContext(), principal(c).TenantID)
	if err != nil {
		return err
	}
	return c.JSON(st)
}

func (s *server) putPortalSettings(c *fiber.Ctx) error {
	var in portal.SettingsInput
	if err := decode(c, &in); err != nil {
		return err
	}
	st, err := s.CustomerPortal.SetSettings(c.UserContext(), principal(c).TenantID, in)
	if err != nil {
		return err
	}
	return c.JSON(st)
}

func (s *server) listPortalAudit(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	es, next, err := s.CustomerPortal.ListAudit(c.UserContext(), principal(c).TenantID, c.Query("customer"), pg)
	if err != nil {
		return err
	}
	return c.JSON(newList(es, next))
}

// portalExchange trades a session's code for its first token. Failed
// exchanges count as credential guesses of the client's address.
func (s *server) portalExchange(c *fiber.Ctx) error {
	addr := c.IP()
	if s.guesses.perMinute >= 0 {
		if d := s.guesses.wait(addr); d > 0 {
			return tooManyGuesses(d, "too many failed portal links from this address; try again later")
		}
	}
	var in exchangeInput
	if err := decode(c, &in); err != nil {
		return err
	}
	id, err := uuid.Parse(in.SessionID)
	if err != nil {
		return ferry.Invalid("session_id", "session_id must be a UUID")
	}
	out, err := s.CustomerPortal.Exchange(c.UserContext(), id, in.Code)
	if err != nil {
		if ferry.ErrorCode(err) == ferry.EUNAUTHORIZED && s.guesses.perMinute >= 0 {
			s.guesses.failed(addr)
		}
		return err
	}
	return c.JSON(out)
}

func (s *server) portalRenew(c *fiber.Ctx) error {
	tok, err := s.CustomerPortal.Renew(c.UserContext(), portalSessionOf(c))
	if err != nil {
		return err
	}
	return c.JSON(tok)
}

func (s *server) portalSession(c *fiber.Ctx) error {
	sess, err := s.CustomerPortal.Themed(c.UserContext(), portalSessionOf(c))
	if err != nil {
		return err
	}
	return c.JSON(sess)
}

// customerEndpoint returns the endpoint id of the path if the session
// may see it: the customer's, and within the session's endpoint_ids.
// Anything else is 404, as if it did not exist.
func (s *server) customerEndpoint(c *fiber.Ctx) (delivery.Endpoint, error) {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return delivery.Endpoint{}, err
	}
	sess := portalSessionOf(c)
	ep, err := s.Endpoints.Endpoint(c.UserContext(), sess.TenantID, id)
	if err != nil {
		return delivery.Endpoint{}, err
	}
	if ep.Customer == nil || *ep.Customer != sess.Customer.UID || !sess.Shows(ep.ID) {
		return delivery.Endpoint{}, ferry.NotFound("endpoint")
	}
	return ep, nil
}

// customerEndpointIDs returns the ids of the endpoints the session sees.
func (s *server) customerEndpointIDs(ctx context.Context, sess portal.Session) (map[uuid.UUID]bool, error) {
	ids := map[uuid.UUID]bool{}
	pg := page.Request{Limit: page.MaxSize}
	for {
		eps, next, err := s.Endpoints.ListEndpoints(ctx, sess.TenantID, delivery.EndpointFilter{Customer: sess.Customer.UID}, pg)
		if err != nil {
			return nil, err
		}
		for _, ep := range eps {
			if sess.Shows(ep.ID) {
				ids[ep.ID] = true
			}
		}
		if next == "" {
			return ids, nil
		}
		pg.Cursor = next
	}
}

// audit records a portal action; a failure to record fails the request
// (the action is done, but the caller learns the record is missing).
func (s *server) audit(c *fiber.Ctx, action, target string) error {
	return s.CustomerPortal.Audit(c.UserContext(), portalSessionOf(c), action, target)
}

func (s *server) portalListEndpoints(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	sess := portalSessionOf(c)
	eps, next, err := s.Endpoints.ListEndpoints(c.UserContext(), sess.TenantID, delivery.EndpointFilter{Customer: sess.Customer.UID}, pg)
	if err != nil {
		return err
	}
	shown := eps[:0]
	for _, ep := range eps {
		if sess.Shows(ep.ID) {
			shown = append(shown, ep)
		}
	}
	return c.JSON(newList(shown, next))
}

func (s *server) portalCreateEndpoint(c *fiber.Ctx) error {
	sess := portalSessionOf(c)
	if sess.EndpointIDs != nil {
		return &ferry.Error{Code: ferry.EFORBIDDEN, Message: "this portal session shows chosen endpoints only and may not create one"}
	}
	var in portalEndpointInput
	if err := decode(c, &in); err != nil {
		return err
	}
	if (in.Filter != "" || in.Transformation != "") && !sess.Can(portal.CapManageRouting) {
		return &ferry.Error{Code: ferry.EFORBIDDEN, Message: "this portal session may not set filters or transformations"}
	}
	ep, secret, err := s.Endpoints.CreateEndpoint(c.UserContext(), sess.TenantID, delivery.EndpointInput{URL: in.URL,
		Description: in.Description, EventTypes: in.EventTypes, Headers: in.Headers, Filter: in.Filter,
		Transformation: in.Transformation, SignatureTimestamp: in.SignatureTimestamp, Customer: sess.Customer.UID})
	if err != nil {
		return err
	}
	if err := s.audit(c, "endpoint.created", ep.ID.String()); err != nil {
		return err
	}
	s.announce(c, model.OpCustomerEndpointCreated, ep)
	return c.Status(fiber.StatusCreated).JSON(endpointCreated{Endpoint: ep, Secret: secret})
}

func (s *server) portalGetEndpoint(c *fiber.Ctx) error {
	ep, err := s.customerEndpoint(c)
	if err != nil {
		return err
	}
	return c.JSON(ep)
}

func (s *server) portalUpdateEndpoint(c *fiber.Ctx) error {
	ep, err := s.customerEndpoint(c)
	if err != nil {
		return err
	}
	var patch delivery.EndpointPatch
	if err := decode(c, &patch); err != nil {
		return err
	}
	sess := portalSessionOf(c)
	if (patch.Filter != nil || patch.Transformation != nil) && !sess.Can(portal.CapManageRouting) {
		return &ferry.Error{Code: ferry.EFORBIDDEN, Message: "this portal session may not change filters or transformations"}
	}
	out, err := s.Endpoints.UpdateEndpoint(c.UserContext(), sess.TenantID, ep.ID, patch)
	if err != nil {
		return err
	}
	if err := s.audit(c, "endpoint.updated", ep.ID.String()); err != nil {
		return err
	}
	s.announce(c, model.OpCustomerEndpointUpdated, out)
	return c.JSON(out)
}

func (s *server) portalDeleteEndpoint(c *fiber.Ctx) error {
	ep, err := s.customerEndpoint(c)
	if err != nil {
		return err
	}
	if err := s.Endpoints.DeleteEndpoint(c.UserContext(), portalSessionOf(c).TenantID, ep.ID); err != nil {
		return err
	}
	if err := s.audit(c, "endpoint.deleted", ep.ID.String()); err != nil {
		return err
	}
	s.announce(c, model.OpCustomerEndpointDeleted, ep)
	return c.SendStatus(fiber.StatusNoContent)
}

func (s *server) portalSecret(c *fiber.Ctx) error {
	ep, err := s.customerEndpoint(c)
	if err != nil {
		return err
	}
	// Recorded before it is shown: a reveal is never unaudited.
	if err := s.audit(c, "endpoint.secret.revealed", ep.ID.String()); err != nil {
		return err
	}
	info, err := s.Endpoints.Secret(c.UserContext(), portalSessionOf(c).TenantID, ep.ID)
	if err != nil {
		return err
	}
	return c.JSON(info)
}

func (s *server) portalRotateSecret(c *fiber.Ctx) error {
	ep, err := s.customerEndpoint(c)
	if err != nil {
		return err
	}
	info, err := s.Endpoints.RotateSecret(c.UserContext(), portalSessionOf(c).TenantID, ep.ID)
	if err != nil {
		return err
	}
	if err := s.audit(c, "endpoint.secret.rotated", ep.ID.String()); err != nil {
		return err
	}
	s.announce(c, model.OpCustomerEndpointSecretRotated, ep)
	return c.JSON(info)
}

func (s *server) portalSendTest(c *fiber.Ctx) error {
	ep, err := s.customerEndpoint(c)
	if err != nil {
		return err
	}
	sample, err := s.testSample(c, portalSessionOf(c).TenantID)
	if err != nil {
		return err
	}
	ev, err := s.Endpoints.SendTestEvent(c.UserContext(), portalSessionOf(c).TenantID, ep.ID, sample)
	if err != nil {
		return err
	}
	if err := s.audit(c, "endpoint.test_sent", ep.ID.String()); err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(eventAccepted{ID: ev.ID.String(), Type: ev.Type, CreatedAt: ev.CreatedAt.UTC().Format(time.RFC3339Nano)})
}

func (s *server) portalEndpointAttempts(c *fiber.Ctx) error {
	ep, err := s.customerEndpoint(c)
	if err != nil {
		return err
	}
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	attempts, next, err := s.Endpoints.EndpointAttempts(c.UserContext(), portalSessionOf(c).TenantID, ep.ID, c.Query("outcome"), pg)
	if err != nil {
		return err
	}
	return c.JSON(newList(attempts, next))
}

func (s *server) portalEndpointStats(c *fiber.Ctx) error {
	ep, err := s.customerEndpoint(c)
	if err != nil {
		return err
	}
	st, err := s.Stats.EndpointStats(c.UserContext(), portalSessionOf(c).TenantID, ep.ID, c.Query("window", "24h"))
	if err != nil {
		return err
	}
	return c.JSON(st)
}

// customerDeliveries keeps the deliveries to endpoints the session sees:
// a customer's event may also have gone to the tenant's own endpoints,
// which are not the customer's to see.
func customerDeliveries(ds []delivery.Delivery, shown map[uuid.UUID]bool) []delivery.Delivery {
	out := []delivery.Delivery{}
	for _, d := range ds {
		if shown[d.EndpointID] {
			out = append(out, d)
		}
	}
	return out
}

func (s *server) portalListEvents(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	sess := portalSessionOf(c)
	f := delivery.EventFilter{Type: c.Query("type"), Status: c.Query("status"), Customer: sess.Customer.UID}
	if f.Since, err = queryTime(c, "since"); err != nil {
		return err
	}
	if f.Until, err = queryTime(c, "until"); err != nil {
		return err
	}
	if f.EndpointID, err = queryUUID(c, "endpoint_id"); err != nil {
		return err
	}
	shown, err := s.customerEndpointIDs(c.UserContext(), sess)
	if err != nil {
		return err
	}
	if f.EndpointID != nil && !shown[*f.EndpointID] {
		return c.JSON(newList([]delivery.EventDetail{}, ""))
	}
	evs, next, err := s.Events.ListEvents(c.UserContext(), sess.TenantID, f, pg)
	if err != nil {
		return err
	}
	details, err := s.Events.WithDeliveries(c.UserContext(), sess.TenantID, evs)
	if err != nil {
		return err
	}
	for i := range details {
		details[i].Deliveries = customerDeliveries(details[i].Deliveries, shown)
	}
	return c.JSON(newList(details, next))
}

// customerEvent returns the event of the path if it was sent for the
// session's customer, with its deliveries to endpoints the session sees.
func (s *server) customerEvent(c *fiber.Ctx) (delivery.EventDetail, map[uuid.UUID]bool, error) {
	id, err := pathID(c, "event")
	if err != nil {
		return delivery.EventDetail{}, nil, err
	}
	sess := portalSessionOf(c)
	ev, err := s.Events.Event(c.UserContext(), sess.TenantID, id)
	if err != nil {
		return delivery.EventDetail{}, nil, err
	}
	if ev.Customer == nil || *ev.Customer != sess.Customer.UID {
		return delivery.EventDetail{}, nil, ferry.NotFound("event")
	}
	shown, err := s.customerEndpointIDs(c.UserContext(), sess)
	if err != nil {
		return delivery.EventDetail{}, nil, err
	}
	ev.Deliveries = customerDeliveries(ev.Deliveries, shown)
	return ev, shown, nil
}

func (s *server) portalGetEvent(c *fiber.Ctx) error {
	ev, _, err := s.customerEvent(c)
	if err != nil {
		return err
	}
	return c.JSON(ev)
}

func (s *server) portalEventAttempts(c *fiber.Ctx) error {
	ev, shown, err := s.customerEvent(c)
	if err != nil {
		return err
	}
	attempts, err := s.Events.EventAttempts(c.UserContext(), portalSessionOf(c).TenantID, ev.ID)
	if err != nil {
		return err
	}
	out := []model.Attempt{}
	for _, a := range attempts {
		if shown[a.EndpointID] {
			out = append(out, a)
		}
	}
	return c.JSON(newList(out, ""))
}

// portalReplayEvent replays the event's deliveries to the customer's
// endpoints (or to one of them), never to the tenant's own.
func (s *server) portalReplayEvent(c *fiber.Ctx) error {
	ev, shown, err := s.customerEvent(c)
	if err != nil {
		return err
	}
	var in replayEventInput
	if len(c.Body()) > 0 {
		if err := decode(c, &in); err != nil {
			return err
		}
	}
	sess := portalSessionOf(c)
	res := replay.ReplayResult{EventID: ev.ID, Deliveries: []uuid.UUID{}}
	if in.EndpointID != "" {
		id, err := uuid.Parse(in.EndpointID)
		if err != nil || !shown[id] {
			return ferry.NotFound("endpoint")
		}
		if res, err = s.Replays.ReplayEvent(c.UserContext(), sess.TenantID, ev.ID, &id, portalActor(sess)); err != nil {
			return err
		}
	} else {
		if len(ev.Deliveries) == 0 {
			return ferry.Invalid("endpoint_id", "the event has no deliveries to your endpoints; pass endpoint_id to send it to one")
		}
		for _, d := range ev.Deliveries {
			r, err := s.Replays.ReplayDelivery(c.UserContext(), sess.TenantID, d.ID, portalActor(sess))
			if err != nil {
				return err
			}
			res.Deliveries = append(res.Deliveries, r.Deliveries...)
		}
	}
	if err := s.audit(c, "event.replayed", ev.ID.String()); err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(res)
}

// recoverFilters are the bulk replays that recover an endpoint's failed
// deliveries since a time: those exhausted and those dropped.
func (s *server) recoverFilters(c *fiber.Ctx) ([]replay.ReplayFilter, error) {
	var in recoverInput
	if err := decode(c, &in); err != nil {
		return nil, err
	}
	id, err := uuid.Parse(in.EndpointID)
	if err != nil {
		return nil, ferry.Invalid("endpoint_id", "endpoint_id must be a UUID")
	}
	if in.Since.IsZero() {
		return nil, ferry.Invalid("since", "since is required (RFC 3339)")
	}
	shown, err := s.customerEndpointIDs(c.UserContext(), portalSessionOf(c))
	if err != nil {
		return nil, err
	}
	if !shown[id] {
		return nil, ferry.NotFound("endpoint")
	}
	since := in.Since
	return []replay.ReplayFilter{{EndpointID: &id, Since: &since, Status: string(model.StatusExhausted)},
		{EndpointID: &id, Since: &since, Status: string(model.StatusDropped)}}, nil
}

func (s *server) portalRecoverPreview(c *fiber.Ctx) error {
	fs, err := s.recoverFilters(c)
	if err != nil {
		return err
	}
	var n int64
	for _, f := range fs {
		p, err := s.Replays.PreviewReplay(c.UserContext(), portalSessionOf(c).TenantID, f)
		if err != nil {
			return err
		}
		n += p.Matched
	}
	return c.JSON(recovered{Count: n})
}

func (s *server) portalRecover(c *fiber.Ctx) error {
	fs, err := s.recoverFilters(c)
	if err != nil {
		return err
	}
	sess := portalSessionOf(c)
	var n int64
	for _, f := range fs {
		p, err := s.Replays.PreviewReplay(c.UserContext(), sess.TenantID, f)
		if err != nil {
			return err
		}
		if p.Matched == 0 {
			continue
		}
		if _, err := s.Replays.CreateReplayJob(c.UserContext(), sess.TenantID, f, portalActor(sess), "recovered from the customer portal"); err != nil {
			return err
		}
		n += p.Matched
	}
	if err := s.audit(c, "endpoint.recovered", fs[0].EndpointID.String()); err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(recovered{Count: n})
}

// mountEmbed serves the customer portal page of a session (the built
// portal's index.html) with framing allowed to the tenant's origins only,
// and /embed.js, which host pages load to mount it.
func (s *server) mountEmbed(app *fiber.App) {
	// The page's own routes live under its session's path (deep links of
	// the embedded app): each gets the same page and framing policy.
	page := func(c *fiber.Ctx) error {
		ancestors := "'none'"
		if id, err := uuid.Parse(c.Params("session_id")); err == nil {
			ancestors = s.CustomerPortal.FrameAncestors(c.UserContext(), id)
		}
		h := &c.Response().Header
		h.Del(fiber.HeaderXFrameOptions)
		h.Set(fiber.HeaderContentSecurityPolicy, embedCSP(ancestors))
		h.Set(fiber.HeaderReferrerPolicy, "no-referrer")
		h.Set(fiber.HeaderCacheControl, "no-store")
		index, err := fs.ReadFile(s.Portal, "index.html")
		if err != nil {
			return fiber.ErrNotFound
		}
		c.Type("html", "utf-8")
		return c.Send(index)
	}
	app.Get("/embed/:session_id", page)
	app.Get("/embed/:session_id/*", page)
	app.Get("/embed.js", func(c *fiber.Ctx) error {
		js, err := fs.ReadFile(s.Portal, "embed.js")
		if err != nil {
			return fiber.ErrNotFound
		}
		c.Set(fiber.HeaderCacheControl, "no-cache")
		c.Type("js", "utf-8")
		return c.Send(js)
	})
}

// embedCSP is the portal's policy for the embed page: framing by the
// tenant's origins only, and logos (the tenant's theme) from any https
// origin.
func embedCSP(ancestors string) string {
	csp := strings.Replace(portalCSP, "frame-ancestors 'none'", "frame-ancestors "+ancestors, 1)
	return strings.Replace(csp, "img-src 'self' data:", "img-src 'self' data: https:", 1)
}

// portalListEventTypes lists the tenant's catalog for the customer's type
// picker: the types that are not deprecated.
func (s *server) portalListEventTypes(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	if s.EventTypes == nil {
		return c.JSON(newList([]catalog.EventType{}, ""))
	}
	ets, next, err := s.EventTypes.ListEventTypes(c.UserContext(), portalSessionOf(c).TenantID, pg)
	if err != nil {
		return err
	}
	live := []catalog.EventType{}
	for _, et := range ets {
		if !et.Deprecated {
			live = append(live, et)
		}
	}
	return c.JSON(newList(live, next))
}

// portalGetEventType shows one catalog type with its schemas and
// examples, without the tenant's validation warnings.
func (s *server) portalGetEventType(c *fiber.Ctx) error {
	if s.EventTypes == nil {
		return ferry.NotFound("event type")
	}
	et, err := s.EventTypes.EventType(c.UserContext(), portalSessionOf(c).TenantID, c.Params("name"))
	if err != nil {
		return err
	}
	et.RecentWarnings = nil
	return c.JSON(et)
}
