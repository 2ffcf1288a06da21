package load

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestSinkTarpitHoldsUntilReleased checks a tarpit endpoint holds its
// run's requests, answers them once the run is released (recording the
// arrival), and answers later requests at once.
func TestSinkTarpitHoldsUntilReleased(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(NewSink())
	defer srv.Close()
	src := RemoteSink{URL: srv.URL}
	post := func(seq string) <-chan int {
		ch := make(chan int, 1)
		go func() {
			res, err := http.Post(srv.URL+"/hook/tarpit-0", "application/json",
				strings.NewReader(`{"id":"e","data":{"run":"r","seq":`+seq+`,"sched":0}}`))
			if err != nil {
				ch <- 0
				return
			}
			res.Body.Close()
			ch <- res.StatusCode
		}()
		return ch
	}
	first := post("1")
	testenv.Eventually(t, 5*time.Second, func() bool {
		l, err := src.Fetch(context.Background(), "r")
		return err == nil && l.Held == 1
	}, "tarpit does not hold the request")
	select {
	case code := <-first:
		t.Fatalf("tarpit answered %d before the release", code)
	case <-time.After(50 * time.Millisecond):
	}
	if err := src.ReleaseRun(context.Background(), "r"); err != nil {
		t.Fatal(err)
	}
	if code := <-first; code != http.StatusNoContent {
		t.Fatalf("held request answered %d after the release, want 204", code)
	}
	if code := <-post("2"); code != http.StatusNoContent {
		t.Fatalf("request after the release answered %d, want 204", code)
	}
	if n, _ := src.Arrived(context.Background(), "r"); n != 2 {
		t.Fatalf("%d arrivals recorded, want 2", n)
	}
}
