package tests

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestInboundEventsAfterTheAnswer: a provider is answered once its
// request is captured, and the event follows. What the plan refuses is
// kept as refused and can be replayed after an upgrade; what the
// tenant's rate of events holds back is made as the rate allows; and a
// capture whose event was never made (the process died in between) is
// found by the sweeper and forwarded.
func TestInboundEventsAfterTheAnswer(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))

	t.Run("quota", func(t *testing.T) {
		owner, key := signUpLimited(t, f, "in-quota@example.com")
		setOverride(t, f, tenantID(t, owner), "free", 2, 1000)
		src := createSource(t, key, map[string]any{"name": "quota", "verification": map[string]string{"type": "none"},
			"event_type": map[string]string{"value": "quota.event"}})
		for i := range 3 {
			if res := postIngest(t, src.IngestURL, []byte(fmt.Sprintf(`{"n":%d}`, i)), nil); res.StatusCode != 200 {
				t.Fatalf("request %d: %d %s", i, res.StatusCode, res.Body)
			}
		}
		verified, refused := listCaptured(t, key, src.ID, "verified"), listCaptured(t, key, src.ID, "refused")
		if len(verified) != 2 || len(refused) != 1 {
			t.Fatalf("%d verified and %d refused captures, want 2 and 1", len(verified), len(refused))
		}
		if r := refused[0]; r.EventID != nil || !strings.Contains(r.Reason, "used up") {
			t.Errorf("refused capture: event %v, reason %q", r.EventID, r.Reason)
		}
		owner.must(200, "PUT", "/billing/plan", map[string]string{"plan": "pro"}, nil)
		var replay struct {
			EventID string `json:"event_id"`
		}
		key.must(202, "POST", "/sources/"+src.ID+"/requests/"+refused[0].ID+"/replay", nil, &replay)
		if replay.EventID == "" {
			t.Errorf("replay of the refused capture made no event")
		}
	})

	t.Run("tenant rate", func(t *testing.T) {
		owner, key := signUpLimited(t, f, "in-rate@example.com")
		setOverride(t, f, tenantID(t, owner), "free", 10000, 1)
		src := createSource(t, key, map[string]any{"name": "rate", "verification": map[string]string{"type": "none"},
			"event_type": map[string]string{"value": "rate.event"}})
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if res := postIngest(t, src.IngestURL, []byte(fmt.Sprintf(`{"n":%d}`, i)), nil); res.StatusCode != 200 {
					t.Errorf("request %d: %d %s", i, res.StatusCode, res.Body)
				}
			}()
		}
		wg.Wait()
		// One event a second: all four within the helper's 30 s.
		caps := listCaptured(t, key, src.ID, "")
		events := map[string]bool{}
		for _, c := range caps {
			if c.Status != "verified" || c.EventID == nil {
				t.Errorf("capture %s: %s, event %v", c.ID, c.Status, c.EventID)
				continue
			}
			events[*c.EventID] = true
		}
		if len(caps) != 4 || len(events) != 4 {
			t.Errorf("%d captures made %d events, want 4 and 4", len(caps), len(events))
		}
	})

	t.Run("sweep", func(t *testing.T) {
		owner, key := signUp(t, f, "in-sweep@example.com")
		rc := newReceiver(t, nil)
		key.must(201, "POST", "/endpoints", map[string]any{"url": rc.URL + "/raw", "format": "raw", "event_types": []string{"sweep.event"}}, nil)
		src := createSource(t, key, map[string]any{"name": "sweep", "verification": map[string]string{"type": "none"},
			"event_type": map[string]string{"value": "sweep.event"}})
		// Captures whose event was never made: one committed a minute ago
		// (the process died right after), one just now (not yet the
		// sweeper's: its own process would make it).
		body := []byte("plain \xff bytes")
		db := testenv.DB(t, f.Cfg.DatabaseURL)
		insert := func(age string) string {
			var id string
			if err := db.QueryRow(`WITH c AS (INSERT INTO source_requests (id, tenant_id, source_id, received_at, method, path, headers,
					content_type, body, status, event_id)
				VALUES (gen_random_uuid(), $1, $2, now() - $4::interval, 'POST', '/in/{token}', '{"Content-Type":["text/plain"]}',
					'text/plain', $3, 'verified', gen_random_uuid()) RETURNING id, received_at)
				INSERT INTO source_requests_pending (request_id, received_at) SELECT id, received_at FROM c RETURNING request_id`,
				tenantID(t, owner), src.ID, body, age).Scan(&id); err != nil {
				t.Fatalf("insert capture: %v", err)
			}
			return id
		}
		old, young := insert("1 minute"), insert("0 seconds")
		// A pending row whose capture is gone (its tenant was deleted) is
		// forgotten.
		orphan := uuid.NewString()
		if _, err := db.Exec(`INSERT INTO source_requests_pending (request_id, received_at) VALUES ($1, now() - interval '1 minute')`,
			orphan); err != nil {
			t.Fatalf("insert orphan: %v", err)
		}
		if d := capturedDetail(t, key, src.ID, young); d.Status != "received" || d.EventID != nil {
			t.Errorf("pending capture: %s, event %v; want received without an event", d.Status, d.EventID)
		}
		var e apiError
		if code := key.do("POST", "/sources/"+src.ID+"/requests/"+young+"/replay", nil, &e); code != 422 || !strings.Contains(e.Error.Message, "still being made") {
			t.Errorf("replay of a received capture: %d %+v", code, e)
		}
		testenv.Eventually(t, 30*time.Second, func() bool { return len(rc.requests()) == 2 }, "the swept captures were not forwarded")
		for _, got := range rc.requests() {
			if !bytes.Equal(got.Body, body) || got.Header.Get("Content-Type") != "text/plain" {
				t.Errorf("forwarded %q (%s), want %q", got.Body, got.Header.Get("Content-Type"), body)
			}
		}
		for _, id := range []string{old, young} {
			d := capturedDetail(t, key, src.ID, id)
			if d.Status != "verified" || d.EventID == nil {
				t.Errorf("swept capture: %s, event %v", d.Status, d.EventID)
				continue
			}
			key.must(200, "GET", "/events/"+*d.EventID, nil, nil)
		}
		var left int
		if err := db.QueryRow(`SELECT count(*) FROM source_requests_pending WHERE request_id = ANY($1::uuid[])`,
			[]string{old, young, orphan}).Scan(&left); err != nil || left != 0 {
			t.Errorf("pending rows left after the sweep: %d (%v)", left, err)
		}
	})
}
