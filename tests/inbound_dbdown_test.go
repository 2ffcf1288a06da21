package tests

import (
	"encoding/json"
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// cuttableProxy forwards connections to target until cut: then it drops every
// open connection and closes new ones at once, as a Postgres that went
// away would look to Ferry, without touching the shared Postgres.
type cuttableProxy struct {
	l      net.Listener
	target string

	mu    sync.Mutex
	cut   bool
	conns map[net.Conn]bool
}

func newCuttableProxy(t *testing.T, target string) *cuttableProxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cuttableProxy{l: l, target: target, conns: map[net.Conn]bool{}}
	t.Cleanup(func() { l.Close(); p.setCut(true) })
	go p.serve()
	return p
}

func (p *cuttableProxy) serve() {
	for {
		c, err := p.l.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		cut := p.cut
		p.mu.Unlock()
		if cut {
			c.Close()
			continue
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns[c], p.conns[up] = true, true
		p.mu.Unlock()
		go func() { _, _ = io.Copy(up, c); up.Close(); c.Close() }()
		go func() { _, _ = io.Copy(c, up); up.Close(); c.Close() }()
	}
}

// setCut cuts (true) or restores (false) the way to the target.
func (p *cuttableProxy) setCut(cut bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = cut
	if cut {
		for c := range p.conns {
			c.Close()
		}
		clear(p.conns)
	}
}

// TestInboundPostgresDown: with Postgres unreachable the ingest URL
// answers 503 in the error shape, never 2xx for a request it could not
// capture, whether the source was cached or not; once Postgres is back
// requests are captured again, and nothing answered 503 was kept.
func TestInboundPostgresDown(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	u, err := url.Parse(cfg.DatabaseURL)
	if err != nil {
		t.Fatal(err)
	}
	proxy := newCuttableProxy(t, u.Host)
	u.Host = proxy.l.Addr().String()
	cfg.DatabaseURL = u.String()
	f := startFerry(t, cfg)
	_, key := signUp(t, f, "in-dbdown@example.com")
	src := createSource(t, key, map[string]any{"name": "fragile", "verification": map[string]string{"type": "none"},
		"event_type": map[string]string{"value": "fragile.event"}})
	if res := postIngest(t, src.IngestURL, []byte(`{"n":1}`), nil); res.StatusCode != 200 {
		t.Fatalf("before: %d %s", res.StatusCode, res.Body)
	}

	proxy.setCut(true)
	// The source is cached from the request above for a second, then
	// looked up again: requests for longer than that cover both paths,
	// and every one of them must fail closed. They are paced below the
	// source's rate limit (1,000/s), which would answer 429 first.
	for i, start := 0, time.Now(); time.Since(start) < 1500*time.Millisecond; i++ {
		time.Sleep(2 * time.Millisecond)
		res := postIngest(t, src.IngestURL, []byte(`{"n":2}`), nil)
		var e apiError
		if res.StatusCode != 503 || json.Unmarshal(res.Body, &e) != nil || e.Error.Code != "unavailable" || res.Header.Get("Retry-After") == "" {
			t.Fatalf("request %d with Postgres down: %d %s", i, res.StatusCode, res.Body)
		}
	}
	proxy.setCut(false)
	testenv.Eventually(t, 30*time.Second, func() bool {
		return postIngest(t, src.IngestURL, []byte(`{"n":3}`), nil).StatusCode == 200
	}, "ingest did not recover with Postgres")
	caps := listCaptured(t, key, src.ID, "")
	for _, c := range caps {
		d := capturedDetail(t, key, src.ID, c.ID)
		if d.BodyText != nil && *d.BodyText == `{"n":2}` {
			t.Errorf("a request answered 503 was captured: %s", c.ID)
		}
	}
	if len(caps) < 2 {
		t.Errorf("%d captures", len(caps))
	}
}
