package tests

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// received is one request a receiver got.
type received struct {
	Header http.Header
	Body   []byte
}

// receiver is a local webhook endpoint that records what it gets and
// answers with the status its respond function chooses.
type receiver struct {
	*httptest.Server
	mu      sync.Mutex
	got     []received
	respond func(n int, r received) int
}

func newReceiver(t *testing.T, respond func(n int, r received) int) *receiver {
	t.Helper()
	rc := &receiver{respond: respond}
	rc.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got := received{Header: r.Header.Clone(), Body: body}
		rc.mu.Lock()
		rc.got = append(rc.got, got)
		n := len(rc.got)
		rc.mu.Unlock()
		status := http.StatusOK
		if rc.respond != nil {
			status = rc.respond(n, got)
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte("receiver says " + http.StatusText(status)))
	}))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) requests() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.got...)
}
