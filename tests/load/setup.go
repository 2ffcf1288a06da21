package load

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
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

// Setup signs a new tenant up on Ferry at base, as a person does (the
// form, then the link mailed to the address, read from the local mail
// catcher: scripts/mail.sh), and creates an API key.
// conns sizes the HTTP client for the sending workers.
//
// When ferryDB (Ferry's database URL) is set, the tenant is moved to the
// enterprise plan with an operator's override far above any load we send,
// the way an operator sets custom terms (docs/billing.md: plans
// and overrides are edited in the database). A load test measures Ferry, not the free
// plan's 10 events/s; without ferryDB the tenant keeps the free plan.
func Setup(ctx context.Context, base, email string, conns int, ferryDB string) (*Tenant, error) {
	jar, _ := cookiejar.New(nil)
	t := &Tenant{Base: base, http: NewHTTPClient(conns, 30*time.Second), jar: jar}
	sess := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	var me struct {
		Tenant struct {
			ID string `json:"id"`
		} `json:"tenant"`
	}
	if _, err := t.call(ctx, sess, http.MethodPost, "/api/v1/auth/signup", map[string]string{
		"email": email, "password": "load test password 1", "organization": "Load " + email}, http.StatusAccepted, nil); err != nil {
		return nil, err
	}
	tok, err := mailedToken(ctx, email, "finish-signup")
	if err != nil {
		return nil, err
	}
	if _, err := t.call(ctx, sess, http.MethodPost, "/api/v1/auth/signup/confirm", map[string]string{"token": tok, "password": "load test password 1"},
		http.StatusCreated, &me); err != nil {
		return nil, err
	}
	if ferryDB != "" {
		if err := grantLoadLimits(ctx, ferryDB, me.Tenant.ID); err != nil {
			return nil, err
		}
	}
	var key struct {
		Key string `json:"key"`
	}
	if _, err := t.call(ctx, sess, http.MethodPost, "/api/v1/api-keys", map[string]string{"name": "load"}, http.StatusCreated, &key); err != nil {
		return nil, err
	}
	t.Key = key.Key
	return t, nil
}

// grantLoadLimits puts the tenant on enterprise with limits no load test
// reaches, recording the change as an operator would.
func grantLoadLimits(ctx context.Context, ferryDB, tenantID string) error {
	db, err := sql.Open("pgx", ferryDB)
	if err != nil {
		return fmt.Errorf("open ferry database: %w", err)
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("grant load limits: %w", err)
	}
	defer tx.Rollback()
	stmts := []string{
		`INSERT INTO plan_overrides (tenant_id, plan, events_per_month, max_endpoints, events_per_second)
			VALUES ($1, 'enterprise', 1000000000000, 100000, 1000000)
			ON CONFLICT (tenant_id, plan) DO UPDATE SET events_per_month = EXCLUDED.events_per_month,
				max_endpoints = EXCLUDED.max_endpoints, events_per_second = EXCLUDED.events_per_second`,
		`INSERT INTO plan_changes (tenant_id, from_plan, to_plan, actor, changed_at)
			SELECT id, plan, 'enterprise', 'operator:load-test', now() FROM tenants WHERE id = $1`,
		`UPDATE tenants SET plan = 'enterprise' WHERE id = $1`,
	}
	for _, q := range stmts {
		if _, err := tx.ExecContext(ctx, q, tenantID); err != nil {
			return fmt.Errorf("grant load limits: %w", err)
		}
	}
	return tx.Commit()
}

// EndpointSpec is one endpoint to create.
type EndpointSpec struct {
	URL            string
	MaxInFlight    int
	TimeoutSeconds int
	EventTypes     []string
	// Format is "raw" for an endpoint that receives a source's request
	// bodies as they came; empty is the envelope.
	Format string
	// Customer is the uid of the customer the endpoint belongs to.
	Customer string
}

// CreateCustomer creates (or updates) the customer uid.
func (t *Tenant) CreateCustomer(ctx context.Context, uid string) error {
	_, err := t.call(ctx, t.http, http.MethodPut, "/api/v1/customers/"+uid, map[string]any{"name": uid}, http.StatusCreated, nil)
	return err
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
	if e.Format != "" {
		body["format"] = e.Format
	}
	if e.Customer != "" {
		body["customer"] = e.Customer
	}
	var out struct {
		ID string `json:"id"`
	}
	if _, err := t.call(ctx, t.http, http.MethodPost, "/api/v1/endpoints", body, http.StatusCreated, &out); err != nil {
		return "", err
	}
	return out.ID, nil
}

// CreateGitHubSource creates an inbound source as a GitHub webhook needs
// it (X-Hub-Signature-256 with secret, the event type from
// X-GitHub-Event, resends dropped by X-GitHub-Delivery) that accepts
// perSecond requests a second, and returns its ingest URL.
func (t *Tenant) CreateGitHubSource(ctx context.Context, secret string, perSecond int) (string, error) {
	var out struct {
		IngestURL string `json:"ingest_url"`
	}
	_, err := t.call(ctx, t.http, http.MethodPost, "/api/v1/sources", map[string]any{"name": "load",
		"verification": map[string]string{"type": "github", "secret": secret},
		"event_type":   map[string]string{"header": "X-GitHub-Event"}, "dedupe": map[string]string{"header": "X-GitHub-Delivery"},
		"rate_limit_per_second": perSecond}, http.StatusCreated, &out)
	return out.IngestURL, err
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
