package tests

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
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

// A source's rate limit holds for two replicas together: a provider
// hammering its ingest URL through both gets the source's rate (plus the
// one-second burst), not twice it, every request answered 200 was
// captured, and another tenant's source on the same replicas is never
// limited.
func TestSourceRateLimitHoldsAcrossReplicas(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	one, two := startFerry(t, cfg), startFerry(t, cfg) // one database, one Kafka cluster
	_, hostile := signUp(t, one, "flood@sources.example")
	_, bystander := signUp(t, two, "calm@sources.example")
	const perSecond = 10
	src := createSource(t, hostile, map[string]any{"name": "flooded", "verification": map[string]string{"type": "none"},
		"event_type": map[string]string{"value": "flood.event"}, "rate_limit_per_second": perSecond})
	calm := createSource(t, bystander, map[string]any{"name": "calm", "verification": map[string]string{"type": "none"},
		"event_type": map[string]string{"value": "calm.event"}, "rate_limit_per_second": perSecond})
	viaTwo := strings.Replace(src.IngestURL, one.URL, two.URL, 1)
	calmViaTwo := strings.Replace(calm.IngestURL, one.URL, two.URL, 1)
	if viaTwo == src.IngestURL && one.URL != two.URL {
		t.Fatalf("ingest url %q is not under %s", src.IngestURL, one.URL)
	}

	const duration = 2 * time.Second
	var admitted, refused, bystanderRefused, n atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for _, url := range []string{src.IngestURL, viaTwo} {
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Since(start) < duration {
					body := fmt.Appendf(nil, `{"n":%d}`, n.Add(1))
					switch res := postIngest(t, url, body, map[string]string{"Content-Type": "application/json"}); res.StatusCode {
					case http.StatusOK:
						admitted.Add(1)
					case http.StatusTooManyRequests:
						refused.Add(1)
					default:
						t.Errorf("flood: %d %s", res.StatusCode, res.Body)
						return
					}
				}
			}()
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; time.Since(start) < duration; i++ {
			res := postIngest(t, calmViaTwo, fmt.Appendf(nil, `{"i":%d}`, i), map[string]string{"Content-Type": "application/json"})
			if res.StatusCode != http.StatusOK {
				bystanderRefused.Add(1)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}()
	wg.Wait()
	elapsed := time.Since(start).Seconds()

	// The bucket starts with a second's worth and refills perSecond a
	// second; each replica may hold one leased batch (1 token at this rate).
	limit := perSecond + perSecond*elapsed + 2
	if got := float64(admitted.Load()); got > limit || got < perSecond*elapsed {
		t.Errorf("two replicas accepted %.0f requests in %.1f s at %d/s (refused %d); want between %.0f and %.0f",
			got, elapsed, perSecond, refused.Load(), perSecond*elapsed, limit)
	}
	if refused.Load() == 0 {
		t.Error("nothing was refused: the flood did not reach the limit")
	}
	if bystanderRefused.Load() != 0 {
		t.Errorf("the bystander's source was refused %d times", bystanderRefused.Load())
	}
	if caps := listCaptured(t, hostile, src.ID, "verified"); int64(len(caps)) != admitted.Load() {
		t.Errorf("%d requests answered 200 but %d captured", admitted.Load(), len(caps))
	}
	// Operators see the sources' leases timed.
	res, err := http.Get(one.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	leases := ""
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, `ferry_rate_lease_seconds_count{limit="source"} `); ok {
			leases = v
		}
	}
	if n, err := strconv.Atoi(leases); err != nil || n < 1 {
		t.Errorf("ferry_rate_lease_seconds_count{limit=\"source\"} = %q, want the sources' leases counted", leases)
	}
}
