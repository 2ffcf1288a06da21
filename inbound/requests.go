package inbound

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/page"
)

// Request is a captured request as lists show it.
type Request struct {
	ID          uuid.UUID `json:"id"`          // the captured request's id
	SourceID    uuid.UUID `json:"source_id"`   // the source that captured it
	ReceivedAt  time.Time `json:"received_at"` // when it arrived
	Method      string    `json:"method"`      // the HTTP method
	Path        string    `json:"path"`
	Query       string    `json:"query"`
	ContentType string    `json:"content_type"` // its Content-Type header
	BodySize    int       `json:"body_size"`    // the body size in bytes
	Status      Status    `json:"status"`       // received, verified, rejected, duplicate or refused
	// Reason says why a request was rejected or is a duplicate.
	Reason    string     `json:"reason"`
	DedupeKey *string    `json:"dedupe_key"`
	EventID   *uuid.UUID `json:"event_id"`
}

// RequestDetail is a whole captured request.
type RequestDetail struct {
	Request
	// Headers as received (names canonicalised).
	Headers http.Header `json:"headers"`
	// BodyBase64 is the exact body.
	BodyBase64 string `json:"body_base64"`
	// BodyText is the body as text when it is valid UTF-8, else null.
	BodyText *string `json:"body_text"`
}

// ReplayResult is the event a replayed request became.
type ReplayResult struct {
	RequestID uuid.UUID `json:"request_id"` // the captured request replayed
	EventID   uuid.UUID `json:"event_id"`   // the new event it became
}

// requestListColumns leave out headers and body, which lists do not
// show; pending comes from the join with source_requests_pending.
const requestListColumns = `r.id, r.tenant_id, r.source_id, r.received_at, r.method, r.path, r.query, r.content_type,
	octet_length(r.body) AS body_size, r.status, r.reason, r.dedupe_key, r.event_id, p.request_id IS NOT NULL AS pending`

// requestListRow is a list's row: requestRow without headers and body.
type requestListRow struct {
	ID          uuid.UUID
	TenantID    uuid.UUID
	SourceID    uuid.UUID
	ReceivedAt  time.Time
	Method      string
	Path        string
	Query       string
	ContentType string
	BodySize    int
	Status      Status
	Reason      string
	DedupeKey   *string
	EventID     *uuid.UUID
	Pending     bool
}

// shown is what the API shows of a capture stored with status and
// eventID: one whose event is still pending is received, with no event
// yet.
func shown(status Status, eventID *uuid.UUID, pending bool) (Status, *uuid.UUID) {
	if pending {
		return StatusReceived, nil
	}
	return status, eventID
}

func (r requestRow) view(size int) Request {
	return Request{ID: r.ID, SourceID: r.SourceID, ReceivedAt: r.ReceivedAt, Method: r.Method, Path: r.Path, Query: r.Query,
		ContentType: r.ContentType, BodySize: size, Status: r.Status, Reason: r.Reason, DedupeKey: r.DedupeKey, EventID: r.EventID}
}

// ListRequests returns a page of a source's captured requests, newest
// first, optionally only those with status. Errors: ENOTFOUND, EINVALID.
func (s *Service) ListRequests(ctx context.Context, tenantID, sourceID uuid.UUID, status string, pg page.Request) ([]Request, string, error) {
	switch Status(status) {
	case "", StatusReceived, StatusVerified, StatusRejected, StatusDuplicate, StatusRefused:
	default:
		return nil, "", ferry.Invalid("status", "status must be received, verified, rejected, duplicate or refused")
	}
	cur, err := page.DecodeAt(pg.Cursor)
	if err != nil {
		return nil, "", err
	}
	if _, err := s.sourceRow(ctx, tenantID, sourceID); err != nil {
		return nil, "", err
	}
	since, err := s.visibleSince(ctx, tenantID)
	if err != nil {
		return nil, "", err
	}
	q := s.db.WithContext(ctx).Table("source_requests r").Select(requestListColumns).
		Joins("LEFT JOIN source_requests_pending p ON p.request_id = r.id").
		Where("r.tenant_id = ? AND r.source_id = ? AND r.received_at >= ?", tenantID, sourceID, since)
	switch Status(status) {
	case "":
	case StatusReceived:
		q = q.Where("p.request_id IS NOT NULL")
	case StatusVerified:
		q = q.Where("r.status = ? AND p.request_id IS NULL", status)
	default:
		// The constant list is source_requests_outcome_idx's predicate:
		// with it, even a plan made for any status uses that index.
		q = q.Where("r.status IN ('rejected', 'duplicate', 'refused') AND r.status = ?", status)
	}
	if cur.AtPtr() != nil {
		q = q.Where("(r.received_at, r.id) < (?, ?)", cur.At, cur.ID)
	}
	var rows []requestListRow
	if err := q.Order("r.received_at DESC, r.id DESC").Limit(pg.Size() + 1).Scan(&rows).Error; err != nil {
		return nil, "", fmt.Errorf("list requests of source %s: %w", sourceID, err)
	}
	out := make([]Request, len(rows))
	for i, r := range rows {
		status, eventID := shown(r.Status, r.EventID, r.Pending)
		out[i] = Request{ID: r.ID, SourceID: r.SourceID, ReceivedAt: r.ReceivedAt, Method: r.Method, Path: r.Path, Query: r.Query,
			ContentType: r.ContentType, BodySize: r.BodySize, Status: status, Reason: r.Reason, DedupeKey: r.DedupeKey, EventID: eventID}
	}
	out, next := page.Trim(out, pg.Size(), func(r Request) page.Cursor { return page.Cursor{At: r.ReceivedAt, ID: r.ID} })
	return out, next, nil
}

