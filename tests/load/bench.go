package load

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Scenario is one benchmark run: a fresh tenant with its endpoints, a
// plan, and how long deliveries may take to settle after sending stops.
type Scenario struct {
	Name string `json:"name"`
	// Routed endpoints each subscribe to their own event type and events
	// cycle through the types: one endpoint per event. Otherwise every
	// endpoint receives every event (fan-out).
	Routed bool `json:"routed"`
	// Customers (routed only) makes each endpoint a customer's of its
	// own, and sends each event for the customer of its endpoint.
	Customers bool `json:"customers,omitempty"`
	OK        int  `json:"ok_endpoints"`
	Fail      int  `json:"failing_endpoints"` // answer 500
	Hang      int  `json:"hanging_endpoints"` // hold the request until Ferry times out
	// MaxInFlight per endpoint (0: Ferry's default of 16).
	MaxInFlight int           `json:"max_in_flight,omitempty"`
	Plan        Plan          `json:"plan"`
	Settle      time.Duration `json:"settle"`
}

// ProcStats samples a process from /proc while a scenario runs.
type ProcStats struct {
	MaxRSSMB  float64 `json:"max_rss_mb"`
	MeanRSSMB float64 `json:"mean_rss_mb"`
	// CPUCores is the process's CPU time over wall time (2.0 = two cores).
	CPUCores float64 `json:"cpu_cores"`
}

// Outcome is a scenario's ledger and the Ferry process's footprint.
type Outcome struct {
	Scenario Scenario  `json:"scenario"`
	Report   Report    `json:"report"`
	Ferry    ProcStats `json:"ferry"`
	// Stages is Ferry's per-stage latency breakdown over the scenario
	// (from its /metrics, scraped before and after).
	Stages []StageLatency `json:"stages,omitempty"`
	// Note adds what the table cannot show (e.g. a victim's arrivals
	// before a tarpit was released).
	Note  string `json:"note,omitempty"`
	Error string `json:"error,omitempty"`
	// Failover splits the latencies by whether an endpoint's partition
	// lost its leader (make chaos).
	Failover *FailoverReport `json:"failover,omitempty"`
	// Bystander is another tenant's outbound traffic sent beside the
	// scenario's (h-inbound-bystander): its latency must not move.
	Bystander *Report `json:"bystander,omitempty"`
	// BystanderAlone is the same tenant's traffic sent alone just before,
	// on the same tables: what "unchanged" compares with.
	BystanderAlone *Report `json:"bystander_alone,omitempty"`
	// BystanderBesideLoad is the same tenant's traffic sent a third time,
	// beside a plain load as large as the scenario's: PlainLoadCores (the
	// machine's busy cores beside the bystander minus those of its run
	// alone) and PlainLoadDisk (likewise its disks' writes). It is what
	// the bystander's latency would be if the scenario took the CPU and
	// the disk and shared nothing else with it.
	BystanderBesideLoad *Report   `json:"bystander_beside_load,omitempty"`
	PlainLoadCores      float64   `json:"plain_load_cores,omitempty"`
	PlainLoadDisk       *DiskLoad `json:"plain_load_disk,omitempty"`
	// BystanderDisk is how fast the machine's disks wrote in each of the
	// bystander's three runs: alone, beside the scenario, beside the
	// plain load.
	BystanderDisk *BystanderDisk `json:"bystander_disk,omitempty"`
	// Statements is what PostgreSQL ran for the scenario, busiest first
	// (Bench.Statements).
	Statements []StatementStat `json:"statements,omitempty"`

	// EndpointIDs maps the sink's endpoint names to Ferry's ids, and
	// Arrivals are the deliveries the ledger counted, for analyses of
	// a run beyond its report.
	EndpointIDs map[string]string `json:"-"`
	Arrivals    []Arrival         `json:"-"`
	Sent        Result            `json:"-"`
}

