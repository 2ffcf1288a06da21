package tests

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/ferry-dev/ferry/app"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// sseEvent is one Server-Sent Event of a queue stream.
type sseEvent struct {
	Event string
	Data  string
}

// sseStream is an open queue stream read in the background.
type sseStream struct {
	t      *testing.T
	events chan sseEvent // closed when the stream ends
	close  func()
}

// openStream opens the queue's SSE stream as c (its API key or consumer
// token, or its session cookie) and reads it until the test ends or
// close is called: the client going away.
func openStream(t *testing.T, c *client, queueID string) *sseStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", c.base+"/queues/"+queueID+"/stream?visibility_seconds=60", nil)
	require.NoError(t, err)
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	// No client timeout: streams outlive any.
	res, err := (&http.Client{Jar: c.http.Jar}).Do(req)
	if err != nil {
		cancel()
		t.Fatalf("open stream: %v", err)
	}
	if res.StatusCode != 200 {
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		cancel()
		t.Fatalf("open stream: %d %s", res.StatusCode, b)
	}
	s := &sseStream{t: t, events: make(chan sseEvent, 16), close: func() { cancel(); res.Body.Close() }}
	t.Cleanup(s.close)
	go func() {
		defer close(s.events)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "" && ev != (sseEvent{}):
				s.events <- ev
				ev = sseEvent{}
			case strings.HasPrefix(line, ": "):
				s.events <- sseEvent{Event: "comment", Data: strings.TrimPrefix(line, ": ")}
			case strings.HasPrefix(line, "event: "):
				ev.Event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.Data = strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	require.Equal(t, sseEvent{Event: "comment", Data: "stream open"}, s.next(10*time.Second))
	return s
}

// next returns the next event other than a keep-alive, failing the test
// if none comes within timeout; a zero event means the stream ended.
func (s *sseStream) next(timeout time.Duration) sseEvent {
	s.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case ev := <-s.events:
			if ev.Event == "comment" && ev.Data == "keep-alive" {
				continue
			}
			return ev
		case <-deadline:
			s.t.Fatalf("no stream event within %s", timeout)
		}
	}
}

// message decodes a message event.
func (s *sseStream) message(timeout time.Duration) queueMessage {
	s.t.Helper()
	ev := s.next(timeout)
	require.Equal(s.t, "message", ev.Event, "event %+v", ev)
	var m queueMessage
	require.NoError(s.t, json.Unmarshal([]byte(ev.Data), &m))
	return m
}

// tenantOf returns the tenant id of a session client.
func tenantOf(t *testing.T, session *client) uuid.UUID {
	t.Helper()
	var me struct {
		Tenant struct {
			ID uuid.UUID `json:"id"`
		} `json:"tenant"`
	}
	session.must(200, "GET", "/me", nil, &me)
	return me.Tenant.ID
}

