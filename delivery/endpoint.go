package delivery

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ferry-dev/ferry/internal/pgval"
	"github.com/ferry-dev/ferry/internal/seal"

	"github.com/ferry-dev/ferry/delivery/routing"
	"github.com/ferry-dev/ferry/delivery/webhook"

	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/dbtx"
	"github.com/ferry-dev/ferry/page"
)

// Endpoint limits and defaults (docs/contract.md#limits).
const (
	DefaultTimeoutSeconds = 10
	MaxTimeoutSeconds     = 30
	DefaultMaxInFlight    = 16
	MaxMaxInFlight        = 256
	MaxRateLimitPerSecond = 10000
	maxURLLength          = 2048
	maxDescription        = 500
	maxEventTypes         = 100
	maxEventTypeLen       = 100 // an event type name, in events, subscriptions and replay filters
	maxCustomHeaders      = 20
)

// Kind says how an endpoint receives its deliveries.
type Kind string

// Endpoint kinds: an http endpoint is pushed to its URL; a queue endpoint
// has no URL and its consumers pull (delivery/queue).
const (
	KindHTTP  Kind = "http"
	KindQueue Kind = "queue"
)

// Format says what body an endpoint receives.
type Format string

// Endpoint formats: the envelope (default), or the raw body an inbound
// source captured, with its content type (a forwarder); events not from
// a source send their data as the raw body.
const (
	FormatEnvelope Format = "envelope"
	FormatRaw      Format = "raw"
)

// SignatureTimestamp says which time an endpoint's webhook-timestamp
// header carries and its signature covers.
type SignatureTimestamp string

// Signature timestamps: the event's creation (default: every attempt,
// retry and replay of a delivery is byte-for-byte the same), or the
// attempt's own start, for receivers whose Standard Webhooks library
// refuses timestamps older than its tolerance (5 minutes in the reference
// libraries and Svix's), which a retry hours later would be.
const (
	SignatureTimestampEvent   SignatureTimestamp = "event"
	SignatureTimestampAttempt SignatureTimestamp = "attempt"
)

// validateSignatureTimestamp defaults an empty mode.
func validateSignatureTimestamp(m SignatureTimestamp) (SignatureTimestamp, error) {
	switch m {
	case "":
		return SignatureTimestampEvent, nil
	case SignatureTimestampEvent, SignatureTimestampAttempt:
		return m, nil
	}
	return "", ferry.Invalid("signature_timestamp", "signature_timestamp must be event or attempt")
}

// SigningTime is when an attempt starting at attemptAt of an event
// created at eventAt is signed as made.
func (m SignatureTimestamp) SigningTime(eventAt, attemptAt time.Time) time.Time {
	if m == SignatureTimestampAttempt {
		return attemptAt
	}
	return eventAt
}

// validateFormat defaults an empty format and refuses raw for queue
// endpoints, whose messages are always envelopes.
func validateFormat(f Format, kind Kind) (Format, error) {
	switch f {
	case "":
		return FormatEnvelope, nil
	case FormatEnvelope:
		return f, nil
	case FormatRaw:
		if kind == KindQueue {
			return "", ferry.Invalid("format", "a queue endpoint's messages are envelopes; format raw is for http endpoints")
		}
		return f, nil
	}
	return "", ferry.Invalid("format", "format must be envelope or raw")
}

// validateFormatTransformation refuses a transformation on a raw
// endpoint: raw forwards the body exactly as it was received, while a
// transformation reshapes the envelope.
func validateFormatTransformation(f Format, transformation string) error {
	if f == FormatRaw && transformation != "" {
		return ferry.Invalid("transformation", "a raw endpoint forwards the body as it was received; transformations apply to envelope endpoints")
	}
	return nil
}

