package dispatch

import (
	"bytes"
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ferry-dev/ferry/delivery/egress"
	"github.com/ferry-dev/ferry/delivery/model"
)

// classificationReceiver answers /status/N with status N, /hang by never
// answering, /slow-body by sending headers and then trickling the body
// past any sane timeout, and /big with a 10 KiB body.
func classificationReceiver(t *testing.T, tls bool) *httptest.Server {
	t.Helper()
	stop := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/status/{code}", func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(r.PathValue("code"))
		if code >= 300 && code < 400 {
			w.Header().Set("Location", "/status/200")
		}
		w.WriteHeader(code)
		_, _ = w.Write([]byte("status " + r.PathValue("code")))
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	})
	mux.HandleFunc("/slow-body", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		for i := 0; i < 100; i++ {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(bytes.Repeat([]byte("b"), 10<<10))
	})
	var srv *httptest.Server
	if tls {
		srv = httptest.NewTLSServer(mux)
	} else {
		srv = httptest.NewServer(mux)
	}
	t.Cleanup(func() {
		close(stop)
		srv.CloseClientConnections()
		srv.Close()
	})
	return srv
}

// closedPortURL returns a URL on a loopback port nothing listens on.
func closedPortURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/"
}

// TestClassificationAgainstRealReceiver sends real requests to a local
// receiver and checks the outcome table (docs/delivery.md) for
// every listed status code, redirects and unlisted codes, and each kind of
// network failure.
func TestClassificationAgainstRealReceiver(t *testing.T) {
	t.Parallel()
	srv := classificationReceiver(t, false)
	tlsSrv := classificationReceiver(t, true)
	sender := egress.NewSender(egress.AddressPolicy{AllowPrivate: true}, nil)

	type tc struct {
		name      string
		url       string
		want      model.Outcome
		wantClass string // error class for transport failures
	}
	var cases []tc
	for _, code := range []int{200, 201, 202, 204, 299} {
		cases = append(cases, tc{name: strconv.Itoa(code), url: srv.URL + "/status/" + strconv.Itoa(code), want: model.OutcomeSuccess})
	}
	for _, code := range []int{400, 401, 403, 405, 406, 422} {
		cases = append(cases, tc{name: strconv.Itoa(code), url: srv.URL + "/status/" + strconv.Itoa(code), want: model.OutcomeDropped})
	}
	for _, code := range []int{300, 301, 302, 303, 304, 307, 308, 402, 404, 407, 408, 409, 410, 411, 413, 415, 418, 425, 429, 451,
		500, 501, 502, 503, 504, 505, 511, 599} {
		cases = append(cases, tc{name: strconv.Itoa(code), url: srv.URL + "/status/" + strconv.Itoa(code), want: model.OutcomeRetry})
	}
	cases = append(cases,
		tc{name: "timeout before headers", url: srv.URL + "/hang", want: model.OutcomeRetry, wantClass: ErrClassTimeout},
		tc{name: "slow body", url: srv.URL + "/slow-body", want: model.OutcomeRetry, wantClass: ErrClassTimeout},
		tc{name: "connection refused", url: closedPortURL(t), want: model.OutcomeRetry, wantClass: ErrClassRefused},
		tc{name: "dns failure", url: "http://ferry-no-such-host.invalid/hook", want: model.OutcomeRetry, wantClass: ErrClassDNS},
		tc{name: "tls untrusted certificate", url: tlsSrv.URL + "/status/200", want: model.OutcomeRetry, wantClass: ErrClassTLS},
		tc{name: "tls to plain http server", url: strings.Replace(srv.URL, "http://", "https://", 1) + "/status/200", want: model.OutcomeRetry, wantClass: ErrClassTLS},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			resp := sender.Send(context.Background(), egress.Request{URL: c.url, Headers: http.Header{}, Body: []byte(`{}`),
				Timeout: 700 * time.Millisecond})
			got, class, _ := Classify(resp)
			if got != c.want {
				t.Fatalf("outcome = %s (status %d, err %v), want %s", got, resp.Status, resp.Err, c.want)
			}
			if class != c.wantClass {
				t.Fatalf("error class = %q (err %v), want %q", class, resp.Err, c.wantClass)
			}
			if c.wantClass == "" && !strings.HasPrefix(string(resp.Body), "status ") && resp.Status != 204 && resp.Status != 304 {
				t.Errorf("response body %q not kept", resp.Body)
			}
			if resp.Duration > 3*time.Second {
				t.Errorf("attempt took %s; the 700ms timeout was not enforced", resp.Duration)
			}
		})
	}
}

