package inbound

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry"
	"github.com/ferry-dev/ferry/delivery/webhook"
)

// Source limits and defaults (docs/contract.md#limits).
const (
	// MaxBodyBytes bounds a captured request body; larger requests are
	// refused with 413 and not captured.
	MaxBodyBytes = 1 << 20
	// DefaultRateLimitPerSecond is a source's accepted requests per second
	// when its rate_limit_per_second is not set.
	DefaultRateLimitPerSecond = 1000
	// MaxRateLimitPerSecond bounds rate_limit_per_second.
	MaxRateLimitPerSecond = 10000
	// Tolerance is how far a signed timestamp (Stripe, Slack, Standard
	// Webhooks) may be from now.
	Tolerance = 5 * time.Minute
	// DedupeWindow is how long a dedupe key makes resends duplicates.
	DedupeWindow = 24 * time.Hour
	// DefaultEventType is the type of a capture's event when its rule
	// finds no valid type and names no default.
	DefaultEventType = "unknown"

	maxName         = 200
	maxSecret       = 512
	maxHeaderName   = 100
	maxPrefix       = 100
	maxJSONPath     = 200
	maxResponseBody = 4 << 10
	maxDedupeKey    = 255
)

// Scheme is how a source verifies its requests.
type Scheme string

// Verification schemes.
const (
	SchemeStandardWebhooks Scheme = "standard_webhooks"
	SchemeStripe           Scheme = "stripe"
	SchemeGitHub           Scheme = "github"
	SchemeShopify          Scheme = "shopify"
	SchemeSlack            Scheme = "slack"
	SchemeHMACSHA256       Scheme = "hmac_sha256"
	SchemeBasicAuth        Scheme = "basic_auth"
	SchemeNone             Scheme = "none"
)

// Schemes lists every verification scheme.
func Schemes() []Scheme {
	return []Scheme{SchemeStandardWebhooks, SchemeStripe, SchemeGitHub, SchemeShopify, SchemeSlack,
		SchemeHMACSHA256, SchemeBasicAuth, SchemeNone}
}

// Encoding is how a generic HMAC signature is written in its header.
type Encoding string

// Signature encodings of the hmac_sha256 scheme.
const (
	EncodingHex    Encoding = "hex"
	EncodingBase64 Encoding = "base64"
)

// Status is what became of a captured request.
type Status string

// Capture statuses.
const (
	// StatusReceived: the signature held and the request is captured;
	// its event is being made (within milliseconds, normally). Stored as
	// verified with a row in source_requests_pending.
	StatusReceived Status = "received"
	// StatusVerified: the signature held; the request made an event.
	StatusVerified Status = "verified"
	// StatusRejected: verification failed (answered 401, never forwarded).
	StatusRejected Status = "rejected"
	// StatusDuplicate: its dedupe key was seen within the window; no event.
	StatusDuplicate Status = "duplicate"
	// StatusRefused: the tenant's plan refused its event (monthly quota,
	// unpaid account), or its data did not match its type's schema in
	// reject mode; kept, and replayable.
	StatusRefused Status = "refused"
)

// Verification is a source's verification scheme as the API shows it:
// never its secret.
type Verification struct {
	Type     Scheme   `json:"type"`               // the scheme: standard_webhooks, hmac_sha256, basic_auth, none …
	Header   string   `json:"header,omitempty"`   // hmac_sha256: the signature header
	Encoding Encoding `json:"encoding,omitempty"` // hmac_sha256: hex or base64
	Prefix   string   `json:"prefix,omitempty"`   // hmac_sha256: text before the signature, e.g. sha256=
	// Username is basic_auth's.
	Username string `json:"username,omitempty"`
	// HasSecret: a secret (or basic_auth password) is stored.
	HasSecret bool `json:"has_secret"`
}

// VerificationInput configures a scheme. Secret is the provider's signing
// secret (a whsec_ secret for standard_webhooks); basic_auth takes
// Username and Password instead.
type VerificationInput struct {
	Type     Scheme   `json:"type"` // the scheme, e.g. standard_webhooks, hmac_sha256, basic_auth or none
	Secret   string   `json:"secret"`
	Header   string   `json:"header"`
	Encoding Encoding `json:"encoding"`
	Prefix   string   `json:"prefix"`
	Username string   `json:"username"`
	Password string   `json:"password"`
}