// Endpoint is a receiver URL of one tenant.
type Endpoint struct {
	ID                 uuid.UUID         `json:"id"`   // the endpoint's id
	Kind               Kind              `json:"kind"` // http: Ferry pushes to url; queue: consumers pull
	URL                string            `json:"url"`
	Description        string            `json:"description"` // a label of yours
	EventTypes         []string          `json:"event_types"`
	Enabled            bool              `json:"enabled"`                   // false: nothing is sent (disabled by you, or by Ferry after failing for days)
	DisabledReason     string            `json:"disabled_reason,omitempty"` // why Ferry disabled the endpoint; absent when enabled or disabled by hand
	TimeoutSeconds     int               `json:"timeout_seconds"`           // how long an attempt waits for the answer
	RateLimitPerSecond *int              `json:"rate_limit_per_second"`
	MaxInFlight        int               `json:"max_in_flight"` // attempts to the endpoint at once at most
	Headers            map[string]string `json:"headers"`       // custom headers sent with every attempt (values redacted for viewers and staff)
	Filter             string            `json:"filter"`
	Format             Format            `json:"format"` // envelope: the JSON envelope; raw: the body an inbound source captured
	Transformation     string            `json:"transformation"`
	// SignatureTimestamp is event (every attempt signed with the event's
	// time) or attempt (each with its own).
	SignatureTimestamp SignatureTimestamp `json:"signature_timestamp"`
	// PropagateTrace sends each attempt's W3C traceparent header when
	// Ferry traces (OpenTelemetry on).
	PropagateTrace bool       `json:"propagate_trace"`
	FailingSince   *time.Time `json:"failing_since"` // since when every attempt has failed; null while healthy
	// FilterErrors: the filter could not be evaluated on some events since
	// it was last saved (they were not sent here); null when never.
	FilterErrors *FilterErrors `json:"filter_errors"`
	// Customer is the uid of the customer the endpoint belongs to; null
	// for the tenant's own endpoints.
	Customer  *string   `json:"customer"`
	CreatedAt time.Time `json:"created_at"` // when the endpoint was created
	UpdatedAt time.Time `json:"updated_at"` // when the endpoint last changed
}

// EndpointInput creates an endpoint; nil fields take defaults.
type EndpointInput struct {
	// Kind is http (default) or queue; a queue endpoint takes no URL.
	Kind               Kind              `json:"kind"`
	URL                string            `json:"url"`
	Description        string            `json:"description"` // a label of yours
	EventTypes         []string          `json:"event_types"`
	TimeoutSeconds     *int              `json:"timeout_seconds"` // how long an attempt waits for the answer (1-30, default 10)
	RateLimitPerSecond *int              `json:"rate_limit_per_second"`
	MaxInFlight        *int              `json:"max_in_flight"` // attempts at once at most (1-256, default 16)
	Headers            map[string]string `json:"headers"`       // custom headers sent with every attempt (not webhook-*, hop-by-hop or Content-Length/Type)
	Filter             string            `json:"filter"`
	Format             Format            `json:"format"`
	// Transformation is JavaScript defining function handler(webhook);
	// http endpoints only.
	Transformation string `json:"transformation"`
	// SignatureTimestamp is event (default) or attempt.
	SignatureTimestamp SignatureTimestamp `json:"signature_timestamp"`
	// PropagateTrace sends each attempt's traceparent (default false).
	PropagateTrace bool `json:"propagate_trace"`
	// Customer, the uid of one of the tenant's customers, makes the
	// endpoint that customer's: it receives only the events sent for it.
	// It cannot change later.
	Customer string `json:"customer"`
}

// EndpointPatch changes the fields that are present. A rate limit of 0
// removes the limit.
type EndpointPatch struct {
	URL                *string             `json:"url"`         // a new URL (http endpoints)
	Description        *string             `json:"description"` // a new label
	EventTypes         *[]string           `json:"event_types"`
	Enabled            *bool               `json:"enabled"`         // false stops sending; true resumes (and clears a disabled reason)
	TimeoutSeconds     *int                `json:"timeout_seconds"` // how long an attempt waits for the answer (1-30)
	RateLimitPerSecond *int                `json:"rate_limit_per_second"`
	MaxInFlight        *int                `json:"max_in_flight"` // attempts at once at most (1-256)
	Headers            *map[string]string  `json:"headers"`       // replaces the custom headers as a whole
	Filter             *string             `json:"filter"`
	Format             *Format             `json:"format"`
	Transformation     *string             `json:"transformation"`
	SignatureTimestamp *SignatureTimestamp `json:"signature_timestamp"` // event (every attempt signed with the event time) or attempt
	PropagateTrace     *bool               `json:"propagate_trace"`     // send each attempt's W3C traceparent header
}

