package inbound

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/internal/pgval"
	"github.com/ferry-dev/ferry/internal/rowid"
)

// Incoming is one request to an ingest URL, as received.
type Incoming struct {
	Token  string
	Method string
	// Path is the request path with the token written as {token}, so a
	// capture never reveals it.
	Path     string
	RawQuery string
	Header   http.Header
	// Body is the exact body bytes (not decompressed or decoded).
	Body []byte
}

// Answer is what to send back to the provider.
type Answer struct {
	Status      int
	ContentType string
	Body        []byte
}

// defaultAnswer is what a source without a custom response answers.
var defaultAnswer = Answer{Status: http.StatusOK, ContentType: "application/json", Body: []byte("{}")}

// requestRow is a row of source_requests: one captured request.
type requestRow struct {
	ID          uuid.UUID `gorm:"primaryKey"`
	TenantID    uuid.UUID
	SourceID    uuid.UUID
	ReceivedAt  time.Time
	Method      string
	Path        string
	Query       string
	Headers     pgval.JSON[http.Header] `gorm:"type:jsonb"`
	ContentType string
	Body        []byte
	Status      Status
	Reason      string
	DedupeKey   *string
	EventID     *uuid.UUID
}

func (requestRow) TableName() string { return "source_requests" }

// Receive handles one request to an ingest URL: it finds the source by
// token, verifies the request, applies the source's rate limit and
// captures it before answering; a verified capture becomes an event
// (unless it is a duplicate) once it has committed (group.go). Nothing
// is answered 2xx unless its capture committed.
// Errors: ENOTFOUND (unknown or disabled token), ETOOLARGE, ERATELIMIT
// (with RetryAfterSeconds), EUNAUTHORIZED (verification failed; the
// request is captured as rejected within the per-minute cap),
// EBADREQUEST (GET without a handshake), and wrapped database errors
// (the HTTP layer answers 503).
func (s *Service) Receive(ctx context.Context, in Incoming) (_ Answer, err error) {
	ctx, span := s.startCapture(ctx)
	var capture requestRow
	defer func() { endCapture(span, capture, err) }()
	if len(in.Body) > MaxBodyBytes {
		return Answer{}, &ferry.Error{Code: ferry.ETOOLARGE, Message: "request body exceeds " + ferry.FormatBytes(MaxBodyBytes)}
	}
	src, err := s.lookup(ctx, in.Token)
	if err != nil {
		return Answer{}, err
	}
	if !src.found {
		return Answer{}, ferry.NotFound("source")
	}
	if in.Method == http.MethodGet || in.Method == http.MethodHead {
		return handshake(in)
	}
	now := s.clock.Now().UTC()
	capture = requestRow{ID: rowid.New(), TenantID: src.row.TenantID, SourceID: src.row.ID, ReceivedAt: now.Truncate(time.Microsecond),
		Method: in.Method, Path: in.Path, Query: in.RawQuery, Headers: pgval.JSON[http.Header]{V: storedHeaders(in.Header, src.row.Verification.V)},
		ContentType: in.Header.Get("Content-Type"), Body: in.Body}
	if capture.Body == nil {
		capture.Body = []byte{}
	}
	if reason := verifyRequest(src.row.Verification.V, src.secret, in.Header, in.Body, now); reason != "" {
		return Answer{}, s.reject(ctx, capture, reason, now)
	}
	size := captureSize(capture)
	if err := s.quota.allow(ctx, capture.TenantID, size, now); err != nil {
		return Answer{}, err
	}
	// Only authentic requests count against the source's rate, so a flood
	// of forged ones (capped on its own) cannot crowd out the provider.
	if _, wait := s.rate.Take(ctx, src.row.ID.String(), src.row.RateLimitPerSecond); wait > 0 {
		return Answer{}, &ferry.Error{Code: ferry.ERATELIMIT, RetryAfterSeconds: max(1, int(math.Ceil(wait.Seconds()))),
			Message: fmt.Sprintf("this source accepts %d requests per second; retry later", src.row.RateLimitPerSecond)}
	}
	doc, compact, isJSON := decodeJSON(in.Body)
	if ch, ok := slackChallenge(doc, isJSON); ok {
		// Slack's url_verification: answered with its challenge, and
		// captured, but it is no event.
		capture.Status, capture.Reason = StatusVerified, "url_verification handshake"
		if err := s.db.WithContext(ctx).Create(&capture).Error; err != nil {
			return Answer{}, fmt.Errorf("capture request: %w", err)
		}
		s.quota.record(capture.TenantID, size)
		b, _ := json.Marshal(map[string]string{"challenge": ch}) // cannot fail
		return Answer{Status: http.StatusOK, ContentType: "application/json", Body: b}, nil
	}
	if key := dedupeKey(src.row.Dedupe.V, in.Header, doc, isJSON); key != "" {
		capture.DedupeKey = &key
	}
	ev := s.eventInputFrom(src.row.EventType.V, capture, doc, compact, isJSON)
	ev.Trace = span.SpanContext()
	if err := s.checkSchema(ctx, capture.TenantID, ev); err != nil {
		// Data its type's schema refuses is kept, not forwarded, and the
		// provider is answered as for any capture: resending would not
		// change it. The tenant sees why, and replays it once the schema
		// or the type allows. The check runs here, on the request's own
		// time, so that a costly schema slows only its tenant's requests.
		fe, ok := errors.AsType[*ferry.Error](err)
		if !ok || fe.Code != ferry.EINVALID {
			return Answer{}, err
		}
		capture.Status, capture.Reason = StatusRefused, schemaRefusal(fe)
		if err := s.db.WithContext(ctx).Create(&capture).Error; err != nil {
			return Answer{}, fmt.Errorf("capture request: %w", err)
		}
		s.quota.record(capture.TenantID, size)
		return s.answer(src.row), nil
	}
	if err := s.captureVerified(ctx, capture, ev); err != nil {
		return Answer{}, err
	}
	s.quota.record(capture.TenantID, size)
	return s.answer(src.row), nil
}

