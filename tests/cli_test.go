package tests

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/delivery/webhook"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// ferryBinary builds app/cmd/ferry once per test run: the CLI is tested
// as an operator runs it, exit codes included.
var ferryBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "ferry-cli-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "ferry")
	_, here, _, _ := runtime.Caller(0)
	build := exec.Command("go", "build", "-o", bin, "./app/cmd/ferry")
	build.Dir = filepath.Dir(filepath.Dir(here))
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./app/cmd/ferry: %v\n%s", err, out)
	}
	return bin, nil
})

// runCLI runs the ferry binary with only env as its environment and
// returns its output and exit code.
func runCLI(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	bin, err := ferryBinary()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return out.String(), errOut.String(), ee.ExitCode()
	} else if err != nil {
		t.Fatalf("ferry %s: %v", strings.Join(args, " "), err)
	}
	return out.String(), errOut.String(), 0
}

// Every command answers --help with its flags and exit status 0; the
// version is printed both ways; an unknown command fails.
func TestCLIHelpAndVersion(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args  []string
		flags []string
	}{
		{[]string{"serve"}, []string{"-roles"}},
		{[]string{"migrate"}, nil},
		{[]string{"doctor"}, nil},
		{[]string{"listen"}, []string{"-queue", "-token", "-forward-to", "-visibility", "-retry-after", "-api"}},
		{[]string{"api-key", "create"}, []string{"-tenant", "-name", "-quiet"}},
		{[]string{"staff", "create"}, []string{"-email", "-password-stdin"}},
		{[]string{"staff", "disable"}, []string{"-email"}},
		{[]string{"staff", "delete"}, []string{"-email"}},
		{[]string{"staff", "reset-totp"}, []string{"-email"}},
		{[]string{"billing", "invoice"}, []string{"-period"}},
		{[]string{"billing", "plan"}, []string{"-tenant", "-plan"}},
		{[]string{"healthcheck"}, nil},
		{[]string{"openapi"}, nil},
		{[]string{"version"}, nil},
	} {
		name := strings.Join(tc.args, " ")
		for _, help := range []string{"--help", "-h"} {
			out, errOut, code := runCLI(t, nil, append(tc.args, help)...)
			if code != 0 || !strings.Contains(out, "usage: ferry "+name) {
				t.Errorf("ferry %s %s: exit %d\n%s%s", name, help, code, out, errOut)
			}
			for _, f := range tc.flags {
				if !regexp.MustCompile(`(?m)^  ` + f + `( |$)`).MatchString(out) {
					t.Errorf("ferry %s %s does not list %s:\n%s", name, help, f, out)
				}
			}
		}
	}
	for _, args := range [][]string{{"--help"}, {"help"}, {"staff", "--help"}, {"billing", "--help"}, {"api-key", "--help"}} {
		if out, _, code := runCLI(t, nil, args...); code != 0 || !strings.Contains(out, "ferry ") {
			t.Errorf("ferry %v: exit %d\n%s", args, code, out)
		}
	}
	v1, _, code1 := runCLI(t, nil, "version")
	v2, _, code2 := runCLI(t, nil, "--version")
	if code1 != 0 || code2 != 0 || v1 != v2 || !strings.HasPrefix(v1, "ferry ") || !strings.Contains(v1, runtime.Version()) {
		t.Errorf("version: %q (exit %d), --version: %q (exit %d)", v1, code1, v2, code2)
	}
	for _, args := range [][]string{{"nope"}, {"staff", "nope"}, {"serve", "--nope"}, {"migrate", "extra"}} {
		if _, errOut, code := runCLI(t, nil, args...); code != 1 || errOut == "" {
			t.Errorf("ferry %v: exit %d, stderr %q; want 1 and a message", args, code, errOut)
		}
	}
}

