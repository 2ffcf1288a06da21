package fault

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/load"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestFaultKillWithLeasedMessages: kill -9 the only Ferry process while
// a consumer holds leases on a pull queue, restart it, and every
// accepted message is pulled again once its lease runs out and is acked:
// leases live in PostgreSQL, so nothing is lost.
func TestFaultKillWithLeasedMessages(t *testing.T) {
	w := newWorld(t)
	p := startFerry(t, w, "queue-kill")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	tenant, err := load.Setup(ctx, p.URL(), testenv.Name("fault-queue")+"@example.com", 4, w.dbURL)
	if err != nil {
		t.Fatalf("set up tenant: %v", err)
	}
	call := func(method, path string, body, out any) int {
		t.Helper()
		b, _ := json.Marshal(body)
		req, err := http.NewRequestWithContext(ctx, method, p.URL()+"/api/v1"+path, bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+tenant.Key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer res.Body.Close()
		raw, _ := io.ReadAll(res.Body)
		if out != nil {
			if err := json.Unmarshal(raw, out); err != nil {
				t.Fatalf("%s %s: %d %s", method, path, res.StatusCode, raw)
			}
		}
		return res.StatusCode
	}
	var q struct {
		ID string `json:"id"`
	}
	if call("POST", "/endpoints", map[string]any{"kind": "queue"}, &q) != 201 {
		t.Fatal("create queue")
	}
	const n = 60
	sent := map[string]bool{}
	for i := range n {
		var ev struct {
			ID string `json:"id"`
		}
		if call("POST", "/events", map[string]any{"type": "fault.queue", "data": map[string]int{"n": i}}, &ev) != 202 {
			t.Fatal("send event")
		}
		sent[ev.ID] = true
	}
	type pulled struct {
		Data []struct {
			Receipt string `json:"receipt"`
			Event   struct {
				ID string `json:"id"`
			} `json:"event"`
		} `json:"data"`
	}
	var first pulled
	call("POST", "/queues/"+q.ID+"/pull", map[string]any{"max": 40, "visibility_seconds": 3}, &first)
	if len(first.Data) != 40 {
		t.Fatalf("leased %d of 40", len(first.Data))
	}
	p.kill9()
	p.restart()

	acked := map[string]bool{}
	deadline := time.Now().Add(60 * time.Second)
	for len(acked) < n && time.Now().Before(deadline) {
		var got pulled
		call("POST", "/queues/"+q.ID+"/pull", map[string]any{"max": 100, "wait_seconds": 2, "visibility_seconds": 60}, &got)
		var receipts []string
		for _, m := range got.Data {
			acked[m.Event.ID] = true
			receipts = append(receipts, m.Receipt)
		}
		if len(receipts) > 0 {
			if st := call("POST", "/queues/"+q.ID+"/ack", map[string]any{"receipts": receipts}, nil); st != 200 {
				t.Fatalf("ack: %d", st)
			}
		}
	}
	for id := range sent {
		if !acked[id] {
			t.Errorf("event %s was never pulled after the crash", id)
		}
	}
	var st struct {
		Depth    int `json:"depth"`
		InFlight int `json:"in_flight"`
	}
	call("GET", "/queues/"+q.ID, nil, &st)
	if st.Depth != 0 || st.InFlight != 0 {
		t.Errorf("queue after draining: %+v", st)
	}
	t.Logf("%d messages, 40 leased at the crash, all acked after restart", n)
}