// Bench runs scenarios against one Ferry and one sink.
type Bench struct {
	FerryURL string
	// FerryDB is Ferry's database URL, used to give the load tenant
	// operator-set limits (see Setup).
	FerryDB string
	SinkURL string
	// FerryPIDs are sampled for RSS and CPU (all Ferry processes).
	FerryPIDs []int
	// Statements, if set, is reset when a scenario's measurement starts
	// and read when it ends (Outcome.Statements).
	Statements *Statements
	Log        func(format string, args ...any)
	// Burn, if set, keeps cores of the machine busy and its disk writing
	// for d with a plain load in a process of its own (Burn), for the
	// inbound bystander's third run (Outcome.BystanderBesideLoad).
	Burn func(ctx context.Context, cores float64, disk DiskLoad, d time.Duration) error
}

// Run runs sc: sets up a tenant and endpoints, sends, waits for the
// ledger to close, and samples Ferry meanwhile.
func (b *Bench) Run(ctx context.Context, sc Scenario) Outcome {
	out := Outcome{Scenario: sc}
	conc := sc.Plan.Concurrency
	if conc <= 0 {
		conc = OpenLoopConcurrency(sc.Plan.Rate)
	}
	t, err := Setup(ctx, b.FerryURL, fmt.Sprintf("bench-%s-%d@example.com", sc.Name, time.Now().UnixNano()), conc, b.FerryDB)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	var healthy []string
	out.EndpointIDs = map[string]string{}
	create := func(kind string, i, timeout int) error {
		name := fmt.Sprintf("%s-%d", kind, i)
		spec := EndpointSpec{URL: b.SinkURL + "/hook/" + name, MaxInFlight: sc.MaxInFlight, TimeoutSeconds: timeout}
		if sc.Routed {
			spec.EventTypes = []string{fmt.Sprintf("load.%d", i)}
		}
		if sc.Customers {
			spec.Customer = fmt.Sprintf("customer-%d", i)
			if err := t.CreateCustomer(ctx, spec.Customer); err != nil {
				return err
			}
		}
		id, err := t.CreateEndpoint(ctx, spec)
		out.EndpointIDs[name] = id
		return err
	}
	for i := 0; i < sc.OK; i++ {
		if err := create(KindOK, i, 10); err != nil {
			out.Error = err.Error()
			return out
		}
		healthy = append(healthy, fmt.Sprintf("%s-%d", KindOK, i))
	}
	for i := 0; i < sc.Fail; i++ {
		if err := create(KindFail, sc.OK+i, 10); err != nil {
			out.Error = err.Error()
			return out
		}
	}
	for i := 0; i < sc.Hang; i++ {
		if err := create(KindHang, sc.OK+sc.Fail+i, 5); err != nil {
			out.Error = err.Error()
			return out
		}
	}
	plan := sc.Plan
	plan.Run = fmt.Sprintf("%s-%d", sc.Name, time.Now().UnixNano())
	plan.Concurrency = conc
	route := func(int64) []string { return healthy }
	if sc.Routed {
		n := sc.OK + sc.Fail + sc.Hang
		for i := 0; i < n; i++ {
			plan.EventTypes = append(plan.EventTypes, fmt.Sprintf("load.%d", i))
			if sc.Customers {
				plan.Customers = append(plan.Customers, fmt.Sprintf("customer-%d", i))
			}
		}
		route = func(seq int64) []string {
			i := int(seq % int64(n))
			if i < sc.OK {
				return []string{fmt.Sprintf("%s-%d", KindOK, i)}
			}
			return nil
		}
	}

	m := b.startMeasuring(ctx, true)
	res := Generate(ctx, t, plan, Hooks{})
	out.Sent = res
	sendEnd := time.Now()
	rep, seen, err := AwaitRouted(ctx, RemoteSink{URL: b.SinkURL}, sc.Name, res, route, sendEnd, sendEnd.Add(sc.Settle))
	if err != nil {
		out.Error = err.Error()
	}
	out.Arrivals = seen.Arrivals
	out.Ferry = m.stop()
	out.Report = rep
	out.Stages = b.stages(ctx, m)
	out.Statements = b.statements(ctx)
	return out
}

// measurement samples Ferry's processes (CPU, RSS) from start until
// stop, and keeps Ferry's stage histograms as they were at the start.
type measurement struct {
	before map[string]Histogram
	cancel context.CancelFunc
	done   chan ProcStats
}

