package tests

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// tarpit is a webhook receiver that accepts every request and answers
// none of them until release is called; from then on it answers 200 at
// once, including the requests it was holding. It records each (path,
// event) pair it answered, so a test can check that every delivery of
// every endpoint (one path per endpoint) eventually succeeded.
type tarpit struct {
	*httptest.Server
	released chan struct{}
	once     sync.Once

	mu       sync.Mutex
	held     int // requests waiting for the release right now
	maxHeld  int
	received int // requests, held or not
	answered map[string]bool
}

func newTarpit(t *testing.T) *tarpit {
	t.Helper()
	tp := &tarpit{released: make(chan struct{}), answered: map[string]bool{}}
	tp.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		key := r.URL.Path + " " + r.Header.Get("Webhook-Id")
		tp.mu.Lock()
		tp.received++
		tp.held++
		tp.maxHeld = max(tp.maxHeld, tp.held)
		tp.mu.Unlock()
		select {
		case <-tp.released:
		case <-r.Context().Done(): // Ferry gave up (its timeout): not answered
		}
		tp.mu.Lock()
		tp.held--
		if r.Context().Err() == nil {
			tp.answered[key] = true
		}
		tp.mu.Unlock()
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(func() {
		tp.release()
		tp.CloseClientConnections()
		tp.Close()
	})
	return tp
}

// release makes the tarpit answer 200 to everything, now and later.
func (tp *tarpit) release() { tp.once.Do(func() { close(tp.released) }) }

// stats returns the requests held now, the most held at once, the
// requests received and the distinct (endpoint, event) pairs answered.
func (tp *tarpit) stats() (held, maxHeld, received, answered int) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	return tp.held, tp.maxHeld, tp.received, len(tp.answered)
}

// eventPoster posts events for one tenant from many goroutines at once
// over a keep-alive connection pool (the test client's default pool
// keeps only two idle connections per host).
type eventPoster struct {
	url  string
	key  string
	http *http.Client
}

func newEventPoster(f *ferry, api *client, conns int) *eventPoster {
	tr := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		MaxIdleConnsPerHost: conns + 4,
		MaxIdleConns:        conns + 4,
	}
	return &eventPoster{url: f.URL + "/api/v1/events", key: api.apiKey, http: &http.Client{Transport: tr, Timeout: 60 * time.Second}}
}

// post sends one event and returns its id once Ferry answered 202.
func (p *eventPoster) post(ctx context.Context, typ string, data any) (string, error) {
	body, err := json.Marshal(map[string]any{"type": typ, "data": data})
	if err != nil {
		return "", fmt.Errorf("encode event: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.url, bytes.NewReader(body))
	if err != nil {
		return "", fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+p.key)
	res, err := p.http.Do(req)
	if err != nil {
		return "", fmt.Errorf("post event: %w", err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusAccepted {
		return "", fmt.Errorf("post event: status %d: %s", res.StatusCode, bytes.TrimSpace(raw))
	}
	var ev acceptedEvent
	if err := json.Unmarshal(raw, &ev); err != nil {
		return "", fmt.Errorf("decode accepted event: %w", err)
	}
	return ev.ID, nil
}

// postMany sends n events from conns goroutines as fast as Ferry takes
// them and returns their ids; any refusal fails the test.
func (p *eventPoster) postMany(t *testing.T, n, conns int, typ string) []string {
	t.Helper()
	ids := make([]string, n)
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for w := 0; w < conns; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				id, err := p.post(context.Background(), typ, map[string]any{"i": i})
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
					continue
				}
				ids[i] = id
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d of %d events refused; first: %v", len(errs), n, errs[0])
	}
	return ids
}

// deliveryStatuses counts a tenant's deliveries by status.
func deliveryStatuses(t *testing.T, db *sql.DB, tenantID string) map[string]int {
	t.Helper()
	rows, err := db.Query(`SELECT status, count(*) FROM deliveries WHERE tenant_id = $1 GROUP BY status`, tenantID)
	if err != nil {
		t.Fatalf("count deliveries: %v", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var s string
		var n int
		if err := rows.Scan(&s, &n); err != nil {
			t.Fatalf("count deliveries: %v", err)
		}
		out[s] = n
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("count deliveries: %v", err)
	}
	return out
}

// lost counts deliveries that finished without succeeding.
func lost(statuses map[string]int) int {
	n := 0
	for s, c := range statuses {
		if s != "succeeded" && s != "pending" && s != "retrying" {
			n += c
		}
	}
	return n
}

// percentile returns the nearest-rank q-quantile of ds (q in (0, 1]).
func percentile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s))*q+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

// formatDurations prints durations rounded to the millisecond.
func formatDurations(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Round(time.Millisecond).String()
	}
	return strings.Join(parts, " ")
}

// scrapeMetrics returns the named unlabelled series of Ferry's /metrics
// as "name=value" pairs, for diagnostics in test logs.
func scrapeMetrics(t *testing.T, f *ferry, names ...string) string {
	t.Helper()
	res, err := http.Get(f.URL + "/metrics")
	if err != nil {
		return "unavailable: " + err.Error()
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var out []string
	for _, line := range strings.Split(string(raw), "\n") {
		for _, n := range names {
			if v, ok := strings.CutPrefix(line, n+" "); ok {
				out = append(out, n+"="+v)
			}
		}
	}
	return strings.Join(out, " ")
}
