package tests

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	kafkago "github.com/segmentio/kafka-go"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// hit is one request a hookServer got, with when it arrived.
type hit struct {
	At      time.Time
	Header  http.Header
	Body    []byte
	EventID string
}

// hookServer is a webhook receiver whose answer is chosen per request by
// handle (n counts requests from 1); it records every request.
type hookServer struct {
	*httptest.Server
	mu       sync.Mutex
	hits     []hit
	inFlight int
	maxIn    int
	stop     chan struct{} // closed when the test ends, to release held requests
}

func newHookServer(t *testing.T, handle func(n int, h hit, w http.ResponseWriter)) *hookServer {
	t.Helper()
	hs := &hookServer{stop: make(chan struct{})}
	hs.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h := hit{At: time.Now(), Header: r.Header.Clone(), Body: body, EventID: r.Header.Get("Webhook-Id")}
		hs.mu.Lock()
		hs.hits = append(hs.hits, h)
		n := len(hs.hits)
		hs.inFlight++
		hs.maxIn = max(hs.maxIn, hs.inFlight)
		hs.mu.Unlock()
		defer func() {
			hs.mu.Lock()
			hs.inFlight--
			hs.mu.Unlock()
		}()
		if handle != nil {
			handle(n, h, w)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(func() {
		close(hs.stop)
		hs.CloseClientConnections()
		hs.Close()
	})
	return hs
}

func (hs *hookServer) all() []hit {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	return append([]hit(nil), hs.hits...)
}

func (hs *hookServer) count() int {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	return len(hs.hits)
}

func (hs *hookServer) maxInFlight() int {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	return hs.maxIn
}

type endpointOut struct {
	ID             string `json:"id"`
	Secret         string `json:"secret"`
	Enabled        bool   `json:"enabled"`
	DisabledReason string `json:"disabled_reason"`
}

func createEndpoint(t *testing.T, api *client, body map[string]any) endpointOut {
	t.Helper()
	var ep endpointOut
	api.must(201, "POST", "/endpoints", body, &ep)
	return ep
}

type acceptedEvent struct {
	ID        string `json:"id"`
	Type      string `json:"type"`
	CreatedAt string `json:"created_at"`
}

func sendEvent(t *testing.T, api *client, typ string, data any) acceptedEvent {
	t.Helper()
	var ev acceptedEvent
	api.must(202, "POST", "/events", map[string]any{"type": typ, "data": data}, &ev)
	return ev
}

type deliveryOut struct {
	ID            string     `json:"id"`
	EndpointID    string     `json:"endpoint_id"`
	Status        string     `json:"status"`
	AttemptCount  int        `json:"attempt_count"`
	NextAttemptAt *time.Time `json:"next_attempt_at"`
}

func eventDeliveries(t *testing.T, api *client, eventID string) []deliveryOut {
	t.Helper()
	var ev struct {
		Deliveries []deliveryOut `json:"deliveries"`
	}
	api.must(200, "GET", "/events/"+eventID, nil, &ev)
	return ev.Deliveries
}

type attemptOut struct {
	DeliveryID      string      `json:"delivery_id"`
	EventID         string      `json:"event_id"`
	EndpointID      string      `json:"endpoint_id"`
	AttemptNumber   int         `json:"attempt_number"`
	Trigger         string      `json:"trigger"`
	StartedAt       time.Time   `json:"started_at"`
	DurationMs      int         `json:"duration_ms"`
	RequestHeaders  http.Header `json:"request_headers"`
	ResponseStatus  *int        `json:"response_status"`
	ResponseHeaders http.Header `json:"response_headers"`
	ResponseBody    string      `json:"response_body"`
	ErrorClass      string      `json:"error_class"`
	ErrorMessage    string      `json:"error_message"`
	Outcome         string      `json:"outcome"`
	NextAttemptAt   *time.Time  `json:"next_attempt_at"`
}

func eventAttempts(t *testing.T, api *client, eventID string) []attemptOut {
	t.Helper()
	var out struct {
		Data []attemptOut `json:"data"`
	}
	api.must(200, "GET", "/events/"+eventID+"/attempts", nil, &out)
	return out.Data
}

// waitStatus waits until the event's only delivery has status.
func waitStatus(t *testing.T, api *client, eventID, status string, timeout time.Duration) deliveryOut {
	t.Helper()
	var d []deliveryOut
	testenv.Eventually(t, timeout, func() bool {
		d = eventDeliveries(t, api, eventID)
		return len(d) == 1 && d[0].Status == status
	}, "event %s deliveries %+v, want one %s", eventID, &d, status)
	return d[0]
}

// readTopic returns every message now in topic (logical name, prefixed
// with the test's topic prefix), partition by partition.
// dialPartition connects to a partition's leader and reads its offsets.
// A broker busy creating many topics (parallel tests) briefly answers
// "not leader" for new partitions even after electing leaders, so that
// is retried until ctx ends.
func dialPartition(ctx context.Context, t *testing.T, broker, topic string, p int) (conn *kafkago.Conn, first, last int64) {
	t.Helper()
	for {
		conn, err := kafkago.DialLeader(ctx, "tcp", broker, topic, p)
		if err == nil {
			if first, last, err = conn.ReadOffsets(); err == nil {
				return conn, first, last
			}
			conn.Close()
		}
		transient := errors.Is(err, kafkago.NotLeaderForPartition) || errors.Is(err, kafkago.LeaderNotAvailable) ||
			errors.Is(err, kafkago.UnknownTopicOrPartition)
		if !transient || ctx.Err() != nil {
			t.Fatalf("offsets of %s/%d: %v", topic, p, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func readTopic(t *testing.T, f *ferry, name string) []kafkago.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	topic := f.Cfg.KafkaTopicPrefix + name
	var out []kafkago.Message
	for p := 0; p < f.Cfg.KafkaPartitions; p++ {
		conn, first, last := dialPartition(ctx, t, f.Cfg.KafkaBrokers[0], topic, p)
		for off := first; off < last; {
			if _, err := conn.Seek(off, kafkago.SeekAbsolute); err != nil {
				conn.Close()
				t.Fatalf("seek %s/%d: %v", topic, p, err)
			}
			_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			batch := conn.ReadBatch(1, 10<<20)
			for off < last {
				m, err := batch.ReadMessage()
				if err != nil {
					break
				}
				m.Partition = p
				out = append(out, m)
				off = m.Offset + 1
			}
			if err := batch.Close(); err != nil && off < last {
				conn.Close()
				t.Fatalf("read %s/%d: %v", topic, p, err)
			}
		}
		conn.Close()
	}
	return out
}

// topicJobs decodes the delivery jobs in a topic.
func topicJobs(t *testing.T, f *ferry, name string) []model.Job {
	t.Helper()
	var jobs []model.Job
	for _, m := range readTopic(t, f, name) {
		var j model.Job
		if err := json.Unmarshal(m.Value, &j); err != nil {
			t.Fatalf("undecodable job in %s: %v", name, err)
		}
		if string(m.Key) != j.EndpointID.String() {
			t.Errorf("%s message key %q, want endpoint id %s", name, m.Key, j.EndpointID)
		}
		jobs = append(jobs, j)
	}
	return jobs
}
