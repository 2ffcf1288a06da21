package ferrywebhooks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// PortalSessionOptions ask Ferry for a customer portal session
// (docs/customer-portal.md in the Ferry repository).
type PortalSessionOptions struct {
	// Capabilities beyond "view": "manage_endpoints", "view_secret",
	// "rotate_secret", "replay", "send_test", "manage_routing".
	Capabilities []string `json:"capabilities,omitempty"`
	// EndpointIDs, if set, shows only these of the customer's endpoints.
	EndpointIDs []string `json:"endpoint_ids,omitempty"`
	ReadOnly    bool     `json:"read_only,omitempty"`
	// TTL is how long the session lives (60 s – 24 h; zero: 1 h).
	TTL time.Duration `json:"-"`
	// ExternalUserID and ExternalUserEmail name the customer's user;
	// every action is audited with them. The id is required.
	ExternalUserID    string `json:"-"`
	ExternalUserEmail string `json:"-"`
}

// PortalSession is a minted session: open URL (usually in an iframe,
// with embed.js) within two minutes, once.
type PortalSession struct {
	SessionID string    `json:"session_id"`
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expires_at"`
}

// PortalClient mints customer portal sessions from the tenant's backend.
type PortalClient struct {
	// BaseURL is Ferry's public URL, e.g. https://ferry.example.com.
	BaseURL string
	// APIKey is the tenant's API key (fry_live_…).
	APIKey string
	// HTTPClient is used for requests; nil is a client with a 10 s timeout.
	HTTPClient *http.Client
}

// PortalSession mints a portal session for the tenant's customer uid.
// Errors: *APIError for an answer other than 201 (e.g. 404: no such
// customer; 422: a bad option), or the transport's error.
func (c *PortalClient) PortalSession(ctx context.Context, customerUID string, opt PortalSessionOptions) (PortalSession, error) {
	body := struct {
		PortalSessionOptions
		TTLSeconds   int `json:"ttl_seconds,omitempty"`
		ExternalUser struct {
			ID    string `json:"id"`
			Email string `json:"email,omitempty"`
		} `json:"external_user"`
	}{PortalSessionOptions: opt, TTLSeconds: int(opt.TTL / time.Second)}
	body.ExternalUser.ID, body.ExternalUser.Email = opt.ExternalUserID, opt.ExternalUserEmail
	b, err := json.Marshal(body)
	if err != nil {
		return PortalSession{}, fmt.Errorf("encode portal session request: %w", err)
	}
	u := strings.TrimRight(c.BaseURL, "/") + "/api/v1/customers/" + url.PathEscape(customerUID) + "/portal-sessions"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(b))
	if err != nil {
		return PortalSession{}, fmt.Errorf("portal session request: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.APIKey)
	req.Header.Set("Content-Type", "application/json")
	hc := c.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	res, err := hc.Do(req)
	if err != nil {
		return PortalSession{}, fmt.Errorf("portal session request: %w", err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return PortalSession{}, fmt.Errorf("read portal session answer: %w", err)
	}
	if res.StatusCode != http.StatusCreated {
		apiErr := &APIError{Status: res.StatusCode}
		var e struct {
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
				Field   string `json:"field"`
			} `json:"error"`
		}
		if json.Unmarshal(raw, &e) == nil {
			apiErr.Code, apiErr.Message, apiErr.Field = e.Error.Code, e.Error.Message, e.Error.Field
		}
		return PortalSession{}, apiErr
	}
	var out PortalSession
	if err := json.Unmarshal(raw, &out); err != nil {
		return PortalSession{}, fmt.Errorf("decode portal session: %w", err)
	}
	return out, nil
}

// APIError is an error answer of Ferry's API.
type APIError struct {
	Status  int
	Code    string
	Message string
	Field   string
}

func (e *APIError) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("ferry: %d %s (%s): %s", e.Status, e.Code, e.Field, e.Message)
	}
	return fmt.Sprintf("ferry: %d %s: %s", e.Status, e.Code, e.Message)
}