var (
	eventTypePattern = regexp.MustCompile(fmt.Sprintf(`^[A-Za-z0-9][A-Za-z0-9._:\-/]{0,%d}$`, maxEventTypeLen-1))
	// eventTypeRule says in messages what eventTypePattern accepts.
	eventTypeRule     = fmt.Sprintf("1-%d characters of letters, digits and . _ : - /", maxEventTypeLen)
	headerNamePattern = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$")
)

// CheckEventType returns EINVALID naming field unless typ is a valid
// event type.
func CheckEventType(field, typ string) error {
	if !eventTypePattern.MatchString(typ) {
		return ferry.Invalid(field, "%s must be %s", field, eventTypeRule)
	}
	return nil
}

// reservedHeaders are set by Ferry on every attempt and cannot be
// overridden by custom headers.
var reservedHeaders = map[string]bool{
	"Webhook-Id": true, "Webhook-Timestamp": true, "Webhook-Signature": true, "X-Webhook-Id": true,
	"Content-Type": true, "Content-Length": true, "User-Agent": true, "Host": true,
	"Transfer-Encoding": true, "Connection": true,
}

func (s *Service) validateURL(raw string) error {
	if raw == "" {
		return ferry.Invalid("url", "url is required")
	}
	if len(raw) > maxURLLength || !utf8.ValidString(raw) {
		return ferry.Invalid("url", "url must be at most %d bytes of valid UTF-8", maxURLLength)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Hostname() == "" {
		return ferry.Invalid("url", "url must be an absolute http(s) URL")
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !s.cfg.AllowHTTP {
			return ferry.Invalid("url", "url must use https")
		}
	default:
		return ferry.Invalid("url", "url must use https")
	}
	if u.User != nil {
		return ferry.Invalid("url", "url must not carry credentials; use custom headers")
	}
	if u.Fragment != "" {
		return ferry.Invalid("url", "url must not have a fragment")
	}
	// Hostname has already taken the brackets off an IPv6 literal: any
	// left over (http://]localhost) make a host no resolver knows.
	host := u.Hostname()
	if strings.ContainsAny(host, "[]") {
		return ferry.Invalid("url", "url must be an absolute http(s) URL")
	}
	// Literal addresses are checked now for a clear error; names are
	// checked when connecting, on every attempt.
	if ip, err := netip.ParseAddr(host); err == nil {
		if err := s.cfg.AddressPolicy.Check(ip); err != nil {
			return ferry.Invalid("url", "url points at an address Ferry may not deliver to")
		}
	} else if h := strings.TrimSuffix(strings.ToLower(host), "."); !s.cfg.AddressPolicy.AllowPrivate && (h == "localhost" || strings.HasSuffix(h, ".localhost")) {
		return ferry.Invalid("url", "url points at an address Ferry may not deliver to")
	}
	return nil
}

// validateEventTypes checks and de-duplicates an endpoint's event-type
// patterns: exact types, prefixes ending in "*", or "*" alone.
func validateEventTypes(types []string) ([]string, error) {
	if len(types) > maxEventTypes {
		return nil, ferry.Invalid("event_types", "at most %d event types", maxEventTypes)
	}
	seen := make(map[string]bool, len(types))
	out := make([]string, 0, len(types))
	for _, t := range types {
		if err := routing.ValidatePattern(t); err != nil {
			return nil, ferry.Invalid("event_types", "%s", err.Error())
		}
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out, nil
}

func validateHeaders(h map[string]string) (map[string]string, error) {
	if len(h) > maxCustomHeaders {
		return nil, ferry.Invalid("headers", "at most %d custom headers", maxCustomHeaders)
	}
	out := make(map[string]string, len(h))
	for k, v := range h {
		if !headerNamePattern.MatchString(k) {
			return nil, ferry.Invalid("headers", "header name %q is not a valid HTTP header name", k)
		}
		canon := http.CanonicalHeaderKey(k)
		if reservedHeaders[canon] {
			return nil, ferry.Invalid("headers", "header %q is set by Ferry and cannot be overridden", k)
		}
		if len(v) > 1000 || strings.ContainsAny(v, "\r\n\x00") || !utf8.ValidString(v) {
			return nil, ferry.Invalid("headers", "header %q has an invalid value", k)
		}
		out[canon] = v
	}
	return out, nil
}

// validateTransformation compiles a transformation and runs its top
// level; the error carries goja's message with line and column. Only http
// endpoints take one (queue consumers get the event's envelope).
func (s *Service) validateTransformation(ctx context.Context, tenantID uuid.UUID, kind Kind, src string) error {
	if src != "" && kind == KindQueue {
		return ferry.Invalid("transformation", "transformations apply to http endpoints; a queue endpoint's consumers get the envelope")
	}
	if err := s.router.check(ctx, tenantID, src); err != nil {
		var te *routing.TransformError
		if !errors.As(err, &te) {
			return fmt.Errorf("check transformation: %w", err)
		}
		return ferry.Invalid("transformation", "%s", te.Message)
	}
	return nil
}

// validateFilter compiles and type-checks a CEL filter; the error
// carries the compiler's message with line and column.
func (s *Service) validateFilter(src string) error {
	if err := s.router.filters.Check(src); err != nil {
		return ferry.Invalid("filter", "%s", err.Error())
	}
	return nil
}

func validateDescription(d string) error {
	if !utf8.ValidString(d) || utf8.RuneCountInString(d) > maxDescription {
		return ferry.Invalid("description", "description must be at most %d characters of valid UTF-8", maxDescription)
	}
	return nil
}

func validateRange(field string, v, lo, hi int) error {
	if v < lo || v > hi {
		return ferry.Invalid(field, "%s must be between %d and %d", field, lo, hi)
	}
	return nil
}

// endpointRow is a row of endpoints (GORM model, see endpointrows.go).
type endpointRow struct {
	ID                 uuid.UUID `gorm:"primaryKey"`
	TenantID           uuid.UUID
	Kind               string
	URL                string
	Description        string
	EventTypes         pgval.JSON[[]string] `gorm:"type:jsonb"`
	Enabled            bool
	DisabledReason     string
	TimeoutMs          int
	RateLimitPerSecond *int
	MaxInFlight        int
	Headers            pgval.JSON[map[string]string] `gorm:"type:jsonb"`
	Filter             string
	Format             string
	Transformation     string
	SignatureTimestamp string
	PropagateTrace     bool
	FailingSince       *time.Time
	FilterErrors       int64
	LastFilterError    *string
	LastFilterErrorAt  *time.Time
	CustomerID         *uuid.UUID
	CustomerUID        *string
	CreatedAt          time.Time
	UpdatedAt          time.Time
	DeletedAt          *time.Time
}

func (r endpointRow) endpoint() Endpoint {
	types := r.EventTypes.V
	if types == nil {
		types = []string{}
	}
	headers := r.Headers.V
	if headers == nil {
		headers = map[string]string{}
	}
	ep := Endpoint{
		ID: r.ID, Kind: Kind(r.Kind), URL: r.URL, Description: r.Description, EventTypes: types, Enabled: r.Enabled,
		DisabledReason: r.DisabledReason, TimeoutSeconds: r.TimeoutMs / 1000, RateLimitPerSecond: r.RateLimitPerSecond,
		MaxInFlight: r.MaxInFlight, Headers: headers, Filter: r.Filter, Format: Format(r.Format), Transformation: r.Transformation,
		SignatureTimestamp: SignatureTimestamp(r.SignatureTimestamp), PropagateTrace: r.PropagateTrace,
		FailingSince: r.FailingSince, Customer: r.CustomerUID, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
	if r.FilterErrors > 0 && r.LastFilterError != nil && r.LastFilterErrorAt != nil {
		ep.FilterErrors = &FilterErrors{Count: r.FilterErrors, LastError: *r.LastFilterError, LastAt: *r.LastFilterErrorAt}
	}
	return ep
}

const endpointColumns = `id, tenant_id, kind, url, description, event_types, enabled, disabled_reason, timeout_ms,
	rate_limit_per_second, max_in_flight, headers, filter, format, transformation, signature_timestamp, propagate_trace, failing_since,
	filter_errors, last_filter_error, last_filter_error_at, customer_id, customer_uid, created_at, updated_at, deleted_at`

// CreateEndpoint validates in, stores the endpoint with a fresh signing
// secret, and returns both. Errors: EINVALID, EPLANLIMIT.
func (s *Service) CreateEndpoint(ctx context.Context, tenantID uuid.UUID, in EndpointInput) (Endpoint, string, error) {
	switch in.Kind {
	case "", KindHTTP:
		in.Kind = KindHTTP
		if err := s.validateURL(in.URL); err != nil {
			return Endpoint{}, "", err
		}
	case KindQueue:
		if in.URL != "" {
			return Endpoint{}, "", ferry.Invalid("url", "a queue endpoint has no url: consumers pull its messages")
		}
	default:
		return Endpoint{}, "", ferry.Invalid("kind", "kind must be http or queue")
	}
	if err := validateDescription(in.Description); err != nil {
		return Endpoint{}, "", err
	}
	types, err := validateEventTypes(in.EventTypes)
	if err != nil {
		return Endpoint{}, "", err
	}
	headers, err := validateHeaders(in.Headers)
	if err != nil {
		return Endpoint{}, "", err
	}
	if err := s.validateFilter(in.Filter); err != nil {
		return Endpoint{}, "", err
	}
	if err := s.validateTransformation(ctx, tenantID, in.Kind, in.Transformation); err != nil {
		return Endpoint{}, "", err
	}
	format, err := validateFormat(in.Format, in.Kind)
	if err != nil {
		return Endpoint{}, "", err
	}
	if err := validateFormatTransformation(format, in.Transformation); err != nil {
		return Endpoint{}, "", err
	}
	sigTime, err := validateSignatureTimestamp(in.SignatureTimestamp)
	if err != nil {
		return Endpoint{}, "", err
	}
	timeout := DefaultTimeoutSeconds
	if in.TimeoutSeconds != nil {
		timeout = *in.TimeoutSeconds
	}
	if err := validateRange("timeout_seconds", timeout, 1, MaxTimeoutSeconds); err != nil {
		return Endpoint{}, "", err
	}
	maxInFlight := DefaultMaxInFlight
	if in.MaxInFlight != nil {
		maxInFlight = *in.MaxInFlight
	}
	if err := validateRange("max_in_flight", maxInFlight, 1, MaxMaxInFlight); err != nil {
		return Endpoint{}, "", err
	}
	if in.RateLimitPerSecond != nil {
		if err := validateRange("rate_limit_per_second", *in.RateLimitPerSecond, 1, MaxRateLimitPerSecond); err != nil {
			return Endpoint{}, "", err
		}
	}

	var customerID *uuid.UUID
	var customerUID *string
	if in.Customer = strings.TrimSpace(in.Customer); in.Customer != "" {
		// Not the ingest cache: a customer deleted a moment ago gets no
		// new endpoint.
		if s.cfg.Customers == nil {
			return Endpoint{}, "", ferry.Invalid("customer", "customers are not enabled")
		}
		id, err := s.cfg.Customers.Resolve(ctx, tenantID, "customer", in.Customer)
		if err != nil {
			return Endpoint{}, "", err
		}
		customerID = &id
		customerUID = &in.Customer
	}
	now := s.now().UTC()
	row := endpointRow{
		ID: uuid.New(), TenantID: tenantID, Kind: string(in.Kind), URL: in.URL, Description: in.Description,
		EventTypes: pgval.JSON[[]string]{V: types}, Enabled: true, TimeoutMs: timeout * 1000,
		RateLimitPerSecond: in.RateLimitPerSecond, MaxInFlight: maxInFlight,
		Headers: pgval.JSON[map[string]string]{V: headers}, Filter: in.Filter, Format: string(format),
		Transformation: in.Transformation, SignatureTimestamp: string(sigTime), PropagateTrace: in.PropagateTrace,
		CustomerID: customerID, CustomerUID: customerUID, CreatedAt: now, UpdatedAt: now,
	}
	secret := webhook.NewSigningSecret()
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if s.limits != nil {
			if err := s.limits.Meter(dbtx.Wrap(tx)).CheckEndpointLimit(ctx, tenantID); err != nil {
				return err
			}
		}
		if err := tx.Create(&row).Error; err != nil {
			return fmt.Errorf("insert endpoint: %w", err)
		}
		return s.insertSecret(tx, tenantID, row.ID, secret, now)
	})
	if err != nil {
		return Endpoint{}, "", err
	}
	return row.endpoint(), secret, nil
}

func (s *Service) insertSecret(tx *gorm.DB, tenantID, endpointID uuid.UUID, secret string, now time.Time) error {
	ct := s.cipher.Seal([]byte(secret), endpointID[:])
	if err := tx.Create(&endpointSecretRow{ID: uuid.New(), EndpointID: endpointID, TenantID: tenantID,
		Ciphertext: ct, CreatedAt: now}).Error; err != nil {
		return fmt.Errorf("insert endpoint secret: %w", err)
	}
	return nil
}

// Endpoint returns one of the tenant's endpoints, or ENOTFOUND.
func (s *Service) Endpoint(ctx context.Context, tenantID, id uuid.UUID) (Endpoint, error) {
	var rows []endpointRow
	if err := s.db.WithContext(ctx).Scopes(forTenant(tenantID)).Where("id = ? AND deleted_at IS NULL", id).
		Limit(1).Find(&rows).Error; err != nil {
		return Endpoint{}, fmt.Errorf("load endpoint %s: %w", id, err)
	}
	if len(rows) == 0 {
		return Endpoint{}, ferry.NotFound("endpoint")
	}
	return rows[0].endpoint(), nil
}

// EndpointFilter narrows a list of endpoints.
type EndpointFilter struct {
	// Customer, a uid, keeps that customer's endpoints.
	Customer string
}

// ListEndpoints returns a page of the tenant's endpoints, newest first.
func (s *Service) ListEndpoints(ctx context.Context, tenantID uuid.UUID, f EndpointFilter, pg page.Request) ([]Endpoint, string, error) {
	cur, err := page.DecodeAt(pg.Cursor)
	if err != nil {
		return nil, "", err
	}
	var rows []endpointRow
	q := s.db.WithContext(ctx).Scopes(forTenant(tenantID)).Where("deleted_at IS NULL")
	if f.Customer != "" {
		q = q.Where("customer_uid = ?", f.Customer)
	}
	if cur.AtPtr() != nil {
		q = q.Where("(created_at, id) < (?, ?)", cur.At, cur.ID)
	}
	if err := q.Order("created_at DESC, id DESC").Limit(pg.Size() + 1).Find(&rows).Error; err != nil {
		return nil, "", fmt.Errorf("list endpoints: %w", err)
	}
	out := make([]Endpoint, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.endpoint())
	}
	out, next := page.Trim(out, pg.Size(), func(e Endpoint) page.Cursor { return page.Cursor{At: e.CreatedAt, ID: e.ID} })
	return out, next, nil
}

