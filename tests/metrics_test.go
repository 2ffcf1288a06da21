package tests

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// scrape returns the metric names (histogram series included) and lines
// of the app's /metrics.
func scrape(t *testing.T, f *ferry) (names map[string]bool, lines []string) {
	t.Helper()
	res, err := http.Get(f.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %s", res.Status)
	}
	names = map[string]bool{}
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lines = append(lines, line)
		names[line[:strings.IndexAny(line, "{ ")]] = true
	}
	return names, lines
}

// The API's RED metrics, Kafka consumer lag, the outbox backlog and the
// database pool's waits are exported, and the dashboard and alert rules
// in deploy/ ask only for metrics Ferry exports, under the labels it
// gives them.
func TestMetricsBehindTheDashboardAndAlerts(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, api := signUp(t, f, "metrics@example.com")
	rc := newReceiver(t, func(_ int, r received) int {
		if strings.Contains(string(r.Body), `"refuse":true`) {
			return http.StatusBadRequest // dropped: a dead letter
		}
		return http.StatusNoContent
	})
	createEndpoint(t, api, map[string]any{"url": rc.URL + "/hook"})
	ok := sendEvent(t, api, "order.paid", map[string]any{"refuse": false})
	refused := sendEvent(t, api, "order.paid", map[string]any{"refuse": true})
	testenv.Eventually(t, 30*time.Second, func() bool {
		a, b := eventDeliveries(t, api, ok.ID), eventDeliveries(t, api, refused.ID)
		return len(a) == 1 && a[0].Status == "succeeded" && len(b) == 1 && b[0].Status == "dropped"
	}, "one delivery succeeds and one is dropped")
	api.do("GET", "/events/00000000-0000-0000-0000-000000000000", nil, nil) // a 404

	var names map[string]bool
	var lines []string
	testenv.Eventually(t, 20*time.Second, func() bool {
		names, lines = scrape(t, f)
		return names["ferry_kafka_consumer_lag_messages"]
	}, "the consumer lag is sampled")
	joined := strings.Join(lines, "\n")
	for _, want := range []string{
		`ferry_http_requests_total{code="2xx",method="POST",route="/api/v1/events"}`,
		`ferry_http_requests_total{code="4xx",method="GET",route="/api/v1/events/:id"}`,
		`ferry_http_request_duration_seconds_bucket{method="POST",route="/api/v1/events",le="0.005"}`,
		`ferry_kafka_consumer_lag_messages{topic="deliveries"}`,
		`ferry_outbox_backlog `,
		`ferry_dead_letters_total{status="dropped"} 1`,
		`go_sql_wait_count_total{db_name="ferry"}`,
		`go_sql_in_use_connections{db_name="ferry"}`,
		`go_sched_latencies_seconds_bucket{le=`,
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}

	_, here, _, _ := runtime.Caller(0)
	root := filepath.Dir(filepath.Dir(here))
	exprs := dashboardQueries(t, filepath.Join(root, "deploy/grafana/ferry.json"))
	exprs = append(exprs, alertQueries(t, filepath.Join(root, "deploy/prometheus/alerts.yaml"))...)
	if len(exprs) < 20 {
		t.Fatalf("only %d queries found in deploy/", len(exprs))
	}
	metric := regexp.MustCompile(`\b(ferry|process|go)_[a-z0-9_]+\b`)
	labelMatcher := regexp.MustCompile(`\b(ferry_[a-z0-9_]+)\{([a-z_]+)(?:=|!=|=~|!~)`)
	for _, e := range exprs {
		if strings.Count(e, "(") != strings.Count(e, ")") || strings.Count(e, "{") != strings.Count(e, "}") {
			t.Errorf("unbalanced query: %s", e)
		}
		found := metric.FindAllString(e, -1)
		if len(found) == 0 {
			t.Errorf("query names no metric: %s", e)
		}
		for _, m := range found {
			if !names[m] {
				t.Errorf("query asks for %s, which Ferry does not export: %s", m, e)
			}
		}
		// A selector's label must be one the metric has.
		for _, sel := range labelMatcher.FindAllStringSubmatch(e, -1) {
			if !regexp.MustCompile(`(?m)^` + sel[1] + `\{[^}]*\b` + sel[2] + `="`).MatchString(joined) {
				t.Errorf("query selects %s by label %s, which it does not carry: %s", sel[1], sel[2], e)
			}
		}
	}
}

func dashboardQueries(t *testing.T, path string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Panels []struct {
			Title   string `json:"title"`
			Targets []struct {
				Expr string `json:"expr"`
			} `json:"targets"`
		} `json:"panels"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no query", p.Title)
		}
		for _, tg := range p.Targets {
			out = append(out, tg.Expr)
		}
	}
	return out
}

func alertQueries(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	raw, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	var rules struct {
		Groups []struct {
			Rules []struct {
				Alert  string            `yaml:"alert"`
				Expr   string            `yaml:"expr"`
				For    string            `yaml:"for"`
				Labels map[string]string `yaml:"labels"`
			} `yaml:"rules"`
		} `yaml:"groups"`
	}
	if err := yaml.Unmarshal(raw, &rules); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []string
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			if r.Alert == "" || r.Labels["severity"] == "" {
				t.Errorf("rule %q needs a name and a severity", r.Alert)
			}
			if _, err := time.ParseDuration(r.For); err != nil {
				t.Errorf("rule %s: for %q: %v", r.Alert, r.For, err)
			}
			out = append(out, r.Expr)
		}
	}
	return out
}
