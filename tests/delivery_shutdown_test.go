package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/app"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestGracefulShutdownLosesNothing stops a Ferry process (cancelling Run,
// what SIGTERM does in main) while events are being accepted, published,
// attempted and retried; a second process on the same database, topics
// and consumer groups must then deliver every event the first accepted.
func TestGracefulShutdownLosesNothing(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.ShutdownGrace = 3 * time.Second

	var mu sync.Mutex
	succeeded := map[string]bool{}
	seen := map[string]int{}
	rc := newHookServer(t, func(n int, h hit, w http.ResponseWriter) {
		time.Sleep(10 * time.Millisecond)
		mu.Lock()
		seen[h.EventID]++
		fail := seen[h.EventID] == 1 && n%4 == 0 // a quarter of first attempts fail and go through a tier
		if !fail {
			succeeded[h.EventID] = true
		}
		mu.Unlock()
		if fail {
			w.WriteHeader(503)
			return
		}
		w.WriteHeader(200)
	})

	ctxA, stopA := context.WithCancel(context.Background())
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	a, err := app.New(ctxA, cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	runDone := make(chan error, 1)
	go func() { runDone <- a.Run(ctxA) }()
	fa := &ferry{URL: a.URL(), App: a, Cfg: cfg}
	_, api := signUp(t, fa, "shutdown@example.com")
	createEndpoint(t, api, map[string]any{"url": rc.URL, "max_in_flight": 4})

	var acceptedMu sync.Mutex
	var accepted []string
	var count atomic.Int32
	var wg sync.WaitGroup
	hc := &http.Client{Timeout: 10 * time.Second}
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				body, _ := json.Marshal(map[string]any{"type": "load", "data": map[string]any{"i": i}})
				req, _ := http.NewRequest("POST", fa.URL+"/api/v1/events", bytes.NewReader(body))
				req.Header.Set("Authorization", "Bearer "+api.apiKey)
				req.Header.Set("Content-Type", "application/json")
				res, err := hc.Do(req)
				if err != nil {
					return // the process is gone
				}
				var ev acceptedEvent
				_ = json.NewDecoder(res.Body).Decode(&ev)
				res.Body.Close()
				if res.StatusCode == 202 {
					acceptedMu.Lock()
					accepted = append(accepted, ev.ID)
					acceptedMu.Unlock()
					count.Add(1)
				}
			}
		}()
	}
	testenv.Eventually(t, 60*time.Second, func() bool { return count.Load() >= 150 }, "only %d events accepted", count.Load())
	stopA() // SIGTERM
	select {
	case err := <-runDone:
		if err != nil {
			t.Errorf("first process Run: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("first process did not shut down within 30s")
	}
	wg.Wait()
	a.Close()
	acceptedMu.Lock()
	total := len(accepted)
	acceptedMu.Unlock()
	mu.Lock()
	before := len(succeeded)
	mu.Unlock()
	t.Logf("first process accepted %d events and delivered %d before shutting down", total, before)

	startFerry(t, cfg) // the second process: same database, topics and groups
	missing := func() []string {
		mu.Lock()
		defer mu.Unlock()
		var out []string
		for _, id := range accepted {
			if !succeeded[id] {
				out = append(out, id)
			}
		}
		return out
	}
	testenv.Eventually(t, 90*time.Second, func() bool { return len(missing()) == 0 },
		"%d of %d accepted events never delivered", len(missing()), total)

	db := testenv.DB(t, cfg.DatabaseURL)
	testenv.Eventually(t, 30*time.Second, func() bool {
		var n int
		_ = db.QueryRow(`SELECT count(*) FROM deliveries WHERE status <> 'succeeded'`).Scan(&n)
		return n == 0
	}, "deliveries not all recorded as succeeded")
	var rows int
	if err := db.QueryRow(`SELECT count(*) FROM deliveries`).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	// More rows than 202s is possible (a response cut off by the
	// shutdown); fewer would be a lost event.
	if rows < total {
		t.Errorf("%d deliveries in Postgres, %d events accepted", rows, total)
	}
}
