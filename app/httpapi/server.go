// Package httpapi turns HTTP into calls on Ferry's domain services: the
// tenant API under /api/v1, health and metrics, and the embedded portal.
package httpapi

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/adaptor"
	"github.com/gofiber/fiber/v2/middleware/filesystem"
	"go.opentelemetry.io/otel/trace"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery"
	"github.com/ferry-dev/ferry/ratelimit"
	"github.com/ferry-dev/ferry/tenants"
)

// Deps are what the HTTP layer calls, and how it serves. Each service is
// a small interface of this package, holding the methods one group of
// routes calls; app plugs the domain services in.
type Deps struct {
	// Auth serves the auth middleware and the /auth and /me routes.
	Auth AuthService
	// Sessions signs and checks session cookies.
	Sessions SessionTokens
	// Account serves password, invite, address and TOTP routes.
	Account AccountService
	// Notifications serves /me/notifications.
	Notifications NotificationService
	// APIKeys serves /api-keys.
	APIKeys APIKeyService
	// Members serves /members.
	Members MemberService
	// Customers serves /customers.
	Customers CustomerService
	// CustomerPortal mints and checks customer portal sessions and
	// serves /portal and the tenant's portal settings.
	CustomerPortal PortalService
	// OperationalEvents announces customers' portal actions to the tenant
	// (nil: not announced).
	OperationalEvents OperationalEvents
	// Endpoints serves /endpoints.
	Endpoints EndpointService
	// Events serves /events (and the events of the staff console and of
	// captured requests).
	Events EventService
	// EventsAccepted counts the events the API accepted.
	EventsAccepted EventCounter
	// Replays serves the replay routes (tenants' and staff's).
	Replays ReplayService
	// Stats serves /stats and /endpoints/{id}/stats.
	Stats StatsService
	// Staff serves the staff console's tenants and audit log.
	Staff StaffService
	// StaffDelivery serves the staff console's redacted delivery views.
	StaffDelivery StaffDeliveryService
	// Billing serves /billing and the staff console's billing view.
	Billing BillingService
	// Queues serves the pull queue routes and consumer tokens.
	Queues QueueService
	// Sources serves /sources.
	Sources SourceService
	// EventTypes serves /event-types (the catalog).
	EventTypes EventTypeService
	// Inbound captures requests to the public ingest URLs.
	Inbound InboundReceiver
	// Ready reports whether Postgres and Kafka answer.
	Ready func(ctx context.Context) error
	// Idempotency, when set, answers a repeated Idempotency-Key on
	// creating routes with the first answer.
	Idempotency IdempotencyStore
	// Requests, when set, records every request's route, status and
	// duration.
	Requests RequestObserver
	// MetricsHandler serves /metrics on the main listener; nil when
	// metrics have their own listener (FERRY_METRICS_ADDR) or are off.
	MetricsHandler http.Handler
	// Portal is the built frontend (index.html at its root).
	Portal fs.FS
	Log    *slog.Logger
	// SecureCookies marks cookies Secure (production, behind https).
	SecureCookies bool
	// RateBuckets, when set, holds the rate limits' buckets for every
	// replica together; otherwise each process has its own.
	RateBuckets ratelimit.Leaser
	// APIRateLimit is the API requests per second allowed per tenant
	// (0 = unlimited).
	APIRateLimit int
	// TestRoutingRateLimit is the test-routing requests per second allowed
	// per tenant in this process, within APIRateLimit (0 = no other limit).
	TestRoutingRateLimit int
	// TrustedProxies are reverse proxies whose X-Forwarded-For names the
	// client address (login and sign-up limits per address); without
	// them the connection's address is the client's.
	TrustedProxies []string
	// HSTS sends Strict-Transport-Security (production, behind https).
	HSTS bool
	// TokenGuessesPerMinute bounds failed lookups of unsessioned
	// credentials (ingest tokens, API keys, consumer tokens) per client
	// address (0: DefaultTokenGuessesPerMinute; negative: no bound).
	TokenGuessesPerMinute int
	// IngestHost, when set, is the host (FERRY_INGEST_URL's) that alone
	// serves ingest URLs, and serves nothing else (see ingestOrigin).
	IngestHost string
	// WriteTimeout bounds writing a response (default 30 s); a queue
	// stream applies it to each of its writes instead (queuestream.go).
	WriteTimeout time.Duration
	// StreamAuthInterval is how often a queue stream re-checks the
	// credential that opened it (default 30 s).
	StreamAuthInterval time.Duration
	// Tracing, when set, starts a server span for each API and ingest
	// request (tracing.go); nil when tracing is off, so requests pay
	// nothing for it.
	Tracing trace.TracerProvider
}

