package client

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	openapi_types "github.com/oapi-codegen/runtime/types"

	"github.com/ferry-dev/ferry/sdk/go/client/ferryapi"
)

// Config configures a Client.
type Config struct {
	// BaseURL is Ferry's public URL, e.g. https://ferry.example.com; the
	// API lives under its /api/v1.
	BaseURL string
	// APIKey is the tenant's API key (fry_live_…).
	APIKey string
	// HTTPClient sends each attempt; nil is a client with a 30 s timeout
	// per attempt.
	HTTPClient *http.Client
	// Retry bounds retries; the zero value takes the defaults.
	Retry RetryPolicy
}

// Client calls Ferry's API as one tenant. It is safe for concurrent use.
type Client struct {
	// API is the generated client for every operation of Ferry's OpenAPI
	// document, behind the same retries and credentials.
	API *ferryapi.ClientWithResponses

	Events     *Events
	Endpoints  *Endpoints
	Replays    *Replays
	Customers  *Customers
	EventTypes *EventTypes
	Sources    *Sources
}

// New returns a Client for cfg. Errors: a missing or malformed BaseURL,
// or a missing APIKey.
func New(cfg Config) (*Client, error) {
	if cfg.APIKey == "" {
		return nil, errors.New("ferry: Config.APIKey is required")
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("ferry: Config.BaseURL %q is not an http(s) URL", cfg.BaseURL)
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	return newClient(cfg, newRetryingDoer(hc, cfg.Retry))
}

// newClient wires the layer onto doer (tests pass one whose sleep and
// jitter they control).
func newClient(cfg Config, doer ferryapi.HttpRequestDoer) (*Client, error) {
	auth := func(_ context.Context, req *http.Request) error {
		req.Header.Set("Authorization", "Bearer "+cfg.APIKey)
		return nil
	}
	api, err := ferryapi.NewClientWithResponses(strings.TrimRight(cfg.BaseURL, "/")+"/api/v1",
		ferryapi.WithHTTPClient(doer), ferryapi.WithRequestEditorFn(auth))
	if err != nil {
		return nil, fmt.Errorf("ferry: new client: %w", err)
	}
	return &Client{
		API:        api,
		Events:     &Events{api: api},
		Endpoints:  &Endpoints{api: api},
		Replays:    &Replays{api: api},
		Customers:  &Customers{api: api},
		EventTypes: &EventTypes{api: api},
		Sources:    &Sources{api: api},
	}, nil
}

// CreateOption changes one creating call.
type CreateOption func(*createOptions)

type createOptions struct{ idempotencyKey string }

// WithIdempotencyKey sends key as the call's Idempotency-Key instead of a
// random one: pass your own (an order id, a job id) to make a call safe
// to repeat across processes and restarts, not just across this
// client's retries.
func WithIdempotencyKey(key string) CreateOption {
	return func(o *createOptions) { o.idempotencyKey = key }
}

// idempotencyKey returns the key one logical call sends on every attempt.
func idempotencyKey(opts []CreateOption) (*string, error) {
	var o createOptions
	for _, f := range opts {
		f(&o)
	}
	if o.idempotencyKey != "" {
		return &o.idempotencyKey, nil
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, fmt.Errorf("ferry: idempotency key: %w", err)
	}
	k := "fry-sdk-" + hex.EncodeToString(b[:])
	return &k, nil
}

// parseID reads one of Ferry's ids (a UUID).
func parseID(what, id string) (openapi_types.UUID, error) {
	var u openapi_types.UUID
	if err := u.UnmarshalText([]byte(id)); err != nil {
		return u, fmt.Errorf("ferry: %s id %q: %w", what, id, err)
	}
	return u, nil
}
