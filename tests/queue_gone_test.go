package tests

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/tests/testenv"
)

// TestQueueVanishedConsumers: a long-poll or a stream whose client hangs
// up leases nothing more, so the next message goes to a consumer that is
// still there at once, not after the vanished one's 60 s lease. It runs
// on a Ferry of its own, so that the waiting-consumers gauge counts only
// its own long-polls.
func TestQueueVanishedConsumers(t *testing.T) {
	t.Parallel()
	f := startFerry(t, testConfig(t))
	_, api := signUp(t, f, "queue-gone@example.com")
	q := createQueue(t, api, "q.gone", nil)
	host, err := url.Parse(f.URL)
	if err != nil {
		t.Fatal(err)
	}
	waitForWaiting := func(want string, why string) {
		t.Helper()
		testenv.Eventually(t, 10*time.Second, func() bool {
			return scrapeMetrics(t, f, "ferry_queue_waiting_consumers") == "ferry_queue_waiting_consumers="+want
		}, why)
	}
	// vanish starts a request on a raw connection, checks that Ferry holds
	// it open (nothing answered within 300 ms: it waits for messages),
	// waits until Ferry counts it as a waiting consumer, and hangs up.
	vanish := func(method, path, body string) {
		t.Helper()
		conn, err := net.Dial("tcp", host.Host)
		if err != nil {
			t.Fatal(err)
		}
		_, err = fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s",
			method, path, host.Host, api.apiKey, len(body), body)
		if err != nil {
			t.Fatal(err)
		}
		waitForWaiting("1", "Ferry never counted the long-poll as waiting")
		if method == "POST" {
			if err := conn.SetReadDeadline(time.Now().Add(300 * time.Millisecond)); err != nil {
				t.Fatal(err)
			}
			var buf [1]byte
			if n, err := conn.Read(buf[:]); n > 0 || !errors.Is(err, os.ErrDeadlineExceeded) {
				t.Fatalf("the long-poll answered at once (%d bytes, %v); it should wait", n, err)
			}
		}
		if err := conn.Close(); err != nil {
			t.Fatal(err)
		}
		waitForWaiting("0", "Ferry did not notice the client hang up")
	}
	// takeOver sends an event and checks another consumer gets it at once,
	// as its first lease.
	takeOver := func(step string) {
		t.Helper()
		ev := sendEvent(t, api, "q.gone", step)
		msgs := pull(t, api, q.ID, map[string]any{"wait_seconds": 5, "visibility_seconds": 60})
		if len(msgs) != 1 || msgs[0].Event.ID != ev.ID || msgs[0].Attempt != 1 {
			t.Fatalf("%s: the consumer still there pulled %+v, want event %s as attempt 1", step, msgs, ev.ID)
		}
		settle(t, api, q.ID, "ack", nil, msgs[0].Receipt)
		if st := stats(t, api, q.ID); st.Depth != 0 || st.InFlight != 0 {
			t.Fatalf("%s: stats %+v, want an empty queue", step, st)
		}
	}

	vanish("POST", "/api/v1/queues/"+q.ID+"/pull", `{"wait_seconds":20,"visibility_seconds":60}`)
	takeOver("long-poll")

	vanish("GET", "/api/v1/queues/"+q.ID+"/stream?visibility_seconds=60", "")
	takeOver("stream")

	// The stream itself still delivers to a client that stays.
	req, err := http.NewRequest("GET", f.URL+"/api/v1/queues/"+q.ID+"/stream?visibility_seconds=60", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+api.apiKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	waitForWaiting("1", "the stream never waited")
	ev := sendEvent(t, api, "q.gone", "streamed")
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if line, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			if !strings.Contains(line, ev.ID) {
				t.Fatalf("stream sent %s, want event %s", line, ev.ID)
			}
			break
		}
	}
}
