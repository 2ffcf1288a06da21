package tests

import (
	"bytes"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

type attemptView struct {
	DeliveryID    string `json:"delivery_id"`
	EndpointID    string `json:"endpoint_id"`
	AttemptNumber int    `json:"attempt_number"`
	Trigger       string `json:"trigger"`
	Actor         string `json:"actor"`
	Outcome       string `json:"outcome"`
}

type replayJobView struct {
	ID    string `json:"id"`
	State string `json:"state"`
	Total int    `json:"total"`
	Done  int    `json:"done"`
	Actor string `json:"actor"`
}

func waitAttempts(t *testing.T, c *client, eventID string, n int) []attemptView {
	t.Helper()
	var out struct {
		Data []attemptView `json:"data"`
	}
	testenv.Eventually(t, 30*time.Second, func() bool {
		c.must(200, "GET", "/events/"+eventID+"/attempts", nil, &out)
		return len(out.Data) >= n
	}, "event %s: %d attempts logged, want %d", eventID, len(out.Data), n)
	return out.Data
}

// TestReplayEndToEnd replays one event, one delivery and a bulk job
// through the real relay, Kafka and dispatcher: the receiver gets the
// same bytes and webhook-id each time, and every replayed attempt is
// logged with trigger "replay" and who asked.
func TestReplayEndToEnd(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	var failing atomic.Bool
	failing.Store(true)
	rc := newReceiver(t, func(int, received) int {
		if failing.Load() {
			return 400 // dropped: no retries, replayable
		}
		return 200
	})
	session, key := signUp(t, f, "ann@replay.example")
	var keys struct {
		Data []struct {
			Prefix string `json:"prefix"`
		} `json:"data"`
	}
	session.must(200, "GET", "/api-keys", nil, &keys)
	var ep idOnly
	key.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/hook"}, &ep)

	var ev idOnly
	key.must(202, "POST", "/events", map[string]any{"type": "invoice.paid", "data": map[string]int{"amount": 1}}, &ev)
	first := waitAttempts(t, key, ev.ID, 1)
	if first[0].Outcome != "dropped" {
		t.Fatalf("first attempt = %+v, want dropped", first[0])
	}
	failing.Store(false)

	// Replay the event (all endpoints) with the API key.
	var res struct {
		EventID    string   `json:"event_id"`
		Deliveries []string `json:"deliveries"`
	}
	key.must(202, "POST", "/events/"+ev.ID+"/replay", nil, &res)
	if res.EventID != ev.ID || len(res.Deliveries) != 1 || res.Deliveries[0] != first[0].DeliveryID {
		t.Fatalf("replay result = %+v", res)
	}
	got := waitAttempts(t, key, ev.ID, 2)
	if a := got[1]; a.AttemptNumber != 2 || a.Trigger != "replay" || a.Actor != keys.Data[0].Prefix || a.Outcome != "success" {
		t.Errorf("replayed attempt = %+v, want #2 replay by %s, success", a, keys.Data[0].Prefix)
	}
	// Replay the one delivery from the portal.
	session.must(202, "POST", "/deliveries/"+first[0].DeliveryID+"/replay", nil, nil)
	got = waitAttempts(t, key, ev.ID, 3)
	if a := got[2]; a.AttemptNumber != 3 || a.Trigger != "replay" || a.Actor != "ann@replay.example" {
		t.Errorf("delivery replay attempt = %+v, want #3 by ann@replay.example", a)
	}
	reqs := rc.requests()
	if len(reqs) != 3 {
		t.Fatalf("receiver got %d requests, want 3", len(reqs))
	}
	for _, r := range reqs[1:] {
		if !bytes.Equal(r.Body, reqs[0].Body) || r.Header.Get("Webhook-Id") != ev.ID ||
			r.Header.Get("Webhook-Signature") != reqs[0].Header.Get("Webhook-Signature") {
			t.Errorf("replay differs from the original:\n%s %v\n%s %v", reqs[0].Body, reqs[0].Header, r.Body, r.Header)
		}
	}

	// Replay to one other endpoint that never had a delivery.
	rc2 := newReceiver(t, nil)
	var ep2 idOnly
	key.must(201, "POST", "/endpoints", map[string]any{"url": rc2.URL + "/two"}, &ep2)
	key.must(202, "POST", "/events/"+ev.ID+"/replay", map[string]string{"endpoint_id": ep2.ID}, nil)
	testenv.Eventually(t, 30*time.Second, func() bool { return len(rc2.requests()) == 1 }, "second endpoint got nothing")
	if !bytes.Equal(rc2.requests()[0].Body, reqs[0].Body) {
		t.Error("replay to another endpoint sent other bytes")
	}

	// Bulk: five more dropped deliveries, then replay "all dropped to ep".
	failing.Store(true)
	var bulkEvents []string
	for range 5 {
		var e idOnly
		key.must(202, "POST", "/events", map[string]any{"type": "order.failed", "data": map[string]int{"n": 1}}, &e)
		bulkEvents = append(bulkEvents, e.ID)
	}
	for _, id := range bulkEvents {
		waitAttempts(t, key, id, 2) // one to each endpoint
	}
	failing.Store(false)
	var job replayJobView
	session.must(202, "POST", "/replays", map[string]string{"endpoint_id": ep.ID, "status": "dropped", "event_type": "order.failed"}, &job)
	if job.ID == "" || job.State != "queued" || job.Actor != "ann@replay.example" {
		t.Fatalf("job = %+v", job)
	}
	testenv.Eventually(t, 30*time.Second, func() bool {
		key.must(200, "GET", "/replays/"+job.ID, nil, &job)
		return job.State == "completed"
	}, "bulk replay did not complete: %+v", job)
	if job.Total != 5 || job.Done != 5 {
		t.Errorf("progress = %d/%d, want 5/5", job.Done, job.Total)
	}
	for _, id := range bulkEvents {
		got := waitAttempts(t, key, id, 3)
		last := got[len(got)-1]
		if last.Trigger != "replay" || last.EndpointID != ep.ID || last.Outcome != "success" {
			t.Errorf("event %s: last attempt %+v, want a successful replay to %s", id, last, ep.ID)
		}
	}
	var list struct {
		Data []replayJobView `json:"data"`
	}
	key.must(200, "GET", "/replays", nil, &list)
	if len(list.Data) != 1 || list.Data[0].ID != job.ID {
		t.Errorf("replay list = %+v", list.Data)
	}
	// Cancelling a finished job leaves it as it is.
	key.must(200, "POST", "/replays/"+job.ID+"/cancel", nil, &job)
	if job.State != "completed" {
		t.Errorf("cancel of a completed job gave %s", job.State)
	}
	// Bad replays.
	if r := key.raw("POST", "/replays", []byte(`{"status":"lost"}`), nil); r.Status != 422 || r.apiError(t).Error.Field != "status" {
		t.Errorf("bad status: %d %s", r.Status, r.Body)
	}
	if r := key.raw("POST", "/events/"+ev.ID+"/replay", []byte(`{"endpoint_id":"nope"}`), nil); r.Status != 422 || r.apiError(t).Error.Field != "endpoint_id" {
		t.Errorf("bad endpoint id: %d %s", r.Status, r.Body)
	}
}