// The first API key of a setup comes from the command line, by tenant id
// or a member's email, and works on the API at once.
func TestCLIAPIKeyCreate(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	session, _ := signUp(t, f, "cli-key@example.com")
	var me struct {
		Tenant struct {
			ID string `json:"id"`
		} `json:"tenant"`
	}
	session.must(200, "GET", "/me", nil, &me)
	env := map[string]string{"FERRY_DATABASE_URL": f.Cfg.DatabaseURL}

	out, errOut, code := runCLI(t, env, "api-key", "create", "--tenant", "CLI-Key@example.com", "--name", "provisioning", "--quiet")
	if code != 0 {
		t.Fatalf("api-key create by email: exit %d: %s", code, errOut)
	}
	key := newClient(t, f.URL+"/api/v1")
	key.apiKey = strings.TrimSpace(out)
	key.must(200, "GET", "/endpoints", nil, nil)

	out, errOut, code = runCLI(t, env, "api-key", "create", "--tenant", me.Tenant.ID, "--name", "second")
	if code != 0 || !strings.Contains(out, "fry_") || !strings.Contains(out, "Shown once") {
		t.Fatalf("api-key create by id: exit %d\n%s%s", code, out, errOut)
	}
	var keys struct {
		Data []struct {
			Name string `json:"name"`
		} `json:"data"`
	}
	session.must(200, "GET", "/api-keys", nil, &keys)
	names := fmt.Sprint(keys.Data)
	if !strings.Contains(names, "provisioning") || !strings.Contains(names, "second") {
		t.Errorf("the portal lists %s", names)
	}

	for _, args := range [][]string{
		{"--tenant", "nobody@example.com", "--name", "x"},
		{"--tenant", "6f1c2a52-0b7e-4c1e-9d3a-0d2b8c1e4f00", "--name", "x"},
		{"--tenant", "acme", "--name", "x"},
		{"--tenant", me.Tenant.ID},
	} {
		if _, errOut, code := runCLI(t, env, append([]string{"api-key", "create"}, args...)...); code != 1 || errOut == "" {
			t.Errorf("api-key create %v: exit %d %q, want a refusal", args, code, errOut)
		}
	}
}

// doctor passes against working services and names each broken one.
func TestCLIDoctor(t *testing.T) {
	t.Parallel()
	smtpURL := os.Getenv("FERRY_TEST_SMTP_URL")
	if smtpURL == "" {
		t.Fatal("FERRY_TEST_SMTP_URL is not set: start the mail catcher with eval \"$(bash scripts/mail.sh start)\" (make test does)")
	}
	brokers := testenv.Kafka(t)
	env := map[string]string{
		"FERRY_ENV": "dev", "FERRY_DATABASE_URL": testenv.Postgres(t),
		"FERRY_KAFKA_BROKERS": strings.Join(brokers, ","), "FERRY_KAFKA_TOPIC_PREFIX": testenv.TopicPrefix(t, brokers),
		"FERRY_SMTP_URL": smtpURL,
	}
	out, errOut, code := runCLI(t, env, "doctor")
	// A fresh database and prefix: migrations and topics are missing,
	// which ferry serve fixes by itself; nothing fails.
	for _, want := range []string{`ok +postgresql`, `warn +migrations +\d+ not applied yet`, `ok +clock`, `ok +kafka`,
		`none of Ferry's`, `ok +smtp`, `Ferry can start`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("doctor output lacks %q:\n%s%s", want, out, errOut)
		}
	}
	if code != 0 {
		t.Errorf("doctor on working services: exit %d\n%s%s", code, out, errOut)
	}
	// After a migration the database is current.
	if _, errOut, code := runCLI(t, env, "migrate"); code != 0 {
		t.Fatalf("migrate: %s", errOut)
	}
	if out, _, _ := runCLI(t, env, "doctor"); !regexp.MustCompile(`ok +migrations +all applied`).MatchString(out) {
		t.Errorf("after migrate:\n%s", out)
	}

	broken := map[string]string{}
	for k, v := range env {
		broken[k] = v
	}
	broken["FERRY_KAFKA_BROKERS"] = "127.0.0.1:1"
	broken["FERRY_SMTP_URL"] = "smtp://127.0.0.1:1"
	out, errOut, code = runCLI(t, broken, "doctor")
	if code != 1 || !regexp.MustCompile(`FAIL +kafka +no broker`).MatchString(out) || !regexp.MustCompile(`FAIL +smtp`).MatchString(out) ||
		!regexp.MustCompile(`ok +postgresql`).MatchString(out) || !strings.Contains(errOut, "2 problem(s)") {
		t.Errorf("doctor with Kafka and SMTP down: exit %d\n%s%s", code, out, errOut)
	}
	delete(broken, "FERRY_ENV") // production: the secrets are missing
	out, _, code = runCLI(t, broken, "doctor")
	if code != 1 || !regexp.MustCompile(`FAIL +configuration +FERRY_MASTER_KEY`).MatchString(out) || !regexp.MustCompile(`skip +kafka`).MatchString(out) {
		t.Errorf("doctor without secrets in production: exit %d\n%s", code, out)
	}
}

