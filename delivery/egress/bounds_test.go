package egress

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"
)

// boundsReceiver answers
//   - /headers/{kib}: 200 with about kib KiB of response headers, in
//     1 KiB values;
//   - /body/{kib}: 200 with a kib KiB body (with Content-Length);
//   - /stall: 200, MaxResponseBodyRead+1 bytes of body, then nothing
//     until the client goes away or the test ends;
//   - /trickle: 200 and one byte of body every 20 ms, forever.
func boundsReceiver(t *testing.T) *httptest.Server {
	t.Helper()
	stop := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/headers/{kib}", func(w http.ResponseWriter, r *http.Request) {
		var kib int
		fmt.Sscan(r.PathValue("kib"), &kib)
		value := strings.Repeat("h", 1024-len("X-Pad-000: \r\n"))
		for i := range kib {
			w.Header().Set(fmt.Sprintf("X-Pad-%03d", i), value)
		}
		w.Header().Set("X-Small", "kept")
		_, _ = w.Write([]byte("ok"))
	})
	mux.HandleFunc("/body/{kib}", func(w http.ResponseWriter, r *http.Request) {
		var kib int
		fmt.Sscan(r.PathValue("kib"), &kib)
		body := bytes.Repeat([]byte("b"), kib<<10)
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		_, _ = w.Write(body)
	})
	mux.HandleFunc("/stall", func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(bytes.Repeat([]byte("s"), MaxResponseBodyRead+1))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	})
	mux.HandleFunc("/trickle", func(w http.ResponseWriter, r *http.Request) {
		for {
			if _, err := w.Write([]byte("t")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		close(stop)
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv
}

// countingSender is a Sender whose connections count the bytes they read.
func countingSender(t *testing.T) (*Sender, *atomic.Int64) {
	t.Helper()
	s := NewSender(AddressPolicy{AllowPrivate: true}, nil)
	tr := s.client.Transport.(*http.Transport)
	dial := tr.DialContext
	var read atomic.Int64
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return &countingConn{Conn: c, read: &read}, nil
	}
	return s, &read
}

type countingConn struct {
	net.Conn
	read *atomic.Int64
}

func (c *countingConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.read.Add(int64(n))
	return n, err
}

func send(s *Sender, url string, timeout time.Duration) Response {
	return s.Send(context.Background(), Request{URL: url, Headers: http.Header{}, Body: []byte(`{}`), Timeout: timeout})
}

// TestResponseHeaderBlockBound: a header block over 64 KiB fails the
// attempt with ErrResponseTooLarge; one under it arrives, and only 8 KiB
// of it is kept, marked truncated.
func TestResponseHeaderBlockBound(t *testing.T) {
	t.Parallel()
	srv := boundsReceiver(t)
	s := NewSender(AddressPolicy{AllowPrivate: true}, nil)

	resp := send(s, srv.URL+"/headers/70", 5*time.Second)
	if !errors.Is(resp.Err, ErrResponseTooLarge) || resp.Status != 0 {
		t.Fatalf("70 KiB of headers: status %d, err %v; want ErrResponseTooLarge", resp.Status, resp.Err)
	}
	if resp.Headers != nil || resp.Body != nil {
		t.Errorf("70 KiB of headers: kept headers %d, body %q", len(resp.Headers), resp.Body)
	}

	resp = send(s, srv.URL+"/headers/60", 5*time.Second)
	if resp.Err != nil || resp.Status != 200 || string(resp.Body) != "ok" {
		t.Fatalf("60 KiB of headers: status %d, err %v, body %q; want 200 ok", resp.Status, resp.Err, resp.Body)
	}
	stored, err := json.Marshal(resp.Headers)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) > MaxStoredHeaderBytes || len(stored) < MaxStoredHeaderBytes-1100 {
		t.Errorf("60 KiB of headers kept as %d bytes of JSON, want at most %d and not much less", len(stored), MaxStoredHeaderBytes)
	}
	if !resp.HeadersTruncated {
		t.Error("60 KiB of headers kept without the truncation mark")
	}
	if resp.Headers.Get("X-Small") != "kept" || resp.Headers.Get("X-Pad-000") == "" {
		t.Errorf("kept headers %v; want whole values, names in order, small ones that fit", keys(resp.Headers))
	}

	resp = send(s, srv.URL+"/headers/2", 5*time.Second)
	if resp.Err != nil || resp.HeadersTruncated || len(resp.Headers.Values("X-Pad-001")) != 1 {
		t.Errorf("2 KiB of headers: err %v, truncated %v, headers %v; want all kept", resp.Err, resp.HeadersTruncated, keys(resp.Headers))
	}
}

// TestResponseHeaderBlockBoundHTTP2: over HTTP/2 the same bound holds.
// net/http names the error only when the limit is crossed inside the last
// header frame; a block far over it ends the connection with a plain
// PROTOCOL_ERROR, so the attempt fails but may be classed "connection".
func TestResponseHeaderBlockBoundHTTP2(t *testing.T) {
	t.Parallel()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ProtoMajor != 2 {
			t.Errorf("request over %s, want HTTP/2", r.Proto)
		}
		for i := range 70 {
			w.Header().Set(fmt.Sprintf("X-Pad-%03d", i), strings.Repeat("h", 1000))
		}
		_, _ = w.Write([]byte("ok"))
	}))
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	s := NewSender(AddressPolicy{AllowPrivate: true}, nil)
	s.client.Transport.(*http.Transport).TLSClientConfig = srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	resp := send(s, srv.URL, 5*time.Second)
	if resp.Err == nil || resp.Status != 0 || resp.Headers != nil {
		t.Fatalf("70 KiB of headers over HTTP/2: status %d, err %v, %d headers kept; want the attempt failed", resp.Status, resp.Err, len(resp.Headers))
	}
}