// EventTypeRule says where a capture's event type comes from: a fixed
// Value, a request Header, or a JSONPath into the JSON body (dotted keys,
// numbers index arrays: "type", "event.kind", "items.0.type"). When the
// header or path yields no valid type, Default is used (DefaultEventType
// when empty).
type EventTypeRule struct {
	Value    string `json:"value,omitempty"`     // a fixed event type
	Header   string `json:"header,omitempty"`    // the type comes from this request header
	JSONPath string `json:"json_path,omitempty"` // the type comes from this dotted path in the JSON body
	Default  string `json:"default,omitempty"`   // the type when the header or path gives none
}

// EventTypeInput is an EventTypeRule in a request body.
type EventTypeInput EventTypeRule

// DedupeInput is a DedupeRule in a request body.
type DedupeInput DedupeRule

// ResponseInput is a Response in a request body; status defaults to 200
// and content_type to application/json.
type ResponseInput Response

// defaultDedupe is the dedupe rule a source of scheme gets unless it
// sets its own: the provider's delivery id where the provider sends one
// with every delivery and keeps it on redelivery. These schemes sign no
// timestamp, so a captured request could otherwise be replayed to the
// ingest URL by anyone who saw it; with the id, a replay within
// DedupeWindow is a duplicate and makes no second event.
func defaultDedupe(scheme Scheme) *DedupeRule {
	switch scheme {
	case SchemeGitHub:
		return &DedupeRule{Header: "X-GitHub-Delivery"}
	case SchemeShopify:
		return &DedupeRule{Header: "X-Shopify-Webhook-Id"}
	}
	return nil
}

// DedupeRule names where a request's dedupe key is: a Header (e.g.
// X-GitHub-Delivery) or a JSONPath (e.g. "id" for Stripe's event id).
type DedupeRule struct {
	Header   string `json:"header,omitempty"`    // the key is this request header
	JSONPath string `json:"json_path,omitempty"` // the key is at this dotted path in the JSON body
}

// Response is what a source answers to an accepted request (default 200
// with {} as application/json).
type Response struct {
	Status      int    `json:"status"`       // the status accepted requests are answered with
	ContentType string `json:"content_type"` // its Content-Type
	Body        string `json:"body"`         // its body
}

// Source is a tenant's inbound source.
type Source struct {
	ID           uuid.UUID     `json:"id"`           // the source's id
	Name         string        `json:"name"`         // a label of yours
	Enabled      bool          `json:"enabled"`      // false: the ingest URL answers 404
	Verification Verification  `json:"verification"` // how requests are verified (secrets are never shown)
	EventType    EventTypeRule `json:"event_type"`   // how a request's event type is chosen
	Response     *Response     `json:"response"`
	Dedupe       *DedupeRule   `json:"dedupe"`
	// RateLimitPerSecond bounds accepted requests; more are answered 429.
	RateLimitPerSecond int `json:"rate_limit_per_second"`
	// IngestURL is where the provider sends: <public url>/in/<token>.
	IngestURL string `json:"ingest_url"`
	// RejectedUnstored counts rejected requests over the per-minute cap
	// that were answered 401 but not stored.
	RejectedUnstored int64 `json:"rejected_unstored"`
	// LastRequestAt is when the source last captured a request (of any
	// status), null if it never did: whether the provider is sending.
	LastRequestAt *time.Time `json:"last_request_at"`
	CreatedAt     time.Time  `json:"created_at"` // when the source was created
	UpdatedAt     time.Time  `json:"updated_at"` // when it last changed
}

// SourceInput creates a source.
type SourceInput struct {
	Name               string            `json:"name"`         // a label of yours
	Verification       VerificationInput `json:"verification"` // the provider's verification scheme and its secret
	EventType          EventTypeInput    `json:"event_type"`   // how a request's event type is chosen
	Response           *ResponseInput    `json:"response"`
	Dedupe             *DedupeInput      `json:"dedupe"`
	RateLimitPerSecond *int              `json:"rate_limit_per_second"`
}

