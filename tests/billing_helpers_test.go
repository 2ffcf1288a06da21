package tests

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// billingView is the part of GET /api/v1/billing these tests read.
type billingView struct {
	TenantID string `json:"tenant_id"`
	Plan     struct {
		Name            string `json:"name"`
		EventsPerMonth  int64  `json:"events_per_month"`
		MaxEndpoints    int    `json:"max_endpoints"`
		RetentionDays   int    `json:"retention_days"`
		EventsPerSecond int    `json:"events_per_second"`
		HardCap         bool   `json:"hard_cap"`
		BaseFeeMinor    int64  `json:"base_fee_minor"`
		Custom          bool   `json:"custom"`
	} `json:"plan"`
	Usage struct {
		Period   string `json:"period"`
		Events   int64  `json:"events"`
		Attempts int64  `json:"attempts"`
	} `json:"usage"`
	Endpoints      int64 `json:"endpoints"`
	OverageEvents  int64 `json:"overage_events"`
	QuotaExhausted bool  `json:"quota_exhausted"`
	Plans          []struct {
		Name string `json:"name"`
	} `json:"plans"`
	Invoices []invoiceView `json:"invoices"`
}

type invoiceView struct {
	ID         string `json:"id"`
	Period     string `json:"period"`
	TotalMinor int64  `json:"total_minor"`
	Status     string `json:"status"`
	Lines      []struct {
		Kind        string `json:"kind"`
		Quantity    int64  `json:"quantity"`
		AmountMinor int64  `json:"amount_minor"`
	} `json:"lines"`
}

// tenantID returns the session's tenant id.
func tenantID(t *testing.T, session *client) string {
	t.Helper()
	var me struct {
		Tenant struct {
			ID string `json:"id"`
		} `json:"tenant"`
	}
	session.must(200, "GET", "/me", nil, &me)
	return me.Tenant.ID
}

// setOverride gives a tenant custom terms on plan, as staff would for an
// enterprise contract (columns of plan_overrides).
func setOverride(t *testing.T, f *ferry, tenantID, plan string, eventsPerMonth, eventsPerSecond int64) {
	t.Helper()
	db := testenv.DB(t, f.Cfg.DatabaseURL)
	_, err := db.Exec(`INSERT INTO plan_overrides (tenant_id, plan, events_per_month, events_per_second) VALUES ($1, $2, $3, $4)
		ON CONFLICT (tenant_id, plan) DO UPDATE SET events_per_month = $3, events_per_second = $4`,
		tenantID, plan, eventsPerMonth, eventsPerSecond)
	if err != nil {
		t.Fatalf("set plan override: %v", err)
	}
}

// addMember inserts a user with role into the tenant and returns a
// logged-in session for it.
func addMember(t *testing.T, f *ferry, tenantID, email, role string) *client {
	t.Helper()
	hash, err := bcrypt.GenerateFromPassword([]byte("correct horse battery"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	db := testenv.DB(t, f.Cfg.DatabaseURL)
	if _, err := db.Exec(`INSERT INTO users (id, tenant_id, email, password_hash, role) VALUES (gen_random_uuid(), $1, $2, $3, $4)`,
		tenantID, email, string(hash), role); err != nil {
		t.Fatalf("add member: %v", err)
	}
	return login(t, f, email, "correct horse battery")
}

// sendEvent posts one event with the client's API key and returns the
// status, error code and Retry-After header. Safe for concurrent use.
func sendEventStatus(t *testing.T, c *client, typ string) (status int, code, retryAfter string) {
	t.Helper()
	req, err := http.NewRequest("POST", c.base+"/events", strings.NewReader(`{"type":"`+typ+`","data":{"n":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	res, err := c.http.Do(req)
	if err != nil {
		t.Errorf("send event: %v", err)
		return 0, "", ""
	}
	defer res.Body.Close()
	var body struct {
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	_ = json.NewDecoder(res.Body).Decode(&body)
	return res.StatusCode, body.Error.Code, res.Header.Get("Retry-After")
}

func secondsToNextMonth() int {
	now := time.Now().UTC()
	next := time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC)
	return int(next.Sub(now).Seconds())
}

// liftLimits gives the session's tenant generous custom terms on its
// current (free) plan, for tests that send bursts or create many
// endpoints and are not about billing.
func liftLimits(t *testing.T, f *ferry, session *client) {
	t.Helper()
	db := testenv.DB(t, f.Cfg.DatabaseURL)
	_, err := db.Exec(`INSERT INTO plan_overrides (tenant_id, plan, events_per_month, max_endpoints, events_per_second,
			max_sources, captured_bytes_per_month)
		SELECT id, plan, 1000000000, 100000, 1000000, 10000, 1099511627776 FROM tenants WHERE id = $1
		ON CONFLICT (tenant_id, plan) DO UPDATE SET events_per_month = EXCLUDED.events_per_month,
			max_endpoints = EXCLUDED.max_endpoints, events_per_second = EXCLUDED.events_per_second,
			max_sources = EXCLUDED.max_sources, captured_bytes_per_month = EXCLUDED.captured_bytes_per_month`, tenantID(t, session))
	if err != nil {
		t.Fatalf("lift plan limits: %v", err)
	}
}