// TestQueueWaitingIsCapped: a tenant may have at most
// QueueMaxWaitersPerQueue long-polls and streams waiting on one queue
// and QueueMaxWaitersPerTenant over its queues; beyond them 429
// rate_limited with Retry-After, before any waiting. A slot comes back
// whichever way its waiter ends: the client hanging up, the wait ending,
// a message leased, the stream's credential revoked.
func TestQueueWaitingIsCapped(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.QueueMaxWaitersPerTenant, cfg.QueueMaxWaitersPerQueue = 3, 2
	cfg.QueueStreamAuthInterval = 100 * time.Millisecond
	f := startFerry(t, cfg)
	session, api := signUp(t, f, "queue-caps@example.com")
	tenant := tenantOf(t, session)
	q1, q2 := createQueue(t, api, "q.cap1", nil), createQueue(t, api, "q.cap2", nil)
	holding := func(queueID string, wantTenant, wantQueue int) {
		t.Helper()
		testenv.Eventually(t, 10*time.Second, func() bool {
			gotTenant, gotQueue := f.App.Queues.Holding(tenant, uuid.MustParse(queueID))
			return gotTenant == wantTenant && gotQueue == wantQueue
		}, "want the tenant holding %d waiting slots, %d of them on queue %s", wantTenant, wantQueue, queueID)
	}
	// longPoll waits up to wait seconds on queue as api in the
	// background; its result arrives on the channel, and cancel hangs up.
	type polled struct {
		status int
		msgs   []queueMessage
	}
	longPoll := func(queueID string, wait int) (<-chan polled, context.CancelFunc) {
		ctx, cancel := context.WithCancel(context.Background())
		out := make(chan polled, 1)
		go func() {
			body := strings.NewReader(fmt.Sprintf(`{"max":10,"wait_seconds":%d}`, wait))
			req, err := http.NewRequestWithContext(ctx, "POST", api.base+"/queues/"+queueID+"/pull", body)
			if err != nil {
				out <- polled{}
				return
			}
			req.Header.Set("Authorization", "Bearer "+api.apiKey)
			req.Header.Set("Content-Type", "application/json")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				out <- polled{}
				return
			}
			defer res.Body.Close()
			var p struct {
				Data []queueMessage `json:"data"`
			}
			_ = json.NewDecoder(res.Body).Decode(&p)
			out <- polled{status: res.StatusCode, msgs: p.Data}
		}()
		return out, cancel
	}
	refused := func(res response, why string) {
		t.Helper()
		require.Equal(t, 429, res.Status, "%s: %s", why, res.Body)
		require.Equal(t, "rate_limited", res.apiError(t).Error.Code, why)
		require.NotEmpty(t, res.Header.Get("Retry-After"), why)
	}

	// Two long-polls fill q1: a third long-poll and a stream there are
	// refused, a pull that does not wait is not.
	first, hangUp := longPoll(q1.ID, 20)
	second, cancelSecond := longPoll(q1.ID, 20)
	defer cancelSecond()
	holding(q1.ID, 2, 2)
	refused(api.raw("POST", "/queues/"+q1.ID+"/pull", []byte(`{"wait_seconds":20}`), nil), "a third long-poll on the queue")
	refused(api.raw("GET", "/queues/"+q1.ID+"/stream", nil, nil), "a stream on the full queue")
	require.Equal(t, 200, api.raw("POST", "/queues/"+q1.ID+"/pull", []byte(`{}`), nil).Status)

	// A consumer-token stream on q2 takes the tenant's third slot; then
	// even q2 is full for the tenant.
	var tok struct {
		ID    string `json:"id"`
		Token string `json:"token"`
	}
	api.must(201, "POST", "/endpoints/"+q2.ID+"/consumer-tokens", map[string]string{"name": "capped"}, &tok)
	consumer := newClient(t, f.URL+"/api/v1")
	consumer.apiKey = tok.Token
	stream := openStream(t, consumer, q2.ID)
	holding(q2.ID, 3, 1)
	refused(api.raw("POST", "/queues/"+q2.ID+"/pull", []byte(`{"wait_seconds":1}`), nil), "a long-poll past the tenant's cap")

	// The first long-poll's client hangs up: its slot comes back.
	hangUp()
	<-first
	holding(q1.ID, 2, 1)
	// A long-poll whose wait ends gives its slot back.
	ended, _ := longPoll(q1.ID, 1)
	require.Equal(t, 200, (<-ended).status)
	holding(q1.ID, 2, 1)
	// So does one that gets a message.
	ev := sendEvent(t, api, "q.cap1", "for the waiting one")
	got := <-second
	require.Equal(t, 200, got.status)
	require.Len(t, got.msgs, 1)
	require.Equal(t, ev.ID, got.msgs[0].Event.ID)
	holding(q1.ID, 1, 0)
	// And a stream whose token is revoked.
	api.must(204, "DELETE", "/endpoints/"+q2.ID+"/consumer-tokens/"+tok.ID, nil, nil)
	require.Equal(t, "error", stream.next(10*time.Second).Event)
	holding(q2.ID, 0, 0)
}