// SourcePatch changes the fields that are present. A present
// verification replaces the scheme; its secret may be left empty to keep
// the stored one when the type stays the same. A null response or dedupe
// removes it.
type SourcePatch struct {
	Name               *string            `json:"name"` // a new label
	Enabled            *bool              `json:"enabled"`
	Verification       *VerificationInput `json:"verification"`
	EventType          *EventTypeInput    `json:"event_type"` // replaces how a request's event type is chosen
	Response           *ResponseInput     `json:"response"`
	Dedupe             *DedupeInput       `json:"dedupe"`
	RateLimitPerSecond *int               `json:"rate_limit_per_second"` // accepted requests per second (1-10000)
	// ClearResponse and ClearDedupe are set by the decoder when the field
	// is present as null.
	ClearResponse bool `json:"-"`
	ClearDedupe   bool `json:"-"`
}

var headerNamePattern = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$")

func validateName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", ferry.Invalid("name", "name is required")
	}
	if !utf8.ValidString(name) || utf8.RuneCountInString(name) > maxName {
		return "", ferry.Invalid("name", "name must be at most %d characters of valid UTF-8", maxName)
	}
	return name, nil
}

func validateHeaderName(field, h string) (string, error) {
	if !headerNamePattern.MatchString(h) || len(h) > maxHeaderName {
		return "", ferry.Invalid(field, "%s must be a valid HTTP header name", field)
	}
	return http.CanonicalHeaderKey(h), nil
}

func validateJSONPath(field, p string) (string, error) {
	p = strings.TrimPrefix(strings.TrimPrefix(p, "$"), ".")
	if p == "" || len(p) > maxJSONPath || !utf8.ValidString(p) || strings.Contains(p, "..") || strings.HasSuffix(p, ".") {
		return "", ferry.Invalid(field, "%s must be a dotted path such as data.object.id (at most %d bytes)", field, maxJSONPath)
	}
	return p, nil
}

// normalize checks in and returns the public part and the secret to seal
// ("" for none). keep is the stored secret of the same scheme, used when
// a patch leaves the secret out.
func (in VerificationInput) normalize(keepSecret bool) (Verification, string, error) {
	v := Verification{Type: in.Type}
	secret := in.Secret
	switch in.Type {
	case SchemeStandardWebhooks:
		if secret == "" && !keepSecret {
			return v, "", ferry.Invalid("verification.secret", "a standard_webhooks source needs the sender's whsec_ secret")
		}
		if secret != "" {
			if _, err := webhook.SecretKey(secret); err != nil || !strings.HasPrefix(secret, "whsec_") {
				return v, "", ferry.Invalid("verification.secret", "secret must be a whsec_ secret of 24 to 64 base64 bytes")
			}
		}
	case SchemeStripe, SchemeGitHub, SchemeShopify, SchemeSlack, SchemeHMACSHA256:
		if secret == "" && !keepSecret {
			return v, "", ferry.Invalid("verification.secret", "a %s source needs the provider's signing secret", in.Type)
		}
		if in.Type == SchemeHMACSHA256 {
			h, err := validateHeaderName("verification.header", in.Header)
			if err != nil {
				return v, "", err
			}
			v.Header = h
			switch in.Encoding {
			case "":
				v.Encoding = EncodingHex
			case EncodingHex, EncodingBase64:
				v.Encoding = in.Encoding
			default:
				return v, "", ferry.Invalid("verification.encoding", "encoding must be hex or base64")
			}
			if len(in.Prefix) > maxPrefix || !utf8.ValidString(in.Prefix) {
				return v, "", ferry.Invalid("verification.prefix", "prefix must be at most %d bytes", maxPrefix)
			}
			v.Prefix = in.Prefix
		}
	case SchemeBasicAuth:
		if in.Username == "" || strings.Contains(in.Username, ":") || len(in.Username) > maxName || !utf8.ValidString(in.Username) {
			return v, "", ferry.Invalid("verification.username", "basic_auth needs a username without ':' (at most %d bytes)", maxName)
		}
		v.Username = in.Username
		secret = in.Password
		if secret == "" && !keepSecret {
			return v, "", ferry.Invalid("verification.password", "basic_auth needs a password")
		}
	case SchemeNone:
		return v, "", nil
	case "":
		return v, "", ferry.Invalid("verification.type", "verification.type is required")
	default:
		return v, "", ferry.Invalid("verification.type", "verification.type must be one of standard_webhooks, stripe, github, shopify, slack, hmac_sha256, basic_auth, none")
	}
	if len(secret) > maxSecret || strings.ContainsAny(secret, "\x00") {
		return v, "", ferry.Invalid("verification.secret", "secret must be at most %d bytes", maxSecret)
	}
	v.HasSecret = true
	return v, secret, nil
}

