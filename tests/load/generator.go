package load

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Plan describes one generated run.
type Plan struct {
	// Run names the run; the sink groups arrivals by it.
	Run string
	// Rate is the open-loop send rate in events/s: event i is scheduled at
	// start + i/Rate whatever happened to earlier ones. 0 means closed
	// loop: Concurrency workers send back to back (maximum throughput).
	Rate float64
	// Duration bounds the sending.
	Duration time.Duration
	// Concurrency is the number of sending workers. Default
	// OpenLoopConcurrency(Rate).
	Concurrency int
	// EventType is sent as the event's type (default "load.ping").
	EventType string
	// EventTypes, when set, are used in turn: event seq has type
	// EventTypes[seq % len] (endpoints subscribed to one type each give
	// one endpoint per event).
	EventTypes []string
	// Customers, when set, go with EventTypes: event seq is sent for
	// Customers[seq % len].
	Customers []string
	// PayloadBytes pads data to about this size.
	PayloadBytes int
	// Events, when positive, stops the run after this many events even if
	// Duration has not passed (a burst of a fixed size).
	Events int64
	// Ingest, when set, sends each event as a provider would to an
	// inbound source's ingest URL instead of POST /api/v1/events
	// (inbound.go); an accepted request is then answered 200.
	Ingest *Ingest
}

// acceptStatus is the status that means an event was accepted.
func (p Plan) acceptStatus() int {
	if p.Ingest != nil {
		return http.StatusOK
	}
	return http.StatusAccepted
}

// OpenLoopConcurrency sizes the sending workers for an open-loop rate by
// Little's law (rate × response time) for responses of up to 250 ms.
// Fewer turn the generator into a closed loop as soon as answers slow
// down a little: at 2,000/s, 100 workers are all busy once an answer
// takes 50 ms, and the events scheduled meanwhile wait in the generator,
// which then measures its own queue.
func OpenLoopConcurrency(rate float64) int { return max(16, int(rate/4)) }

// Sent is one attempted POST /api/v1/events.
type Sent struct {
	Seq   int64
	Sched time.Time // when it was scheduled to be sent
	// Began is when the request went to the HTTP client: Began − Sched is
	// the generator's own lag (a timer firing late, a busy worker).
	Began time.Time
	Done  time.Time // when the response (or error) arrived
	// Status is the HTTP status; 0 when the request failed.
	Status int
	ID     string
	Err    string
}

// Result is everything one run sent.
type Result struct {
	Plan  Plan
	Start time.Time
	End   time.Time
	Sent  []Sent
}

// Accepted returns the sequence numbers answered 202.
func (r Result) Accepted() map[int64]Sent {
	out := make(map[int64]Sent, len(r.Sent))
	for _, s := range r.Sent {
		if s.Status == r.Plan.acceptStatus() {
			out[s.Seq] = s
		}
	}
	return out
}

// Hooks lets a caller observe a run while it happens (fault tests).
type Hooks struct {
	// OnSent is called after every response, from the sending worker.
	OnSent func(Sent)
}

// Generate sends events to Ferry as t until p.Duration has passed or ctx
// ends, and returns every attempt.
func Generate(ctx context.Context, t *Tenant, p Plan, hooks Hooks) Result {
	if p.EventType == "" {
		p.EventType = "load.ping"
	}
	if p.Concurrency <= 0 {
		p.Concurrency = OpenLoopConcurrency(p.Rate)
	}
	pad := strings.Repeat("x", max(0, p.PayloadBytes-60))
	start := time.Now().Add(50 * time.Millisecond)
	end := start.Add(p.Duration)
	var next atomic.Int64
	per := make([][]Sent, p.Concurrency)
	var wg sync.WaitGroup
	for w := 0; w < p.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				seq := next.Add(1) - 1
				if p.Events > 0 && seq >= p.Events {
					return
				}
				var sched time.Time
				if p.Rate > 0 {
					sched = start.Add(time.Duration(float64(seq) * float64(time.Second) / p.Rate))
					if !sched.Before(end) {
						return
					}
					if d := time.Until(sched); d > 0 {
						timer := time.NewTimer(d)
						select {
						case <-ctx.Done():
							timer.Stop()
							return
						case <-timer.C:
						}
					}
				} else {
					sched = time.Now()
					if !sched.Before(end) {
						return
					}
				}
				s := t.send(ctx, p, seq, sched, pad)
				per[w] = append(per[w], s)
				if hooks.OnSent != nil {
					hooks.OnSent(s)
				}
			}
		}()
	}
	wg.Wait()
	res := Result{Plan: p, Start: start, End: time.Now()}
	for _, ss := range per {
		res.Sent = append(res.Sent, ss...)
	}
	return res
}

func (t *Tenant) send(ctx context.Context, p Plan, seq int64, sched time.Time, pad string) Sent {
	if p.Ingest != nil {
		return t.sendIngest(ctx, p, seq, sched, pad)
	}
	data, _ := json.Marshal(payload{Run: p.Run, Seq: seq, Sched: sched.UnixNano(), Pad: pad})
	body := make([]byte, 0, len(data)+64)
	body = append(body, `{"type":`...)
	typ := p.EventType
	if len(p.EventTypes) > 0 {
		typ = p.EventTypes[seq%int64(len(p.EventTypes))]
	}
	body = strconv.AppendQuote(body, typ)
	if len(p.Customers) > 0 {
		body = append(body, `,"customer":`...)
		body = strconv.AppendQuote(body, p.Customers[seq%int64(len(p.Customers))])
	}
	body = append(body, `,"data":`...)
	body = append(body, data...)
	body = append(body, '}')
	s := Sent{Seq: seq, Sched: sched}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.Base+"/api/v1/events", bytes.NewReader(body))
	if err != nil {
		s.Err, s.Done = err.Error(), time.Now()
		return s
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+t.Key)
	s.Began = time.Now()
	res, err := t.http.Do(req)
	s.Done = time.Now()
	if err != nil {
		s.Err = err.Error()
		return s
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	s.Status = res.StatusCode
	if res.StatusCode == http.StatusAccepted {
		var out struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(raw, &out)
		s.ID = out.ID
	} else {
		s.Err = fmt.Sprintf("%d %s", res.StatusCode, bytes.TrimSpace(raw))
	}
	return s
}