// UpdateEndpoint applies patch. Errors: ENOTFOUND, EINVALID.
func (s *Service) UpdateEndpoint(ctx context.Context, tenantID, id uuid.UUID, patch EndpointPatch) (Endpoint, error) {
	ep, err := s.Endpoint(ctx, tenantID, id)
	if err != nil {
		return Endpoint{}, err
	}
	if patch.URL != nil {
		if ep.Kind == KindQueue {
			return Endpoint{}, ferry.Invalid("url", "a queue endpoint has no url")
		}
		if err := s.validateURL(*patch.URL); err != nil {
			return Endpoint{}, err
		}
		ep.URL = *patch.URL
	}
	if patch.Description != nil {
		if err := validateDescription(*patch.Description); err != nil {
			return Endpoint{}, err
		}
		ep.Description = *patch.Description
	}
	if patch.EventTypes != nil {
		if ep.EventTypes, err = validateEventTypes(*patch.EventTypes); err != nil {
			return Endpoint{}, err
		}
	}
	if patch.Headers != nil {
		if ep.Headers, err = validateHeaders(*patch.Headers); err != nil {
			return Endpoint{}, err
		}
	}
	filterSaved := false
	if patch.Filter != nil {
		if err := s.validateFilter(*patch.Filter); err != nil {
			return Endpoint{}, err
		}
		ep.Filter, filterSaved = *patch.Filter, true
	}
	if patch.Format != nil {
		if ep.Format, err = validateFormat(*patch.Format, ep.Kind); err != nil {
			return Endpoint{}, err
		}
	}
	if patch.Transformation != nil {
		if err := s.validateTransformation(ctx, tenantID, ep.Kind, *patch.Transformation); err != nil {
			return Endpoint{}, err
		}
		ep.Transformation = *patch.Transformation
	}
	if patch.SignatureTimestamp != nil {
		if ep.SignatureTimestamp, err = validateSignatureTimestamp(*patch.SignatureTimestamp); err != nil {
			return Endpoint{}, err
		}
	}
	if patch.PropagateTrace != nil {
		ep.PropagateTrace = *patch.PropagateTrace
	}
	if patch.TimeoutSeconds != nil {
		if err := validateRange("timeout_seconds", *patch.TimeoutSeconds, 1, MaxTimeoutSeconds); err != nil {
			return Endpoint{}, err
		}
		ep.TimeoutSeconds = *patch.TimeoutSeconds
	}
	if patch.MaxInFlight != nil {
		if err := validateRange("max_in_flight", *patch.MaxInFlight, 1, MaxMaxInFlight); err != nil {
			return Endpoint{}, err
		}
		ep.MaxInFlight = *patch.MaxInFlight
	}
	if patch.RateLimitPerSecond != nil {
		if *patch.RateLimitPerSecond == 0 {
			ep.RateLimitPerSecond = nil
		} else {
			if err := validateRange("rate_limit_per_second", *patch.RateLimitPerSecond, 1, MaxRateLimitPerSecond); err != nil {
				return Endpoint{}, err
			}
			ep.RateLimitPerSecond = patch.RateLimitPerSecond
		}
	}
	if err := validateFormatTransformation(ep.Format, ep.Transformation); err != nil {
		return Endpoint{}, err
	}
	if patch.Enabled != nil && *patch.Enabled != ep.Enabled {
		ep.Enabled = *patch.Enabled
		ep.DisabledReason = ""
		if !ep.Enabled {
			ep.DisabledReason = "disabled by user"
		}
		ep.FailingSince = nil
	}
	ep.UpdatedAt = s.now().UTC()
	cols := map[string]any{"url": ep.URL, "description": ep.Description,
		"event_types": pgval.JSON[[]string]{V: ep.EventTypes}, "enabled": ep.Enabled, "disabled_reason": ep.DisabledReason,
		"timeout_ms": ep.TimeoutSeconds * 1000, "rate_limit_per_second": ep.RateLimitPerSecond,
		"max_in_flight": ep.MaxInFlight, "headers": pgval.JSON[map[string]string]{V: ep.Headers},
		"filter": ep.Filter, "format": string(ep.Format), "transformation": ep.Transformation, "signature_timestamp": string(ep.SignatureTimestamp), "propagate_trace": ep.PropagateTrace,
		"failing_since": ep.FailingSince, "updated_at": ep.UpdatedAt}
	if filterSaved {
		// A saved filter starts with a clean record of its errors.
		cols["filter_errors"], cols["last_filter_error"], cols["last_filter_error_at"] = 0, nil, nil
		ep.FilterErrors = nil
	}
	err = s.db.WithContext(ctx).Model(&endpointRow{}).Scopes(forTenant(tenantID)).Where("id = ?", id).
		UpdateColumns(cols).Error
	if err != nil {
		return Endpoint{}, fmt.Errorf("update endpoint %s: %w", id, err)
	}
	return ep, nil
}

