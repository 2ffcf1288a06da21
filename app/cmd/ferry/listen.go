package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// listenCmd forwards a pull queue's messages to a URL on the developer's
// machine, the way `stripe listen` or `svix listen` do: the queue is an
// endpoint like any other (fan-out, filters, retries, the attempt log), so
// a laptop with no public address receives real webhooks, signed as a
// push would be.
func listenCmd(fs *flag.FlagSet, e env) func(context.Context) error {
	api := fs.String("api", "", "Ferry's address (default: FERRY_API_URL, else http://127.0.0.1:8088)")
	queue := fs.String("queue", "", "the queue endpoint's id (create one with {\"kind\":\"queue\"}; see docs/queues.md)")
	token := fs.String("token", "", "a consumer token (fqc_…) of that queue or an API key (default: FERRY_TOKEN, which keeps it out of the process list)")
	forward := fs.String("forward-to", "", "where to POST each message, e.g. http://localhost:3000/webhooks")
	visibility := fs.Duration("visibility", time.Minute, "how long a message stays leased to this listener before Ferry offers it again")
	nackDelay := fs.Duration("retry-after", 0, "when the local answer is not 2xx, offer the message again after this long (0: Ferry's retry schedule)")
	timeout := fs.Duration("timeout", 30*time.Second, "how long to wait for the local answer")
	return func(ctx context.Context) error {
		l := listener{
			api:    strings.TrimRight(firstNonEmpty(*api, e.getenv("FERRY_API_URL"), "http://127.0.0.1:8088"), "/"),
			queue:  strings.TrimSpace(*queue),
			token:  firstNonEmpty(*token, e.getenv("FERRY_TOKEN")),
			target: *forward,
			vis:    *visibility, nackDelay: *nackDelay,
			out:     e.stdout,
			ferry:   &http.Client{},
			forward: &http.Client{Timeout: *timeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		}
		if err := l.validate(); err != nil {
			return err
		}
		return l.run(ctx)
	}
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

type listener struct {
	api, queue, token, target string
	vis, nackDelay            time.Duration
	out                       io.Writer
	ferry, forward            *http.Client

	forwarded, acked, nacked int
}

func (l *listener) validate() error {
	if l.queue == "" || l.token == "" || l.target == "" {
		return errors.New("--queue, --forward-to and a token (--token or FERRY_TOKEN) are required")
	}
	u, err := url.Parse(l.target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--forward-to %q is not an http(s) URL", l.target)
	}
	if l.vis < time.Second || l.vis > 12*time.Hour {
		return errors.New("--visibility must be between 1s and 12h")
	}
	return nil
}

// pulledMessage is the part of a queue message the listener uses.
type pulledMessage struct {
	ID      string `json:"id"`
	Receipt string `json:"receipt"`
	Attempt int    `json:"attempt"`
	Event   struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	} `json:"event"`
	Body    string            `json:"body"`
	Headers map[string]string `json:"headers"`
}

// errStop ends listening: the credential or the queue will not work
// however often the stream is opened again.
type errStop struct{ err error }

func (e errStop) Error() string { return e.err.Error() }
func (e errStop) Unwrap() error { return e.err }

// run keeps a stream open until ctx ends, reconnecting after network
// errors with a growing pause, and stops on an answer that retrying
// cannot change (unknown queue, revoked token).
func (l *listener) run(ctx context.Context) error {
	fmt.Fprintf(l.out, "Forwarding queue %s at %s to %s (Ctrl-C stops)\n", l.queue, l.api, l.target)
	pause := time.Second
	for {
		opened, err := l.stream(ctx)
		if ctx.Err() != nil {
			fmt.Fprintf(l.out, "Stopped: %d forwarded, %d acked, %d nacked\n", l.forwarded, l.acked, l.nacked)
			return nil
		}
		var stop errStop
		if errors.As(err, &stop) {
			return stop.err
		}
		if opened {
			pause = time.Second
		}
		fmt.Fprintf(l.out, "Stream ended (%v); reconnecting in %s\n", err, pause)
		select {
		case <-ctx.Done():
			continue
		case <-time.After(pause):
		}
		pause = min(2*pause, 15*time.Second)
	}
}

// stream reads one Server-Sent Events stream and handles each message
// before reading the next, so the local server sees them in order and
// one at a time. opened says whether Ferry accepted the stream.
func (l *listener) stream(ctx context.Context) (opened bool, err error) {
	u := fmt.Sprintf("%s/api/v1/queues/%s/stream?visibility_seconds=%d", l.api, url.PathEscape(l.queue), int(l.vis/time.Second))
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return false, errStop{fmt.Errorf("stream request: %w", err)}
	}
	req.Header.Set("Authorization", "Bearer "+l.token)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := l.ferry.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		err := fmt.Errorf("Ferry answered %s: %s", resp.Status, apiMessage(resp.Body))
		if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500 {
			return false, err
		}
		return false, errStop{err}
	}
	fmt.Fprintln(l.out, "Connected; waiting for messages")
	r := bufio.NewReaderSize(resp.Body, 64<<10)
	var event string
	var data bytes.Buffer
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errors.New("Ferry closed it")
			}
			return true, err
		}
		line = strings.TrimRight(line, "\r\n")
		switch {
		case line == "":
			if err := l.dispatch(ctx, event, data.Bytes()); err != nil {
				return true, err
			}
			event = ""
			data.Reset()
		case strings.HasPrefix(line, ":"):
		case strings.HasPrefix(line, "event:"):
			event = strings.TrimSpace(strings.TrimPrefix(line, "event:"))
		case strings.HasPrefix(line, "data:"):
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.WriteString(strings.TrimPrefix(strings.TrimPrefix(line, "data:"), " "))
		}
	}
}

