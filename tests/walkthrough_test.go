package tests

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestWalkthrough is the README's curl walk-through (A first delivered webhook): sign up, create an
// API key and an endpoint, send an event, and see it delivered, signed,
// and logged — through real PostgreSQL and Kafka.
func TestWalkthrough(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	rc := newReceiver(t, nil)
	_, api := signUp(t, f, "walk@example.com")

	var ep struct {
		ID     string `json:"id"`
		Secret string `json:"secret"`
	}
	api.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/hook", "description": "local receiver"}, &ep)

	var accepted struct {
		ID        string `json:"id"`
		Type      string `json:"type"`
		CreatedAt string `json:"created_at"`
	}
	api.must(202, "POST", "/events", map[string]any{"type": "invoice.paid", "data": map[string]any{"amount": 4200, "currency": "EUR"}}, &accepted)

	testenv.Eventually(t, 60*time.Second, func() bool { return len(rc.requests()) == 1 }, "the receiver got %d requests, want 1", len(rc.requests()))
	got := rc.requests()[0]

	wantBody := `{"id":"` + accepted.ID + `","type":"invoice.paid","created_at":"` + accepted.CreatedAt + `","data":{"amount":4200,"currency":"EUR"}}`
	if string(got.Body) != wantBody {
		t.Errorf("body\n got %s\nwant %s", got.Body, wantBody)
	}
	created, err := time.Parse("2006-01-02T15:04:05.000Z", accepted.CreatedAt)
	if err != nil {
		t.Fatalf("created_at %q is not in the envelope format: %v", accepted.CreatedAt, err)
	}
	for name, want := range map[string]string{
		"Webhook-Id":        accepted.ID,
		"X-Webhook-Id":      accepted.ID,
		"Webhook-Timestamp": strconv.FormatInt(created.Unix(), 10),
		"Content-Type":      "application/json",
		"User-Agent":        "Ferry/test",
	} {
		if v := got.Header.Get(name); v != want {
			t.Errorf("header %s = %q, want %q", name, v, want)
		}
	}
	wh, err := standardwebhooks.NewWebhook(ep.Secret)
	if err != nil {
		t.Fatalf("standard webhooks: %v", err)
	}
	if err := wh.Verify(got.Body, got.Header); err != nil {
		t.Errorf("independent Standard Webhooks verification failed: %v", err)
	}

	var attempts struct {
		Data []struct {
			AttemptNumber  int         `json:"attempt_number"`
			Outcome        string      `json:"outcome"`
			ResponseStatus int         `json:"response_status"`
			Trigger        string      `json:"trigger"`
			RequestHeaders http.Header `json:"request_headers"`
			ResponseBody   string      `json:"response_body"`
		} `json:"data"`
	}
	testenv.Eventually(t, 10*time.Second, func() bool {
		api.must(200, "GET", "/events/"+accepted.ID+"/attempts", nil, &attempts)
		return len(attempts.Data) == 1
	}, "attempt not logged")
	a := attempts.Data[0]
	if a.AttemptNumber != 1 || a.Outcome != "success" || a.ResponseStatus != 200 || a.Trigger != "initial" {
		t.Errorf("attempt = %+v, want #1 initial success 200", a)
	}
	if a.ResponseBody != "receiver says OK" {
		t.Errorf("response body logged as %q", a.ResponseBody)
	}

	var detail struct {
		Deliveries []struct {
			Status       string `json:"status"`
			AttemptCount int    `json:"attempt_count"`
			EndpointID   string `json:"endpoint_id"`
		} `json:"deliveries"`
		Data json.RawMessage `json:"data"`
	}
	api.must(200, "GET", "/events/"+accepted.ID, nil, &detail)
	if len(detail.Deliveries) != 1 || detail.Deliveries[0].Status != "succeeded" ||
		detail.Deliveries[0].AttemptCount != 1 || detail.Deliveries[0].EndpointID != ep.ID {
		t.Errorf("deliveries = %+v, want one succeeded after 1 attempt to %s", detail.Deliveries, ep.ID)
	}
}
