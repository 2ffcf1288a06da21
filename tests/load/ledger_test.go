package load

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestCloseLedger(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1_763_790_000, 0)
	res := Result{Plan: Plan{Run: "r"}, Start: t0, End: t0.Add(time.Second), Sent: []Sent{
		{Seq: 0, Sched: t0, Began: t0.Add(time.Millisecond), Done: t0.Add(5 * time.Millisecond), Status: http.StatusAccepted},
		{Seq: 1, Sched: t0, Began: t0.Add(3 * time.Millisecond), Done: t0.Add(5 * time.Millisecond), Status: http.StatusAccepted},
		{Seq: 2, Sched: t0, Done: t0.Add(5 * time.Millisecond), Status: http.StatusServiceUnavailable},
		{Seq: 3, Sched: t0, Done: t0.Add(5 * time.Millisecond), Err: "connection refused"},
	}}
	seen := RunLedger{Run: "r", Arrivals: []Arrival{
		{Seq: 0, Endpoint: "ok-0", LatencyUS: 10_000, At: t0.UnixMilli() + 10, OK: 2},
		{Seq: 0, Endpoint: "ok-1", LatencyUS: 20_000, At: t0.UnixMilli() + 20, OK: 1},
		{Seq: 1, Endpoint: "ok-0", LatencyUS: 30_000, At: t0.UnixMilli() + 30, OK: 1},
		{Seq: 3, Endpoint: "ok-0", LatencyUS: 1_000, At: t0.UnixMilli() + 1, OK: 1}, // committed, answer lost
	}}
	r := Close("t", res, seen, []string{"ok-0", "ok-1"}, 0)
	if r.Sent != 4 || r.Accepted != 2 || r.Refused != 1 || r.Failed != 1 {
		t.Fatalf("sent side: %+v", r)
	}
	if r.Expected != 4 || r.Delivered != 3 || r.Missing != 1 || r.Duplicates != 1 || r.Unacked != 1 {
		t.Fatalf("delivery side: %+v", r)
	}
	if !r.Balanced || !r.Void || !strings.Contains(r.VoidReason, "1 accepted deliveries missing") {
		t.Fatalf("verdict: balanced %v void %v %q", r.Balanced, r.Void, r.VoidReason)
	}
	if r.Latency.N != 3 || r.Latency.P50 != 20 || r.Latency.Max != 30 {
		t.Fatalf("latency: %+v", r.Latency)
	}
	// Each event was answered 5 ms after its scheduled send.
	if r.AfterAckLatency.N != 3 || r.AfterAckLatency.P50 != 15 || r.AfterAckLatency.Max != 25 {
		t.Fatalf("202 → receipt: %+v", r.AfterAckLatency)
	}
	// The generator's lag counts accepted events only.
	if r.SendLag.N != 2 || r.SendLag.P50 != 1 || r.SendLag.Max != 3 {
		t.Fatalf("send lag: %+v", r.SendLag)
	}

	seen.Arrivals = append(seen.Arrivals, Arrival{Seq: 1, Endpoint: "ok-1", LatencyUS: 40_000, At: t0.UnixMilli() + 40, OK: 1})
	if r := Close("t", res, seen, []string{"ok-0", "ok-1"}, 0); r.Void || r.Missing != 0 {
		t.Fatalf("complete run is void: %+v", r)
	}
}

func TestSummarise(t *testing.T) {
	t.Parallel()
	var us []int64
	for i := int64(1); i <= 100; i++ {
		us = append(us, i*1000)
	}
	got := Summarise(us)
	if got.P50 != 50 || got.P95 != 95 || got.P99 != 99 || got.Max != 100 || got.N != 100 {
		t.Fatalf("Summarise = %+v", got)
	}
	if (Summarise(nil) != Latency{}) {
		t.Fatalf("empty distribution")
	}
}

func TestSinkRecordsArrivals(t *testing.T) {
	t.Parallel()
	s := NewSink()
	s.HangFor = 10 * time.Millisecond
	srv := httptest.NewServer(s)
	defer srv.Close()
	post := func(path, body string) int {
		res, err := http.Post(srv.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	sched := time.Now().Add(-50 * time.Millisecond).UnixNano()
	body := `{"id":"e1","type":"t","created_at":"x","data":{"run":"r","seq":7,"sched":` + strconv.FormatInt(sched, 10) + `}}`
	if got := post("/hook/ok-0", body); got != http.StatusNoContent {
		t.Fatalf("ok endpoint answered %d", got)
	}
	post("/hook/ok-0", body)
	if got := post("/hook/fail-1", body); got != http.StatusInternalServerError {
		t.Fatalf("failing endpoint answered %d", got)
	}
	if got := post("/hook/hang-2", body); got != http.StatusServiceUnavailable {
		t.Fatalf("hanging endpoint answered %d", got)
	}
	l, err := RemoteSink{URL: srv.URL}.Fetch(t.Context(), "r")
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Arrivals) != 1 || l.Arrivals[0].OK != 2 || l.Arrivals[0].Seq != 7 || l.Failed != 2 {
		t.Fatalf("ledger %+v", l)
	}
	if lat := l.Arrivals[0].LatencyUS; lat < 50_000 || lat > 5_000_000 {
		t.Fatalf("latency %dµs", lat)
	}
}

func TestCloseNamesStalls(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1_763_790_000, 0)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	res := Result{Plan: Plan{Run: "r"}, Start: t0, End: at(3 * time.Second), Sent: []Sent{
		{Seq: 0, Sched: at(0), Done: at(5 * time.Millisecond), Status: http.StatusAccepted},
		{Seq: 1, Sched: at(1100 * time.Millisecond), Done: at(1500 * time.Millisecond), Status: http.StatusAccepted},
		{Seq: 2, Sched: at(1200 * time.Millisecond), Done: at(1210 * time.Millisecond), Status: http.StatusAccepted},
		{Seq: 3, Sched: at(2900 * time.Millisecond), Done: at(2950 * time.Millisecond), Status: http.StatusServiceUnavailable},
	}}
	arrive := func(seq int64, sched time.Time, lat time.Duration) Arrival {
		return Arrival{Seq: seq, Endpoint: "ok", LatencyUS: lat.Microseconds(), At: sched.Add(lat).UnixMilli(), OK: 1}
	}
	seen := RunLedger{Run: "r", Arrivals: []Arrival{
		arrive(0, at(0), 20*time.Millisecond),
		arrive(1, at(1100*time.Millisecond), 900*time.Millisecond),
		arrive(2, at(1200*time.Millisecond), 300*time.Millisecond),
		arrive(3, at(2900*time.Millisecond), 2*time.Second), // refused: never counted
	}}
	r := Close("t", res, seen, []string{"ok"}, 0)
	want := Stall{At: at(time.Second), Acks: 1, Deliveries: 2, MaxMS: 900}
	if len(r.Stalls) != 1 || !r.Stalls[0].At.Equal(want.At) || r.Stalls[0].Acks != want.Acks ||
		r.Stalls[0].Deliveries != want.Deliveries || r.Stalls[0].MaxMS != want.MaxMS {
		t.Fatalf("stalls = %+v, want [%+v]", r.Stalls, want)
	}
}