func (l *listener) dispatch(ctx context.Context, event string, data []byte) error {
	switch event {
	case "":
		return nil
	case "error":
		return errStop{fmt.Errorf("Ferry ended the stream: %s", apiMessage(bytes.NewReader(data)))}
	case "message":
		var m pulledMessage
		if err := json.Unmarshal(data, &m); err != nil {
			return fmt.Errorf("a message Ferry sent is not JSON: %w", err)
		}
		l.handle(ctx, m)
	}
	return nil
}

// handle forwards one message and settles its lease: ack on a 2xx, nack
// otherwise. A settle that fails is reported; the lease then runs out
// and Ferry offers the message again.
func (l *listener) handle(ctx context.Context, m pulledMessage) {
	l.forwarded++
	start := time.Now()
	status, snippet, ferr := l.post(ctx, m)
	took := time.Since(start).Round(time.Millisecond)
	prefix := fmt.Sprintf("%s  %s  event %s  attempt %d", time.Now().Format("15:04:05"), m.Event.Type, m.Event.ID, m.Attempt)
	verb := "nack"
	var answer string
	switch {
	case ferr != nil:
		answer = fmt.Sprintf("→ no answer (%v)", ferr)
	default:
		answer = fmt.Sprintf("→ %d %s in %s", status, http.StatusText(status), took)
		if status >= 200 && status < 300 {
			verb = "ack"
		}
		if snippet != "" && verb == "nack" {
			answer += ": " + snippet
		}
	}
	body := map[string]any{"receipts": []string{m.Receipt}}
	if verb == "nack" && l.nackDelay > 0 {
		body["delay_seconds"] = int(l.nackDelay / time.Second)
	}
	settled := verb + "ed"
	if err := l.settle(ctx, verb, body); err != nil {
		settled = fmt.Sprintf("%s failed (%v); the lease runs out and Ferry offers it again", verb, err)
	} else if verb == "ack" {
		l.acked++
	} else {
		l.nacked++
	}
	fmt.Fprintf(l.out, "%s  %s  %s\n", prefix, answer, settled)
	fmt.Fprintf(l.out, "    %s\n", truncate(m.Body, 1000))
}

func (l *listener) post(ctx context.Context, m pulledMessage) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, l.target, strings.NewReader(m.Body))
	if err != nil {
		return 0, "", err
	}
	for k, v := range m.Headers {
		req.Header.Set(k, v)
	}
	if req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := l.forward.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 300))
	return resp.StatusCode, truncate(strings.TrimSpace(string(b)), 200), nil
}

func (l *listener) settle(ctx context.Context, verb string, body map[string]any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	// A message already handled is settled even while Ctrl-C stops the
	// listener, so the local server does not see it again.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	u := fmt.Sprintf("%s/api/v1/queues/%s/%s", l.api, url.PathEscape(l.queue), verb)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+l.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := l.ferry.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", resp.Status, apiMessage(resp.Body))
	}
	var out struct {
		Data []struct {
			Status string `json:"status"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return fmt.Errorf("read the answer: %w", err)
	}
	if len(out.Data) == 1 && out.Data[0].Status == "expired" {
		return errors.New("the lease had run out (raise --visibility for a slow handler)")
	}
	return nil
}

// apiMessage is the message of an answer in Ferry's error shape, or the
// start of whatever else it is.
func apiMessage(r io.Reader) string {
	b, _ := io.ReadAll(io.LimitReader(r, 4096))
	var e struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil && e.Error.Message != "" {
		return e.Error.Message + " (" + e.Error.Code + ")"
	}
	return truncate(strings.TrimSpace(string(b)), 200)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "… (" + strconv.Itoa(len(s)) + " bytes)"
}
