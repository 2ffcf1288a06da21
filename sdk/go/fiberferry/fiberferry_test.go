package fiberferry_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v2"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
	"github.com/ferry-dev/ferry/sdk/go/fiberferry"
)

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// serve runs app on a loopback port until the test ends and returns its
// base URL.
func serve(t *testing.T, app *fiber.App) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = app.Listener(ln) }()
	t.Cleanup(func() { _ = app.Shutdown() })
	return "http://" + ln.Addr().String()
}

// post sends a delivery of event id signed with key (sign=false: a bad
// signature) and returns the status and body.
func post(t *testing.T, url, id string, sign bool) (int, string) {
	t.Helper()
	body := fmt.Sprintf(`{"id":%q,"type":"order.created","created_at":%q,"data":{"n":1}}`, id, time.Now().UTC().Format("2006-01-02T15:04:05.000Z"))
	ts := fmt.Sprint(time.Now().Unix())
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "." + body))
	sig := mac.Sum(nil)
	if !sign {
		sig[0] ^= 1
	}
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Webhook-Id", id)
	req.Header.Set("Webhook-Timestamp", ts)
	req.Header.Set("Webhook-Signature", "v1,"+base64.StdEncoding.EncodeToString(sig))
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestFiber drives a real Fiber app over HTTP: a failing first attempt,
// the retry, a replay, a forged request and a GET.
func TestFiber(t *testing.T) {
	t.Parallel()
	d, err := ferrywebhooks.NewDeduper(ferrywebhooks.NewMemoryStore(nil), ferrywebhooks.DedupeConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	h, err := fiberferry.New(ferrywebhooks.HandlerConfig{
		Secret:  secret,
		Deduper: d,
		Handle: func(_ context.Context, e ferrywebhooks.Envelope) error {
			if calls.Add(1) == 1 {
				return errors.New("first attempt fails")
			}
			if e.Type != "order.created" {
				return fmt.Errorf("type %q", e.Type)
			}
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	app := fiber.New(fiber.Config{DisableStartupMessage: true})
	app.All("/webhooks", h)
	url := serve(t, app) + "/webhooks"
	id := "0b9b1c4e-8f5e-4c5e-9a0e-3f3d2b1a0c9d"
	for _, step := range []struct {
		sign       bool
		status     int
		bodySuffix string
	}{
		{true, http.StatusInternalServerError, `"handler_failed"}`},
		{true, http.StatusOK, `"processed"}`},
		{true, http.StatusOK, `"duplicate"}`},
		{false, http.StatusUnauthorized, `"invalid_signature"}`},
	} {
		status, body := post(t, url, id, step.sign)
		if status != step.status || !strings.HasSuffix(body, step.bodySuffix) {
			t.Fatalf("got %d %s, want %d …%s", status, body, step.status, step.bodySuffix)
		}
	}
	if n := calls.Load(); n != 2 {
		t.Fatalf("handler ran %d times, want 2", n)
	}
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "POST" {
		t.Fatalf("GET = %d Allow %q", res.StatusCode, res.Header.Get("Allow"))
	}
}

// TestNewRejectsBadSecret checks a malformed secret fails at start-up.
func TestNewRejectsBadSecret(t *testing.T) {
	t.Parallel()
	_, err := fiberferry.New(ferrywebhooks.HandlerConfig{Secret: "whsec_short", Handle: func(context.Context, ferrywebhooks.Envelope) error { return nil }})
	if !errors.Is(err, ferrywebhooks.ErrInvalidSecret) {
		t.Fatalf("New = %v, want ErrInvalidSecret", err)
	}
}
