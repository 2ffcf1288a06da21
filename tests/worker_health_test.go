package tests

import (
	"io"
	"net/http"
	"testing"

	"github.com/ferry-dev/ferry/app"
)

// A worker-only process serves no API, so its probes go to the metrics
// listener (FERRY_METRICS_ADDR): /healthz while it runs, /readyz while
// PostgreSQL and Kafka answer, as `ferry healthcheck` (the image's probe)
// reads them.
func TestWorkerHealthOnTheMetricsListener(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.Roles = map[string]bool{app.RoleWorker: true}
	cfg.MetricsAddr = "127.0.0.1:0"
	f := startFerry(t, cfg)
	base := "http://" + f.App.MetricsAddr()
	for path, want := range map[string]string{"/healthz": `{"status":"ok"}`, "/readyz": `{"status":"ready"}`} {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || string(body) != want || res.Header.Get("Cache-Control") != "no-store" {
			t.Errorf("GET %s on the metrics listener: %d %s (Cache-Control %q)", path, res.StatusCode, body, res.Header.Get("Cache-Control"))
		}
	}
	if _, errOut, code := runCLI(t, nil, "healthcheck", base+"/readyz"); code != 0 {
		t.Errorf("ferry healthcheck %s/readyz: exit %d %s", base, code, errOut)
	}
	res, err := http.Post(base+"/readyz", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /readyz: %d, want 405", res.StatusCode)
	}
}
