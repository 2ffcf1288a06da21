//go:build ferrylive

package client

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// roundTripFunc adapts a function to http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestLiveFerry drives a running Ferry (FERRY_URL, FERRY_API_KEY, and
// FERRY_RECEIVER_URL: a receiver answering 2xx). tests/sdk_senders_test.go
// runs it with -tags ferrylive against an in-process Ferry whose API rate
// limit is low enough for a burst to be refused.
func TestLiveFerry(t *testing.T) {
	base, key, receiver := os.Getenv("FERRY_URL"), os.Getenv("FERRY_API_KEY"), os.Getenv("FERRY_RECEIVER_URL")
	if base == "" || key == "" || receiver == "" {
		t.Fatal("FERRY_URL, FERRY_API_KEY and FERRY_RECEIVER_URL are required")
	}
	ctx := context.Background()
	var (
		mu        sync.Mutex
		limited   atomic.Int64
		loseFirst = map[string]bool{} // POST /events answers to drop, by idempotency key
	)
	// The transport counts 429s and, for a marked call, lets the first
	// POST /events reach Ferry but loses its answer, as a network would.
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		res, err := http.DefaultTransport.RoundTrip(r)
		if err != nil {
			return res, err
		}
		if res.StatusCode == 429 {
			limited.Add(1)
		}
		k := r.Header.Get("Idempotency-Key")
		mu.Lock()
		lose := loseFirst[k]
		delete(loseFirst, k)
		mu.Unlock()
		if lose && r.Method == "POST" && strings.HasSuffix(r.URL.Path, "/events") {
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			return nil, errors.New("connection reset (simulated after Ferry answered)")
		}
		return res, nil
	})
	c, err := New(Config{BaseURL: base, APIKey: key, HTTPClient: &http.Client{Transport: rt, Timeout: 30 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	var b [6]byte
	rand.Read(b[:])
	run := hex.EncodeToString(b[:])

	// A customer upserted twice: created (201), then updated (200).
	for _, name := range []string{"Go Corp", "Go Corp Ltd"} {
		cu, err := c.Customers.Upsert(ctx, "go-"+run, CustomerInput{Name: ptr(name)})
		if err != nil {
			t.Fatalf("upsert customer as %q: %v", name, err)
		}
		if cu.Uid != "go-"+run || cu.Name != name {
			t.Fatalf("upserted customer %+v, want uid go-%s named %q", cu, run, name)
		}
	}

	ep, err := c.Endpoints.Create(ctx, EndpointInput{Url: ptr(receiver + "/go"), Description: ptr("go sender SDK")})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ep.Secret, "whsec_") {
		t.Errorf("endpoint secret %q", ep.Secret)
	}
	got, err := c.Endpoints.Get(ctx, ep.Id.String())
	if err != nil || got.Url != receiver+"/go" {
		t.Fatalf("get endpoint: %v %+v", err, got)
	}

	// The customer's own endpoint shows in its health, in one and in the list.
	if _, err := c.Endpoints.Create(ctx, EndpointInput{Url: ptr(receiver + "/go-customer"), Customer: ptr("go-" + run)}); err != nil {
		t.Fatal(err)
	}
	cu, err := c.Customers.Get(ctx, "go-"+run)
	if err != nil || cu.Endpoints != (EndpointHealth{Total: 1}) {
		t.Fatalf("get customer go-%s: %v, endpoints %+v, want one healthy", run, err, cu)
	}
	found := false
	for cu, err := range c.Customers.All(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if cu.Uid == "go-"+run {
			found = cu.Endpoints == (EndpointHealth{Total: 1})
		}
	}
	if !found {
		t.Errorf("customer go-%s is not listed with one healthy endpoint", run)
	}
	if cu, err := c.Customers.Update(ctx, "go-"+run, CustomerPatch{Name: ptr("Go Corp Ltd")}); err != nil || cu.Endpoints != (EndpointHealth{Total: 1}) {
		t.Errorf("update customer go-%s: %v, %+v; want it answered with one healthy endpoint", run, err, cu)
	}

	// Idempotency through the retry path: the first answer is lost, the
	// retry carries the same key, Ferry answers with the same event.
	typ := "go." + run + ".paid"
	mu.Lock()
	loseFirst["go-"+run] = true
	mu.Unlock()
	ev, err := c.Events.Create(ctx, EventInput{Type: typ, Data: map[string]any{"amount": 4200}}, WithIdempotencyKey("go-"+run))
	if err != nil {
		t.Fatal(err)
	}
	page, err := c.Events.List(ctx, &EventsListParams{Type: &typ})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Data) != 1 || page.Data[0].Id != ev.Id {
		t.Fatalf("after a retried create, events of %s: %+v, want just %s", typ, page.Data, ev.Id)
	}

	// Attempts: the receiver answers 2xx.
	var attempts []Attempt
	for deadline := time.Now().Add(60 * time.Second); len(attempts) == 0; {
		if attempts, err = c.Events.Attempts(ctx, ev.Id.String()); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatal("no attempt logged within 60 s")
		}
		time.Sleep(200 * time.Millisecond)
	}
	if attempts[0].EndpointId != ep.Id {
		t.Errorf("attempt %+v, want one to %s", attempts[0], ep.Id)
	}

	// Pagination: five events of one type, two a page.
	many := "go." + run + ".many"
	want := map[string]bool{}
	for i := range 5 {
		e, err := c.Events.Create(ctx, EventInput{Type: many, Data: map[string]any{"i": i}})
		if err != nil {
			t.Fatal(err)
		}
		want[e.Id.String()] = true
	}
	limit := 2
	seen := map[string]bool{}
	for e, err := range c.Events.All(ctx, &EventsListParams{Type: &many, Limit: &limit}) {
		if err != nil {
			t.Fatal(err)
		}
		seen[e.Id.String()] = true
	}
	if len(seen) != 5 || len(want) != 5 {
		t.Errorf("iterated %d distinct events across pages, want the 5 sent", len(seen))
	}
	for id := range want {
		if !seen[id] {
			t.Errorf("event %s missing from the pages", id)
		}
	}

	// A typed error on a bad request.
	_, err = c.Events.Create(ctx, EventInput{Type: "", Data: map[string]any{}})
	var fe *Error
	if !errors.As(err, &fe) || fe.Status != 422 || fe.Code != "invalid" || fe.Field != "type" || fe.RequestID == "" {
		t.Errorf("bad request: %v, want a 422 invalid *Error on field type with a request id", err)
	}

	// A burst beyond the tenant's rate limit: Ferry refuses part of it
	// with 429 and Retry-After, and every call still succeeds.
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.Endpoints.List(ctx, nil)
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a call of the burst failed: %v", err)
		}
	}
	if limited.Load() == 0 {
		t.Error("the burst saw no 429: the rate limit was not reached, nothing was retried")
	}
	t.Logf("429s retried: %d", limited.Load())
}

func ptr[T any](v T) *T { return &v }
