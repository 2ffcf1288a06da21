package tests

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	kafkago "github.com/segmentio/kafka-go"

	"github.com/ferry-dev/ferry/delivery/model"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestOutboxSweeperPublishesAbandonedRows writes an event, its delivery
// and its outbox row straight into Postgres, as if the process crashed
// after the commit and before publishing: the sweeper must publish it and
// the endpoint must receive it, and the outbox row must go.
func TestOutboxSweeperPublishesAbandonedRows(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	rc := newHookServer(t, nil)
	_, api := signUp(t, f, "outbox@example.com")
	ep := createEndpoint(t, api, map[string]any{"url": rc.URL})
	db := testenv.DB(t, f.Cfg.DatabaseURL)
	var tenantID uuid.UUID
	if err := db.QueryRow(`SELECT tenant_id FROM endpoints WHERE id = $1`, ep.ID).Scan(&tenantID); err != nil {
		t.Fatal(err)
	}
	created := time.Now().UTC().Add(-time.Minute).Truncate(time.Millisecond)
	job := model.Job{DeliveryID: uuid.New(), EventID: uuid.New(), EndpointID: uuid.MustParse(ep.ID), TenantID: tenantID,
		Attempt: 1, Trigger: model.TriggerInitial, AcceptedAt: created}
	raw, _ := json.Marshal(job)
	for _, q := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO events (id, tenant_id, type, data, created_at) VALUES ($1, $2, 'crash.test', '{"x":1}', $3)`, []any{job.EventID, tenantID, created}},
		{`INSERT INTO deliveries (id, tenant_id, event_id, endpoint_id, created_at) VALUES ($1, $2, $3, $4, $5)`, []any{job.DeliveryID, tenantID, job.EventID, job.EndpointID, created}},
		{`INSERT INTO outbox (delivery_id, job, created_at) VALUES ($1, $2, $3)`, []any{job.DeliveryID, string(raw), created}},
	} {
		if _, err := db.Exec(q.sql, q.args...); err != nil {
			t.Fatal(err)
		}
	}
	testenv.Eventually(t, 30*time.Second, func() bool { return rc.count() == 1 }, "the swept delivery was not received")
	if got := rc.all()[0].EventID; got != job.EventID.String() {
		t.Errorf("received event %s, want %s", got, job.EventID)
	}
	waitStatus(t, api, job.EventID.String(), "succeeded", 10*time.Second)
	var left int
	if err := db.QueryRow(`SELECT count(*) FROM outbox`).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Errorf("%d outbox rows left after the sweep", left)
	}
}

// TestRepublishedFinishedDeliveryIsSkipped republishes the job of a
// delivery that already succeeded (what a sweeper or a rebalance can do)
// and checks no second request is made: a later event on the same ordered
// endpoint arrives, proving the stale job was consumed and skipped.
func TestRepublishedFinishedDeliveryIsSkipped(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	rc := newHookServer(t, nil)
	_, api := signUp(t, f, "skip@example.com")
	createEndpoint(t, api, map[string]any{"url": rc.URL, "max_in_flight": 1})
	first := sendEvent(t, api, "once", map[string]any{})
	waitStatus(t, api, first.ID, "succeeded", 30*time.Second)

	jobs := topicJobs(t, f, model.TopicDeliveries)
	if len(jobs) != 1 {
		t.Fatalf("%d jobs on the deliveries topic, want 1", len(jobs))
	}
	w := &kafkago.Writer{Addr: kafkago.TCP(f.Cfg.KafkaBrokers...), Topic: f.Cfg.KafkaTopicPrefix + model.TopicDeliveries,
		Balancer: &kafkago.Hash{}, RequiredAcks: kafkago.RequireAll, BatchTimeout: time.Millisecond}
	defer w.Close()
	raw, _ := json.Marshal(jobs[0])
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := 0; i < 2; i++ {
		if err := w.WriteMessages(ctx, kafkago.Message{Key: []byte(jobs[0].EndpointID.String()), Value: raw}); err != nil {
			t.Fatal(err)
		}
	}
	second := sendEvent(t, api, "twice", map[string]any{})
	// Both republished jobs have been handled once the dispatcher counts
	// them as skipped, and the marker event once its attempt is logged:
	// only then is "no third request" a finding rather than a race.
	testenv.Eventually(t, 30*time.Second, func() bool {
		return strings.Contains(metricsText(t, f), "ferry_delivery_jobs_skipped_total 2")
	}, "the 2 republished jobs were not skipped")
	waitStatus(t, api, second.ID, "succeeded", 30*time.Second)
	hits := rc.all()
	if len(hits) != 2 || hits[0].EventID != first.ID || hits[1].EventID != second.ID {
		ids := []string{}
		for _, h := range hits {
			ids = append(ids, h.EventID)
		}
		t.Fatalf("received %v, want [%s %s]: the finished delivery was sent again", ids, first.ID, second.ID)
	}
	if d := eventDeliveries(t, api, first.ID); d[0].AttemptCount != 1 {
		t.Errorf("finished delivery now has %d attempts", d[0].AttemptCount)
	}
	if !strings.Contains(metricsText(t, f), "ferry_delivery_jobs_skipped_total 2") {
		t.Errorf("metrics do not count the 2 skipped jobs")
	}
}

// metricsText returns what f serves at /metrics.
func metricsText(t *testing.T, f *ferry) string {
	t.Helper()
	res, err := http.Get(f.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(body)
}

// tcpProxy forwards to a backend until closed, then refuses connections:
// Postgres "goes down" for one app without touching the shared server.
type tcpProxy struct {
	l     net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func newTCPProxy(t *testing.T, backend string) *tcpProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{l: l}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			b, err := net.Dial("tcp", backend)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, b)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(b, c); b.Close() }()
			go func() { _, _ = io.Copy(c, b); c.Close() }()
		}
	}()
	t.Cleanup(p.close)
	return p
}

func (p *tcpProxy) close() {
	p.l.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// TestIngestAnswers503WhenPostgresIsDown cuts the app off from Postgres
// (through a proxy it owns) and checks event submission answers 503 with
// the unavailable error, never 202.
func TestIngestAnswers503WhenPostgresIsDown(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	u, err := url.Parse(cfg.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newTCPProxy(t, u.Host)
	u.Host = proxy.l.Addr().String()
	cfg.DatabaseURL = u.String()
	f := startFerry(t, cfg)
	_, api := signUp(t, f, "down@example.com")
	sendEvent(t, api, "before", map[string]any{})

	proxy.close()
	for i := 0; i < 5; i++ {
		var body struct {
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		status := api.do("POST", "/events", map[string]any{"type": "during", "data": map[string]any{"i": i}}, &body)
		if status != 503 || body.Error.Code != "unavailable" {
			t.Fatalf("POST /events with Postgres down: %d %q, want 503 unavailable", status, body.Error.Code)
		}
	}
}
