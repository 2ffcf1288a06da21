package dispatch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/delivery/egress"
	"github.com/ferry-dev/ferry/delivery/model"
)

// TestOversizedResponsesClassified sends real requests to receivers that
// answer with too much: a header block over 64 KiB is a retry of class
// response_too_large; 60 KiB of headers with a 1 MiB body succeeds, kept
// truncated and marked.
func TestOversizedResponsesClassified(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("h", 1000)
	body := bytes.Repeat([]byte("b"), 1<<20)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var kib int
		fmt.Sscan(r.URL.Query().Get("headers_kib"), &kib)
		for i := range kib {
			w.Header().Set(fmt.Sprintf("X-Pad-%03d", i), pad)
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	sender := egress.NewSender(egress.AddressPolicy{AllowPrivate: true}, nil)
	send := func(kib int) egress.Response {
		return sender.Send(context.Background(), egress.Request{URL: fmt.Sprintf("%s/?headers_kib=%d", srv.URL, kib),
			Headers: http.Header{}, Body: []byte(`{}`), Timeout: 5 * time.Second})
	}

	resp := send(70)
	outcome, class, reason := Classify(resp)
	if outcome != model.OutcomeRetry || class != ErrClassResponseTooLarge || reason != ErrClassResponseTooLarge {
		t.Errorf("70 KiB of headers: outcome %s, class %q, reason %q (err %v); want retry, response_too_large", outcome, class, reason, resp.Err)
	}

	resp = send(60)
	outcome, class, _ = Classify(resp)
	if outcome != model.OutcomeSuccess || class != "" {
		t.Fatalf("60 KiB of headers and 1 MiB of body: outcome %s, class %q (err %v); want success", outcome, class, resp.Err)
	}
	stored, err := json.Marshal(resp.Headers)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) > egress.MaxStoredHeaderBytes || !resp.HeadersTruncated {
		t.Errorf("kept %d bytes of headers, truncated %v; want at most %d, marked", len(stored), resp.HeadersTruncated, egress.MaxStoredHeaderBytes)
	}
	if len(resp.Body) != egress.MaxStoredBodyBytes || !resp.BodyTruncated {
		t.Errorf("kept %d bytes of body, truncated %v; want %d, marked", len(resp.Body), resp.BodyTruncated, egress.MaxStoredBodyBytes)
	}
}