// startMeasuring scrapes the stage histograms (withStages) and starts
// sampling Ferry's processes.
func (b *Bench) startMeasuring(ctx context.Context, withStages bool) *measurement {
	m := &measurement{done: make(chan ProcStats, 1)}
	if withStages {
		m.before = b.scrapeStages(ctx)
	}
	if b.Statements != nil {
		if err := b.Statements.Reset(ctx); err != nil {
			b.logf("%v", err)
		}
	}
	sctx, cancel := context.WithCancel(ctx)
	m.cancel = cancel
	go func() { m.done <- sample(sctx, b.FerryPIDs) }()
	return m
}

// stop ends the sampling and returns what it saw. Call it once.
func (m *measurement) stop() ProcStats {
	m.cancel()
	return <-m.done
}

// stages is the stage breakdown from the start until now, once Ferry's
// histograms are still (scrapeStages).
func (b *Bench) stages(ctx context.Context, m *measurement) []StageLatency {
	return Breakdown(m.before, b.scrapeStages(ctx))
}

// statements is what PostgreSQL ran since the measurement started, when
// the bench reads it (Bench.Statements); call it after stages, once the
// scenario's tail has settled. A failed read is logged and left out.
func (b *Bench) statements(ctx context.Context) []StatementStat {
	if b.Statements == nil {
		return nil
	}
	sts, err := b.Statements.Read(ctx)
	if err != nil {
		b.logf("%v", err)
	}
	return sts
}

// scrapeStages reads Ferry's stage histograms once they are still: the
// histograms are process-wide, so the tail of an earlier scenario (its
// attempt-log commits, say) must not be counted in the next one. It
// waits until no stage count moved for 500 ms, at most 20 s. A failed
// scrape only leaves the breakdown out (it is logged).
func (b *Bench) scrapeStages(ctx context.Context) map[string]Histogram {
	total := func(hs map[string]Histogram) float64 {
		n := 0.0
		for _, h := range hs {
			n += h.Count
		}
		return n
	}
	deadline := time.Now().Add(20 * time.Second)
	var last map[string]Histogram
	for {
		h, err := ScrapeStages(ctx, b.FerryURL)
		if err != nil {
			b.logf("stage breakdown unavailable: %v", err)
			return nil
		}
		if (last != nil && total(h) == total(last)) || time.Now().After(deadline) || ctx.Err() != nil {
			return h
		}
		last = h
		time.Sleep(500 * time.Millisecond)
	}
}

// sample reads RSS and CPU time of pids every 250 ms until ctx ends.
func sample(ctx context.Context, pids []int) ProcStats {
	var st ProcStats
	if len(pids) == 0 {
		return st
	}
	startCPU := cpuTicks(pids)
	start := time.Now()
	var sum float64
	n := 0
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for {
		rss := 0.0
		for _, p := range pids {
			rss += rssMB(p)
		}
		st.MaxRSSMB = max(st.MaxRSSMB, rss)
		sum += rss
		n++
		select {
		case <-ctx.Done():
			st.MeanRSSMB = sum / float64(n)
			if wall := time.Since(start).Seconds(); wall > 0 {
				st.CPUCores = float64(cpuTicks(pids)-startCPU) / clockTicks / wall
			}
			return st
		case <-tick.C:
		}
	}
}

// rssMB is VmRSS of pid in MiB (0 when unreadable).
func rssMB(pid int) float64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// cpuTicks is utime+stime of pids in clock ticks.
func cpuTicks(pids []int) int64 {
	var total int64
	for _, pid := range pids {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			t, _, _ := statTicks(string(b))
			total += t
		}
	}
	return total
}

// Machine describes where a benchmark ran.
type Machine struct {
	CPUs     int     `json:"cpus"`
	CPUModel string  `json:"cpu_model"`
	MemoryMB float64 `json:"memory_mb"`
	LoadAvg  string  `json:"load_avg_at_start"`
	Kernel   string  `json:"kernel"`
}

// DescribeMachine reads /proc for the benchmark header.
func DescribeMachine(cpus int) Machine {
	m := Machine{CPUs: cpus}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "model name"); ok {
				m.CPUModel = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "MemTotal:"); ok {
				kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
				m.MemoryMB = kb / 1024
			}
		}
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		m.LoadAvg = strings.Join(strings.Fields(string(b))[:3], " ")
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	return m
}