// validate checks the rule; typeOK says whether a type is valid for an
// event (delivery's rule).
func (in EventTypeInput) validate(typeOK func(string) bool) (EventTypeRule, error) {
	r := EventTypeRule(in)
	set := 0
	for _, s := range []string{r.Value, r.Header, r.JSONPath} {
		if s != "" {
			set++
		}
	}
	if set != 1 {
		return r, ferry.Invalid("event_type", "event_type needs exactly one of value, header or json_path")
	}
	var err error
	switch {
	case r.Value != "":
		if !typeOK(r.Value) {
			return r, ferry.Invalid("event_type.value", "event_type.value is not a valid event type (letters, digits and . _ : - /, not starting with ferry.)")
		}
		if r.Default != "" {
			return r, ferry.Invalid("event_type.default", "a fixed event type takes no default")
		}
		return r, nil
	case r.Header != "":
		if r.Header, err = validateHeaderName("event_type.header", r.Header); err != nil {
			return r, err
		}
	default:
		if r.JSONPath, err = validateJSONPath("event_type.json_path", r.JSONPath); err != nil {
			return r, err
		}
	}
	if r.Default != "" && !typeOK(r.Default) {
		return r, ferry.Invalid("event_type.default", "event_type.default is not a valid event type")
	}
	return r, nil
}

func (r *DedupeInput) validate() (*DedupeRule, error) {
	if r == nil {
		return nil, nil
	}
	out := DedupeRule(*r)
	var err error
	switch {
	case r.Header != "" && r.JSONPath != "", r.Header == "" && r.JSONPath == "":
		return nil, ferry.Invalid("dedupe", "dedupe needs exactly one of header or json_path")
	case r.Header != "":
		out.Header, err = validateHeaderName("dedupe.header", r.Header)
	default:
		out.JSONPath, err = validateJSONPath("dedupe.json_path", r.JSONPath)
	}
	if err != nil {
		return nil, err
	}
	return &out, nil
}

func (r *ResponseInput) validate() (*Response, error) {
	if r == nil {
		return nil, nil
	}
	out := Response(*r)
	if out.Status == 0 {
		out.Status = http.StatusOK
	}
	if out.Status < 200 || out.Status > 299 {
		return nil, ferry.Invalid("response.status", "response.status must be a 2xx status")
	}
	if out.ContentType == "" {
		out.ContentType = "application/json"
	}
	if len(out.ContentType) > 200 || strings.ContainsAny(out.ContentType, "\r\n\x00") || !allowedResponseType(out.ContentType) {
		return nil, ferry.Invalid("response.content_type",
			"response.content_type must be application/json, text/plain, application/xml or text/xml (with an optional charset)")
	}
	if len(out.Body) > maxResponseBody {
		return nil, ferry.Invalid("response.body", "response.body must be at most %d bytes", maxResponseBody)
	}
	return &out, nil
}

func validateRate(v *int) (int, error) {
	if v == nil {
		return DefaultRateLimitPerSecond, nil
	}
	if *v < 1 || *v > MaxRateLimitPerSecond {
		return 0, ferry.Invalid("rate_limit_per_second", "rate_limit_per_second must be between 1 and %d", MaxRateLimitPerSecond)
	}
	return *v, nil
}

// newToken returns a fresh ingest token: 256 random bits, base64url.
func newToken() (string, error) {
	b, err := randomBytes(32)
	if err != nil {
		return "", err
	}
	return tokenPrefix + base64.RawURLEncoding.EncodeToString(b), nil
}

// tokenPrefix marks ingest tokens (in logs and secret scanners).
const tokenPrefix = "src_"

// UnmarshalJSON decodes a patch, noting response and dedupe sent as null
// (remove) apart from absent (keep).
func (p *SourcePatch) UnmarshalJSON(b []byte) error {
	type plain SourcePatch
	var v plain
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		return err
	}
	isNull := func(k string) bool { raw, ok := fields[k]; return ok && string(bytes.TrimSpace(raw)) == "null" }
	v.ClearResponse, v.ClearDedupe = isNull("response"), isNull("dedupe")
	*p = SourcePatch(v)
	return nil
}
