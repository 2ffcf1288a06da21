package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// RetryPolicy bounds the retries of one call. Zero fields take the
// defaults.
type RetryPolicy struct {
	// MaxAttempts is how many times one call is sent at most, the first
	// included (default 4; 1 disables retries).
	MaxAttempts int
	// MaxElapsed bounds the time from the first attempt to the start of
	// the last: a Retry-After that would cross it is not waited for, and
	// the 429 is returned (default 30 s).
	MaxElapsed time.Duration
	// BaseDelay is the first backoff when the answer says nothing of when
	// to come back; each further attempt doubles it, up to MaxDelay, and
	// the wait is drawn uniformly below that (full jitter) so that many
	// clients do not retry in step (defaults 250 ms and 5 s).
	BaseDelay time.Duration
	MaxDelay  time.Duration
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.MaxAttempts <= 0 {
		p.MaxAttempts = 4
	}
	if p.MaxElapsed <= 0 {
		p.MaxElapsed = 30 * time.Second
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = 250 * time.Millisecond
	}
	if p.MaxDelay <= 0 {
		p.MaxDelay = 5 * time.Second
	}
	return p
}

// retryingDoer sends a request again when Ferry asks it to wait (429),
// is unavailable (503) or the network failed, as far as repeating the
// request is safe. It satisfies ferryapi.HttpRequestDoer.
type retryingDoer struct {
	http   *http.Client
	policy RetryPolicy
	now    func() time.Time
	sleep  func(ctx context.Context, d time.Duration) error
	jitter func(n int64) int64 // uniform in [0, n)
}

func newRetryingDoer(hc *http.Client, p RetryPolicy) *retryingDoer {
	return &retryingDoer{http: hc, policy: p.withDefaults(), now: time.Now, sleep: sleepCtx, jitter: rand.Int64N}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Do sends req, and again (with a fresh copy of its body) while the
// answer or error is retryable and the policy allows another attempt.
func (d *retryingDoer) Do(req *http.Request) (*http.Response, error) {
	ctx := req.Context()
	start := d.now()
	for attempt := 1; ; attempt++ {
		try := req
		if attempt > 1 {
			try = req.Clone(ctx)
			if req.GetBody != nil {
				body, err := req.GetBody()
				if err != nil {
					return nil, fmt.Errorf("ferry: rewind request body for retry: %w", err)
				}
				try.Body = body
			}
		}
		res, err := d.http.Do(try)
		wait, retry := d.backoff(req, res, err, attempt)
		if !retry || attempt >= d.policy.MaxAttempts || d.now().Add(wait).Sub(start) > d.policy.MaxElapsed {
			return res, err
		}
		if res != nil {
			// Drain so that the connection can be reused.
			_, _ = io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
			res.Body.Close()
		}
		if err := d.sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("ferry: waiting to retry %s %s: %w", req.Method, req.URL.Path, err)
		}
	}
}

// backoff says whether the outcome of attempt is worth another try, and
// after how long.
func (d *retryingDoer) backoff(req *http.Request, res *http.Response, err error, attempt int) (time.Duration, bool) {
	jittered := func() time.Duration {
		ceil := d.policy.BaseDelay << (attempt - 1)
		if ceil > d.policy.MaxDelay || ceil <= 0 {
			ceil = d.policy.MaxDelay
		}
		return time.Duration(d.jitter(int64(ceil)))
	}
	if err != nil {
		if req.Context().Err() != nil || errors.Is(err, context.Canceled) || !repeatable(req) || (req.Body != nil && req.GetBody == nil) {
			return 0, false
		}
		return jittered(), true
	}
	switch res.StatusCode {
	case http.StatusTooManyRequests:
		// A refused request wrote nothing: safe to repeat, whatever the
		// method.
	case http.StatusServiceUnavailable:
		if !repeatable(req) {
			return 0, false
		}
	default:
		return 0, false
	}
	if req.Body != nil && req.GetBody == nil {
		return 0, false
	}
	if ra, ok := retryAfter(res.Header.Get("Retry-After"), d.now()); ok {
		return ra, true
	}
	return jittered(), true
}

// repeatable reports whether sending req twice has the effect of sending
// it once: idempotent methods, and POSTs that carry an idempotency key.
func repeatable(req *http.Request) bool {
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete:
		return true
	}
	return req.Header.Get("Idempotency-Key") != ""
}

// retryAfter reads a Retry-After header: delay-seconds or an HTTP date.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil {
		if s < 0 {
			return 0, false
		}
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
