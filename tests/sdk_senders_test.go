package tests

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestSDKSendersAgainstFerry runs the live suites of the three sender
// SDKs (sdk/go/client's TestLiveFerry, sdk/typescript's
// test/live/sender.live.mjs, sdk/python's live/) against one in-process
// Ferry, each as its own tenant. Each suite creates and reads an
// endpoint, sends an event whose first answer it loses so that the retry
// (same Idempotency-Key) must not make a second event, reads its
// attempts, pages through five events two at a time, checks the typed
// error of a bad request, and sends a burst beyond the API rate limit,
// which is low here (20/s), so that Ferry answers 429 and the SDK must
// wait out Retry-After for every call to succeed.
func TestSDKSendersAgainstFerry(t *testing.T) {
	t.Parallel()
	root := sdkRoot(t)
	cfg := testConfig(t)
	cfg.APIRateLimitPerSecond = 20
	f := startFerry(t, cfg)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(receiver.Close)

	suites := []struct {
		name string
		dir  string
		args []string
	}{
		{"go", "sdk/go/client", []string{"go", "test", "-count=1", "-tags", "ferrylive", "-run", "^TestLiveFerry$", "."}},
		{"node", "sdk/typescript", []string{"node", "--test", "test/live/sender.live.mjs"}},
		{"python", "sdk/python", []string{filepath.Join(root, ".ferry", "venv", "bin", "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider", "live"}},
	}
	for _, s := range suites {
		_, key := signUp(t, f, s.name+"@senders.example")
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			cmd := exec.Command(s.args[0], s.args[1:]...)
			cmd.Dir = filepath.Join(root, s.dir)
			cmd.Env = append(os.Environ(),
				"FERRY_URL="+f.URL,
				"FERRY_API_KEY="+key.apiKey,
				"FERRY_RECEIVER_URL="+receiver.URL,
			)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s sender suite: %v\n%s", s.name, err, out)
			}
			t.Logf("%s sender suite passed in %s", s.name, time.Since(start).Round(time.Millisecond))
		})
	}
}
