package load

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"time"
)

// Tenant is one Ferry tenant the harness drives: signed up through the
// API, with an API key for sending events.
type Tenant struct {
	Base string // Ferry's base URL, e.g. http://127.0.0.1:8088
	Key  string // API key
	http *http.Client
	jar  http.CookieJar
}

// NewHTTPClient returns a keep-alive client sized for conns concurrent
// requests to one host.
func NewHTTPClient(conns int, timeout time.Duration) *http.Client {
	tr := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConns:        conns + 16,
		MaxIdleConnsPerHost: conns + 16,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}
	return &http.Client{Transport: tr, Timeout: timeout}
}

// Setup signs a new tenant up on Ferry at base, moves it to a plan without
// small limits when billing offers one, and creates an API key.
// conns sizes the HTTP client for the sending workers.
func Setup(ctx context.Context, base, email string, conns int) (*Tenant, error) {
	jar, _ := cookiejar.New(nil)
	t := &Tenant{Base: base, http: NewHTTPClient(conns, 30*time.Second), jar: jar}
	sess := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	if _, err := t.call(ctx, sess, http.MethodPost, "/api/v1/auth/signup", map[string]string{
		"email": email, "password": "load test password 1", "organization": "Load " + email}, http.StatusCreated, nil); err != nil {
		return nil, err
	}
	// Billing may cap the free plan (10 events/s, 3 endpoints); ask for
	// the custom plan, and carry on if the route does not exist (yet).
	_, _ = t.call(ctx, sess, http.MethodPut, "/api/v1/billing/plan", map[string]string{"plan": "enterprise"}, 0, nil)
	var key struct {
		Key string `json:"key"`
	}
	if _, err := t.call(ctx, sess, http.MethodPost, "/api/v1/api-keys", map[string]string{"name": "load"}, http.StatusCreated, &key); err != nil {
		return nil, err
	}
	t.Key = key.Key
	return t, nil
}

// EndpointSpec is one endpoint to create.
type EndpointSpec struct {
	URL            string
	MaxInFlight    int
	TimeoutSeconds int
	EventTypes     []string
}

// CreateEndpoint creates an endpoint with the API key and returns its id.
func (t *Tenant) CreateEndpoint(ctx context.Context, e EndpointSpec) (string, error) {
	body := map[string]any{"url": e.URL, "description": "load test"}
	if e.MaxInFlight > 0 {
		body["max_in_flight"] = e.MaxInFlight
	}
	if e.TimeoutSeconds > 0 {
		body["timeout_seconds"] = e.TimeoutSeconds
	}
	if len(e.EventTypes) > 0 {
		body["event_types"] = e.EventTypes
	}
	var out struct {
		ID string `json:"id"`
	}
	if _, err := t.call(ctx, t.http, http.MethodPost, "/api/v1/endpoints", body, http.StatusCreated, &out); err != nil {
		return "", err
	}
	return out.ID, nil
}

// call sends a JSON request (with the CSRF token for cookie sessions, the
// API key otherwise) and decodes the response into out. want 0 accepts any
// status.
func (t *Tenant) call(ctx context.Context, c *http.Client, method, path string, in any, want int, out any) (int, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return 0, err
	}
	req, err := http.NewRequestWithContext(ctx, method, t.Base+path, bytes.NewReader(b))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.Jar != nil {
		u, _ := url.Parse(t.Base)
		for _, ck := range c.Jar.Cookies(u) {
			if ck.Name == "ferry_csrf" {
				req.Header.Set("X-CSRF-Token", ck.Value)
			}
		}
	} else if t.Key != "" {
		req.Header.Set("Authorization", "Bearer "+t.Key)
	}
	res, err := c.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if want != 0 && res.StatusCode != want {
		return res.StatusCode, fmt.Errorf("%s %s: status %d, want %d: %s", method, path, res.StatusCode, want, bytes.TrimSpace(raw))
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return res.StatusCode, fmt.Errorf("%s %s: decode: %w", method, path, err)
		}
	}
	return res.StatusCode, nil
}
