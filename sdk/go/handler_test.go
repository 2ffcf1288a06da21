package ferrywebhooks_test

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	ferrywebhooks "github.com/ferry-dev/ferry/sdk/go"
)

const testSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// signed builds a request as Ferry sends it, signed with testSecret.
func signed(t *testing.T, url, id string, created time.Time, data string) *http.Request {
	t.Helper()
	body := fmt.Sprintf(`{"id":%q,"type":"order.created","created_at":%q,"data":%s}`, id, created.UTC().Format("2006-01-02T15:04:05.000Z"), data)
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(testSecret, "whsec_"))
	ts := fmt.Sprint(created.Unix())
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + ts + "." + body))
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("webhook-id", id)
	req.Header.Set("webhook-timestamp", ts)
	req.Header.Set("webhook-signature", "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	return req
}

func send(t *testing.T, req *http.Request) (int, string) {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, strings.TrimSpace(string(b))
}

// TestHandlerRetryAndDuplicates walks one event through a failed first
// attempt (key released), a retry (processed), and a replay (duplicate).
func TestHandlerRetryAndDuplicates(t *testing.T) {
	t.Parallel()
	d, err := ferrywebhooks.NewDeduper(ferrywebhooks.NewMemoryStore(nil), ferrywebhooks.DedupeConfig{})
	if err != nil {
		t.Fatal(err)
	}
	var calls, processed atomic.Int32
	h, err := ferrywebhooks.NewHandler(ferrywebhooks.HandlerConfig{
		Secret:  testSecret,
		Deduper: d,
		Handle: func(_ context.Context, e ferrywebhooks.Envelope) error {
			if calls.Add(1) == 1 {
				return errors.New("database down")
			}
			var data struct{ N int }
			if err := e.DecodeData(&data); err != nil || data.N != 7 || e.Type != "order.created" {
				return fmt.Errorf("bad envelope %+v: %v", e, err)
			}
			processed.Add(1)
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	created := time.Now().Add(-50 * time.Hour) // a late retry
	id := "7d9f3c1a-2b4e-4f6a-8c0d-1e2f3a4b5c6d"
	for i, want := range []struct {
		status int
		body   string
	}{
		{500, `{"status":"handler_failed"}`},
		{200, `{"status":"processed"}`},
		{200, `{"status":"duplicate"}`},
	} {
		if status, body := send(t, signed(t, srv.URL, id, created, `{"n":7}`)); status != want.status || body != want.body {
			t.Fatalf("request %d: %d %s, want %d %s", i+1, status, body, want.status, want.body)
		}
	}
	if processed.Load() != 1 {
		t.Fatalf("processed %d times, want once", processed.Load())
	}

	// Rejections.
	req := signed(t, srv.URL, id, created, `{"n":7}`)
	req.Header.Set("webhook-signature", "v1,AAAA")
	if status, body := send(t, req); status != 401 || body != `{"status":"invalid_signature"}` {
		t.Fatalf("bad signature: %d %s", status, body)
	}
	req = signed(t, srv.URL, id, created, `{"n":7}`)
	req.Header.Del("webhook-id")
	if status, _ := send(t, req); status != 401 {
		t.Fatalf("missing header: %d", status)
	}
	if status, _ := send(t, signed(t, srv.URL, id, time.Now().Add(-8*24*time.Hour), `{"n":7}`)); status != 401 {
		t.Fatalf("old timestamp: %d", status)
	}
	get, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
	if status, _ := send(t, get); status != 405 {
		t.Fatalf("GET: %d", status)
	}
}

// TestHandlerInProgress checks a second delivery of an event still being
// handled gets 409 (Ferry retries it), not a 2xx that would lose the
// event if the first handler then failed.
func TestHandlerInProgress(t *testing.T) {
	t.Parallel()
	d, _ := ferrywebhooks.NewDeduper(ferrywebhooks.NewMemoryStore(nil), ferrywebhooks.DedupeConfig{})
	entered, release := make(chan struct{}), make(chan struct{})
	h, err := ferrywebhooks.NewHandler(ferrywebhooks.HandlerConfig{
		Secret: testSecret, Deduper: d,
		Handle: func(context.Context, ferrywebhooks.Envelope) error {
			close(entered)
			<-release
			return nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	id := "11111111-2222-4333-8444-555555555555"
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if status, _ := send(t, signed(t, srv.URL, id, time.Now(), `{}`)); status != 200 {
			t.Errorf("first: %d", status)
		}
	}()
	<-entered
	if status, body := send(t, signed(t, srv.URL, id, time.Now(), `{}`)); status != 409 {
		t.Errorf("concurrent duplicate: %d %s, want 409", status, body)
	}
	close(release)
	wg.Wait()
}

// TestHandlerStoreDown checks a failing store answers 503 without running
// the handler.
func TestHandlerStoreDown(t *testing.T) {
	t.Parallel()
	d, _ := ferrywebhooks.NewDeduper(failingStore{}, ferrywebhooks.DedupeConfig{})
	h, _ := ferrywebhooks.NewHandler(ferrywebhooks.HandlerConfig{
		Secret: testSecret, Deduper: d,
		Handle: func(context.Context, ferrywebhooks.Envelope) error { t.Error("handler ran"); return nil },
	})
	srv := httptest.NewServer(h)
	defer srv.Close()
	if status, _ := send(t, signed(t, srv.URL, "22222222-2222-4333-8444-555555555555", time.Now(), `{}`)); status != 503 {
		t.Fatalf("store down: %d, want 503", status)
	}
}

// TestConfigValidation checks constructors reject bad configuration.
func TestConfigValidation(t *testing.T) {
	t.Parallel()
	noop := func(context.Context, ferrywebhooks.Envelope) error { return nil }
	if _, err := ferrywebhooks.NewHandler(ferrywebhooks.HandlerConfig{Secret: "whsec_short", Handle: noop}); !errors.Is(err, ferrywebhooks.ErrInvalidSecret) {
		t.Errorf("short secret: %v", err)
	}
	if _, err := ferrywebhooks.NewHandler(ferrywebhooks.HandlerConfig{Secret: testSecret}); err == nil {
		t.Error("no handler accepted")
	}
	if _, err := ferrywebhooks.NewDeduper(ferrywebhooks.NewMemoryStore(nil), ferrywebhooks.DedupeConfig{TTL: 24 * time.Hour}); err == nil {
		t.Error("1-day TTL accepted")
	}
}

// failingStore is a Store whose every call fails.
type failingStore struct{}

var _ ferrywebhooks.Store = failingStore{}

func (failingStore) Claim(context.Context, string, time.Duration) (ferrywebhooks.Claim, error) {
	return 0, errors.New("connection refused")
}
func (failingStore) Complete(context.Context, string, time.Duration) error {
	return errors.New("connection refused")
}
func (failingStore) Release(context.Context, string) error { return errors.New("connection refused") }
