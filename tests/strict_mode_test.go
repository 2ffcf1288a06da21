package tests

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// verifierResult is what one request got from the official libraries.
type verifierResult struct {
	Name             string `json:"name"`
	ID               string `json:"id"`
	Timestamp        string `json:"timestamp"`
	StandardWebhooks string `json:"standardwebhooks"`
	Svix             string `json:"svix"`
}

// verifierReceiver is tests/verifiers/receiver.{cjs,py} running.
type verifierReceiver struct {
	name string
	url  string
}

// startVerifier runs a receiver that verifies with the official
// standardwebhooks and svix libraries (installed by scripts/verifiers.sh).
func startVerifier(t *testing.T, name string, cmd *exec.Cmd) verifierReceiver {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start the %s verifier: %v", name, err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	var port int
	if err == nil {
		_, err = fmt.Sscanf(line, "listening %d", &port)
	}
	if err != nil {
		t.Fatalf("the %s verifier did not start: %q %v", name, line, err)
	}
	return verifierReceiver{name: name, url: fmt.Sprintf("http://127.0.0.1:%d", port)}
}

func (v verifierReceiver) results(t *testing.T) []verifierResult {
	t.Helper()
	res, err := http.Get(v.url + "/_results")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out []verifierResult
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Standard Webhooks strict mode, proven with the official libraries from
// npm and PyPI verifying real deliveries: both accept a fresh event's
// attempts in either mode; once the event is older than their 5-minute
// tolerance (simulated by backdating it between the first attempt and
// its retry), a retry signed with the event's time is refused by both
// (401, which drops the delivery), and one signed with its own time
// ("attempt") accepted, its body the same bytes.
func TestStrictModeWithOfficialVerifiers(t *testing.T) {
	t.Parallel()
	nodePath, python := os.Getenv("FERRY_TEST_VERIFIERS_NODE_PATH"), os.Getenv("FERRY_TEST_VERIFIERS_PYTHON")
	if nodePath == "" || python == "" {
		t.Fatal(`the official verifier libraries are not installed: run eval "$(bash scripts/verifiers.sh env)" (make test does)`)
	}
	_, here, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(here), "verifiers")
	node := exec.Command("node", filepath.Join(dir, "receiver.cjs"))
	node.Env = append(os.Environ(), "NODE_PATH="+nodePath)
	receivers := []verifierReceiver{
		startVerifier(t, "node", node),
		startVerifier(t, "python", exec.Command(python, filepath.Join(dir, "receiver.py"))),
	}

	cfg := testConfig(t)
	cfg.RetryScale = 0.1 // the first retry comes 3 s after the first attempt
	f := startFerry(t, cfg)
	_, api := signUp(t, f, "strict@example.com")
	endpoints := map[string]string{} // receiver/mode → endpoint id
	for _, r := range receivers {
		for _, mode := range []string{"event", "attempt"} {
			var ep struct {
				ID                 string `json:"id"`
				Secret             string `json:"secret"`
				SignatureTimestamp string `json:"signature_timestamp"`
			}
			api.must(201, "POST", "/endpoints", map[string]any{"url": r.url + "/hook/" + mode, "signature_timestamp": mode}, &ep)
			if ep.SignatureTimestamp != mode {
				t.Fatalf("signature_timestamp %q, want %q", ep.SignatureTimestamp, mode)
			}
			res, err := http.Post(r.url+"/_secret/"+mode, "text/plain", strings.NewReader(ep.Secret))
			if err != nil || res.StatusCode != http.StatusNoContent {
				t.Fatalf("configure the %s verifier: %v", r.name, err)
			}
			res.Body.Close()
			endpoints[r.name+"/"+mode] = ep.ID
		}
	}

	ev := sendEvent(t, api, "order.shipped", map[string]any{"order": 7})
	for _, r := range receivers {
		testenv.Eventually(t, 30*time.Second, func() bool { return len(r.results(t)) == 2 }, "the %s verifier gets both first attempts", r.name)
		for _, res := range r.results(t) {
			if res.StandardWebhooks != "ok" || res.Svix != "ok" {
				t.Errorf("%s, %s mode, fresh event: standardwebhooks %q, svix %q; want both to accept", r.name, res.Name, res.StandardWebhooks, res.Svix)
			}
		}
	}
	// Ten minutes old by the time its retries are signed.
	db := testenv.DB(t, f.Cfg.DatabaseURL)
	if _, err := db.Exec(`UPDATE events SET created_at = created_at - interval '10 minutes' WHERE id = $1`, ev.ID); err != nil {
		t.Fatal(err)
	}

	want := map[string]string{"event": "dropped", "attempt": "succeeded"}
	testenv.Eventually(t, 60*time.Second, func() bool {
		for _, d := range eventDeliveries(t, api, ev.ID) {
			for key, id := range endpoints {
				if d.EndpointID == id && d.Status != want[strings.Split(key, "/")[1]] {
					return false
				}
			}
		}
		return true
	}, "retries signed with the event's time are refused and with the attempt's accepted")
	for _, r := range receivers {
		results := r.results(t)
		if len(results) != 4 {
			t.Fatalf("%s verifier: %d requests, want 4: %+v", r.name, len(results), results)
		}
		first := map[string]verifierResult{}
		for _, res := range results {
			prev, retry := first[res.Name]
			if !retry {
				first[res.Name] = res
				continue
			}
			switch res.Name {
			case "event":
				// Still the event's time, which is now ten minutes earlier.
				if res.StandardWebhooks == "ok" || res.Svix == "ok" || unix(t, res.Timestamp) != unix(t, prev.Timestamp)-600 {
					t.Errorf("%s verifier, event mode, old event: %+v; want both libraries to refuse the event's time %d", r.name, res, unix(t, prev.Timestamp)-600)
				}
			case "attempt":
				if res.StandardWebhooks != "ok" || res.Svix != "ok" || res.Timestamp == prev.Timestamp {
					t.Errorf("%s verifier, attempt mode, old event: %+v; want both to accept a timestamp of its own (first was %s)", r.name, res, prev.Timestamp)
				}
			}
		}
	}

	// A replay of the old event: the same for both modes.
	api.must(202, "POST", "/events/"+ev.ID+"/replay", nil, nil)
	for _, r := range receivers {
		testenv.Eventually(t, 30*time.Second, func() bool { return len(r.results(t)) == 6 }, "the %s verifier gets both replays", r.name)
		for _, res := range r.results(t)[4:] {
			accepted := res.StandardWebhooks == "ok" && res.Svix == "ok"
			if accepted != (res.Name == "attempt") {
				t.Errorf("%s verifier, %s mode, replay of the old event: %+v", r.name, res.Name, res)
			}
		}
	}
}

func unix(t *testing.T, s string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("timestamp %q: %v", s, err)
	}
	return v
}