func keys(h http.Header) []string {
	var out []string
	for k := range h {
		out = append(out, k)
	}
	return out
}

// TestResponseBodyBound: of a 1 MiB body 4 KiB are kept, marked truncated,
// and no more than 64 KiB is read from the connection.
func TestResponseBodyBound(t *testing.T) {
	t.Parallel()
	srv := boundsReceiver(t)
	s, read := countingSender(t)
	resp := send(s, srv.URL+"/body/1024", 5*time.Second)
	if resp.Err != nil || resp.Status != 200 {
		t.Fatalf("status %d err %v", resp.Status, resp.Err)
	}
	if len(resp.Body) != MaxStoredBodyBytes || !resp.BodyTruncated {
		t.Errorf("kept %d bytes of a 1 MiB body, truncated %v; want %d, true", len(resp.Body), resp.BodyTruncated, MaxStoredBodyBytes)
	}
	// Response headers and the transport's 4 KiB read-ahead come on top.
	if n := read.Load(); n > MaxResponseBodyRead+8<<10 {
		t.Errorf("read %d bytes from the connection for a 1 MiB body; want about %d at most", n, MaxResponseBodyRead)
	}

	for _, c := range []struct {
		kib       int
		truncated bool
	}{{0, false}, {4, false}, {5, true}, {63, true}} {
		resp := send(s, fmt.Sprintf("%s/body/%d", srv.URL, c.kib), 5*time.Second)
		if resp.Err != nil || len(resp.Body) != min(c.kib<<10, MaxStoredBodyBytes) || resp.BodyTruncated != c.truncated {
			t.Errorf("%d KiB body: err %v, kept %d, truncated %v; want %d, %v", c.kib, resp.Err, len(resp.Body),
				resp.BodyTruncated, min(c.kib<<10, MaxStoredBodyBytes), c.truncated)
		}
	}
}

// TestResponseBodyReadingStopsAtBound: a receiver that sends just over
// 64 KiB and then stalls does not hold the attempt: reading stops at the
// bound, long before the timeout, and the attempt is not an error.
func TestResponseBodyReadingStopsAtBound(t *testing.T) {
	t.Parallel()
	srv := boundsReceiver(t)
	s := NewSender(AddressPolicy{AllowPrivate: true}, nil)
	start := time.Now()
	resp := send(s, srv.URL+"/stall", 10*time.Second)
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("attempt took %s; reading should stop at %d bytes, not wait for the timeout", took, MaxResponseBodyRead)
	}
	if resp.Err != nil || resp.Status != 200 || len(resp.Body) != MaxStoredBodyBytes || !resp.BodyTruncated {
		t.Errorf("status %d, err %v, kept %d, truncated %v; want 200, nil, %d, true", resp.Status, resp.Err, len(resp.Body),
			resp.BodyTruncated, MaxStoredBodyBytes)
	}
}