// TestQueueStreamEndsWhenItsCredentialIsRevoked: an open stream re-checks
// the credential that opened it every QueueStreamAuthInterval (100 ms
// here) and ends with an "event: error" once it no longer grants access:
// a consumer token or an API key revoked, a portal session logged out,
// its member removed (unauthorized) or demoted to viewer (forbidden).
// The members' cases follow emailed invites (the mail catcher).
func TestQueueStreamEndsWhenItsCredentialIsRevoked(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.QueueStreamAuthInterval = 100 * time.Millisecond
	f := startFerry(t, cfg)
	session, api := signUp(t, f, "queue-revoke@example.com")
	tenant := tenantOf(t, session)
	memberIDs := map[string]string{}

	for _, tt := range []struct {
		name   string
		typ    string
		open   func(t *testing.T, queueID string) *client
		revoke func(t *testing.T, queueID string, c *client)
		code   string // of the error event; unauthorized if empty
	}{
		{
			name: "consumer token",
			typ:  "q.revoke.token",
			open: func(t *testing.T, queueID string) *client {
				var tok struct {
					Token string `json:"token"`
				}
				api.must(201, "POST", "/endpoints/"+queueID+"/consumer-tokens", map[string]string{"name": "streamer"}, &tok)
				c := newClient(t, f.URL+"/api/v1")
				c.apiKey = tok.Token
				return c
			},
			revoke: func(t *testing.T, queueID string, _ *client) {
				var list struct {
					Data []struct {
						ID string `json:"id"`
					} `json:"data"`
				}
				api.must(200, "GET", "/endpoints/"+queueID+"/consumer-tokens", nil, &list)
				require.Len(t, list.Data, 1)
				api.must(204, "DELETE", "/endpoints/"+queueID+"/consumer-tokens/"+list.Data[0].ID, nil, nil)
			},
		},
		{
			name: "API key",
			typ:  "q.revoke.key",
			open: func(t *testing.T, _ string) *client {
				var k struct {
					ID  string `json:"id"`
					Key string `json:"key"`
				}
				session.must(201, "POST", "/api-keys", map[string]string{"name": "streamer"}, &k)
				c := newClient(t, f.URL+"/api/v1")
				c.apiKey = k.Key
				return c
			},
			revoke: func(t *testing.T, _ string, c *client) {
				var keys struct {
					Data []struct {
						ID     string `json:"id"`
						Prefix string `json:"prefix"`
					} `json:"data"`
				}
				session.must(200, "GET", "/api-keys", nil, &keys)
				for _, k := range keys.Data {
					if strings.HasPrefix(c.apiKey, k.Prefix) {
						session.must(204, "DELETE", "/api-keys/"+k.ID, nil, nil)
						return
					}
				}
				t.Fatal("the stream's API key is not listed")
			},
		},
		{
			name: "portal session",
			typ:  "q.revoke.session",
			open: func(t *testing.T, _ string) *client {
				return login(t, f, "queue-revoke@example.com", "correct horse battery")
			},
			revoke: func(t *testing.T, _ string, c *client) {
				c.must(204, "POST", "/auth/logout", nil, nil)
			},
		},
		{
			name: "member removed",
			typ:  "q.revoke.removed",
			open: func(t *testing.T, _ string) *client {
				c, id := member(t, f, session, "removed@queue-revoke.example", "admin")
				memberIDs["removed"] = id
				return c
			},
			revoke: func(t *testing.T, _ string, _ *client) {
				session.must(204, "DELETE", "/members/"+memberIDs["removed"], nil, nil)
			},
		},
		{
			name: "member demoted",
			typ:  "q.revoke.demoted",
			open: func(t *testing.T, _ string) *client {
				c, id := member(t, f, session, "demoted@queue-revoke.example", "admin")
				memberIDs["demoted"] = id
				return c
			},
			revoke: func(t *testing.T, _ string, _ *client) {
				session.must(200, "PATCH", "/members/"+memberIDs["demoted"], map[string]string{"role": "viewer"}, nil)
			},
			code: "forbidden",
		},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := createQueue(t, api, tt.typ, nil)
			c := tt.open(t, q.ID)
			stream := openStream(t, c, q.ID)
			// It streams while the credential holds, past several re-checks.
			time.Sleep(300 * time.Millisecond)
			ev := sendEvent(t, api, tt.typ, "before")
			m := stream.message(10 * time.Second)
			require.Equal(t, ev.ID, m.Event.ID)

			tt.revoke(t, q.ID, c)
			revoked := time.Now()
			end := stream.next(5 * time.Second)
			require.Equal(t, "error", end.Event)
			var body apiError
			require.NoError(t, json.Unmarshal([]byte(end.Data), &body))
			want := tt.code
			if want == "" {
				want = "unauthorized"
			}
			require.Equal(t, want, body.Error.Code, "error event %s", end.Data)
			require.NotEmpty(t, body.Error.Message)
			require.Less(t, time.Since(revoked), 2*time.Second, "the stream outlived its credential by more than the re-check")
			require.Equal(t, sseEvent{}, stream.next(5*time.Second), "the stream did not close after its error event")
			// Nothing was leased for it meanwhile, and its slot is back.
			sendEvent(t, api, tt.typ, "after")
			require.Len(t, pull(t, api, q.ID, map[string]any{"max": 10}), 1)
			testenv.Eventually(t, 10*time.Second, func() bool {
				_, n := f.App.Queues.Holding(tenant, uuid.MustParse(q.ID))
				return n == 0
			}, "the revoked stream kept its waiting slot")
		})
	}
}

