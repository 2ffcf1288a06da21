package egress

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"time"
)

// Request is one HTTP attempt to make.
type Request struct {
	URL     string
	Headers http.Header
	Body    []byte
	Timeout time.Duration
}

// Response is what came back, or why nothing did. Headers and Body are
// already bounded for the attempt log and storable as Postgres text.
type Response struct {
	Status int // 0 when no response arrived
	// Headers holds at most MaxStoredHeaderBytes of JSON; HeadersTruncated
	// reports that some values were left out.
	Headers          http.Header
	HeadersTruncated bool
	// Body is the first MaxStoredBodyBytes of the body as UTF-8 text;
	// BodyTruncated reports that it is not the whole body.
	Body          []byte
	BodyTruncated bool
	RetryAfter    time.Duration
	// Err is a transport error (wrapping ErrResponseTooLarge for an
	// oversized header block), or a body cut off by the timeout; nil when
	// a response arrived and its body was read to the end or to
	// MaxResponseBodyRead.
	Err      error
	Duration time.Duration
}

// Resolver looks up a host's addresses; *net.Resolver satisfies it.
type Resolver interface {
	// LookupNetIP returns the addresses of host, or a *net.DNSError.
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// SenderConfig tunes a Sender.
type SenderConfig struct {
	// Policy is the SSRF guard, enforced on the address actually dialled.
	Policy AddressPolicy
	// Resolver resolves endpoint host names at connect time; nil uses the
	// system resolver.
	Resolver Resolver
	// Now is the clock; nil uses time.Now.
	Now func() time.Time
}

// Sender makes HTTP attempts with keep-alive connections, no redirects,
// and the SSRF guard on every connection.
type Sender struct {
	client *http.Client
	now    func() time.Time
}

// NewSender returns a Sender enforcing policy at connect time with the
// system resolver.
func NewSender(policy AddressPolicy, now func() time.Time) *Sender {
	return NewSenderFromConfig(SenderConfig{Policy: policy, Now: now})
}

// NewSenderFromConfig returns a Sender enforcing cfg.Policy at connect
// time.
func NewSenderFromConfig(cfg SenderConfig) *Sender {
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: cfg.Policy.control}
	dial := dialer.DialContext
	if cfg.Resolver != nil {
		dial = resolvingDial(dialer, cfg.Resolver)
	}
	transport := &http.Transport{
		DialContext:            dial,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           1024,
		MaxIdleConnsPerHost:    256,
		IdleConnTimeout:        90 * time.Second,
		TLSHandshakeTimeout:    10 * time.Second,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: MaxResponseHeaderBytes,
		Proxy:                  nil,  // a proxy would bypass the connect-time guard
		DisableCompression:     true, // send exactly the signed headers, nothing added
	}
	return &Sender{
		now: now,
		client: &http.Client{
			Transport: transport,
			CheckRedirect: func(*http.Request, []*http.Request) error {
				return http.ErrUseLastResponse
			},
		},
	}
}

// Send makes one attempt. The timeout covers connecting, the response
// headers and reading the body, so a slow body is a timeout. Reading stops
// after MaxResponseBodyRead bytes of body.
func (s *Sender) Send(ctx context.Context, r Request) Response {
	start := s.now()
	ctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	resp := s.send(ctx, r)
	resp.Duration = s.now().Sub(start)
	return resp
}

func (s *Sender) send(ctx context.Context, r Request) Response {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return Response{Err: fmt.Errorf("build request: %w", err)}
	}
	req.Header = r.Headers.Clone()
	res, err := s.client.Do(req)
	if err != nil {
		return Response{Err: classifyTransportError(err)}
	}
	// Closing a body not read to its end closes the connection, so a
	// receiver streaming past the read bound is not read any further.
	defer res.Body.Close()
	out := Response{Status: res.StatusCode}
	out.Headers, out.HeadersTruncated = boundHeaders(res.Header)
	out.Body, out.BodyTruncated, err = readBody(res.Body)
	if err != nil {
		out.Err = fmt.Errorf("read response body: %w", err)
	}
	if res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable {
		out.RetryAfter = parseRetryAfter(res.Header.Get("Retry-After"), s.now())
	}
	return out
}

// resolvingDial resolves the host with r and dials its addresses in turn;
// the dialer's Control still checks each one, so whatever r answers at
// connect time is what the SSRF guard sees.
func resolvingDial(d *net.Dialer, r Resolver) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		ips, err := r.LookupNetIP(ctx, "ip", host)
		if err != nil {
			return nil, err
		}
		var errs []error
		for _, ip := range ips {
			c, err := d.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
			if err == nil {
				return c, nil
			}
			errs = append(errs, err)
		}
		if len(errs) == 0 {
			return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
		}
		return nil, errors.Join(errs...)
	}
}

// parseRetryAfter reads delay-seconds or an HTTP date; 0 when absent or bad.
func parseRetryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(v); err == nil && secs > 0 {
		return time.Duration(secs) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
