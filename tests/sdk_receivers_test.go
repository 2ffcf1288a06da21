package tests

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// sdkReceiver is a webhook receiver process built on one of the SDKs in
// sdk/, started by the test.
type sdkReceiver struct {
	name string
	url  string
	mu   sync.Mutex
	out  []string
	errb bytes.Buffer
}

// lines returns what the receiver printed on stdout so far.
func (r *sdkReceiver) lines() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.out...)
}

// processed counts the receiver's "processed <id> …" lines for id.
func (r *sdkReceiver) processed(id string) int {
	n := 0
	for _, l := range r.lines() {
		if strings.HasPrefix(l, "processed "+id+" ") {
			n++
		}
	}
	return n
}

// sdkRoot returns the repository root, failing with how to prepare the
// SDKs when their toolchains are not set up.
func sdkRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	need := map[string]string{
		".ferry/venv/bin/python":                   "the Python virtual environment",
		"sdk/typescript/node_modules":              "the TypeScript SDK's devDependencies",
		"sdk/typescript/dist/esm/index.js":         "the TypeScript SDK's build",
		"sdk/python/src/ferry_webhooks/_verify.py": "the Python SDK",
		"sdk/typescript/dist/esm/client/index.js":  "the TypeScript sender SDK's build",
	}
	for p, what := range need {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Fatalf("%s is missing (%s): create it with `make sdk-test` or `bash scripts/sdk.sh setup` from the repository root", what, p)
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is not on PATH: install Node.js 20 or newer, then run `make sdk-test`")
	}
	return root
}

// freePort returns a loopback port that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startSDKReceiver runs name's example receiver on port with secret; its
// first handler call fails once. It returns when the receiver listens.
func startSDKReceiver(t *testing.T, root, name, secret string, port int) *sdkReceiver {
	t.Helper()
	var (
		dir  string
		args []string
	)
	switch name {
	case "go":
		// sdk/go is its own module: build its example receiver there.
		dir = filepath.Join(root, "sdk", "go")
		bin := filepath.Join(t.TempDir(), "receiver")
		build := exec.Command("go", "build", "-o", bin, "./examples/receiver")
		build.Dir = dir
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("build the Go SDK's receiver: %v\n%s", err, out)
		}
		args = []string{bin}
	case "node":
		dir = filepath.Join(root, "sdk", "typescript")
		args = []string{"node", "examples/receiver.mjs"}
	case "python":
		dir = filepath.Join(root, "sdk", "python")
		args = []string{filepath.Join(root, ".ferry", "venv", "bin", "python"), "examples/receiver.py"}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(),
		"FERRY_WEBHOOK_SECRET="+secret,
		"RECEIVER_FAIL_FIRST=1",
		"RECEIVER_ADDR=127.0.0.1:"+strconv.Itoa(port),
		"RECEIVER_PORT="+strconv.Itoa(port),
	)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	r := &sdkReceiver{name: name}
	cmd.Stderr = &lockedWriter{mu: &r.mu, w: &r.errb}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("start the %s receiver: %v", name, err)
	}
	listening := make(chan string, 1)
	scanned := make(chan struct{})
	go func() {
		defer close(scanned)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			if u, ok := strings.CutPrefix(line, "listening "); ok {
				select {
				case listening <- u:
				default:
				}
			}
			r.mu.Lock()
			r.out = append(r.out, line)
			r.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-scanned
		_ = cmd.Wait()
		if t.Failed() {
			r.mu.Lock()
			t.Logf("%s receiver stdout:\n%s\nstderr:\n%s", name, strings.Join(r.out, "\n"), r.errb.String())
			r.mu.Unlock()
		}
	})
	select {
	case r.url = <-listening:
	case <-scanned:
		t.Fatalf("the %s receiver exited before listening:\n%s", name, r.errb.String())
	case <-time.After(60 * time.Second):
		t.Fatalf("the %s receiver did not listen within 60 s", name)
	}
	return r
}

// lockedWriter serialises writes to w under mu.
type lockedWriter struct {
	mu *sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TestSDKReceiversProcessOnceThroughRetryAndReplay has a real Ferry
// deliver one event to three receivers built on the Go, TypeScript and
// Python SDKs. Each receiver's handler fails the first time (500: the
// SDK releases the dedupe key), processes Ferry's retry, and answers the
// replay of the event as a duplicate, so each processes it exactly once.
func TestSDKReceiversProcessOnceThroughRetryAndReplay(t *testing.T) {
	t.Parallel()
	root := sdkRoot(t)
	f := startFerry(t, testConfig(t))
	_, api := signUp(t, f, "sdk@receivers.example")

	type target struct {
		rc *sdkReceiver
		ep endpointOut
	}
	var targets []target
	for _, name := range []string{"go", "node", "python"} {
		port := freePort(t)
		ep := createEndpoint(t, api, map[string]any{
			"url":         fmt.Sprintf("http://127.0.0.1:%d/hook", port),
			"description": name + " SDK receiver",
		})
		targets = append(targets, target{rc: startSDKReceiver(t, root, name, ep.Secret, port), ep: ep})
	}

	ev := sendEvent(t, api, "order.created", map[string]any{"n": 1, "note": "café ✓"})
	var ds []deliveryOut
	testenv.Eventually(t, 90*time.Second, func() bool {
		ds = eventDeliveries(t, api, ev.ID)
		done := len(ds) == len(targets)
		for _, d := range ds {
			done = done && d.Status == "succeeded"
		}
		return done
	}, "deliveries did not all succeed: %+v", &ds)

	api.must(202, "POST", "/events/"+ev.ID+"/replay", nil, nil)

	// Three attempts per endpoint: 500 (handler failed), 200 processed
	// (the retry), 200 duplicate (the replay).
	byEndpoint := map[string][]attemptOut{}
	testenv.Eventually(t, 60*time.Second, func() bool {
		byEndpoint = map[string][]attemptOut{}
		for _, a := range eventAttempts(t, api, ev.ID) {
			byEndpoint[a.EndpointID] = append(byEndpoint[a.EndpointID], a)
		}
		complete := true
		for _, tg := range targets {
			as := byEndpoint[tg.ep.ID]
			complete = complete && len(as) >= 3 && as[len(as)-1].Outcome != ""
		}
		return complete
	}, "replay attempts not logged: %+v", &byEndpoint)

	for _, tg := range targets {
		as := byEndpoint[tg.ep.ID]
		if len(as) != 3 {
			t.Errorf("%s: %d attempts, want 3 (failed, retried, replayed): %+v", tg.rc.name, len(as), as)
			continue
		}
		wantStatus := []int{500, 200, 200}
		wantBody := []string{"handler_failed", "processed", "duplicate"}
		wantTrigger := []string{"initial", "retry", "replay"}
		for i, a := range as {
			if a.ResponseStatus == nil || *a.ResponseStatus != wantStatus[i] || !strings.Contains(a.ResponseBody, wantBody[i]) || a.Trigger != wantTrigger[i] {
				t.Errorf("%s attempt %d: status %v trigger %s body %q, want %d %s %q",
					tg.rc.name, i+1, a.ResponseStatus, a.Trigger, a.ResponseBody, wantStatus[i], wantTrigger[i], wantBody[i])
			}
		}
		if n := tg.rc.processed(ev.ID); n != 1 {
			t.Errorf("%s receiver processed event %s %d times, want exactly once; output: %q", tg.rc.name, ev.ID, n, tg.rc.lines())
		}
	}
}
