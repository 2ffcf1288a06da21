package tests

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A tenant's API rate limit holds for two replicas together: hammered
// through both at once, it gets its limit per second (plus the one-second
// burst), not twice that, and a bystander on the same replicas is not
// limited at all.
func TestRateLimitHoldsAcrossReplicas(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.APIRateLimitPerSecond = 20
	one, two := startFerry(t, cfg), startFerry(t, cfg) // one database, one Kafka cluster
	_, hostile := signUp(t, one, "hammer@example.com")
	_, bystander := signUp(t, two, "calm@example.com")
	hostileTwo := newClient(t, two.URL+"/api/v1")
	hostileTwo.apiKey = hostile.apiKey
	// Start from a full bucket: sign-up's own requests spent some.
	time.Sleep(1100 * time.Millisecond)

	const duration = 2 * time.Second
	var admitted, refused atomic.Int64
	var bystanderRefused atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for _, c := range []*client{hostile, hostileTwo} {
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Since(start) < duration {
					switch res := c.raw("GET", "/endpoints", nil, nil); res.Status {
					case http.StatusOK:
						admitted.Add(1)
					case http.StatusTooManyRequests:
						refused.Add(1)
					default:
						t.Errorf("hammer: %d %s", res.Status, res.Body)
						return
					}
				}
			}()
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for time.Since(start) < duration {
			if res := bystander.raw("GET", "/endpoints", nil, nil); res.Status != http.StatusOK {
				bystanderRefused.Add(1)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}()
	wg.Wait()
	elapsed := time.Since(start).Seconds()

	// The bucket starts with a second's worth and refills 20 a second;
	// each replica may hold one leased batch (1 token at this limit).
	limit := 20 + 20*elapsed + 2
	if got := float64(admitted.Load()); got > limit || got < 20*elapsed {
		t.Errorf("two replicas admitted %.0f requests in %.1f s at 20/s (refused %d); want between %.0f and %.0f",
			got, elapsed, refused.Load(), 20*elapsed, limit)
	}
	if refused.Load() == 0 {
		t.Error("nothing was refused: the hammer did not reach the limit")
	}
	if bystanderRefused.Load() != 0 {
		t.Errorf("the bystander was refused %d times", bystanderRefused.Load())
	}
}