type server struct {
	Deps
	limiter            *tenantLimiter
	testRoutingLimiter *tenantLimiter
	guesses            *guessLimiter
	openapi            []byte
	openapiInternal    []byte
	// creating are the route templates Idempotency-Key applies to.
	creating map[string]bool
}

// New returns the Fiber app serving everything.
func New(d Deps) *fiber.App {
	var internal []byte
	doc, err := OpenAPIDocument()
	if err == nil {
		internal, err = OpenAPIInternalDocument()
	}
	if err != nil {
		// The document is reflected from Go types fixed at compile time,
		// and TestOpenAPIDocumentIsValidAndComplete builds it: failing here
		// is a programming error.
		panic(err)
	}
	s := &server{Deps: d, limiter: newTenantLimiter(d.APIRateLimit, d.RateBuckets, d.Log),
		testRoutingLimiter: newTestRoutingLimiter(d.TestRoutingRateLimit, d.RateBuckets, d.Log),
		guesses:            newGuessLimiter(d.TokenGuessesPerMinute), openapi: doc, openapiInternal: internal, creating: creatingRoutes()}
	cfg := fiber.Config{
		// fasthttp answers a body over BodyLimit and closes at once, while
		// the client is still writing: the client then sees a connection
		// reset, not our 413. So it reads bodies up to readBodyLimit, and
		// limitBody refuses anything over requestBodyLimit cleanly.
		BodyLimit:             readBodyLimit,
		ErrorHandler:          errorHandler(d.Log),
		DisableStartupMessage: true,
		// Fiber reuses buffers between requests; immutable strings keep
		// values handed to services valid.
		Immutable:    true,
		ReadTimeout:  30 * time.Second,
		WriteTimeout: s.writeTimeout(),
		IdleTimeout:  120 * time.Second,
	}
	if len(d.TrustedProxies) > 0 {
		cfg = fiberConfigWithProxies(cfg, d.TrustedProxies)
	}
	app := fiber.New(cfg)
	templates := routeTemplates{}
	if d.Requests != nil {
		app.Use(observeRequests(d.Requests, templates))
	}
	app.Use(requestIDs)
	if d.Tracing != nil {
		app.Use(serverSpans(d.Tracing))
	}
	app.Use(securityHeaders(d.HSTS))
	if d.IngestHost != "" {
		app.Use(ingestOrigin(d.IngestHost))
	}
	app.Use(limitBody)
	app.Use(s.guardLookups)
	app.Get("/healthz", func(c *fiber.Ctx) error { return c.JSON(fiber.Map{"status": "ok"}) })
	app.Get("/readyz", s.readyz)
	if d.MetricsHandler != nil {
		app.Get("/metrics", adaptor.HTTPHandler(d.MetricsHandler))
	} else {
		// Metrics live on their own listener (or nowhere): never the portal.
		app.Get("/metrics", func(c *fiber.Ctx) error { return fiber.ErrNotFound })
	}

	api := app.Group("/api/v1")
	api.Post("/auth/signup", s.signup)
	api.Post("/auth/signup/confirm", s.finishSignup)
	api.Post("/auth/login", s.login)
	api.Post("/auth/logout", s.logout)
	api.Post("/auth/password-reset", s.requestPasswordReset)
	api.Post("/auth/password-reset/confirm", s.confirmPasswordReset)
	api.Post("/auth/invites/accept", s.acceptInvite)
	api.Post("/auth/verify-email", s.verifyEmail)
	api.Get("/me", s.auth(restrictedSession, tenants.RoleViewer), s.me)
	api.Post("/me/password", s.auth(restrictedSession, tenants.RoleViewer), s.changePassword)
	api.Post("/me/verify-email", s.auth(sessionOnly, tenants.RoleViewer), s.sendVerification)
	api.Post("/me/totp", s.auth(restrictedSession, tenants.RoleViewer), s.startTOTP)
	api.Post("/me/totp/confirm", s.auth(restrictedSession, tenants.RoleViewer), s.confirmTOTP)
	api.Get("/me/notifications", s.auth(sessionOnly, tenants.RoleViewer), s.getNotificationPrefs)
	api.Put("/me/notifications", s.auth(sessionOnly, tenants.RoleViewer), s.putNotificationPrefs)

	api.Post("/api-keys", s.auth(sessionOnly, tenants.RoleAdmin), s.createAPIKey)
	api.Get("/api-keys", s.auth(sessionOnly, tenants.RoleViewer), s.listAPIKeys)
	api.Delete("/api-keys/:id", s.auth(sessionOnly, tenants.RoleAdmin), s.revokeAPIKey)

	s.customerRoutes(api)
	s.portalRoutes(api)
	api.Post("/endpoints", s.auth(sessionOrKey, tenants.RoleAdmin), s.createEndpoint)
	api.Get("/endpoints", s.auth(sessionOrKey, tenants.RoleViewer), s.listEndpoints)
	api.Get("/endpoints/:id", s.auth(sessionOrKey, tenants.RoleViewer), s.getEndpoint)
	api.Patch("/endpoints/:id", s.auth(sessionOrKey, tenants.RoleAdmin), s.updateEndpoint)
	api.Delete("/endpoints/:id", s.auth(sessionOrKey, tenants.RoleAdmin), s.deleteEndpoint)
	api.Get("/endpoints/:id/secret", s.auth(sessionOrKey, tenants.RoleAdmin), s.getSecret)
	api.Post("/endpoints/:id/secret/rotate", s.auth(sessionOrKey, tenants.RoleAdmin), s.rotateSecret)
	api.Get("/endpoints/:id/attempts", s.auth(sessionOrKey, tenants.RoleViewer), s.endpointAttempts)
	api.Get("/endpoints/:id/stats", s.auth(sessionOrKey, tenants.RoleViewer), s.endpointStats)
	api.Get("/stats", s.auth(sessionOrKey, tenants.RoleViewer), s.tenantStats)
	api.Post("/endpoints/:id/test-routing", s.auth(sessionOrKey, tenants.RoleViewer), s.testRouting)
	api.Post("/endpoints/:id/test", s.auth(sessionOrKey, tenants.RoleAdmin), s.sendTestEvent)

	api.Post("/events", s.auth(sessionOrKey, tenants.RoleAdmin), s.createEvent)
	api.Get("/events", s.auth(sessionOrKey, tenants.RoleViewer), s.listEvents)
	api.Get("/events/:id", s.auth(sessionOrKey, tenants.RoleViewer), s.getEvent)
	api.Get("/events/:id/attempts", s.auth(sessionOrKey, tenants.RoleViewer), s.eventAttempts)

	api.Post("/events/:id/replay", s.auth(sessionOrKey, tenants.RoleAdmin), s.replayEvent)
	api.Post("/deliveries/:id/replay", s.auth(sessionOrKey, tenants.RoleAdmin), s.replayDelivery)
	api.Post("/replays", s.auth(sessionOrKey, tenants.RoleAdmin), s.createReplay)
	api.Post("/replays/preview", s.auth(sessionOrKey, tenants.RoleAdmin), s.previewReplay)
	api.Get("/replays", s.auth(sessionOrKey, tenants.RoleAdmin), s.listReplays)
	api.Get("/replays/:id", s.auth(sessionOrKey, tenants.RoleAdmin), s.getReplay)
	api.Post("/replays/:id/cancel", s.auth(sessionOrKey, tenants.RoleAdmin), s.cancelReplay)

	api.Get("/members", s.auth(sessionOnly, tenants.RoleViewer), s.listMembers)
	api.Post("/members", s.auth(sessionOnly, tenants.RoleOwner), s.inviteMember)
	api.Post("/members/:id/invite", s.auth(sessionOnly, tenants.RoleOwner), s.resendInvite)
	api.Patch("/members/:id", s.auth(sessionOnly, tenants.RoleOwner), s.updateMember)
	api.Delete("/members/:id", s.auth(sessionOnly, tenants.RoleOwner), s.removeMember)

	staff := s.auth(staffOnly, "")
	api.Get("/staff/tenants", staff, s.staffSearchTenants)
	api.Get("/staff/tenants/:id", staff, s.staffGetTenant)
	api.Get("/staff/tenants/:id/events", staff, s.staffListEvents)
	api.Get("/staff/tenants/:id/events/:event_id", staff, s.staffGetEvent)
	api.Get("/staff/events/:event_id", staff, s.staffLookupEvent)
	api.Post("/staff/tenants/:id/replays", staff, s.staffReplay)
	api.Get("/staff/tenants/:id/replays/:replay_id", staff, s.staffGetReplay)
	api.Post("/staff/tenants/:id/replays/preview", staff, s.staffPreviewReplay)
	api.Get("/staff/tenants/:id/endpoints/:endpoint_id/attempts", staff, s.staffEndpointAttempts)
	api.Get("/staff/audit", staff, s.staffAudit)

	s.billingRoutes(api)
	s.queueRoutes(api)
	s.sourceRoutes(api)
	s.eventTypeRoutes(api)

	api.Get("/openapi.json", s.openAPI)
	api.Get("/openapi-internal.json", s.auth(anySession, tenants.RoleViewer), s.openAPIInternal)

	api.Use(func(c *fiber.Ctx) error { return fiber.ErrNotFound })
	s.ingestRoutes(app)

	if d.Portal != nil {
		s.mountEmbed(app)
		s.mountPortal(app)
	}
	templates.fill(app)
	return app
}

