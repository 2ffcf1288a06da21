package delivery

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/internal/pgval"
	"github.com/ferry-dev/ferry/page"
)

type attemptRow struct {
	ID              uuid.UUID
	DeliveryID      uuid.UUID
	EventID         uuid.UUID
	EndpointID      uuid.UUID
	AttemptNumber   int
	Trigger         string
	Actor           string
	StartedAt       time.Time
	DurationMs      int
	RequestHeaders  pgval.JSON[http.Header]
	ResponseStatus  *int
	ResponseHeaders pgval.JSON[http.Header]
	ResponseBody    string
	ErrorClass      string
	ErrorMessage    string
	Outcome         string
	NextAttemptAt   *time.Time
	// Truncation marks (see Attempt).
	ResponseHeadersTruncated bool
	ResponseBodyTruncated    bool
}

func (r attemptRow) attempt() model.Attempt {
	return model.Attempt{
		ID: r.ID, DeliveryID: r.DeliveryID, EventID: r.EventID, EndpointID: r.EndpointID,
		AttemptNumber: r.AttemptNumber, Trigger: model.Trigger(r.Trigger), Actor: r.Actor, StartedAt: r.StartedAt,
		DurationMs: r.DurationMs, RequestHeaders: r.RequestHeaders.V, ResponseStatus: r.ResponseStatus,
		ResponseHeaders: r.ResponseHeaders.V, ResponseBody: r.ResponseBody, ErrorClass: r.ErrorClass,
		ErrorMessage: r.ErrorMessage, Outcome: model.Outcome(r.Outcome), NextAttemptAt: r.NextAttemptAt,
		ResponseHeadersTruncated: r.ResponseHeadersTruncated, ResponseBodyTruncated: r.ResponseBodyTruncated,
	}
}

const attemptColumns = `id, delivery_id, event_id, endpoint_id, attempt_number, trigger, actor, started_at,
	duration_ms, request_headers, response_status, response_headers, response_body, error_class,
	error_message, outcome, next_attempt_at, response_headers_truncated, response_body_truncated`

// EventAttempts lists every attempt of one event, oldest first.
// Errors: ENOTFOUND.
func (s *Service) EventAttempts(ctx context.Context, tenantID, eventID uuid.UUID) ([]model.Attempt, error) {
	var exists bool
	if err := s.db.WithContext(ctx).Raw(`SELECT EXISTS (SELECT 1 FROM events WHERE id = ? AND tenant_id = ?)`,
		eventID, tenantID).Scan(&exists).Error; err != nil {
		return nil, fmt.Errorf("check event: %w", err)
	}
	if !exists {
		return nil, ferry.NotFound("event")
	}
	cutoff, err := s.attemptCutoff(ctx, tenantID)
	if err != nil {
		return nil, err
	}
	var rows []attemptRow
	if err := s.db.WithContext(ctx).Raw(`SELECT `+attemptColumns+` FROM attempts
		WHERE tenant_id = ? AND event_id = ? AND started_at >= ? ORDER BY started_at, attempt_number`, tenantID, eventID, cutoff).
		Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("list attempts of event %s: %w", eventID, err)
	}
	out := make([]model.Attempt, len(rows))
	for i, r := range rows {
		out[i] = r.attempt()
	}
	return out, nil
}

// EndpointAttempts lists an endpoint's attempts, newest first, optionally
// only those with one outcome. Errors: ENOTFOUND, EINVALID.
func (s *Service) EndpointAttempts(ctx context.Context, tenantID, endpointID uuid.UUID, outcome string, pg page.Request) ([]model.Attempt, string, error) {
	if _, err := s.Endpoint(ctx, tenantID, endpointID); err != nil {
		return nil, "", err
	}
	switch model.Outcome(outcome) {
	case "", model.OutcomeSuccess, model.OutcomeRetry, model.OutcomeDropped:
	default:
		return nil, "", ferry.Invalid("outcome", "outcome must be success, retry or dropped")
	}
	cur, err := page.DecodeAt(pg.Cursor)
	if err != nil {
		return nil, "", err
	}
	cutoff, err := s.attemptCutoff(ctx, tenantID)
	if err != nil {
		return nil, "", err
	}
	var rows []attemptRow
	if err := s.db.WithContext(ctx).Raw(`SELECT `+attemptColumns+` FROM attempts
		WHERE tenant_id = ? AND endpoint_id = ? AND started_at >= ? AND (? = '' OR outcome = ?)
		AND (?::timestamptz IS NULL OR (started_at, id) < (?, ?))
		ORDER BY started_at DESC, id DESC LIMIT ?`,
		tenantID, endpointID, cutoff, outcome, outcome, cur.AtPtr(), cur.At, cur.ID, pg.Size()+1).
		Scan(&rows).Error; err != nil {
		return nil, "", fmt.Errorf("list attempts of endpoint %s: %w", endpointID, err)
	}
	out := make([]model.Attempt, len(rows))
	for i, r := range rows {
		out[i] = r.attempt()
	}
	out, next := page.Trim(out, pg.Size(), func(a model.Attempt) page.Cursor { return page.Cursor{At: a.StartedAt, ID: a.ID} })
	return out, next, nil
}

// attemptCutoff is the oldest attempt time the tenant's plan shows; the
// zero time when no retention applies.
func (s *Service) attemptCutoff(ctx context.Context, tenantID uuid.UUID) (time.Time, error) {
	if s.limits == nil {
		return time.Time{}, nil
	}
	d, err := s.limits.AttemptRetention(ctx, tenantID)
	if err != nil {
		return time.Time{}, fmt.Errorf("attempt retention of tenant %s: %w", tenantID, err)
	}
	if d <= 0 {
		return time.Time{}, nil
	}
	return s.now().Add(-d).UTC(), nil
}
