package tests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// boundedAttempt is an attempt with its truncation marks.
type boundedAttempt struct {
	attemptOut
	ResponseHeadersTruncated bool `json:"response_headers_truncated"`
	ResponseBodyTruncated    bool `json:"response_body_truncated"`
}

// TestReceiverResponsesBounded drives the giant-headers receiver through
// the running app: a receiver answering 200 with 4 MB of headers fails
// each attempt as response_too_large and is retried, while the attempt
// list served back stays small; a receiver answering 60 KiB of headers
// and a 1 MiB body succeeds, stored cut to 8 KiB of headers and 4 KiB of
// body, both marked truncated.
func TestReceiverResponsesBounded(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, api := signUp(t, f, "bounds@example.com")

	pad := strings.Repeat("h", 1000)
	giant := newHookServer(t, func(_ int, _ hit, w http.ResponseWriter) {
		for i := range 4000 { // about 4 MB
			w.Header().Set(fmt.Sprintf("X-Giant-%04d", i), pad)
		}
		w.WriteHeader(http.StatusOK)
	})
	body := bytes.Repeat([]byte("b"), 1<<20)
	big := newHookServer(t, func(_ int, _ hit, w http.ResponseWriter) {
		for i := range 60 { // about 60 KiB
			w.Header().Set(fmt.Sprintf("X-Big-%02d", i), pad)
		}
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	})
	giantEP := createEndpoint(t, api, map[string]any{"url": giant.URL + "/hook"})
	bigEP := createEndpoint(t, api, map[string]any{"url": big.URL + "/hook"})
	ev := sendEvent(t, api, "bounds.checked", map[string]any{"n": 1})

	var raw json.RawMessage
	var attempts []boundedAttempt
	byEndpoint := func(id string) []boundedAttempt {
		var out []boundedAttempt
		for _, a := range attempts {
			if a.EndpointID == id {
				out = append(out, a)
			}
		}
		return out
	}
	testenv.Eventually(t, 60*time.Second, func() bool {
		api.must(200, "GET", "/events/"+ev.ID+"/attempts", nil, &raw)
		var list struct {
			Data []boundedAttempt `json:"data"`
		}
		if err := json.Unmarshal(raw, &list); err != nil {
			t.Fatalf("decode attempts: %v", err)
		}
		attempts = list.Data
		return len(byEndpoint(giantEP.ID)) >= 2 && len(byEndpoint(bigEP.ID)) >= 1
	}, "the giant-headers endpoint retried and the big-body endpoint attempted")

	// Every attempt at the giant-headers receiver failed the same way, and
	// the delivery was retried on the schedule.
	for _, a := range byEndpoint(giantEP.ID) {
		if a.ErrorClass != "response_too_large" || a.Outcome != "retry" || a.ResponseStatus != nil || len(a.ResponseHeaders) != 0 {
			t.Errorf("giant-headers attempt %d: class %q, outcome %s, status %v, %d headers; want response_too_large, retry, none stored",
				a.AttemptNumber, a.ErrorClass, a.Outcome, a.ResponseStatus, len(a.ResponseHeaders))
		}
	}
	if giant.count() < 2 {
		t.Errorf("giant-headers receiver got %d requests, want retries", giant.count())
	}
	// Served back, the whole list of attempts stays small.
	if len(raw) >= 64<<10 {
		t.Errorf("GET /events/{id}/attempts returned %d bytes for %d attempts; want under 64 KiB", len(raw), len(attempts))
	}
	t.Logf("GET /events/{id}/attempts: %d bytes of JSON for %d attempts", len(raw), len(attempts))

	bigAttempts := byEndpoint(bigEP.ID)
	a := bigAttempts[0]
	if a.Outcome != "success" || a.ResponseStatus == nil || *a.ResponseStatus != 200 {
		t.Fatalf("60 KiB headers + 1 MiB body: outcome %s, status %v, class %q (%s); want success 200",
			a.Outcome, a.ResponseStatus, a.ErrorClass, a.ErrorMessage)
	}
	headers, err := json.Marshal(a.ResponseHeaders)
	if err != nil {
		t.Fatal(err)
	}
	if len(headers) > 8<<10 || len(a.ResponseHeaders) == 0 || !a.ResponseHeadersTruncated {
		t.Errorf("stored %d bytes of response headers (%d names), truncated %v; want at most 8 KiB, marked",
			len(headers), len(a.ResponseHeaders), a.ResponseHeadersTruncated)
	}
	if len(a.ResponseBody) != 4<<10 || !a.ResponseBodyTruncated || strings.Trim(a.ResponseBody, "b") != "" {
		t.Errorf("stored %d bytes of response body, truncated %v; want the first 4 KiB, marked", len(a.ResponseBody), a.ResponseBodyTruncated)
	}
	if len(bigAttempts) != 1 {
		t.Errorf("big-body endpoint attempted %d times, want once", len(bigAttempts))
	}

	// An ordinary answer carries no marks.
	plain := newHookServer(t, nil)
	plainEP := createEndpoint(t, api, map[string]any{"url": plain.URL + "/hook", "event_types": []string{"plain.checked"}})
	ev2 := sendEvent(t, api, "plain.checked", map[string]any{"n": 2})
	testenv.Eventually(t, 30*time.Second, func() bool {
		for _, d := range eventDeliveries(t, api, ev2.ID) {
			if d.EndpointID == plainEP.ID && d.Status == "succeeded" {
				return true
			}
		}
		return false
	}, "the plain endpoint succeeded")
	api.must(200, "GET", "/events/"+ev2.ID+"/attempts", nil, &raw)
	var list struct {
		Data []boundedAttempt `json:"data"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		t.Fatal(err)
	}
	for _, a := range list.Data {
		if a.EndpointID == plainEP.ID && (a.ResponseHeadersTruncated || a.ResponseBodyTruncated) {
			t.Errorf("an ordinary answer was marked truncated: %+v", a)
		}
	}
	if !bytes.Contains(raw, []byte(`"response_headers_truncated":false`)) {
		t.Errorf("attempt JSON lacks the truncation fields: %s", raw)
	}
}