// TestEndlessSlowBodyEndsAtTimeout: a body trickling in forever ends the
// attempt at the timeout, as a timeout, with what arrived kept and marked.
func TestEndlessSlowBodyEndsAtTimeout(t *testing.T) {
	t.Parallel()
	srv := boundsReceiver(t)
	s := NewSender(AddressPolicy{AllowPrivate: true}, nil)
	const timeout = 600 * time.Millisecond
	resp := send(s, srv.URL+"/trickle", timeout)
	if !errors.Is(resp.Err, context.DeadlineExceeded) && !errors.Is(resp.Err, os.ErrDeadlineExceeded) {
		t.Errorf("err %v; want a deadline error", resp.Err)
	}
	if resp.Duration < timeout || resp.Duration > timeout+time.Second {
		t.Errorf("attempt took %s with a %s timeout", resp.Duration, timeout)
	}
	if resp.Status != 200 || len(resp.Body) == 0 || !resp.BodyTruncated {
		t.Errorf("status %d, kept %q, truncated %v; want the 200 and its partial body, marked", resp.Status, resp.Body, resp.BodyTruncated)
	}
}

// TestShortBodiesKeepConnections: a body read to its end leaves the
// connection for the next attempt; only bodies cut at the bound close it.
func TestShortBodiesKeepConnections(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	conns := 0
	srv := boundsReceiver(t)
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			mu.Lock()
			conns++
			mu.Unlock()
		}
	}
	s := NewSender(AddressPolicy{AllowPrivate: true}, nil)
	for range 3 {
		if resp := send(s, srv.URL+"/body/32", 5*time.Second); resp.Err != nil {
			t.Fatal(resp.Err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if conns != 1 {
		t.Errorf("3 attempts with 32 KiB bodies used %d connections, want 1", conns)
	}
}

// TestBoundHeadersHostile: whatever the names and values (NUL, invalid
// UTF-8, characters JSON escapes), the kept headers encode to at most
// MaxStoredHeaderBytes of valid JSON, and truncation is marked.
func TestBoundHeadersHostile(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name      string
		h         http.Header
		truncated bool
	}{
		{"nil", nil, false},
		{"small", http.Header{"A": {"1", "2"}, "B": {"3"}}, false},
		{"escapes", http.Header{"X-Html": {strings.Repeat("<&>", 2000)}, "X-Ok": {"fine"}}, true},
		{"nul and invalid utf-8", http.Header{"X-Nul\x00": {strings.Repeat("\x00\xff", 3000)}, "Y": {"y"}}, true},
		{"many values", http.Header{"Set-Cookie": bytesValues(500, 40)}, true},
		{"exact fit", http.Header{"A": {strings.Repeat("a", MaxStoredHeaderBytes-len(`{"A":[""]}`))}}, false},
		{"one over", http.Header{"A": {strings.Repeat("a", MaxStoredHeaderBytes-len(`{"A":[""]}`)+1)}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			kept, truncated := boundHeaders(c.h)
			b, err := json.Marshal(kept)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) > MaxStoredHeaderBytes {
				t.Errorf("kept %d bytes of JSON, want at most %d", len(b), MaxStoredHeaderBytes)
			}
			if truncated != c.truncated {
				t.Errorf("truncated = %v, want %v", truncated, c.truncated)
			}
			for k, vs := range kept {
				for _, v := range append(vs, k) {
					if !utf8.ValidString(v) || strings.ContainsRune(v, 0) {
						t.Errorf("kept %q, not storable text", v)
					}
				}
			}
			if c.name == "escapes" && kept.Get("X-Ok") != "fine" {
				t.Errorf("a small header after a big one was dropped: %v", keys(kept))
			}
		})
	}
}

func bytesValues(n, size int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%0*d", size, i)
	}
	return out
}

// TestStorableBody: a kept body is valid UTF-8 text of at most 4 KiB, a
// character split at the cut is dropped, and replacement characters that
// grow a binary body past 4 KiB are cut and marked.
func TestStorableBody(t *testing.T) {
	t.Parallel()
	euro := "€" // 3 bytes
	split := []byte(strings.Repeat("a", MaxStoredBodyBytes-2) + euro)[:MaxStoredBodyBytes]
	if got, short := storableBody(split, true); string(got) != strings.Repeat("a", MaxStoredBodyBytes-2) || short {
		t.Errorf("split character: kept %d bytes ending %q, shortened %v", len(got), got[max(0, len(got)-4):], short)
	}
	binary := bytes.Repeat([]byte{'a', 0xff}, MaxStoredBodyBytes/2)
	got, short := storableBody(binary, false)
	if len(got) > MaxStoredBodyBytes || !utf8.Valid(got) || !short {
		t.Errorf("binary body: kept %d bytes, valid %v, shortened %v; want at most %d, true, true", len(got), utf8.Valid(got), short, MaxStoredBodyBytes)
	}
	if got, short := storableBody([]byte("nul \x00 ok"), false); string(got) != "nul \uFFFD ok" || short {
		t.Errorf("kept %q, shortened %v", got, short)
	}
}
