package httpapi

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery/queue"
	"github.com/ferry-dev/ferry/tenants"
)

// QueueService serves pull queues and their consumer tokens
// (queues.go, queuestream.go). It is satisfied by *queue.Service.
type QueueService interface {
	// Authenticate returns the scope of a live consumer token. Errors:
	// EUNAUTHORIZED, wrapped database errors.
	Authenticate(ctx context.Context, tok string) (queue.Scope, error)
	// Pull leases due messages, waiting up to in.WaitSeconds. Errors:
	// EINVALID, ENOTFOUND, ERATELIMIT, wrapped database errors.
	Pull(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.PullInput) ([]queue.Message, error)
	// Ack settles leases as delivered. Errors: EINVALID, ENOTFOUND.
	Ack(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.AckInput) ([]queue.ReceiptResult, error)
	// Nack settles leases as failed. Errors: EINVALID, ENOTFOUND.
	Nack(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.NackInput) ([]queue.ReceiptResult, error)
	// Reject settles leases as refused. Errors: EINVALID, ENOTFOUND.
	Reject(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.RejectInput) ([]queue.ReceiptResult, error)
	// Stats returns the queue's counts. Errors: ENOTFOUND, wrapped
	// database errors.
	Stats(ctx context.Context, tenantID, endpointID uuid.UUID) (queue.Stats, error)
	// OpenStream opens a stream of the queue's messages; the caller
	// closes it. Errors: EINVALID, ENOTFOUND, ERATELIMIT.
	OpenStream(ctx context.Context, tenantID, endpointID uuid.UUID, visibilitySeconds int) (*queue.Stream, error)
	// Done is closed once the service stops; streams end then.
	Done() <-chan struct{}
	// CreateToken issues a consumer token and returns it with its
	// secret. Errors: EINVALID, ENOTFOUND.
	CreateToken(ctx context.Context, tenantID, endpointID uuid.UUID, in queue.TokenInput) (queue.ConsumerToken, string, error)
	// Tokens lists the queue's consumer tokens. Errors: ENOTFOUND.
	Tokens(ctx context.Context, tenantID, endpointID uuid.UUID) ([]queue.ConsumerToken, error)
	// RevokeToken revokes one consumer token. Errors: ENOTFOUND.
	RevokeToken(ctx context.Context, tenantID, endpointID, tokenID uuid.UUID) error
}

// queueRoutes registers the pull queue API: consumers lease, settle and
// stream a queue endpoint's messages with an API key of its tenant or a
// consumer token of that queue; admins manage consumer tokens.
func (s *server) queueRoutes(api fiber.Router) {
	consume := s.queueAuth(queueConsumeRole)
	api.Get("/queues/:endpoint_id", s.queueAuth(tenants.RoleViewer), s.queueStats)
	api.Post("/queues/:endpoint_id/pull", consume, s.queuePull)
	api.Post("/queues/:endpoint_id/ack", consume, s.queueAck)
	api.Post("/queues/:endpoint_id/nack", consume, s.queueNack)
	api.Post("/queues/:endpoint_id/reject", consume, s.queueReject)
	api.Get("/queues/:endpoint_id/stream", consume, s.queueStream)

	admin := s.auth(sessionOrKey, tenants.RoleAdmin)
	api.Post("/endpoints/:id/consumer-tokens", admin, s.createConsumerToken)
	api.Get("/endpoints/:id/consumer-tokens", admin, s.listConsumerTokens)
	api.Delete("/endpoints/:id/consumer-tokens/:token_id", admin, s.revokeConsumerToken)
}

// queueConsumeRole is the role that consumes a queue (pull, settle,
// stream) with a session or an API key.
const queueConsumeRole = tenants.RoleAdmin

// queueAuth accepts a consumer token on its own queue's routes (another
// queue is not found), and otherwise what every tenant route accepts.
func (s *server) queueAuth(minRole tenants.Role) fiber.Handler {
	tenantAuth := s.auth(sessionOrKey, minRole)
	return func(c *fiber.Ctx) error {
		tok, ok := strings.CutPrefix(c.Get(fiber.HeaderAuthorization), "Bearer ")
		tok = strings.TrimSpace(tok)
		if !ok || !queue.LooksLikeToken(tok) {
			return tenantAuth(c)
		}
		scope, err := s.Queues.Authenticate(c.UserContext(), tok)
		if err != nil {
			return err
		}
		if id, err := uuid.Parse(c.Params("endpoint_id")); err != nil || id != scope.EndpointID {
			return ferry.NotFound("queue")
		}
		if err := s.limiter.admit(c, scope.TenantID); err != nil {
			return err
		}
		c.Locals(principalKey, tenants.Principal{TenantID: scope.TenantID, Role: tenants.RoleAdmin})
		return c.Next()
	}
}