// TestSenderDoesNotFollowRedirects checks a 3xx is returned as is.
func TestSenderDoesNotFollowRedirects(t *testing.T) {
	t.Parallel()
	srv := classificationReceiver(t, false)
	resp := egress.NewSender(egress.AddressPolicy{AllowPrivate: true}, nil).Send(context.Background(),
		egress.Request{URL: srv.URL + "/status/302", Headers: http.Header{}, Timeout: 2 * time.Second})
	if resp.Status != 302 || resp.Err != nil {
		t.Fatalf("status %d err %v, want the 302 itself", resp.Status, resp.Err)
	}
}

// TestResponseBodyCappedAt4KiB checks only the first 4 KiB are kept.
func TestResponseBodyCappedAt4KiB(t *testing.T) {
	t.Parallel()
	srv := classificationReceiver(t, false)
	resp := egress.NewSender(egress.AddressPolicy{AllowPrivate: true}, nil).Send(context.Background(),
		egress.Request{URL: srv.URL + "/big", Headers: http.Header{}, Timeout: 2 * time.Second})
	if resp.Err != nil || resp.Status != 200 {
		t.Fatalf("status %d err %v", resp.Status, resp.Err)
	}
	if len(resp.Body) != 4096 {
		t.Fatalf("kept %d bytes of the body, want 4096", len(resp.Body))
	}
}

// TestRetryAfterParsed checks Retry-After is read on 429 and 503 only.
func TestRetryAfterParsed(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(r.URL.Query().Get("code"))
		w.Header().Set("Retry-After", r.URL.Query().Get("ra"))
		w.WriteHeader(code)
	}))
	t.Cleanup(srv.Close)
	s := egress.NewSender(egress.AddressPolicy{AllowPrivate: true}, nil)
	for _, c := range []struct {
		code int
		ra   string
		want time.Duration
	}{
		{429, "120", 120 * time.Second},
		{503, "7", 7 * time.Second},
		{500, "120", 0},
		{429, "soon", 0},
		{429, "-3", 0},
		{503, time.Now().Add(time.Hour).UTC().Format(http.TimeFormat), time.Hour},
	} {
		resp := s.Send(context.Background(), egress.Request{URL: srv.URL + "/?code=" + strconv.Itoa(c.code) + "&ra=" + strings.ReplaceAll(c.ra, " ", "%20"),
			Headers: http.Header{}, Timeout: 2 * time.Second})
		if d := resp.RetryAfter - c.want; d < -2*time.Second || d > 2*time.Second {
			t.Errorf("%d Retry-After %q: got %s, want %s", c.code, c.ra, resp.RetryAfter, c.want)
		}
	}
}

// TestClassifyErrorWrapped checks classes survive wrapping.
func TestClassifyErrorWrapped(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  error
		want string
	}{
		{context.DeadlineExceeded, ErrClassTimeout},
		{&net.DNSError{Err: "no such host", Name: "x.invalid", IsNotFound: true}, ErrClassDNS},
		{errors.Join(errors.New("dial"), egress.ErrBlockedAddress), ErrClassBlocked},
		{errors.Join(errors.New("post"), egress.ErrResponseTooLarge), ErrClassResponseTooLarge},
		{errors.New("something else"), ErrClassConnection},
	} {
		if got := ClassifyError(c.err); got != c.want {
			t.Errorf("ClassifyError(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

// TestClassifyStatusEveryCode checks every status code against the outcome
// table (docs/delivery.md): only 2xx succeeds, only the six
// listed codes drop.
func TestClassifyStatusEveryCode(t *testing.T) {
	t.Parallel()
	drops := map[int]bool{400: true, 401: true, 403: true, 405: true, 406: true, 422: true}
	for code := 100; code <= 599; code++ {
		want := model.OutcomeRetry
		switch {
		case code >= 200 && code <= 299:
			want = model.OutcomeSuccess
		case drops[code]:
			want = model.OutcomeDropped
		}
		if got := ClassifyStatus(code); got != want {
			t.Errorf("ClassifyStatus(%d) = %s, want %s", code, got, want)
		}
	}
}
