package load

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"
)

// Source is where arrivals are read from: an in-process *Sink or a
// *RemoteSink in another process.
type Source interface {
	Arrived(ctx context.Context, run string) (int, error)
	Fetch(ctx context.Context, run string) (RunLedger, error)
}

// Releaser lets a run's tarpit endpoints answer; *Sink and RemoteSink
// satisfy it.
type Releaser interface {
	ReleaseRun(ctx context.Context, run string) error
}

// ReleaseRun implements Releaser.
func (s *Sink) ReleaseRun(_ context.Context, run string) error {
	s.Release(run)
	return nil
}

// ReleaseRun implements Releaser.
func (r RemoteSink) ReleaseRun(ctx context.Context, run string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL+"/release?run="+url.QueryEscape(run), nil)
	if err != nil {
		return fmt.Errorf("release %s: %w", run, err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("release %s: %w", run, err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		return fmt.Errorf("release %s: status %d", run, res.StatusCode)
	}
	return nil
}

// Arrived implements Source.
func (s *Sink) Arrived(_ context.Context, run string) (int, error) { return s.Count(run), nil }

// Fetch implements Source.
func (s *Sink) Fetch(_ context.Context, run string) (RunLedger, error) { return s.Ledger(run), nil }

// RemoteSink reads a Sink served by `ferry-load sink` over HTTP.
type RemoteSink struct {
	URL string // e.g. http://127.0.0.1:9100
}

// Arrived implements Source.
func (r RemoteSink) Arrived(ctx context.Context, run string) (int, error) {
	var out struct {
		Count int `json:"count"`
	}
	err := r.get(ctx, "/count?run="+url.QueryEscape(run), &out)
	return out.Count, err
}

// Fetch implements Source.
func (r RemoteSink) Fetch(ctx context.Context, run string) (RunLedger, error) {
	var out RunLedger
	err := r.get(ctx, "/ledger?run="+url.QueryEscape(run), &out)
	return out, err
}

func (r RemoteSink) get(ctx context.Context, path string, out any) error {
	if err := getJSON(ctx, r.URL+path, out); err != nil {
		return fmt.Errorf("sink: %w", err)
	}
	return nil
}

// Latency summarises a latency distribution in milliseconds.
type Latency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P95 float64 `json:"p95_ms"`
	P99 float64 `json:"p99_ms"`
	Max float64 `json:"max_ms"`
}

// Summarise returns percentiles of durations given in microseconds.
func Summarise(us []int64) Latency {
	if len(us) == 0 {
		return Latency{}
	}
	s := slices.Clone(us)
	slices.Sort(s)
	at := func(q float64) float64 {
		i := int(q*float64(len(s))+0.5) - 1
		i = min(max(i, 0), len(s)-1)
		return float64(s[i]) / 1000
	}
	return Latency{N: len(s), P50: at(0.50), P95: at(0.95), P99: at(0.99), Max: float64(s[len(s)-1]) / 1000}
}

// Report closes one run's ledger.
type Report struct {
	Name string `json:"name"`
	Run  string `json:"run"`
	// Sent = Accepted + Refused + Failed (transport errors).
	Sent     int `json:"sent"`
	Accepted int `json:"accepted"`
	Refused  int `json:"refused"`
	Failed   int `json:"failed"`
	// Expected = accepted events × healthy endpoints = Delivered + Missing.
	Expected  int `json:"expected"`
	Delivered int `json:"delivered"`
	Missing   int `json:"missing"`
	// Duplicates counts extra 2xx receipts of an already delivered event.
	Duplicates int `json:"duplicates"`
	// Unacked counts deliveries of events whose POST got no 202 (e.g. the
	// connection broke after the commit): delivered, never promised.
	Unacked int `json:"unacked"`
	// FailingReceipts counts receipts at failing and hanging endpoints.
	FailingReceipts int  `json:"failing_receipts"`
	Balanced        bool `json:"balanced"`
	Void            bool `json:"void"`
	// VoidReason says why a run that does not balance is void.
	VoidReason string `json:"void_reason,omitempty"`

	DurationS float64 `json:"duration_s"`
	// AcceptedPerS is accepted events per second of sending.
	AcceptedPerS float64 `json:"accepted_per_s"`
	// DeliveredPerS counts deliveries arriving while sending lasted.
	DeliveredPerS float64 `json:"delivered_in_window_per_s"`
	// DrainS is how long after sending ended the last delivery took.
	DrainS float64 `json:"drain_s"`
	// Latency is scheduled send → first successful receipt, healthy
	// endpoints only.
	Latency Latency `json:"latency"`
	// AckLatency is scheduled send → 202.
	AckLatency Latency `json:"ack_latency"`
	// SendLag is scheduled send → the request handed to the HTTP client,
	// the generator's share of AckLatency.
	SendLag Latency `json:"send_lag"`
	// AfterAckLatency is 202 → first successful receipt, per delivery:
	// Latency less the event's AckLatency, what follows the commit.
	AfterAckLatency Latency `json:"after_ack_latency"`
	// ByUserAgent counts first receipts per sender (processes in fault tests).
	ByUserAgent map[string]int `json:"by_user_agent,omitempty"`
	// Stalls are the seconds of scheduled send time in which an accepted
	// event waited over StallAfter for its 202 or a delivery: when in the
	// run a tail was made, to lay beside the machine's own record of
	// that second (its disk, its CPU, PostgreSQL's log).
	Stalls []Stall `json:"stalls,omitempty"`
}

// StallAfter is how long an answer or a delivery must take for its
// second to count as a stall: well past every target's p99, so that a
// run within its targets has none.
const StallAfter = 250 * time.Millisecond