// queueID parses :endpoint_id; a malformed id is simply not found.
func queueID(c *fiber.Ctx) (uuid.UUID, error) {
	id, err := uuid.Parse(c.Params("endpoint_id"))
	if err != nil {
		return uuid.Nil, ferry.NotFound("queue")
	}
	return id, nil
}

// pulled answers a pull.
type pulled struct {
	Data []queue.Message `json:"data" nullable:"false"` // the leased messages; empty when none came within wait_seconds
}

// MarshalJSON sends no messages as [], never null.
func (p pulled) MarshalJSON() ([]byte, error) {
	if p.Data == nil {
		p.Data = []queue.Message{}
	}
	type plain pulled
	return json.Marshal(plain(p))
}

// settled answers ack, nack and reject: one result per receipt, in order.
type settled struct {
	Data []queue.ReceiptResult `json:"data" nullable:"false"` // one result per receipt, in the order sent
}

// MarshalJSON sends no results as [], never null.
func (r settled) MarshalJSON() ([]byte, error) {
	if r.Data == nil {
		r.Data = []queue.ReceiptResult{}
	}
	type plain settled
	return json.Marshal(plain(r))
}

func (s *server) queuePull(c *fiber.Ctx) error {
	id, err := queueID(c)
	if err != nil {
		return err
	}
	var in queue.PullInput
	if len(c.Body()) > 0 {
		if err := decode(c, &in); err != nil {
			return err
		}
	}
	ctx := c.UserContext()
	if in.WaitSeconds != nil && *in.WaitSeconds > 0 {
		// A long-poll whose client hangs up leases nothing more, and
		// hands back what it leased meanwhile.
		var stop func()
		ctx, stop = watchClient(ctx, c.Context().Conn())
		defer stop()
	}
	msgs, err := s.Queues.Pull(ctx, principal(c).TenantID, id, in)
	if err != nil {
		return err
	}
	return c.JSON(pulled{Data: msgs})
}

func (s *server) queueAck(c *fiber.Ctx) error {
	id, err := queueID(c)
	if err != nil {
		return err
	}
	var in queue.AckInput
	if err := decode(c, &in); err != nil {
		return err
	}
	res, err := s.Queues.Ack(c.UserContext(), principal(c).TenantID, id, in)
	if err != nil {
		return err
	}
	return c.JSON(settled{Data: res})
}

func (s *server) queueNack(c *fiber.Ctx) error {
	id, err := queueID(c)
	if err != nil {
		return err
	}
	var in queue.NackInput
	if err := decode(c, &in); err != nil {
		return err
	}
	res, err := s.Queues.Nack(c.UserContext(), principal(c).TenantID, id, in)
	if err != nil {
		return err
	}
	return c.JSON(settled{Data: res})
}

func (s *server) queueReject(c *fiber.Ctx) error {
	id, err := queueID(c)
	if err != nil {
		return err
	}
	var in queue.RejectInput
	if err := decode(c, &in); err != nil {
		return err
	}
	res, err := s.Queues.Reject(c.UserContext(), principal(c).TenantID, id, in)
	if err != nil {
		return err
	}
	return c.JSON(settled{Data: res})
}

func (s *server) queueStats(c *fiber.Ctx) error {
	id, err := queueID(c)
	if err != nil {
		return err
	}
	st, err := s.Queues.Stats(c.UserContext(), principal(c).TenantID, id)
	if err != nil {
		return err
	}
	return c.JSON(st)
}

// consumerTokenCreated answers POST /endpoints/{id}/consumer-tokens.
type consumerTokenCreated struct {
	queue.ConsumerToken
	Token string `json:"token" description:"fqc_ consumer token, shown only now"`
}

func (s *server) createConsumerToken(c *fiber.Ctx) error {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return err
	}
	var in queue.TokenInput
	if err := decode(c, &in); err != nil {
		return err
	}
	t, tok, err := s.Queues.CreateToken(c.UserContext(), principal(c).TenantID, id, in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(consumerTokenCreated{ConsumerToken: t, Token: tok})
}

func (s *server) listConsumerTokens(c *fiber.Ctx) error {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return err
	}
	ts, err := s.Queues.Tokens(c.UserContext(), principal(c).TenantID, id)
	if err != nil {
		return err
	}
	return c.JSON(newList(ts, ""))
}

func (s *server) revokeConsumerToken(c *fiber.Ctx) error {
	id, err := pathID(c, "endpoint")
	if err != nil {
		return err
	}
	tokenID, err := uuid.Parse(c.Params("token_id"))
	if err != nil {
		return ferry.NotFound("consumer token")
	}
	if err := s.Queues.RevokeToken(c.UserContext(), principal(c).TenantID, id, tokenID); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
