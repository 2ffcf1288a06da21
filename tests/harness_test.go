package tests

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"os"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/ferry-dev/ferry/app"
	"github.com/ferry-dev/ferry/tests/testenv"
)

// ferry is one running app under test.
type ferry struct {
	URL string
	App *app.App
	Cfg app.Config
}

// testConfig is a dev-mode configuration on the test's own database,
// topics and consumer groups.
func testConfig(t *testing.T) app.Config {
	t.Helper()
	brokers := testenv.Kafka(t)
	cfg := app.Config{
		Dev:                   true,
		HTTPAddr:              "127.0.0.1:0",
		DatabaseURL:           testenv.Postgres(t),
		DBMaxConns:            20,
		KafkaBrokers:          brokers,
		KafkaTopicPrefix:      testenv.TopicPrefix(t, brokers),
		KafkaGroup:            testenv.Name("g"),
		KafkaPartitions:       4,
		KafkaReplication:      1,
		MasterKey:             bytes.Repeat([]byte{7}, 32),
		JWTSecret:             bytes.Repeat([]byte("j"), 32),
		SessionTTL:            time.Hour,
		AllowPrivateEndpoints: true,
		AllowHTTPEndpoints:    true,
		RetryScale:            0.001,
		Roles:                 map[string]bool{app.RoleAPI: true, app.RoleWorker: true},
		LogFormat:             "text",
		LogLevel:              "warn",
		ShutdownGrace:         5 * time.Second,
		OutboxSweepAfter:      2 * time.Second,
		AttemptRetention:      30 * 24 * time.Hour,
		BcryptCost:            bcrypt.MinCost,
		APIRateLimitPerSecond: 100000,
		Version:               "test",
		// Mail goes to the local catcher (scripts/mail.sh) when it runs;
		// tests that follow emailed links fail with how to start it.
		SMTPURL:  os.Getenv("FERRY_TEST_SMTP_URL"),
		MailFrom: "Ferry <no-reply@ferry.test>",
	}
	return cfg
}

// startFerry runs the app until the test ends.
func startFerry(t *testing.T, cfg app.Config) *ferry {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	a, err := app.New(ctx, cfg, log)
	if err != nil {
		cancel()
		t.Fatalf("start ferry: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ferry run: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("ferry did not shut down within 30s")
		}
		a.Close()
	})
	return &ferry{URL: a.URL(), App: a, Cfg: cfg}
}

// client speaks to the API as one tenant: with a portal session (cookie
// and CSRF token) or an API key.
type client struct {
	t      *testing.T
	base   string
	http   *http.Client
	apiKey string
}

func newClient(t *testing.T, base string) *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: t, base: base, http: &http.Client{Jar: jar, Timeout: 30 * time.Second}}
}

// do sends a JSON request and decodes a JSON response into out (if not
// nil), returning the status code.
func (c *client) do(method, path string, body any, out any) int {
	c.t.Helper()
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			c.t.Fatalf("encode body: %v", err)
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+path, r)
	if err != nil {
		c.t.Fatalf("build request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if c.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	for _, ck := range c.http.Jar.Cookies(req.URL) {
		if ck.Name == "ferry_csrf" {
			req.Header.Set("X-CSRF-Token", ck.Value)
		}
	}
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		c.t.Fatalf("read %s %s: %v", method, path, err)
	}
	if out != nil && len(raw) > 0 {
		if err := json.Unmarshal(raw, out); err != nil && !errors.Is(err, io.EOF) {
			c.t.Fatalf("decode %s %s (%d): %v\n%s", method, path, res.StatusCode, err, raw)
		}
	}
	return res.StatusCode
}

// must is do that fails the test unless the status is want.
func (c *client) must(want int, method, path string, body any, out any) {
	c.t.Helper()
	var raw json.RawMessage
	got := c.do(method, path, body, &raw)
	if got != want {
		c.t.Fatalf("%s %s: status %d, want %d: %s", method, path, got, want, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			c.t.Fatalf("decode %s %s: %v\n%s", method, path, err, raw)
		}
	}
}

// signUp creates a tenant whose plan limits are lifted, so tests of
// other features are not throttled by the free plan, and returns a
// session client and an API-key client for it.
func signUp(t *testing.T, f *ferry, email string) (session, key *client) {
	t.Helper()
	session, key = signUpLimited(t, f, email)
	liftLimits(t, f, session)
	return session, key
}

// signUpLimited creates a tenant on the free plan with its real limits.
func signUpLimited(t *testing.T, f *ferry, email string) (session, key *client) {
	t.Helper()
	session = newClient(t, f.URL+"/api/v1")
	finishSignup(t, f, session, email, "correct horse battery", "Org of "+email)
	var k struct {
		Key string `json:"key"`
	}
	session.must(201, "POST", "/api-keys", map[string]string{"name": "backend"}, &k)
	key = newClient(t, f.URL+"/api/v1")
	key.apiKey = k.Key
	return session, key
}

// finishSignup signs up as a person does: the form, then the link mailed
// to the address (read from the mail catcher), which signs c in.
func finishSignup(t *testing.T, f *ferry, c *client, email, password, org string) {
	t.Helper()
	c.must(202, "POST", "/auth/signup", map[string]string{"email": email, "password": password, "organization": org}, nil)
	links, _ := mailedLinks(t, email, f.URL+"/finish-signup#token=")
	c.must(201, "POST", "/auth/signup/confirm", map[string]string{"token": tokenOf(links[0]), "password": password}, nil)
}