// TestQueueStreamOutlivesTheWriteTimeout: the server's write timeout
// (1 s here) bounds each write of a stream, not the stream: one open for
// several write timeouts still delivers.
func TestQueueStreamOutlivesTheWriteTimeout(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.HTTPWriteTimeout = time.Second
	f := startFerry(t, cfg)
	_, api := signUp(t, f, "queue-long-stream@example.com")
	q := createQueue(t, api, "q.long", nil)
	stream := openStream(t, api, q.ID)
	for i := range 3 {
		time.Sleep(1500 * time.Millisecond)
		ev := sendEvent(t, api, "q.long", i)
		m := stream.message(10 * time.Second)
		require.Equal(t, ev.ID, m.Event.ID, "message %d", i)
		settle(t, api, q.ID, "ack", nil, m.Receipt)
	}
	// Other responses keep the timeout: the server is configured with it.
	require.Equal(t, 200, api.raw("GET", "/queues/"+q.ID, nil, nil).Status)
}

// TestQueueWaitersEndOnShutdown: a shutdown ends waiting long-polls and
// streams promptly (the HTTP server's shutdown waits for them) and every
// waiting slot is given back.
func TestQueueWaitersEndOnShutdown(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, err := app.New(ctx, cfg, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	require.NoError(t, err)
	defer a.Close()
	ran := make(chan error, 1)
	go func() { ran <- a.Run(ctx) }()
	f := &ferry{URL: a.URL(), App: a, Cfg: cfg}
	session, api := signUp(t, f, "queue-shutdown@example.com")
	tenant := tenantOf(t, session)
	q := createQueue(t, api, "q.shutdown", nil)

	stream := openStream(t, api, q.ID)
	poll := make(chan int, 1)
	go func() {
		req, err := http.NewRequest("POST", api.base+"/queues/"+q.ID+"/pull", strings.NewReader(`{"wait_seconds":30}`))
		if err != nil {
			poll <- 0
			return
		}
		req.Header.Set("Authorization", "Bearer "+api.apiKey)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			poll <- 0
			return
		}
		res.Body.Close()
		poll <- res.StatusCode
	}()
	testenv.Eventually(t, 10*time.Second, func() bool {
		n, _ := a.Queues.Holding(tenant, uuid.MustParse(q.ID))
		return n == 2
	}, "the stream and the long-poll never waited")

	stopped := time.Now()
	cancel()
	select {
	case err := <-ran:
		require.NoError(t, err)
	case <-time.After(20 * time.Second):
		t.Fatal("Ferry did not shut down with a stream and a long-poll open")
	}
	require.Less(t, time.Since(stopped), 10*time.Second, "the shutdown waited for the waiters")
	require.Equal(t, 200, <-poll, "the long-poll's answer")
	require.Equal(t, sseEvent{}, stream.next(5*time.Second), "the stream did not end")
	n, _ := a.Queues.Holding(tenant, uuid.MustParse(q.ID))
	require.Zero(t, n, "waiting slots held after the shutdown")
}