// checkSchema checks ev's data against its type's schema in the
// tenant's event-type catalog. Errors: EINVALID naming the failing path
// when the type rejects data that does not match, wrapped database
// errors.
func (s *Service) checkSchema(ctx context.Context, tenantID uuid.UUID, ev EventInput) error {
	if s.schemas == nil {
		return nil
	}
	_, err := s.schemas.Check(ctx, tenantID, ev.Type, ev.Data)
	return err
}

// schemaRefusal is the reason kept with a capture whose event's data its
// type's schema refused.
func schemaRefusal(e *ferry.Error) string {
	return fmt.Sprintf("the event's data does not match its type's schema at %s: %s", e.Field, e.Message)
}

// answer is the source's response to an accepted request.
func (s *Service) answer(row sourceRow) Answer {
	r := row.Response.V
	if r == nil {
		return defaultAnswer
	}
	return Answer{Status: r.Status, ContentType: answerType(r.ContentType), Body: []byte(r.Body)}
}

// maxRejectedBody is how much of a rejected request's body is stored.
const maxRejectedBody = 64 << 10

// reject captures a request that failed verification (unless the
// source's cap on stored rejections is reached: then it is only
// counted) and returns the 401 to answer.
func (s *Service) reject(ctx context.Context, capture requestRow, reason string, now time.Time) error {
	// A forged request is kept to show why it failed, not to be
	// forwarded: the start of its body is enough for that.
	if n := len(capture.Body); n > maxRejectedBody {
		capture.Body = capture.Body[:maxRejectedBody]
		reason += fmt.Sprintf(" (body cut to its first %s of %s)", ferry.FormatBytes(maxRejectedBody), ferry.FormatBytes(n))
	}
	size := captureSize(capture)
	// A rejected request past the month's bytes is counted, not stored,
	// as one past the per-minute cap is.
	if s.quota.allow(ctx, capture.TenantID, size, now) == nil && s.limiters.storeRejected(capture.SourceID, now) {
		capture.Status, capture.Reason = StatusRejected, reason
		if err := s.db.WithContext(ctx).Create(&capture).Error; err != nil {
			return fmt.Errorf("capture rejected request: %w", err)
		}
		s.quota.record(capture.TenantID, size)
	}
	return &ferry.Error{Code: ferry.EUNAUTHORIZED, Message: "request verification failed"}
}

// handshake answers the GET some providers send to confirm a URL
// (Meta-style hub.challenge, echoed as text). The token itself is the
// secret that proves the URL is the tenant's, so no other check applies.
func handshake(in Incoming) (Answer, error) {
	q := requestInfo(in.Method, in.Path, in.RawQuery, nil).Query
	if ch, ok := q["hub.challenge"]; ok {
		return Answer{Status: http.StatusOK, ContentType: "text/plain; charset=utf-8", Body: []byte(ch)}, nil
	}
	return Answer{}, &ferry.Error{Code: ferry.EBADREQUEST, Message: "send webhooks with POST; GET answers only a hub.challenge handshake"}
}

// slackChallenge recognises Slack's url_verification request.
func slackChallenge(doc any, isJSON bool) (string, bool) {
	if !isJSON {
		return "", false
	}
	m, ok := doc.(map[string]any)
	if !ok || m["type"] != "url_verification" {
		return "", false
	}
	ch, ok := m["challenge"].(string)
	return ch, ok
}

// eventInput is the event capture r of a source with rule becomes.
func (s *Service) eventInput(rule EventTypeRule, r requestRow) EventInput {
	doc, compact, isJSON := decodeJSON(r.Body)
	return s.eventInputFrom(rule, r, doc, compact, isJSON)
}

// eventInputFrom is eventInput for a body already decoded.
func (s *Service) eventInputFrom(rule EventTypeRule, r requestRow, doc any, compact []byte, isJSON bool) EventInput {
	return EventInput{
		Type:        eventType(rule, r.Headers.V, doc, isJSON, s.events.ValidEventType),
		Data:        eventData(compact, isJSON, r.Body),
		Body:        r.Body,
		ContentType: r.ContentType,
		Request:     requestInfo(r.Method, r.Path, r.Query, r.Headers.V),
	}
}