// listen forwards a queue's messages to a local server with their
// signatures, nacks what it refuses and acks what it takes.
func TestCLIListen(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, api := signUp(t, f, "cli-listen@example.com")
	q := createQueue(t, api, "order.created", nil)
	key, err := webhook.SecretKey(q.Secret)
	if err != nil {
		t.Fatal(err)
	}

	var calls atomic.Int32
	var mu sync.Mutex
	var verified []bool
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		ts, _ := strconv.ParseInt(r.Header.Get("webhook-timestamp"), 10, 64)
		mu.Lock()
		verified = append(verified, webhook.Verify(key, r.Header.Get("webhook-id"), ts, body, r.Header.Get("webhook-signature")))
		mu.Unlock()
		if calls.Add(1) == 1 {
			http.Error(w, "not ready yet", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer local.Close()

	bin, err := ferryBinary()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "listen", "--api", f.URL, "--queue", q.ID, "--forward-to", local.URL+"/hooks", "--retry-after", "1s")
	cmd.Env = []string{"FERRY_TOKEN=" + api.apiKey}
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill() }()
	testenv.Eventually(t, 10*time.Second, func() bool { return strings.Contains(out.String(), "Connected") }, "listen connects:\n%s", &out)

	ev := sendEvent(t, api, "order.created", map[string]any{"order": 7})
	testenv.Eventually(t, 20*time.Second, func() bool { return calls.Load() >= 2 && strings.Contains(out.String(), "acked") },
		"the local server gets the message twice (500, then 204):\n%s", &out)
	testenv.Eventually(t, 10*time.Second, func() bool {
		d := eventDeliveries(t, api, ev.ID)
		return len(d) == 1 && d[0].Status == "succeeded" && d[0].AttemptCount == 2
	}, "the delivery succeeds at its second attempt")
	mu.Lock()
	for i, ok := range verified {
		if !ok {
			t.Errorf("request %d's signature does not verify with the endpoint's secret", i+1)
		}
	}
	mu.Unlock()

	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("listen after Ctrl-C: %v\n%s", err, &out)
	}
	for _, want := range []string{"order.created  event " + ev.ID + "  attempt 1  → 500 Internal Server Error", "not ready yet  nacked",
		"attempt 2  → 204 No Content", "acked", `"data":{"order":7}`, "Stopped: 2 forwarded, 1 acked, 1 nacked"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("listen output lacks %q:\n%s", want, &out)
		}
	}

	// A credential that cannot open the stream stops it with the reason.
	_, errOut, code := runCLI(t, map[string]string{"FERRY_TOKEN": "fry_live_nope"}, "listen", "--api", f.URL, "--queue", q.ID,
		"--forward-to", local.URL)
	if code != 1 || !strings.Contains(errOut, "401") {
		t.Errorf("listen with a bad token: exit %d, %q", code, errOut)
	}
}

// syncBuffer is a bytes.Buffer a child process writes while the test
// reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
