package load

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// StageMetric is the Prometheus histogram Ferry fills with the time from
// an event's acceptance to each stage of its first delivery attempt.
const StageMetric = "ferry_delivery_stage_seconds"

// StageOrder lists Ferry's stages in the order a delivery passes them:
// a push through the first six, a pull-queue message from committed to
// leased (its first lease).
func StageOrder() []string {
	return []string{"committed", "published", "consumed", "sent", "answered", "logged", "leased"}
}

// Histogram is one cumulative Prometheus histogram as scraped.
type Histogram struct {
	// Bounds are the buckets' upper bounds (le), ascending, +Inf last;
	// Counts the cumulative counts at each.
	Bounds []float64
	Counts []float64
	Sum    float64
	Count  float64
}

// sub returns h minus an earlier scrape of the same histogram.
func (h Histogram) sub(before Histogram) Histogram {
	out := Histogram{Bounds: h.Bounds, Counts: slices.Clone(h.Counts), Sum: h.Sum - before.Sum, Count: h.Count - before.Count}
	if len(before.Counts) == len(h.Counts) {
		for i := range out.Counts {
			out.Counts[i] -= before.Counts[i]
		}
	}
	return out
}

// Over returns the share of observations above bound, which must be one
// of the bucket bounds for the answer to be exact (0 when there is none).
func (h Histogram) Over(bound float64) float64 {
	if h.Count <= 0 {
		return 0
	}
	for i, ub := range h.Bounds {
		if ub >= bound {
			return (h.Count - h.Counts[i]) / h.Count
		}
	}
	return 0
}

// Quantile estimates the q-quantile in seconds by linear interpolation
// within the bucket that holds it (as PromQL's histogram_quantile); an
// answer in the +Inf bucket is the largest finite bound.
func (h Histogram) Quantile(q float64) float64 {
	if h.Count <= 0 || len(h.Bounds) == 0 {
		return 0
	}
	rank := q * h.Count
	lower, below := 0.0, 0.0
	for i, ub := range h.Bounds {
		if h.Counts[i] >= rank {
			if math.IsInf(ub, 1) {
				return lower
			}
			in := h.Counts[i] - below
			if in <= 0 {
				return ub
			}
			return lower + (ub-lower)*(rank-below)/in
		}
		if !math.IsInf(ub, 1) {
			lower = ub
		}
		below = h.Counts[i]
	}
	return lower
}

// ScrapeStages reads Ferry's /metrics and returns the stage histograms by
// stage name.
func ScrapeStages(ctx context.Context, ferryURL string) (map[string]Histogram, error) {
	return ScrapeHistograms(ctx, ferryURL, StageMetric, func(labels string) string { return label(labels, "stage") })
}

// RequestMetric is the Prometheus histogram of Ferry's answer times, by
// route template and method.
const RequestMetric = "ferry_http_request_duration_seconds"

// ScrapeRequests reads Ferry's /metrics and returns its answer-time
// histograms keyed by "METHOD route", e.g. "POST /api/v1/events".
func ScrapeRequests(ctx context.Context, ferryURL string) (map[string]Histogram, error) {
	return ScrapeHistograms(ctx, ferryURL, RequestMetric, func(labels string) string {
		return label(labels, "method") + " " + label(labels, "route")
	})
}

// ScrapeHistograms reads the histogram metric from Ferry's /metrics, one
// per key that keyOf gives its series' labels (le left out).
func ScrapeHistograms(ctx context.Context, ferryURL, metric string, keyOf func(labels string) string) (map[string]Histogram, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ferryURL+"/metrics", nil)
	if err != nil {
		return nil, fmt.Errorf("scrape metrics: %w", err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("scrape metrics: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("scrape metrics: status %d", res.StatusCode)
	}
	out := map[string]Histogram{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, metric)
		if !ok {
			continue
		}
		suffix, rest, ok := strings.Cut(rest, "{")
		if !ok {
			continue
		}
		labels, value, ok := strings.Cut(rest, "} ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			continue
		}
		k, le := keyOf(labels), label(labels, "le")
		h := out[k]
		switch suffix {
		case "_bucket":
			ub, err := strconv.ParseFloat(le, 64) // "+Inf" parses as +Inf
			if err != nil {
				continue
			}
			h.Bounds = append(h.Bounds, ub)
			h.Counts = append(h.Counts, v)
		case "_sum":
			h.Sum = v
		case "_count":
			h.Count = v
		}
		out[k] = h
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("scrape metrics: %w", err)
	}
	return out, nil
}

// label returns the value of name in a Prometheus label list such as
// stage="sent",le="0.005".
func label(labels, name string) string {
	for _, kv := range strings.Split(labels, ",") {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return strings.Trim(v, `"`)
		}
	}
	return ""
}

// StageLatency is one stage of a scenario's per-stage breakdown: the time
// from acceptance to the stage (mean and estimated percentiles) and the
// mean time of the hop from the previous stage.
type StageLatency struct {
	Stage string  `json:"stage"`
	N     int64   `json:"n"`
	Mean  float64 `json:"mean_ms"`
	P50   float64 `json:"p50_ms"`
	P99   float64 `json:"p99_ms"`
	// HopMean is this stage's mean minus the previous stage's (from
	// acceptance for the first): the average time spent in the hop.
	HopMean float64 `json:"hop_mean_ms"`
}

// Breakdown turns two scrapes of the stage histograms, taken before and
// after a scenario, into its per-stage latencies in StageOrder.
// Stages nothing reached in between are left out.
func Breakdown(before, after map[string]Histogram) []StageLatency {
	var out []StageLatency
	prev := 0.0
	for _, name := range StageOrder() {
		h, ok := after[name]
		if !ok {
			continue
		}
		d := h.sub(before[name])
		if d.Count <= 0 {
			continue
		}
		mean := d.Sum / d.Count * 1000
		out = append(out, StageLatency{Stage: name, N: int64(d.Count), Mean: mean,
			P50: d.Quantile(0.50) * 1000, P99: d.Quantile(0.99) * 1000, HopMean: mean - prev})
		prev = mean
	}
	return out
}