func (s *server) readyz(c *fiber.Ctx) error {
	ctx, cancel := context.WithTimeout(c.UserContext(), 2*time.Second)
	defer cancel()
	if err := s.Ready(ctx); err != nil {
		// The cause (host names, driver messages) goes to the log only:
		// /readyz is often reachable from outside.
		s.Log.WarnContext(ctx, "not ready", "err", err)
		return c.Status(fiber.StatusServiceUnavailable).JSON(fiber.Map{"status": "unavailable"})
	}
	return c.JSON(fiber.Map{"status": "ready"})
}

// mountPortal serves the built frontend (frontend.Dist): hashed files
// under /assets are cached for a year and a missing one is a plain 404
// (never index.html, which a browser would then cache as JavaScript);
// every other path that is not a file gets index.html, uncached, so
// client-side routes such as /events/<id> work on reload and a new
// deploy is picked up at once.
func (s *server) mountPortal(app *fiber.App) {
	app.Use("/assets", func(c *fiber.Ctx) error {
		name := strings.TrimPrefix(c.Path(), "/")
		if _, err := fs.Stat(s.Portal, name); err != nil {
			return c.Status(fiber.StatusNotFound).SendString("not found")
		}
		c.Set(fiber.HeaderCacheControl, "public, max-age=31536000, immutable")
		return c.Next()
	})
	app.Use("/", func(c *fiber.Ctx) error {
		if !strings.HasPrefix(c.Path(), "/assets/") {
			c.Set(fiber.HeaderCacheControl, "no-cache")
		}
		return c.Next()
	})
	app.Get(apiReferencePath, s.apiReference)
	app.Use("/", filesystem.New(filesystem.Config{
		Root:         http.FS(s.Portal),
		Index:        "index.html",
		NotFoundFile: "index.html",
		Next: func(c *fiber.Ctx) bool {
			return strings.HasPrefix(c.Path(), "/api/")
		},
	}))
}

