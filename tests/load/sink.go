// Package load is Ferry's load and reliability harness: a fast webhook
// receiver (Sink) that records every arrival, an open-loop event generator
// (Generate) that measures latency from each event's *scheduled* send time,
// the API set-up they need (Setup), and the ledger that closes every run
// (sent = delivered + missing). cmd/ferry-load wraps it as separate
// processes for `make bench`; the fault-injection tests use it in-process.
package load

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Endpoint behaviours, chosen by the first path segment after /hook/:
// /hook/ok-3 answers 200, /hook/fail-1 answers 500, /hook/hang-0 holds the
// request open until the sender gives up, /hook/tarpit-7 holds it until
// its run is released (POST /release?run=R) and then answers like ok.
const (
	KindOK     = "ok"
	KindFail   = "fail"
	KindHang   = "hang"
	KindTarpit = "tarpit"
)

// payload is the data every generated event carries.
type payload struct {
	Run   string `json:"run"`
	Seq   int64  `json:"seq"`
	Sched int64  `json:"sched"` // scheduled send time, unix nanoseconds
	Pad   string `json:"pad,omitempty"`
}

type envelope struct {
	ID   string  `json:"id"`
	Data payload `json:"data"`
}

// Arrival is the first successful receipt of one event at one endpoint.
type Arrival struct {
	Seq      int64  `json:"seq"`
	Endpoint string `json:"ep"`
	// LatencyUS is arrival minus the scheduled send time, in microseconds.
	LatencyUS int64 `json:"lat_us"`
	// At is the arrival time (unix milliseconds).
	At int64 `json:"at"`
	// OK counts 2xx receipts; more than one is a duplicate delivery.
	OK int `json:"ok"`
	// UserAgent of the first receipt (fault tests tell processes apart).
	UserAgent string `json:"ua,omitempty"`
}

// RunLedger is what the sink saw for one run.
type RunLedger struct {
	Run      string    `json:"run"`
	Arrivals []Arrival `json:"arrivals"`
	// Failed counts receipts answered 500 or held by a hanging endpoint.
	Failed int `json:"failed"`
	// Held counts requests a tarpit endpoint is holding right now.
	Held int `json:"held"`
}

type key struct {
	seq int64
	ep  string
}

type runState struct {
	arrivals map[key]*Arrival
	failed   int
	held     int
	released chan struct{} // closed by Release
}

// Sink is a webhook receiver that records arrivals per run. It is an
// http.Handler: POST /hook/<kind>-<n> records, GET /ledger?run=R returns
// the run's RunLedger, GET /count?run=R the number of distinct arrivals,
// POST /release?run=R lets the run's tarpit endpoints answer.
type Sink struct {
	mu   sync.Mutex
	runs map[string]*runState
	// HangFor bounds how long a hanging endpoint holds a request (default 60 s).
	HangFor time.Duration
	now     func() time.Time
}

// NewSink returns an empty Sink.
func NewSink() *Sink {
	return &Sink{runs: map[string]*runState{}, HangFor: time.Minute, now: time.Now}
}

// ServeHTTP implements http.Handler.
func (s *Sink) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method == http.MethodPost && strings.HasPrefix(r.URL.Path, "/hook/"):
		s.hook(w, r)
	case r.Method == http.MethodGet && r.URL.Path == "/ledger":
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(s.Ledger(r.URL.Query().Get("run")))
	case r.Method == http.MethodPost && r.URL.Path == "/release":
		s.Release(r.URL.Query().Get("run"))
		w.WriteHeader(http.StatusNoContent)
	case r.Method == http.MethodGet && r.URL.Path == "/count":
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]int{"count": s.Count(r.URL.Query().Get("run"))})
	case r.URL.Path == "/healthz":
		w.WriteHeader(http.StatusOK)
	default:
		http.NotFound(w, r)
	}
}

func (s *Sink) hook(w http.ResponseWriter, r *http.Request) {
	at := s.now()
	ep := strings.TrimPrefix(r.URL.Path, "/hook/")
	kind, _, _ := strings.Cut(ep, "-")
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		http.Error(w, "read", http.StatusBadRequest)
		return
	}
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil || env.Data.Run == "" {
		// Not a load-test event (e.g. a portal test event): accept it.
		w.WriteHeader(http.StatusNoContent)
		return
	}
	switch kind {
	case KindFail:
		s.recordFailure(env.Data.Run)
		w.WriteHeader(http.StatusInternalServerError)
		return
	case KindHang:
		s.recordFailure(env.Data.Run)
		select {
		case <-r.Context().Done():
		case <-time.After(s.HangFor):
		}
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	case KindTarpit:
		if !s.holdUntilReleased(r, env.Data.Run) {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		at = s.now() // it arrives, as far as the ledger goes, when answered
	}
	k := key{seq: env.Data.Seq, ep: ep}
	s.mu.Lock()
	rs := s.run(env.Data.Run)
	if a := rs.arrivals[k]; a != nil {
		a.OK++
	} else {
		rs.arrivals[k] = &Arrival{Seq: k.seq, Endpoint: ep, LatencyUS: at.Sub(time.Unix(0, env.Data.Sched)).Microseconds(),
			At: at.UnixMilli(), OK: 1, UserAgent: r.Header.Get("User-Agent")}
	}
	s.mu.Unlock()
	w.WriteHeader(http.StatusNoContent)
}

// holdUntilReleased holds a tarpit request until its run is released
// (true), or the sender gives up or HangFor passes (false, a failure).
func (s *Sink) holdUntilReleased(r *http.Request, run string) bool {
	s.mu.Lock()
	rs := s.run(run)
	rs.held++
	s.mu.Unlock()
	ok := false
	select {
	case <-rs.released:
		ok = true
	case <-r.Context().Done():
	case <-time.After(s.HangFor):
	}
	s.mu.Lock()
	rs.held--
	if !ok {
		rs.failed++
	}
	s.mu.Unlock()
	return ok
}

// Release lets run's tarpit endpoints answer, now and from then on.
func (s *Sink) Release(run string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs := s.run(run)
	select {
	case <-rs.released:
	default:
		close(rs.released)
	}
}

func (s *Sink) recordFailure(run string) {
	s.mu.Lock()
	s.run(run).failed++
	s.mu.Unlock()
}

// run returns the state of run; s.mu must be held.
func (s *Sink) run(run string) *runState {
	rs := s.runs[run]
	if rs == nil {
		rs = &runState{arrivals: map[key]*Arrival{}, released: make(chan struct{})}
		s.runs[run] = rs
	}
	return rs
}

// Count returns the number of distinct (event, endpoint) arrivals of run.
func (s *Sink) Count(run string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rs := s.runs[run]; rs != nil {
		return len(rs.arrivals)
	}
	return 0
}

// Ledger returns a copy of what the sink saw for run.
func (s *Sink) Ledger(run string) RunLedger {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := RunLedger{Run: run, Arrivals: []Arrival{}}
	if rs := s.runs[run]; rs != nil {
		out.Failed, out.Held = rs.failed, rs.held
		for _, a := range rs.arrivals {
			out.Arrivals = append(out.Arrivals, *a)
		}
	}
	return out
}
