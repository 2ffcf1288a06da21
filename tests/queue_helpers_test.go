package tests

import (
	"fmt"
	"testing"

	"github.com/ferry-dev/ferry/delivery/webhook"
)

// queueMessage is one pulled message.
type queueMessage struct {
	ID      string            `json:"id"`
	Receipt string            `json:"receipt"`
	Attempt int               `json:"attempt"`
	Body    string            `json:"body"`
	Headers map[string]string `json:"headers"`
	Event   struct {
		ID        string `json:"id"`
		Type      string `json:"type"`
		CreatedAt string `json:"created_at"`
		Data      any    `json:"data"`
	} `json:"event"`
}

type receiptResult struct {
	Receipt string `json:"receipt"`
	Status  string `json:"status"`
}

type queueStats struct {
	Depth            int `json:"depth"`
	InFlight         int `json:"in_flight"`
	OldestAgeSeconds int `json:"oldest_age_seconds"`
	Dead             int `json:"dead"`
}

// createQueue makes a queue endpoint subscribed to typ only, so queues of
// one tenant in parallel subtests do not see each other's events.
func createQueue(t *testing.T, api *client, typ string, extra map[string]any) endpointOut {
	t.Helper()
	body := map[string]any{"kind": "queue", "event_types": []string{typ}}
	for k, v := range extra {
		body[k] = v
	}
	return createEndpoint(t, api, body)
}

// pull leases messages; in holds max, wait_seconds, visibility_seconds.
func pull(t *testing.T, c *client, queueID string, in map[string]any) []queueMessage {
	t.Helper()
	var out struct {
		Data []queueMessage `json:"data"`
	}
	c.must(200, "POST", "/queues/"+queueID+"/pull", in, &out)
	return out.Data
}

// settle acks, nacks or rejects (verb) receipts with extra fields.
func settle(t *testing.T, c *client, queueID, verb string, extra map[string]any, receipts ...string) []receiptResult {
	t.Helper()
	body := map[string]any{"receipts": receipts}
	for k, v := range extra {
		body[k] = v
	}
	var out struct {
		Data []receiptResult `json:"data"`
	}
	c.must(200, "POST", "/queues/"+queueID+"/"+verb, body, &out)
	if len(out.Data) != len(receipts) {
		t.Fatalf("%s: %d results for %d receipts", verb, len(out.Data), len(receipts))
	}
	return out.Data
}

func stats(t *testing.T, c *client, queueID string) queueStats {
	t.Helper()
	var st queueStats
	c.must(200, "GET", "/queues/"+queueID, nil, &st)
	return st
}

// verifyMessage checks that a pulled message carries the envelope and the
// signature a push would: the receiver SDKs verify it the same way.
func verifyMessage(t *testing.T, m queueMessage, secret string) {
	t.Helper()
	want := fmt.Sprintf(`{"id":"%s","type":"%s","created_at":"%s","data":`, m.Event.ID, m.Event.Type, m.Event.CreatedAt)
	if len(m.Body) < len(want) || m.Body[:len(want)] != want {
		t.Errorf("body %s does not start with the envelope %s", m.Body, want)
	}
	key, err := webhook.SecretKey(secret)
	if err != nil {
		t.Fatal(err)
	}
	if m.Headers["webhook-id"] != m.Event.ID || m.Headers["X-Webhook-Id"] != m.Event.ID {
		t.Errorf("headers %v do not name event %s", m.Headers, m.Event.ID)
	}
	var ts int64
	if _, err := fmt.Sscan(m.Headers["webhook-timestamp"], &ts); err != nil {
		t.Fatalf("webhook-timestamp %q: %v", m.Headers["webhook-timestamp"], err)
	}
	if !webhook.Verify(key, m.Event.ID, ts, []byte(m.Body), m.Headers["webhook-signature"]) {
		t.Errorf("signature %q does not verify over the body", m.Headers["webhook-signature"])
	}
}