func (s *Service) requestRow(ctx context.Context, tenantID, sourceID, requestID uuid.UUID) (requestRow, error) {
	if _, err := s.sourceRow(ctx, tenantID, sourceID); err != nil {
		return requestRow{}, err
	}
	since, err := s.visibleSince(ctx, tenantID)
	if err != nil {
		return requestRow{}, err
	}
	var rows []struct {
		Row     requestRow `gorm:"embedded"`
		Pending bool
	}
	if err := s.db.WithContext(ctx).Table("source_requests r").
		Select("r.*, EXISTS (SELECT 1 FROM source_requests_pending p WHERE p.request_id = r.id) AS pending").
		Where("r.tenant_id = ? AND r.source_id = ? AND r.id = ? AND r.received_at >= ?", tenantID, sourceID, requestID, since).
		Limit(1).Scan(&rows).Error; err != nil {
		return requestRow{}, fmt.Errorf("load request %s: %w", requestID, err)
	}
	if len(rows) == 0 {
		return requestRow{}, ferry.NotFound("request")
	}
	r := rows[0].Row
	r.Status, r.EventID = shown(r.Status, r.EventID, rows[0].Pending)
	return r, nil
}

// RequestDetail returns one captured request whole. Errors: ENOTFOUND.
func (s *Service) RequestDetail(ctx context.Context, tenantID, sourceID, requestID uuid.UUID) (RequestDetail, error) {
	r, err := s.requestRow(ctx, tenantID, sourceID, requestID)
	if err != nil {
		return RequestDetail{}, err
	}
	d := RequestDetail{Request: r.view(len(r.Body)), Headers: r.Headers.V, BodyBase64: base64.StdEncoding.EncodeToString(r.Body)}
	if d.Headers == nil {
		d.Headers = http.Header{}
	}
	if utf8.Valid(r.Body) {
		text := string(r.Body)
		d.BodyText = &text
	}
	return d, nil
}

// Replay re-runs routing on a stored request: it becomes a new event
// with the source's current event-type rule (dedupe does not apply). A
// rejected request is never forwarded. Errors: ENOTFOUND, EINVALID (a
// rejected request, or one still received), what Events.IngestInTx
// returns.
func (s *Service) Replay(ctx context.Context, tenantID, sourceID, requestID uuid.UUID) (ReplayResult, error) {
	r, err := s.requestRow(ctx, tenantID, sourceID, requestID)
	if err != nil {
		return ReplayResult{}, err
	}
	switch r.Status {
	case StatusRejected:
		return ReplayResult{}, ferry.Invalid("request", "a rejected request failed verification and is never forwarded")
	case StatusReceived:
		// Its event is still to be made: a replay now would make two.
		return ReplayResult{}, ferry.Invalid("request", "this request's event is still being made; replay it once it is verified")
	}
	src, err := s.sourceRow(ctx, tenantID, sourceID)
	if err != nil {
		return ReplayResult{}, err
	}
	ev := s.eventInput(src.EventType.V, r)
	if err := s.checkSchema(ctx, tenantID, ev); err != nil {
		return ReplayResult{}, err
	}
	var id uuid.UUID
	var after func()
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		id, after, err = s.events.IngestInTx(ctx, dbtx.Wrap(tx), tenantID, ev)
		return err
	})
	if err != nil {
		return ReplayResult{}, err
	}
	after()
	return ReplayResult{RequestID: requestID, EventID: id}, nil
}

// visibleSince is the oldest capture the tenant's plan still shows: Prune
// deletes older ones periodically, and until it runs they are hidden, as
// attempts are. Errors: wrapped database errors.
func (s *Service) visibleSince(ctx context.Context, tenantID uuid.UUID) (time.Time, error) {
	keep := s.cfg.MaxRetention
	if s.retention != nil {
		plan, err := s.retention.AttemptRetention(ctx, tenantID)
		if err != nil {
			return time.Time{}, fmt.Errorf("retention of tenant %s: %w", tenantID, err)
		}
		if plan > 0 && plan < keep {
			keep = plan
		}
	}
	return s.clock.Now().Add(-keep), nil
}