// Stall is one second of sending with events over StallAfter.
type Stall struct {
	At time.Time `json:"at"`
	// Acks and Deliveries count the second's events answered, and
	// deliveries made, after more than StallAfter.
	Acks       int     `json:"acks"`
	Deliveries int     `json:"deliveries"`
	MaxMS      float64 `json:"max_ms"`
}

// stalls gathers the seconds in which ack or delivery latencies (µs,
// each with its scheduled send time) passed StallAfter.
type stalls map[int64]*Stall

func (s stalls) add(sched time.Time, us int64, delivery bool) {
	if us <= StallAfter.Microseconds() {
		return
	}
	sec := sched.Unix()
	st := s[sec]
	if st == nil {
		st = &Stall{At: time.Unix(sec, 0)}
		s[sec] = st
	}
	if delivery {
		st.Deliveries++
	} else {
		st.Acks++
	}
	st.MaxMS = max(st.MaxMS, float64(us)/1000)
}

func (s stalls) sorted() []Stall {
	out := make([]Stall, 0, len(s))
	for _, st := range s {
		out = append(out, *st)
	}
	slices.SortFunc(out, func(a, b Stall) int { return a.At.Compare(b.At) })
	return out
}

// broken says a ledger lost or repeated deliveries, or is void.
func (r Report) broken() bool { return r.Void || r.Missing > 0 || r.Duplicates > 0 }

// Close computes the ledger of res against what the sink saw: every
// accepted event must arrive at every one of the healthy endpoints.
func Close(name string, res Result, seen RunLedger, healthy []string, drain time.Duration) Report {
	return CloseRouted(name, res, seen, func(int64) []string { return healthy }, drain)
}

// AwaitRouted closes res's ledger (CloseRouted) against what src has
// seen, again every 200 ms until nothing is missing, deadline passes or
// ctx ends, drain counted from sendEnd. It returns the last report and
// arrivals, and the last error src gave (nil if none).
func AwaitRouted(ctx context.Context, src Source, name string, res Result, route func(seq int64) []string,
	sendEnd, deadline time.Time) (Report, RunLedger, error) {
	var fetchErr error
	for {
		seen, err := src.Fetch(ctx, res.Plan.Run)
		if err != nil {
			fetchErr = err
		}
		rep := CloseRouted(name, res, seen, route, time.Since(sendEnd))
		if rep.Missing == 0 || time.Now().After(deadline) || ctx.Err() != nil {
			return rep, seen, fetchErr
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// CloseRouted is Close where route(seq) names the healthy endpoints event
// seq must reach (e.g. one endpoint per event type).
func CloseRouted(name string, res Result, seen RunLedger, route func(seq int64) []string, drain time.Duration) Report {
	r := Report{Name: name, Run: res.Plan.Run, Sent: len(res.Sent), FailingReceipts: seen.Failed,
		ByUserAgent: map[string]int{}, DrainS: drain.Seconds()}
	accepted := res.Accepted()
	var ack, lag []int64
	ackOf := make(map[int64]int64, len(res.Sent))
	slow := stalls{}
	for _, s := range res.Sent {
		switch {
		case s.Status == res.Plan.acceptStatus():
			r.Accepted++
			us := s.Done.Sub(s.Sched).Microseconds()
			ack = append(ack, us)
			ackOf[s.Seq] = us
			slow.add(s.Sched, us, false)
			if !s.Began.IsZero() {
				lag = append(lag, s.Began.Sub(s.Sched).Microseconds())
			}
		case s.Status != 0:
			r.Refused++
		default:
			r.Failed++
		}
	}
	want := make(map[key]bool, len(accepted))
	for seq := range accepted {
		for _, ep := range route(seq) {
			want[key{seq: seq, ep: ep}] = true
		}
	}
	r.Expected = len(want)
	var lat, afterAck []int64
	endMs := res.End.UnixMilli()
	inWindow := 0
	for _, a := range seen.Arrivals {
		if _, ok := accepted[a.Seq]; !ok {
			r.Unacked++
			continue
		}
		if !want[key{seq: a.Seq, ep: a.Endpoint}] {
			continue
		}
		r.Delivered++
		r.Duplicates += a.OK - 1
		r.ByUserAgent[a.UserAgent]++
		lat = append(lat, a.LatencyUS)
		afterAck = append(afterAck, a.LatencyUS-ackOf[a.Seq])
		slow.add(time.UnixMicro(a.At*1000-a.LatencyUS), a.LatencyUS, true)
		if a.At <= endMs {
			inWindow++
		}
	}
	r.Missing = r.Expected - r.Delivered
	r.Balanced = r.Sent == r.Accepted+r.Refused+r.Failed && r.Expected == r.Delivered+r.Missing
	switch {
	case !r.Balanced:
		r.Void, r.VoidReason = true, "ledger does not balance"
	case r.Missing > 0:
		r.Void, r.VoidReason = true, fmt.Sprintf("%d accepted deliveries missing", r.Missing)
	case r.Accepted == 0:
		r.Void, r.VoidReason = true, "nothing accepted"
	}
	r.DurationS = res.End.Sub(res.Start).Seconds()
	if r.DurationS > 0 {
		r.AcceptedPerS = float64(r.Accepted) / r.DurationS
		r.DeliveredPerS = float64(inWindow) / r.DurationS
	}
	r.Latency = Summarise(lat)
	r.AckLatency = Summarise(ack)
	r.SendLag = Summarise(lag)
	r.AfterAckLatency = Summarise(afterAck)
	r.Stalls = slow.sorted()
	return r
}
