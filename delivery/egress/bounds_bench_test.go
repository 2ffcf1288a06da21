package egress

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// bulkyReceiver is a raw HTTP/1.1 server answering every request with one
// prebuilt response: about 60 KiB of headers and a 1 MiB body, after
// holding the request for hold (so that many attempts overlap). Its own
// memory is one shared response, so what a benchmark measures is the
// sender's.
func bulkyReceiver(tb testing.TB, hold time.Duration) string {
	tb.Helper()
	var head bytes.Buffer
	head.WriteString("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + strconv.Itoa(1<<20) + "\r\n")
	pad := strings.Repeat("h", 1000)
	for i := range 60 {
		fmt.Fprintf(&head, "X-Pad-%02d: %s\r\n", i, pad)
	}
	head.WriteString("\r\n")
	resp := append(head.Bytes(), bytes.Repeat([]byte("b"), 1<<20)...)

	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	var wg sync.WaitGroup
	tb.Cleanup(func() {
		l.Close()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					_, _ = io.Copy(io.Discard, req.Body)
					time.Sleep(hold)
					if _, err := c.Write(resp); err != nil {
						return
					}
				}
			}()
		}
	}()
	return "http://" + l.Addr().String() + "/hook"
}

// BenchmarkBoundedResponsesConcurrent makes 200 attempts at a time
// against a receiver answering each with 60 KiB of headers and a 1 MiB
// body, and reports the peak Go heap in use and the peak RSS of the test
// process while they run. Unbounded, each attempt would hold its whole
// answer; bounded, each holds its headers while parsing and 64 KiB of
// body passing through a small buffer.
func BenchmarkBoundedResponsesConcurrent(b *testing.B) {
	const concurrency = 200
	url := bulkyReceiver(b, 50*time.Millisecond)
	s := NewSender(AddressPolicy{AllowPrivate: true}, nil)
	var peakHeap, peakRSS atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			peakHeap.Store(max(peakHeap.Load(), ms.HeapInuse))
			peakRSS.Store(max(peakRSS.Load(), rssBytes()))
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	b.ResetTimer()
	for range b.N {
		var wg sync.WaitGroup
		var failed atomic.Int64
		for range concurrency {
			wg.Add(1)
			go func() {
				defer wg.Done()
				resp := s.Send(context.Background(), Request{URL: url, Headers: http.Header{}, Body: []byte(`{}`), Timeout: 30 * time.Second})
				if resp.Err != nil || !resp.BodyTruncated || !resp.HeadersTruncated {
					failed.Add(1)
				}
			}()
		}
		wg.Wait()
		if n := failed.Load(); n > 0 {
			b.Fatalf("%d of %d attempts failed or were not truncated", n, concurrency)
		}
	}
	b.StopTimer()
	close(stop)
	<-sampled
	b.ReportMetric(float64(peakHeap.Load())/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(peakRSS.Load())/(1<<20), "peak-RSS-MiB")
	b.ReportMetric(float64(b.Elapsed())/float64(b.N*concurrency)/1e6, "ms/attempt")
}

// rssBytes is this process's resident set size from /proc (0 elsewhere).
func rssBytes() uint64 {
	raw, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(raw))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}
