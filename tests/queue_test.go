package tests

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestQueues drives pull queues end to end on one Ferry: each subtest
// has its own queue endpoint and event type.
func TestQueues(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, api := signUp(t, f, "queues@example.com")

	t.Run("pull and ack", func(t *testing.T) {
		t.Parallel()
		q := createQueue(t, api, "q.happy", nil)
		var ep struct {
			Kind string `json:"kind"`
			URL  string `json:"url"`
		}
		api.must(200, "GET", "/endpoints/"+q.ID, nil, &ep)
		if ep.Kind != "queue" || ep.URL != "" {
			t.Fatalf("queue endpoint reads as kind %q url %q", ep.Kind, ep.URL)
		}
		var events []acceptedEvent
		for i := range 3 {
			events = append(events, sendEvent(t, api, "q.happy", map[string]int{"n": i}))
		}
		if st := stats(t, api, q.ID); st.Depth != 3 || st.InFlight != 0 {
			t.Fatalf("stats before pull: %+v", st)
		}
		msgs := pull(t, api, q.ID, map[string]any{"max": 10})
		if len(msgs) != 3 {
			t.Fatalf("pulled %d messages, want 3", len(msgs))
		}
		for i, m := range msgs {
			if m.Event.ID != events[i].ID || m.Attempt != 1 || fmt.Sprint(m.Event.Data) != fmt.Sprintf("map[n:%d]", i) {
				t.Errorf("message %d: event %s attempt %d data %v, want event %s attempt 1 in acceptance order", i, m.Event.ID, m.Attempt, m.Event.Data, events[i].ID)
			}
			verifyMessage(t, m, q.Secret)
		}
		if st := stats(t, api, q.ID); st.Depth != 0 || st.InFlight != 3 {
			t.Fatalf("stats while leased: %+v", st)
		}
		if again := pull(t, api, q.ID, map[string]any{"max": 10}); len(again) != 0 {
			t.Fatalf("leased messages were pulled again: %d", len(again))
		}
		res := settle(t, api, q.ID, "ack", nil, msgs[0].Receipt, msgs[1].Receipt, msgs[2].Receipt)
		for _, r := range res {
			if r.Status != "acked" {
				t.Errorf("ack: %+v", r)
			}
		}
		// Receipts are single-use.
		if res := settle(t, api, q.ID, "ack", nil, msgs[0].Receipt); res[0].Status != "expired" {
			t.Errorf("second ack of a receipt: %s, want expired", res[0].Status)
		}
		var detail struct {
			Deliveries []deliveryOut `json:"deliveries"`
		}
		api.must(200, "GET", "/events/"+events[0].ID, nil, &detail)
		if len(detail.Deliveries) != 1 || detail.Deliveries[0].Status != "succeeded" || detail.Deliveries[0].AttemptCount != 1 {
			t.Errorf("delivery after ack: %+v", detail.Deliveries)
		}
		var attempts struct {
			Data []struct {
				Outcome string `json:"outcome"`
				Trigger string `json:"trigger"`
			} `json:"data"`
		}
		api.must(200, "GET", "/events/"+events[0].ID+"/attempts", nil, &attempts)
		if len(attempts.Data) != 1 || attempts.Data[0].Outcome != "success" || attempts.Data[0].Trigger != "initial" {
			t.Errorf("attempts after ack: %+v", attempts.Data)
		}
		if st := stats(t, api, q.ID); st != (queueStats{}) {
			t.Errorf("stats after ack: %+v", st)
		}

		// A long-poll is woken by the event's commit.
		got := make(chan []queueMessage, 1)
		start := time.Now()
		go func() { got <- pull(t, api, q.ID, map[string]any{"wait_seconds": 20}) }()
		time.Sleep(300 * time.Millisecond)
		sent := time.Now()
		ev := sendEvent(t, api, "q.happy", map[string]int{"n": 9})
		m := <-got
		if len(m) != 1 || m[0].Event.ID != ev.ID {
			t.Fatalf("long-poll returned %+v, want event %s", m, ev.ID)
		}
		if waited := time.Since(sent); waited > 2*time.Second || time.Since(start) < 300*time.Millisecond {
			t.Errorf("long-poll answered %s after the event (want well under the 1 s poll interval)", waited)
		}
		settle(t, api, q.ID, "ack", nil, m[0].Receipt)
	})

	t.Run("lease expiry redelivers", func(t *testing.T) {
		t.Parallel()
		q := createQueue(t, api, "q.expiry", nil)
		ev := sendEvent(t, api, "q.expiry", map[string]int{"n": 1})
		first := pull(t, api, q.ID, map[string]any{"visibility_seconds": 1})
		if len(first) != 1 {
			t.Fatalf("pulled %d", len(first))
		}
		var second []queueMessage
		testenv.Eventually(t, 10*time.Second, func() bool {
			second = pull(t, api, q.ID, map[string]any{"wait_seconds": 1})
			return len(second) == 1
		}, "the expired lease did not return the message")
		if second[0].ID != first[0].ID || second[0].Attempt != 2 || second[0].Receipt == first[0].Receipt {
			t.Fatalf("redelivery: %+v after %+v", second[0], first[0])
		}
		if r := settle(t, api, q.ID, "ack", nil, first[0].Receipt); r[0].Status != "expired" {
			t.Errorf("ack of the expired receipt: %s", r[0].Status)
		}
		if r := settle(t, api, q.ID, "ack", nil, second[0].Receipt); r[0].Status != "acked" {
			t.Errorf("ack of the live receipt: %s", r[0].Status)
		}
		var attempts struct {
			Data []struct {
				AttemptNumber int    `json:"attempt_number"`
				Outcome       string `json:"outcome"`
				ErrorClass    string `json:"error_class"`
				Trigger       string `json:"trigger"`
			} `json:"data"`
		}
		api.must(200, "GET", "/events/"+ev.ID+"/attempts", nil, &attempts)
		if len(attempts.Data) != 2 || attempts.Data[0].ErrorClass != "timeout" || attempts.Data[0].Outcome != "retry" ||
			attempts.Data[1].Outcome != "success" || attempts.Data[1].Trigger != "retry" {
			t.Errorf("attempts: %+v, want a timeout then a success", attempts.Data)
		}
	})

	t.Run("sweeper returns expired leases", func(t *testing.T) {
		t.Parallel()
		q := createQueue(t, api, "q.sweep", nil)
		ev := sendEvent(t, api, "q.sweep", 1)
		if len(pull(t, api, q.ID, map[string]any{"visibility_seconds": 1})) != 1 {
			t.Fatal("nothing pulled")
		}
		testenv.Eventually(t, 10*time.Second, func() bool {
			var detail struct {
				Deliveries []deliveryOut `json:"deliveries"`
			}
			api.must(200, "GET", "/events/"+ev.ID, nil, &detail)
			return detail.Deliveries[0].Status == "retrying" && stats(t, api, q.ID).Depth == 1
		}, "the sweeper did not return the expired lease")
	})

	t.Run("nack with delay", func(t *testing.T) {
		t.Parallel()
		q := createQueue(t, api, "q.nack", nil)
		sendEvent(t, api, "q.nack", 1)
		m := pull(t, api, q.ID, nil)
		if len(m) != 1 {
			t.Fatalf("pulled %d", len(m))
		}
		if r := settle(t, api, q.ID, "nack", map[string]any{"delay_seconds": 2}, m[0].Receipt); r[0].Status != "nacked" {
			t.Fatalf("nack: %s", r[0].Status)
		}
		nacked := time.Now()
		if again := pull(t, api, q.ID, nil); len(again) != 0 {
			t.Fatal("a message nacked with a delay came back at once")
		}
		if st := stats(t, api, q.ID); st.Depth != 1 || st.InFlight != 0 {
			t.Errorf("stats after nack: %+v", st)
		}
		back := pull(t, api, q.ID, map[string]any{"wait_seconds": 10})
		if len(back) != 1 || back[0].Attempt != 2 {
			t.Fatalf("after the delay: %+v", back)
		}
		if d := time.Since(nacked); d < 1900*time.Millisecond {
			t.Errorf("the nacked message came back after %s, before its 2 s delay", d)
		}
		// Without a delay, the retry schedule (scaled for tests) applies.
		settle(t, api, q.ID, "nack", nil, back[0].Receipt)
		third := pull(t, api, q.ID, map[string]any{"wait_seconds": 10})
		if len(third) != 1 || third[0].Attempt != 3 {
			t.Fatalf("after the scheduled retry: %+v", third)
		}
		settle(t, api, q.ID, "ack", nil, third[0].Receipt)
	})

	t.Run("reject drops and replay returns", func(t *testing.T) {
		t.Parallel()
		q := createQueue(t, api, "q.reject", nil)
		ev := sendEvent(t, api, "q.reject", 1)
		m := pull(t, api, q.ID, nil)
		if r := settle(t, api, q.ID, "reject", map[string]any{"reason": "schema mismatch"}, m[0].Receipt); r[0].Status != "rejected" {
			t.Fatalf("reject: %s", r[0].Status)
		}
		var detail struct {
			Deliveries []deliveryOut `json:"deliveries"`
		}
		api.must(200, "GET", "/events/"+ev.ID, nil, &detail)
		if detail.Deliveries[0].Status != "dropped" {
			t.Fatalf("status after reject: %s", detail.Deliveries[0].Status)
		}
		if st := stats(t, api, q.ID); st.Dead != 1 || st.Depth != 0 {
			t.Errorf("stats after reject: %+v", st)
		}
		if len(pull(t, api, q.ID, nil)) != 0 {
			t.Fatal("a rejected message was pulled again")
		}
		api.must(202, "POST", "/deliveries/"+detail.Deliveries[0].ID+"/replay", nil, nil)
		back := pull(t, api, q.ID, map[string]any{"wait_seconds": 5})
		if len(back) != 1 || back[0].ID != m[0].ID || back[0].Attempt != 2 || back[0].Body != m[0].Body {
			t.Fatalf("after replay: %+v", back)
		}
		settle(t, api, q.ID, "ack", nil, back[0].Receipt)
		var attempts struct {
			Data []struct {
				Outcome      string `json:"outcome"`
				Trigger      string `json:"trigger"`
				ErrorMessage string `json:"error_message"`
			} `json:"data"`
		}
		api.must(200, "GET", "/events/"+ev.ID+"/attempts", nil, &attempts)
		if len(attempts.Data) != 2 || attempts.Data[0].Outcome != "dropped" || attempts.Data[0].ErrorMessage != "schema mismatch" ||
			attempts.Data[1].Trigger != "replay" || attempts.Data[1].Outcome != "success" {
			t.Errorf("attempts: %+v", attempts.Data)
		}
	})

	t.Run("settling feeds endpoint stats", func(t *testing.T) {
		t.Parallel()
		q := createQueue(t, api, "q.stats", nil)
		for i := range 3 {
			sendEvent(t, api, "q.stats", i)
		}
		m := pull(t, api, q.ID, map[string]any{"max": 3})
		if len(m) != 3 {
			t.Fatalf("pulled %d", len(m))
		}
		settle(t, api, q.ID, "ack", nil, m[0].Receipt)
		settle(t, api, q.ID, "reject", map[string]any{"reason": "bad"}, m[1].Receipt)
		settle(t, api, q.ID, "nack", map[string]any{"delay_seconds": 0}, m[2].Receipt)
		again := pull(t, api, q.ID, map[string]any{"wait_seconds": 5, "visibility_seconds": 1})
		if len(again) != 1 || again[0].Attempt != 2 {
			t.Fatalf("after the nack: %+v", again)
		}
		var last []queueMessage
		testenv.Eventually(t, 10*time.Second, func() bool {
			last = pull(t, api, q.ID, map[string]any{"wait_seconds": 1})
			return len(last) == 1
		}, "the expired lease did not come back")
		if last[0].Attempt != 3 {
			t.Fatalf("after the expiry: attempt %d, want 3", last[0].Attempt)
		}
		settle(t, api, q.ID, "ack", nil, last[0].Receipt)
		// Five attempts: two acks (successes), a reject (dropped), a nack
		// and an expiry (retries); three deliveries ended, two of them
		// succeeded.
		var st struct {
			Attempts       int64            `json:"attempts"`
			AttemptsFailed int64            `json:"attempts_failed"`
			Succeeded      int64            `json:"succeeded"`
			Failed         int64            `json:"failed"`
			SuccessRate    *float64         `json:"success_rate"`
			ByErrorClass   map[string]int64 `json:"by_error_class"`
			LastSuccessAt  *time.Time       `json:"last_success_at"`
			Backlog        struct {
				Pending  int64 `json:"pending"`
				Retrying int64 `json:"retrying"`
			} `json:"backlog"`
		}
		api.must(200, "GET", "/endpoints/"+q.ID+"/stats?window=1h", nil, &st)
		if st.Attempts != 5 || st.AttemptsFailed != 3 || st.Succeeded != 2 || st.Failed != 1 ||
			st.SuccessRate == nil || fmt.Sprintf("%.4f", *st.SuccessRate) != "0.6667" || st.LastSuccessAt == nil ||
			fmt.Sprint(st.ByErrorClass) != "map[nack:1 rejected:1 timeout:1]" || st.Backlog.Pending != 0 || st.Backlog.Retrying != 0 {
			t.Errorf("stats: %+v, want 5 attempts (3 failed), 2 succeeded, 1 failed, rate 0.6667, nack/rejected/timeout 1 each, no backlog", st)
		}
	})

	t.Run("a rotated secret signs the next pull", func(t *testing.T) {
		t.Parallel()
		q := createQueue(t, api, "q.rotate", nil)
		sendEvent(t, api, "q.rotate", 1)
		m := pull(t, api, q.ID, nil)
		verifyMessage(t, m[0], q.Secret)
		settle(t, api, q.ID, "ack", nil, m[0].Receipt)
		var rotated struct {
			Secret string `json:"secret"`
		}
		api.must(200, "POST", "/endpoints/"+q.ID+"/secret/rotate", nil, &rotated)
		sendEvent(t, api, "q.rotate", 2)
		m = pull(t, api, q.ID, map[string]any{"wait_seconds": 5})
		if len(m) != 1 {
			t.Fatalf("pulled %d", len(m))
		}
		// Signed with both during the grace period: the new secret verifies
		// at once, the old one still does.
		verifyMessage(t, m[0], rotated.Secret)
		verifyMessage(t, m[0], q.Secret)
		settle(t, api, q.ID, "ack", nil, m[0].Receipt)
	})

	t.Run("ordered queue", func(t *testing.T) {
		t.Parallel()
		q := createQueue(t, api, "q.ordered", map[string]any{"max_in_flight": 1})
		var want []string
		for i := range 5 {
			want = append(want, sendEvent(t, api, "q.ordered", i).ID)
		}
		var got []string
		for len(got) < len(want) {
			m := pull(t, api, q.ID, map[string]any{"max": 10, "wait_seconds": 5})
			if len(m) != 1 {
				t.Fatalf("ordered queue leased %d messages at once", len(m))
			}
			if extra := pull(t, api, q.ID, map[string]any{"max": 10}); len(extra) != 0 {
				t.Fatalf("ordered queue leased a second message while one is out")
			}
			got = append(got, m[0].Event.ID)
			settle(t, api, q.ID, "ack", nil, m[0].Receipt)
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("order %v, want %v", got, want)
		}
	})

	t.Run("concurrent consumers", func(t *testing.T) {
		t.Parallel()
		q := createQueue(t, api, "q.concurrent", nil)
		const n = 150
		for i := range n {
			sendEvent(t, api, "q.concurrent", i)
		}
		var mu sync.Mutex
		seen := map[string]int{}
		var wg sync.WaitGroup
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					msgs := pull(t, api, q.ID, map[string]any{"max": 7, "visibility_seconds": 120})
					if len(msgs) == 0 {
						return
					}
					receipts := make([]string, len(msgs))
					mu.Lock()
					for i, m := range msgs {
						seen[m.ID]++
						receipts[i] = m.Receipt
					}
					mu.Unlock()
					settle(t, api, q.ID, "ack", nil, receipts...)
				}
			}()
		}
		wg.Wait()
		if len(seen) != n {
			t.Errorf("consumers got %d distinct messages, want %d", len(seen), n)
		}
		for id, c := range seen {
			if c != 1 {
				t.Errorf("message %s leased %d times while its lease was live", id, c)
			}
		}
	})

	t.Run("consumer tokens", func(t *testing.T) {
		t.Parallel()
		qa := createQueue(t, api, "q.tokA", nil)
		qb := createQueue(t, api, "q.tokB", nil)
		var tok struct {
			ID    string `json:"id"`
			Token string `json:"token"`
		}
		api.must(201, "POST", "/endpoints/"+qa.ID+"/consumer-tokens", map[string]string{"name": "worker"}, &tok)
		if !strings.HasPrefix(tok.Token, "fqc_") {
			t.Fatalf("token %q", tok.Token)
		}
		consumer := newClient(t, f.URL+"/api/v1")
		consumer.apiKey = tok.Token
		sendEvent(t, api, "q.tokA", 1)
		m := pull(t, consumer, qa.ID, map[string]any{"wait_seconds": 5})
		if len(m) != 1 {
			t.Fatalf("token pull: %d", len(m))
		}
		settle(t, consumer, qa.ID, "ack", nil, m[0].Receipt)
		stats(t, consumer, qa.ID)
		for _, path := range []string{"/queues/" + qb.ID + "/pull", "/queues/" + qb.ID + "/ack"} {
			res := consumer.raw("POST", path, []byte(`{"receipts":["x"]}`), nil)
			if res.Status != 404 || res.apiError(t).Error.Code != "not_found" {
				t.Errorf("POST %s with another queue's token: %d %s", path, res.Status, res.Body)
			}
		}
		if res := consumer.raw("GET", "/queues/"+qb.ID, nil, nil); res.Status != 404 {
			t.Errorf("stats of another queue with a token: %d", res.Status)
		}
		if res := consumer.raw("GET", "/endpoints", nil, nil); res.Status != 401 {
			t.Errorf("GET /endpoints with a consumer token: %d, want 401", res.Status)
		}
		// Another tenant's API key does not see the queue.
		_, other := signUp(t, f, "other-queues@example.com")
		if res := other.raw("POST", "/queues/"+qa.ID+"/pull", []byte(`{}`), nil); res.Status != 404 {
			t.Errorf("pull of another tenant's queue: %d", res.Status)
		}
		var list struct {
			Data []struct {
				ID     string `json:"id"`
				Prefix string `json:"prefix"`
			} `json:"data"`
		}
		api.must(200, "GET", "/endpoints/"+qa.ID+"/consumer-tokens", nil, &list)
		if len(list.Data) != 1 || !strings.HasPrefix(tok.Token, list.Data[0].Prefix) {
			t.Errorf("token list: %+v", list.Data)
		}
		api.must(204, "DELETE", "/endpoints/"+qa.ID+"/consumer-tokens/"+tok.ID, nil, nil)
		if res := consumer.raw("POST", "/queues/"+qa.ID+"/pull", []byte(`{}`), nil); res.Status != 401 {
			t.Errorf("pull with a revoked token: %d, want 401", res.Status)
		}
	})

	t.Run("bad input", func(t *testing.T) {
		t.Parallel()
		q := createQueue(t, api, "q.bad", nil)
		push := createEndpoint(t, api, map[string]any{"url": "http://127.0.0.1:9/hook", "event_types": []string{"q.none"}})
		cases := []struct {
			path, body string
			status     int
			field      string
		}{
			{"/pull", `{"max":0}`, 422, "max"},
			{"/pull", `{"max":101}`, 422, "max"},
			{"/pull", `{"visibility_seconds":-1}`, 422, "visibility_seconds"},
			{"/pull", `{"visibility_seconds":43201}`, 422, "visibility_seconds"},
			{"/pull", `{"wait_seconds":31}`, 422, "wait_seconds"},
			{"/pull", `{"max":"ten"}`, 422, "max"},
			{"/pull", `{`, 400, ""},
			{"/ack", `{"receipts":["not-a-receipt"]}`, 422, "receipts"},
			{"/ack", `{"receipts":["AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]}`, 422, "receipts"},
			{"/ack", `{"receipts":[]}`, 422, "receipts"},
			{"/nack", `{"receipts":["x"],"delay_seconds":-5}`, 422, "delay_seconds"},
		}
		for _, c := range cases {
			res := api.raw("POST", "/queues/"+q.ID+c.path, []byte(c.body), nil)
			if res.Status != c.status {
				t.Errorf("POST %s %s: %d, want %d: %s", c.path, c.body, res.Status, c.status, res.Body)
				continue
			}
			if e := res.apiError(t); e.Error.Field != c.field {
				t.Errorf("POST %s %s: field %q, want %q", c.path, c.body, e.Error.Field, c.field)
			}
		}
		if res := api.raw("POST", "/queues/"+push.ID+"/pull", []byte(`{}`), nil); res.Status != 404 {
			t.Errorf("pull of an http endpoint: %d, want 404", res.Status)
		}
		if res := api.raw("POST", "/endpoints", []byte(`{"kind":"queue","url":"https://example.com/x"}`), nil); res.Status != 422 || res.apiError(t).Error.Field != "url" {
			t.Errorf("queue endpoint with a url: %d %s", res.Status, res.Body)
		}
		if res := api.raw("POST", "/endpoints", []byte(`{"kind":"carrier-pigeon"}`), nil); res.Status != 422 || res.apiError(t).Error.Field != "kind" {
			t.Errorf("unknown kind: %d %s", res.Status, res.Body)
		}
	})

	t.Run("server-sent events", func(t *testing.T) {
		t.Parallel()
		q := createQueue(t, api, "q.sse", nil)
		req, err := http.NewRequest("GET", f.URL+"/api/v1/queues/"+q.ID+"/stream?visibility_seconds=60", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+api.apiKey)
		res, err := (&http.Client{}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
			t.Fatalf("stream: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
		}
		var want []string
		for i := range 2 {
			want = append(want, sendEvent(t, api, "q.sse", i).ID)
		}
		msgs := make(chan queueMessage, 4)
		go func() {
			sc := bufio.NewScanner(res.Body)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			event := ""
			for sc.Scan() {
				line := sc.Text()
				switch {
				case strings.HasPrefix(line, "event: "):
					event = strings.TrimPrefix(line, "event: ")
				case strings.HasPrefix(line, "data: ") && event == "message":
					var m queueMessage
					if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m); err == nil {
						msgs <- m
					}
				}
			}
			close(msgs)
		}()
		for i := range want {
			select {
			case m := <-msgs:
				if m.Event.ID != want[i] {
					t.Errorf("stream message %d: event %s, want %s", i, m.Event.ID, want[i])
				}
				verifyMessage(t, m, q.Secret)
				settle(t, api, q.ID, "ack", nil, m.Receipt)
			case <-time.After(10 * time.Second):
				t.Fatalf("stream sent %d of %d messages", i, len(want))
			}
		}
		if st := stats(t, api, q.ID); st.Depth != 0 || st.InFlight != 0 {
			t.Errorf("stats after the stream: %+v", st)
		}
	})
}
