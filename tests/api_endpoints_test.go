package tests

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

type endpointView struct {
	ID                 string            `json:"id"`
	URL                string            `json:"url"`
	Description        string            `json:"description"`
	EventTypes         []string          `json:"event_types"`
	Enabled            bool              `json:"enabled"`
	DisabledReason     string            `json:"disabled_reason"`
	TimeoutSeconds     int               `json:"timeout_seconds"`
	RateLimitPerSecond *int              `json:"rate_limit_per_second"`
	MaxInFlight        int               `json:"max_in_flight"`
	Headers            map[string]string `json:"headers"`
	Secret             string            `json:"secret"`
}

// TestEndpointsAndEventsAPI walks the endpoint and event routes: every
// field, pagination, filters, secret reveal and rotation, and fan-out by
// subscribed type.
func TestEndpointsAndEventsAPI(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	rc := newReceiver(t, nil)
	viewerOwner, key := signUp(t, f, "ann@ep.example")
	viewer, _ := member(t, f, viewerOwner, "vic@ep.example", "viewer")

	var ep endpointView
	key.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/orders", "description": "orders",
		"event_types": []string{"order.created", "order.paid", "order.created"}, "timeout_seconds": 5,
		"rate_limit_per_second": 50, "max_in_flight": 1, "headers": map[string]string{"x-tenant-token": "abc"}}, &ep)
	if !strings.HasPrefix(ep.Secret, "whsec_") || ep.TimeoutSeconds != 5 || *ep.RateLimitPerSecond != 50 || ep.MaxInFlight != 1 ||
		len(ep.EventTypes) != 2 || ep.Headers["X-Tenant-Token"] != "abc" || !ep.Enabled {
		t.Fatalf("created %+v", ep)
	}
	var all endpointView
	key.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/all"}, &all)
	if all.TimeoutSeconds != 10 || all.MaxInFlight != 16 || all.RateLimitPerSecond != nil || len(all.EventTypes) != 0 {
		t.Errorf("defaults: %+v", all)
	}

	// Pagination: newest first, one per page.
	var page struct {
		Data       []endpointView `json:"data"`
		NextCursor *string        `json:"next_cursor"`
	}
	key.must(200, "GET", "/endpoints?limit=1", nil, &page)
	if len(page.Data) != 1 || page.Data[0].ID != all.ID || page.NextCursor == nil || page.Data[0].Secret != "" {
		t.Fatalf("page 1: %+v", page)
	}
	key.must(200, "GET", "/endpoints?limit=1&cursor="+url.QueryEscape(*page.NextCursor), nil, &page)
	if len(page.Data) != 1 || page.Data[0].ID != ep.ID || page.NextCursor != nil {
		t.Fatalf("page 2: %+v", page)
	}

	// Secrets: reveal, rotate (old one kept for the grace period); viewers may not.
	var sec struct {
		Secret   string `json:"secret"`
		Previous []struct {
			Secret    string `json:"secret"`
			ExpiresAt string `json:"expires_at"`
		} `json:"previous"`
	}
	key.must(200, "GET", "/endpoints/"+ep.ID+"/secret", nil, &sec)
	if sec.Secret != ep.Secret || len(sec.Previous) != 0 {
		t.Errorf("secret = %+v", sec)
	}
	key.must(200, "POST", "/endpoints/"+ep.ID+"/secret/rotate", nil, &sec)
	if sec.Secret == ep.Secret || !strings.HasPrefix(sec.Secret, "whsec_") || len(sec.Previous) != 1 || sec.Previous[0].Secret != ep.Secret {
		t.Errorf("after rotation = %+v", sec)
	}
	if r := viewer.raw("GET", "/endpoints/"+ep.ID+"/secret", nil, nil); r.Status != 403 {
		t.Errorf("viewer read the secret: %d", r.Status)
	}
	viewer.must(200, "GET", "/endpoints/"+ep.ID, nil, nil)

	// Fan-out follows subscriptions: order.paid → both, user.created → "all" only.
	var paid, user idOnly
	key.must(202, "POST", "/events", map[string]any{"type": "order.paid", "data": map[string]int{"n": 1}}, &paid)
	key.must(202, "POST", "/events", map[string]any{"type": "user.created", "data": map[string]int{"n": 2}}, &user)
	countDeliveries := func(id string) int {
		var d struct {
			Deliveries []struct{} `json:"deliveries"`
		}
		key.must(200, "GET", "/events/"+id, nil, &d)
		return len(d.Deliveries)
	}
	if n := countDeliveries(paid.ID); n != 2 {
		t.Errorf("order.paid has %d deliveries, want 2", n)
	}
	if n := countDeliveries(user.ID); n != 1 {
		t.Errorf("user.created has %d deliveries, want 1", n)
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return len(rc.requests()) == 3 }, "receiver got %d, want 3", len(rc.requests()))
	// A delivery's status changes in the attempt log's transaction, which
	// commits after the receiver answered: the status filter below needs
	// every event's attempts logged, not only the receiver's count.
	waitAttempts(t, key, paid.ID, 2)
	waitAttempts(t, key, user.ID, 1)

	// Event list filters and pagination.
	var events struct {
		Data       []idOnly `json:"data"`
		NextCursor *string  `json:"next_cursor"`
	}
	key.must(200, "GET", "/events?type=order.paid", nil, &events)
	if len(events.Data) != 1 || events.Data[0].ID != paid.ID {
		t.Errorf("type filter: %+v", events.Data)
	}
	key.must(200, "GET", "/events?status=succeeded&limit=1", nil, &events)
	if len(events.Data) != 1 || events.NextCursor == nil || events.Data[0].ID != user.ID {
		t.Fatalf("status filter page 1: %+v", events) // page 2 needs its cursor
	}
	key.must(200, "GET", "/events?status=succeeded&limit=1&cursor="+url.QueryEscape(*events.NextCursor), nil, &events)
	if len(events.Data) != 1 || events.Data[0].ID != paid.ID || events.NextCursor != nil {
		t.Errorf("status filter page 2: %+v", events)
	}
	future := url.QueryEscape(time.Now().Add(time.Hour).UTC().Format(time.RFC3339))
	key.must(200, "GET", "/events?since="+future, nil, &events)
	if len(events.Data) != 0 {
		t.Errorf("since the future: %d events", len(events.Data))
	}
	key.must(200, "GET", "/events?until="+future, nil, &events)
	if len(events.Data) != 2 {
		t.Errorf("until the future: %d events", len(events.Data))
	}
	var attempts struct {
		Data []attemptView `json:"data"`
	}
	key.must(200, "GET", "/endpoints/"+all.ID+"/attempts?outcome=success", nil, &attempts)
	if len(attempts.Data) != 2 {
		t.Errorf("endpoint attempts: %d, want 2", len(attempts.Data))
	}
	key.must(200, "GET", "/endpoints/"+all.ID+"/attempts?outcome=dropped", nil, &attempts)
	if len(attempts.Data) != 0 {
		t.Errorf("dropped attempts: %d", len(attempts.Data))
	}

	// Patch: disable, change types and headers, remove the rate limit.
	var patched endpointView
	key.must(200, "PATCH", "/endpoints/"+ep.ID, map[string]any{"enabled": false, "event_types": []string{},
		"headers": map[string]string{}, "rate_limit_per_second": 0, "description": "paused"}, &patched)
	if patched.Enabled || patched.DisabledReason == "" || len(patched.EventTypes) != 0 || len(patched.Headers) != 0 ||
		patched.RateLimitPerSecond != nil || patched.Description != "paused" || patched.URL != ep.URL {
		t.Errorf("patched = %+v", patched)
	}
	var again idOnly
	key.must(202, "POST", "/events", map[string]any{"type": "order.paid", "data": 3}, &again)
	if n := countDeliveries(again.ID); n != 1 {
		t.Errorf("a disabled endpoint got a delivery (%d)", n)
	}
	patched = endpointView{}
	key.must(200, "PATCH", "/endpoints/"+ep.ID, map[string]any{"enabled": true}, &patched)
	if !patched.Enabled || patched.DisabledReason != "" {
		t.Errorf("re-enabled = %+v", patched)
	}

	key.must(204, "DELETE", "/endpoints/"+ep.ID, nil, nil)
	for _, path := range []string{"/endpoints/" + ep.ID, "/endpoints/" + ep.ID + "/secret", "/endpoints/" + ep.ID + "/attempts"} {
		if r := key.raw("GET", path, nil, nil); r.Status != 404 {
			t.Errorf("GET %s after delete: %d", path, r.Status)
		}
	}
	if r := key.raw("DELETE", "/endpoints/"+ep.ID, nil, nil); r.Status != 404 {
		t.Errorf("second delete: %d", r.Status)
	}
}
