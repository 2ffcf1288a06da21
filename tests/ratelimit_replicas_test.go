package tests

import (
	"fmt"
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

	get := func(c *client) func() (int, string) {
		return func() (int, string) {
			res := c.raw("GET", "/endpoints", nil, nil)
			return res.Status, string(res.Body)
		}
	}
	h := hammer(t, []func() (int, string){get(hostile), get(hostileTwo)}, func() int {
		return bystander.raw("GET", "/endpoints", nil, nil).Status
	}, 100*time.Millisecond)
	admitted, refused, elapsed := h.admitted, h.refused, h.elapsed

	// The bucket starts with a second's worth and refills 20 a second;
	// each replica may hold one leased batch (1 token at this limit).
	limit := 20 + 20*elapsed + 2
	if got := float64(admitted); got > limit || got < 20*elapsed {
		t.Errorf("two replicas admitted %.0f requests in %.1f s at 20/s (refused %d); want between %.0f and %.0f",
			got, elapsed, refused, 20*elapsed, limit)
	}
	if refused == 0 {
		t.Error("nothing was refused: the hammer did not reach the limit")
	}
	if h.bystanderRefused != 0 {
		t.Errorf("the bystander was refused %d times", h.bystanderRefused)
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

	var n atomic.Int64
	post := func(url string) func() (int, string) {
		return func() (int, string) {
			res := postIngest(t, url, fmt.Appendf(nil, `{"n":%d}`, n.Add(1)), map[string]string{"Content-Type": "application/json"})
			return res.StatusCode, string(res.Body)
		}
	}
	h := hammer(t, []func() (int, string){post(src.IngestURL), post(viaTwo)}, func() int {
		return postIngest(t, calmViaTwo, fmt.Appendf(nil, `{"i":%d}`, n.Add(1)), map[string]string{"Content-Type": "application/json"}).StatusCode
	}, 200*time.Millisecond)
	admitted, refused, elapsed := h.admitted, h.refused, h.elapsed

	// The bucket starts with a second's worth and refills perSecond a
	// second; each replica may hold one leased batch (1 token at this rate).
	limit := perSecond + perSecond*elapsed + 2
	if got := float64(admitted); got > limit || got < perSecond*elapsed {
		t.Errorf("two replicas accepted %.0f requests in %.1f s at %d/s (refused %d); want between %.0f and %.0f",
			got, elapsed, perSecond, refused, perSecond*elapsed, limit)
	}
	if refused == 0 {
		t.Error("nothing was refused: the flood did not reach the limit")
	}
	if h.bystanderRefused != 0 {
		t.Errorf("the bystander's source was refused %d times", h.bystanderRefused)
	}
	if caps := listCaptured(t, hostile, src.ID, "verified"); int64(len(caps)) != admitted {
		t.Errorf("%d requests answered 200 but %d captured", admitted, len(caps))
	}
	// Operators see the sources' leases timed.
	const leaseCount = `ferry_rate_lease_seconds_count{limit="source"}`
	leases, _ := strings.CutPrefix(scrapeMetrics(t, one, leaseCount), leaseCount+"=")
	if n, err := strconv.Atoi(leases); err != nil || n < 1 {
		t.Errorf("ferry_rate_lease_seconds_count{limit=\"source\"} = %q, want the sources' leases counted", leases)
	}
}

// hammered is what hammer saw.
type hammered struct {
	admitted, refused int64 // the hammer's requests answered 200 and 429
	bystanderRefused  int64 // the bystander's requests not answered 200
	elapsed           float64
}

// hammer sends for 2 s: each of senders from four goroutines back to
// back (a sender makes one request and returns its status and body), and
// calm, the bystander, once every pause beside them. An answer of the
// hammer other than 200 or 429 fails the test.
func hammer(t *testing.T, senders []func() (int, string), calm func() int, pause time.Duration) hammered {
	t.Helper()
	const duration = 2 * time.Second
	var admitted, refused, bystanderRefused atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	for _, send := range senders {
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for time.Since(start) < duration {
					switch status, body := send(); status {
					case http.StatusOK:
						admitted.Add(1)
					case http.StatusTooManyRequests:
						refused.Add(1)
					default:
						t.Errorf("hammer: %d %s", status, body)
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
			if calm() != http.StatusOK {
				bystanderRefused.Add(1)
			}
			time.Sleep(pause)
		}
	}()
	wg.Wait()
	return hammered{admitted: admitted.Load(), refused: refused.Load(), bystanderRefused: bystanderRefused.Load(),
		elapsed: time.Since(start).Seconds()}
}