// fiberConfigWithProxies makes c.IP() the client named by X-Forwarded-For
// when the connection comes from one of proxies, and the connection's
// address otherwise.
func fiberConfigWithProxies(cfg fiber.Config, proxies []string) fiber.Config {
	cfg.EnableTrustedProxyCheck = true
	cfg.TrustedProxies = proxies
	cfg.ProxyHeader = fiber.HeaderXForwardedFor
	cfg.EnableIPValidation = true
	return cfg
}

const (
	// requestBodyLimit is the largest request the API accepts: the event
	// payload limit plus headroom for the small envelope around data.
	requestBodyLimit = delivery.MaxPayloadBytes + 4<<10
	// readBodyLimit is how much fasthttp reads before giving up on a
	// request; beyond it the connection is closed unread.
	readBodyLimit = 4 << 20
)

// errBodyTooLarge is the 413 for a request body over requestBodyLimit. It
// names the payload limit, the one a client can act on.
func errBodyTooLarge() *ferry.Error {
	return &ferry.Error{Code: ferry.ETOOLARGE, Message: "request body exceeds " + ferry.FormatBytes(delivery.MaxPayloadBytes)}
}

// limitBody refuses request bodies over requestBodyLimit with 413, but
// for ingest URLs, whose limit is inbound.MaxBodyBytes (checked by
// inbound.Receive).
func limitBody(c *fiber.Ctx) error {
	if len(c.Request().Body()) > requestBodyLimit && !isIngest(c) {
		return errBodyTooLarge()
	}
	return c.Next()
}
