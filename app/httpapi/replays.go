package httpapi

import (
	"bytes"
	"context"
	"time"

	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/delivery/replay"
	"github.com/ferry-dev/ferry/page"
)

// ReplayService replays deliveries, one or in bulk (/replays and the
// replay routes of events and deliveries). It is satisfied by
// *delivery.Service.
type ReplayService interface {
	// ReplayEvent replays one event to its deliveries, or to endpointID
	// only. Errors: ENOTFOUND, EINVALID, ERATELIMIT, EQUOTA.
	ReplayEvent(ctx context.Context, tenantID, eventID uuid.UUID, endpointID *uuid.UUID, actor string) (replay.ReplayResult, error)
	// ReplayDelivery replays one delivery. Errors: ENOTFOUND, EINVALID,
	// ERATELIMIT, EQUOTA.
	ReplayDelivery(ctx context.Context, tenantID, deliveryID uuid.UUID, actor string) (replay.ReplayResult, error)
	// CreateReplayJob queues a bulk replay of the deliveries f matches.
	// Errors: EINVALID, ENOTFOUND (endpoint), EREPLAYLIMIT.
	CreateReplayJob(ctx context.Context, tenantID uuid.UUID, f replay.ReplayFilter, actor, reason string) (replay.ReplayJob, error)
	// PreviewReplay counts the deliveries a bulk replay with f would
	// re-send. Errors: EINVALID, ENOTFOUND (endpoint).
	PreviewReplay(ctx context.Context, tenantID uuid.UUID, f replay.ReplayFilter) (replay.ReplayPreview, error)
	// ListReplayJobs returns a page of the tenant's replay jobs and the
	// next cursor.
	ListReplayJobs(ctx context.Context, tenantID uuid.UUID, pg page.Request) ([]replay.ReplayJob, string, error)
	// ReplayJob returns one replay job. Errors: ENOTFOUND.
	ReplayJob(ctx context.Context, tenantID, id uuid.UUID) (replay.ReplayJob, error)
	// CancelReplayJob stops a queued or running job. Errors: ENOTFOUND.
	CancelReplayJob(ctx context.Context, tenantID, id uuid.UUID) (replay.ReplayJob, error)
}

// The bodies of the replay routes. Ids and times are strings so that a
// malformed one gets a 422 naming its field.

// replayEventInput is the optional body of POST /events/{id}/replay.
type replayEventInput struct {
	EndpointID string `json:"endpoint_id" format:"uuid" description:"replay to this endpoint only"`
}

// bulkReplayInput is the optional body of POST /replays: which
// deliveries to replay. Every field is optional.
type bulkReplayInput struct {
	EndpointID string       `json:"endpoint_id" format:"uuid"` // only deliveries to this endpoint
	EventType  string       `json:"event_type" description:"only events of this type"`
	Since      string       `json:"since" format:"date-time"` // only events created at or after
	Until      string       `json:"until" format:"date-time" description:"default: when the job is created"`
	Status     model.Status `json:"status" description:"only deliveries in this status"`
}

// staffReplayInput is the body of POST /staff/tenants/{id}/replays: one
// event (optionally to one endpoint), one delivery, or in bulk by the
// filters of bulkReplayInput.
type staffReplayInput struct {
	bulkReplayInput
	Reason     string `json:"reason" required:"true" description:"why (audited)"`
	EventID    string `json:"event_id" format:"uuid"`    // replay this event (to endpoint_id only, when given)
	DeliveryID string `json:"delivery_id" format:"uuid"` // replay this delivery
}

// decodeOptional is decode for routes whose body may be empty.
func decodeOptional(c *fiber.Ctx, v any) error {
	if len(bytes.TrimSpace(c.Body())) == 0 {
		return nil
	}
	return decode(c, v)
}

func optionalUUID(field, v string) (*uuid.UUID, error) {
	if v == "" {
		return nil, nil
	}
	id, err := uuid.Parse(v)
	if err != nil {
		return nil, ferry.Invalid(field, "%s must be a UUID", field)
	}
	return &id, nil
}

func optionalTime(field, v string) (*time.Time, error) {
	if v == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return nil, ferry.Invalid(field, "%s must be an RFC 3339 time such as 2026-11-22T05:23:08Z", field)
	}
	return &t, nil
}

// decodeReplayFilter reads an optional bulk replay body as its filter.
func decodeReplayFilter(c *fiber.Ctx) (replay.ReplayFilter, error) {
	var in bulkReplayInput
	if err := decodeOptional(c, &in); err != nil {
		return replay.ReplayFilter{}, err
	}
	return in.filter()
}

func (in bulkReplayInput) filter() (replay.ReplayFilter, error) {
	f := replay.ReplayFilter{EventType: in.EventType, Status: string(in.Status)}
	var err error
	if f.EndpointID, err = optionalUUID("endpoint_id", in.EndpointID); err != nil {
		return f, err
	}
	if f.Since, err = optionalTime("since", in.Since); err != nil {
		return f, err
	}
	if f.Until, err = optionalTime("until", in.Until); err != nil {
		return f, err
	}
	return f, nil
}

func (s *server) replayEvent(c *fiber.Ctx) error {
	id, err := pathID(c, "event")
	if err != nil {
		return err
	}
	var in replayEventInput
	if err := decodeOptional(c, &in); err != nil {
		return err
	}
	endpointID, err := optionalUUID("endpoint_id", in.EndpointID)
	if err != nil {
		return err
	}
	p := principal(c)
	res, err := s.Replays.ReplayEvent(c.UserContext(), p.TenantID, id, endpointID, p.Actor())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(res)
}

func (s *server) replayDelivery(c *fiber.Ctx) error {
	id, err := pathID(c, "delivery")
	if err != nil {
		return err
	}
	p := principal(c)
	res, err := s.Replays.ReplayDelivery(c.UserContext(), p.TenantID, id, p.Actor())
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(res)
}

func (s *server) createReplay(c *fiber.Ctx) error {
	f, err := decodeReplayFilter(c)
	if err != nil {
		return err
	}
	p := principal(c)
	job, err := s.Replays.CreateReplayJob(c.UserContext(), p.TenantID, f, p.Actor(), "")
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusAccepted).JSON(job)
}

// previewReplay: POST /replays/preview, how many deliveries POST /replays
// with the same body would re-send now; nothing is started.
func (s *server) previewReplay(c *fiber.Ctx) error {
	f, err := decodeReplayFilter(c)
	if err != nil {
		return err
	}
	res, err := s.Replays.PreviewReplay(c.UserContext(), principal(c).TenantID, f)
	if err != nil {
		return err
	}
	return c.JSON(res)
}

func (s *server) listReplays(c *fiber.Ctx) error {
	pg, err := pageRequest(c)
	if err != nil {
		return err
	}
	jobs, next, err := s.Replays.ListReplayJobs(c.UserContext(), principal(c).TenantID, pg)
	if err != nil {
		return err
	}
	return c.JSON(newList(jobs, next))
}

func (s *server) getReplay(c *fiber.Ctx) error {
	id, err := pathID(c, "replay")
	if err != nil {
		return err
	}
	job, err := s.Replays.ReplayJob(c.UserContext(), principal(c).TenantID, id)
	if err != nil {
		return err
	}
	return c.JSON(job)
}

func (s *server) cancelReplay(c *fiber.Ctx) error {
	id, err := pathID(c, "replay")
	if err != nil {
		return err
	}
	job, err := s.Replays.CancelReplayJob(c.UserContext(), principal(c).TenantID, id)
	if err != nil {
		return err
	}
	return c.JSON(job)
}