// DeleteEndpoint soft-deletes an endpoint; its pending deliveries become
// exhausted when next dispatched. Errors: ENOTFOUND.
func (s *Service) DeleteEndpoint(ctx context.Context, tenantID, id uuid.UUID) error {
	// UpdateColumns: deleting leaves updated_at as it was.
	res := s.db.WithContext(ctx).Model(&endpointRow{}).Scopes(forTenant(tenantID)).Where("id = ? AND deleted_at IS NULL", id).
		UpdateColumns(map[string]any{"deleted_at": s.now().UTC(), "enabled": false, "disabled_reason": "deleted"})
	if res.Error != nil {
		return fmt.Errorf("delete endpoint %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return ferry.NotFound("endpoint")
	}
	return nil
}

// SecretInfo is what the API reveals about an endpoint's secrets.
type SecretInfo struct {
	Secret   string           `json:"secret"`   // the current whsec_ signing secret
	Previous []PreviousSecret `json:"previous"` // rotated-out secrets still signing until they expire
}

// PreviousSecret is a rotated-out secret still signing until ExpiresAt.
type PreviousSecret struct {
	Secret    string    `json:"secret"`     // a rotated-out whsec_ secret, still signing
	ExpiresAt time.Time `json:"expires_at"` // when it stops signing
}

// Secret reveals the endpoint's current secret and those still in their
// grace period. Errors: ENOTFOUND.
func (s *Service) Secret(ctx context.Context, tenantID, id uuid.UUID) (SecretInfo, error) {
	if _, err := s.Endpoint(ctx, tenantID, id); err != nil {
		return SecretInfo{}, err
	}
	secrets, err := loadSecrets(ctx, s.db, s.cipher, id, s.now())
	if err != nil {
		return SecretInfo{}, err
	}
	info := SecretInfo{Previous: []PreviousSecret{}}
	for _, sec := range secrets {
		if sec.expiresAt == nil {
			info.Secret = sec.secret
		} else {
			info.Previous = append(info.Previous, PreviousSecret{Secret: sec.secret, ExpiresAt: *sec.expiresAt})
		}
	}
	return info, nil
}

// RotateSecret makes a new current secret; the old one keeps signing for
// the grace period. Errors: ENOTFOUND.
func (s *Service) RotateSecret(ctx context.Context, tenantID, id uuid.UUID) (SecretInfo, error) {
	if _, err := s.Endpoint(ctx, tenantID, id); err != nil {
		return SecretInfo{}, err
	}
	now := s.now().UTC()
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// Lock the endpoint so concurrent rotations queue up.
		var locked []endpointRow
		if err := tx.Clauses(clause.Locking{Strength: clause.LockingStrengthUpdate}).Select("id").Where("id = ?", id).
			Find(&locked).Error; err != nil {
			return fmt.Errorf("lock endpoint: %w", err)
		}
		if err := tx.Model(&endpointSecretRow{}).Where("endpoint_id = ? AND expires_at IS NULL", id).
			Update("expires_at", now.Add(s.cfg.RotationGrace)).Error; err != nil {
			return fmt.Errorf("expire old secret: %w", err)
		}
		return s.insertSecret(tx, tenantID, id, webhook.NewSigningSecret(), now)
	})
	if err != nil {
		return SecretInfo{}, err
	}
	return s.Secret(ctx, tenantID, id)
}

type storedSecret struct {
	secret    string
	expiresAt *time.Time
}

// loadSecrets returns the endpoint's live secrets, current one first.
func loadSecrets(ctx context.Context, db *gorm.DB, c *seal.Cipher, endpointID uuid.UUID, now time.Time) ([]storedSecret, error) {
	var rows []endpointSecretRow
	err := db.WithContext(ctx).Select("ciphertext", "expires_at").
		Where("endpoint_id = ? AND (expires_at IS NULL OR expires_at > ?)", endpointID, now).
		Order("expires_at DESC NULLS FIRST, created_at DESC").Find(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("load secrets of endpoint %s: %w", endpointID, err)
	}
	out := make([]storedSecret, 0, len(rows))
	for _, r := range rows {
		pt, err := c.Open(r.Ciphertext, endpointID[:])
		if err != nil {
			return nil, fmt.Errorf("endpoint %s: %w", endpointID, err)
		}
		out = append(out, storedSecret{secret: string(pt), expiresAt: r.ExpiresAt})
	}
	return out, nil
}
