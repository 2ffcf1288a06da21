package load

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestBreakdownFromScrapes checks the /metrics parser, the bucket
// quantile and the per-hop means on two scrapes of a known histogram.
func TestBreakdownFromScrapes(t *testing.T) {
	scrapes := []string{
		`# HELP ferry_delivery_stage_seconds x
# TYPE ferry_delivery_stage_seconds histogram
ferry_delivery_stage_seconds_bucket{stage="committed",le="0.001"} 1
ferry_delivery_stage_seconds_bucket{stage="committed",le="0.002"} 1
ferry_delivery_stage_seconds_bucket{stage="committed",le="+Inf"} 1
ferry_delivery_stage_seconds_sum{stage="committed"} 0.0005
ferry_delivery_stage_seconds_count{stage="committed"} 1
ferry_other_total 3
`,
		`ferry_delivery_stage_seconds_bucket{stage="committed",le="0.001"} 51
ferry_delivery_stage_seconds_bucket{stage="committed",le="0.002"} 101
ferry_delivery_stage_seconds_bucket{stage="committed",le="+Inf"} 101
ferry_delivery_stage_seconds_sum{stage="committed"} 0.1005
ferry_delivery_stage_seconds_count{stage="committed"} 101
ferry_delivery_stage_seconds_bucket{stage="sent",le="0.001"} 0
ferry_delivery_stage_seconds_bucket{stage="sent",le="0.002"} 50
ferry_delivery_stage_seconds_bucket{stage="sent",le="+Inf"} 100
ferry_delivery_stage_seconds_sum{stage="sent"} 0.3
ferry_delivery_stage_seconds_count{stage="sent"} 100
`,
	}
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(scrapes[n]))
		n++
	}))
	defer srv.Close()
	before, err := ScrapeStages(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	after, err := ScrapeStages(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	got := Breakdown(before, after)
	if len(got) != 2 || got[0].Stage != "committed" || got[1].Stage != "sent" {
		t.Fatalf("stages %+v, want committed then sent", got)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	c, s := got[0], got[1]
	if c.N != 100 || !near(c.Mean, 1) || !near(c.P50, 1) || !near(c.HopMean, 1) {
		t.Errorf("committed %+v, want n 100, mean 1 ms, p50 1 ms", c)
	}
	// p99 of sent lies in the +Inf bucket: reported as the last bound.
	if s.N != 100 || !near(s.Mean, 3) || !near(s.P50, 2) || !near(s.P99, 2) || !near(s.HopMean, 2) {
		t.Errorf("sent %+v, want n 100, mean 3 ms, p50 2 ms, p99 2 ms, hop 2 ms", s)
	}
}

// TestScrapeRequestsByRoute checks that answer times are keyed by method
// and route, and the share over a bucket bound.
func TestScrapeRequestsByRoute(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`ferry_http_request_duration_seconds_bucket{method="POST",route="/api/v1/events",le="0.01"} 190
ferry_http_request_duration_seconds_bucket{method="POST",route="/api/v1/events",le="0.025"} 198
ferry_http_request_duration_seconds_bucket{method="POST",route="/api/v1/events",le="+Inf"} 200
ferry_http_request_duration_seconds_sum{method="POST",route="/api/v1/events"} 1.5
ferry_http_request_duration_seconds_count{method="POST",route="/api/v1/events"} 200
ferry_http_request_duration_seconds_bucket{method="GET",route="/api/v1/events",le="0.01"} 3
ferry_http_request_duration_seconds_bucket{method="GET",route="/api/v1/events",le="0.025"} 3
ferry_http_request_duration_seconds_bucket{method="GET",route="/api/v1/events",le="+Inf"} 3
ferry_http_request_duration_seconds_count{method="GET",route="/api/v1/events"} 3
`))
	}))
	defer srv.Close()
	got, err := ScrapeRequests(context.Background(), srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	post, get := got["POST /api/v1/events"], got["GET /api/v1/events"]
	if post.Count != 200 || get.Count != 3 {
		t.Fatalf("counts POST %v GET %v, want 200 and 3", post.Count, get.Count)
	}
	for _, c := range []struct {
		bound, want float64
	}{{0.01, 0.05}, {0.025, 0.01}, {1, 0}} {
		if o := post.Over(c.bound); math.Abs(o-c.want) > 1e-9 {
			t.Errorf("over %v s: %v, want %v", c.bound, o, c.want)
		}
	}
}
