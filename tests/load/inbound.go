package load

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"time"

	"golang.org/x/sys/unix"
)

// Ingest is an inbound source's ingest URL and the GitHub-style secret
// its requests are signed with.
type Ingest struct {
	URL    string
	Secret string
}

// InboundScenario (h-inbound) measures inbound sources: a provider sends
// GitHub-signed requests to one source at Rate per second; each is
// verified, deduplicated on X-GitHub-Delivery, captured and forwarded to
// one raw endpoint at the sink. The ledger counts requests answered 200
// (accepted) against raw bodies arriving at the sink (forwarded); the
// provider-facing response time is scheduled send → answer.
type InboundScenario struct {
	Name     string        `json:"name"`
	Rate     float64       `json:"rate"`
	Duration time.Duration `json:"duration"`
	Settle   time.Duration `json:"settle"`
	// BystanderRate, when set, has another tenant send that many
	// outbound events per second to an endpoint of its own, first alone
	// and then beside the flood, for Duration each; its ledgers and
	// latencies are reported apart (Outcome.BystanderAlone,
	// Outcome.Bystander).
	BystanderRate float64 `json:"bystander_rate,omitempty"`
}

// RunInbound runs sc. The raw body each request carries has the shape
// of an envelope ({"id","data":{run,seq,sched}}), so the sink's ledger
// reads forwarded raw bodies like envelopes.
func (b *Bench) RunInbound(ctx context.Context, sc InboundScenario) Outcome {
	out := Outcome{Scenario: Scenario{Name: sc.Name, OK: 1, Plan: Plan{Rate: sc.Rate, Duration: sc.Duration}, Settle: sc.Settle}}
	conc := OpenLoopConcurrency(sc.Rate)
	t, err := Setup(ctx, b.FerryURL, fmt.Sprintf("bench-%s-%d@example.com", sc.Name, time.Now().UnixNano()), conc, b.FerryDB)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	ep := KindOK + "-0"
	if _, err := t.CreateEndpoint(ctx, EndpointSpec{URL: b.SinkURL + "/hook/" + ep, Format: "raw"}); err != nil {
		out.Error = err.Error()
		return out
	}
	const secret = "load-github-secret"
	ingestURL, err := t.CreateGitHubSource(ctx, secret, 10000)
	if err != nil {
		out.Error = err.Error()
		return out
	}
	plan := Plan{Run: fmt.Sprintf("%s-%d", sc.Name, time.Now().UnixNano()), Rate: sc.Rate, Duration: sc.Duration,
		Concurrency: conc, Ingest: &Ingest{URL: ingestURL, Secret: secret}}
	out.Scenario.Plan = plan

	sink := RemoteSink{URL: b.SinkURL}
	var bystander *bystanderRun
	var aloneCores float64
	var disk BystanderDisk
	if sc.BystanderRate > 0 {
		if bystander, err = b.newBystander(ctx, sc); err != nil {
			out.Error = err.Error()
			return out
		}
		// The bystander alone first, on the tables as the flood will
		// find them, so its latency beside the flood has a baseline from
		// the same run.
		b.settleDisk()
		cpuBefore, diskBefore := b.machineCPU(), b.diskIO()
		res := Generate(ctx, bystander.tenant, bystander.alone(), Hooks{})
		end := time.Now()
		aloneCores = b.machineCPU().CoresSince(cpuBefore)
		disk.Alone = b.diskIO().RateSince(diskBefore)
		alone := bystander.await(ctx, sink, bystander.name+"-alone", res, end, end.Add(sc.Settle))
		out.BystanderAlone = &alone
	}

	if bystander != nil {
		b.settleDisk()
	}
	m := b.startMeasuring(ctx, true)
	cpuBefore, diskBefore := b.machineCPU(), b.diskIO()
	var bystanderSent chan Result
	var requestsBefore map[string]Histogram
	if bystander != nil {
		requestsBefore = b.scrapeRequests(ctx)
		bystanderSent = make(chan Result, 1)
		go func() { bystanderSent <- Generate(ctx, bystander.tenant, bystander.plan, Hooks{}) }()
	}
	res := Generate(ctx, t, plan, Hooks{})
	sendEnd := time.Now()
	floodCores := b.machineCPU().CoresSince(cpuBefore)
	disk.BesideScenario = b.diskIO().RateSince(diskBefore)
	if bystander != nil {
		beside := bystander.await(ctx, sink, bystander.name, <-bystanderSent, time.Now(), sendEnd.Add(sc.Settle))
		out.Bystander = &beside
	}
	route := func(int64) []string { return []string{ep} }
	out.Report, _, err = AwaitRouted(ctx, sink, sc.Name, res, route, sendEnd, sendEnd.Add(sc.Settle))
	if err != nil {
		out.Error = err.Error()
	}
	out.Ferry = m.stop()
	out.Stages = b.stages(ctx, m)
	out.Statements = b.statements(ctx)
	if bystander != nil && b.Burn != nil {
		out.PlainLoadCores = floodCores - aloneCores
		plainDisk := DiskLoadLike(disk.BesideScenario.Beyond(disk.Alone))
		out.PlainLoadDisk = &plainDisk
		if beside, rate, err := bystander.besideLoad(ctx, b, sink, out.PlainLoadCores, plainDisk, sc.Settle); err != nil {
			b.logf("the bystander beside a plain load: %v", err)
		} else {
			out.BystanderBesideLoad = &beside
			disk.BesideLoad = rate
		}
	}
	if bystander != nil {
		out.BystanderDisk = &disk
	}
	r := out.Report
	out.Note = fmt.Sprintf("provider-facing response (scheduled send → answer): p50 %.1f ms, p95 %.1f ms, p99 %.1f ms, max %.1f ms; "+
		"accepted %.0f/s, forwarded %d of %d (%.0f/s while sending)", r.AckLatency.P50, r.AckLatency.P95, r.AckLatency.P99, r.AckLatency.Max,
		r.AcceptedPerS, r.Delivered, r.Expected, r.DeliveredPerS)
	if by := out.Bystander; by != nil {
		out.Note += fmt.Sprintf("; bystander tenant (%.0f outbound events/s beside it): p50 %.1f ms, p99 %.1f ms "+
			"(its 202 p50 / p99 %.1f / %.1f ms, then to the endpoint %.1f / %.1f ms), "+
			"delivered %d of %d, missing %d, duplicates %d", sc.BystanderRate, by.Latency.P50, by.Latency.P99,
			by.AckLatency.P50, by.AckLatency.P99, by.AfterAckLatency.P50, by.AfterAckLatency.P99,
			by.Delivered, by.Expected, by.Missing, by.Duplicates)
		out.Note += fmt.Sprintf("; the generator's lag before sending it p50 / p99 %.1f / %.1f ms", by.SendLag.P50, by.SendLag.P99)
		if after := b.scrapeRequests(ctx); after != nil && requestsBefore != nil {
			// The flood posts to its ingest URL, so this route is the bystander's alone.
			h := after[eventsRoute].sub(requestsBefore[eventsRoute])
			out.Note += fmt.Sprintf("; Ferry's own time answering it: %.2f %% over 10 ms, %.2f %% over 25 ms", 100*h.Over(0.010), 100*h.Over(0.025))
		}
		if bl := out.BystanderBesideLoad; bl != nil {
			pd := out.PlainLoadDisk
			out.Note += fmt.Sprintf("; beside a plain load of %.2f cores and %.0f synced writes of %d KB and %.1f MB unsynced a second "+
				"(the flood's, in a process of its own): p50 %.1f ms, p99 %.1f ms (its 202 p99 %.1f ms, then to the endpoint %.1f ms), delivered %d of %d",
				out.PlainLoadCores, pd.Syncs, pd.SyncBytes>>10, pd.Bytes/1e6, bl.Latency.P50, bl.Latency.P99, bl.AckLatency.P99, bl.AfterAckLatency.P99,
				bl.Delivered, bl.Expected)
			if bl.broken() {
				out.Error = "the bystander's ledger beside the plain load does not balance"
			}
		}
		if alone := out.BystanderAlone; alone != nil {
			out.Note += fmt.Sprintf("; the bystander alone just before: p50 %.1f ms, p99 %.1f ms (its 202 p99 %.1f ms), delivered %d of %d",
				alone.Latency.P50, alone.Latency.P99, alone.AckLatency.P99, alone.Delivered, alone.Expected)
			if alone.broken() {
				out.Error = "the bystander's ledger alone does not balance"
			}
		}
		if d := out.BystanderDisk; d != nil {
			out.Note += fmt.Sprintf("; the disks wrote %s with the bystander alone, %s beside the flood", d.Alone, d.BesideScenario)
			if out.BystanderBesideLoad != nil {
				out.Note += fmt.Sprintf(", %s beside the plain load", d.BesideLoad)
			}
		}
		if by.broken() {
			out.Error = "the bystander's ledger does not balance"
		}
	}
	return out
}

// eventsRoute keys the answer-time histogram of POST /api/v1/events.
const eventsRoute = "POST /api/v1/events"

// scrapeRequests reads Ferry's answer-time histograms; a failed scrape
// is logged and gives nil.
func (b *Bench) scrapeRequests(ctx context.Context) map[string]Histogram {
	h, err := ScrapeRequests(ctx, b.FerryURL)
	if err != nil {
		b.logf("answer times unavailable: %v", err)
		return nil
	}
	return h
}

// bystanderRun is another tenant sending outbound events beside an
// inbound scenario.
type bystanderRun struct {
	name   string
	tenant *Tenant
	plan   Plan
	ep     string
}

func (b *Bench) newBystander(ctx context.Context, sc InboundScenario) (*bystanderRun, error) {
	name := sc.Name + "-bystander"
	conc := OpenLoopConcurrency(sc.BystanderRate)
	t, err := Setup(ctx, b.FerryURL, fmt.Sprintf("bench-%s-%d@example.com", name, time.Now().UnixNano()), conc, b.FerryDB)
	if err != nil {
		return nil, fmt.Errorf("bystander: %w", err)
	}
	ep := KindOK + "-bystander"
	if _, err := t.CreateEndpoint(ctx, EndpointSpec{URL: b.SinkURL + "/hook/" + ep}); err != nil {
		return nil, fmt.Errorf("bystander: %w", err)
	}
	return &bystanderRun{name: name, tenant: t, ep: ep, plan: Plan{Run: fmt.Sprintf("%s-%d", name, time.Now().UnixNano()),
		Rate: sc.BystanderRate, Duration: sc.Duration, Concurrency: conc}}, nil
}

// await closes the ledger of the bystander's run res (a failure to read
// the sink voids it).
func (r *bystanderRun) await(ctx context.Context, sink RemoteSink, name string, res Result, sendEnd, deadline time.Time) Report {
	route := func(int64) []string { return []string{r.ep} }
	rep, _, err := AwaitRouted(ctx, sink, name, res, route, sendEnd, deadline)
	if err != nil {
		rep.Void, rep.VoidReason = true, err.Error()
	}
	return rep
}

// besideLoad sends the bystander's traffic a third time, under a run id
// of its own, while b.Burn keeps cores of the machine busy and its disk
// writing, and closes its ledger; it also says how fast the disks wrote
// meanwhile. The flood's ledger has closed by then, so the plain load is
// all that runs beside it.
func (r *bystanderRun) besideLoad(ctx context.Context, b *Bench, sink RemoteSink, cores float64, disk DiskLoad, settle time.Duration) (Report, DiskRate, error) {
	if cores < 0.05 {
		return Report{}, DiskRate{}, fmt.Errorf("the flood took %.2f cores more than the bystander alone: nothing to burn", cores)
	}
	cores = min(cores, float64(runtime.NumCPU()))
	p := r.plan
	p.Run += "-beside-load"
	b.settleDisk()
	bctx, cancel := context.WithCancel(ctx)
	defer cancel()
	burnt := make(chan error, 1)
	go func() { burnt <- b.Burn(bctx, cores, disk, burnSettle+p.Duration+time.Second) }()
	time.Sleep(burnSettle)
	diskBefore := b.diskIO()
	res := Generate(ctx, r.tenant, p, Hooks{})
	end := time.Now()
	rate := b.diskIO().RateSince(diskBefore)
	select {
	case err := <-burnt:
		return Report{}, DiskRate{}, fmt.Errorf("the plain load ended before the bystander's run did: %v", err)
	default:
	}
	cancel()
	<-burnt
	rep, _, err := AwaitRouted(ctx, sink, r.name+"-beside-load", res, func(int64) []string { return []string{r.ep} }, end, end.Add(settle))
	return rep, rate, err
}

// burnSettle is how long the plain load runs before the bystander
// sends: time for its process to start, ready its files and steer to
// its size.
const burnSettle = time.Second

// machineCPU reads the machine's CPU counters; a failed read is logged
// and reads as zero (the plain load's size is then wrong, and says so).
func (b *Bench) machineCPU() MachineCPU {
	c, err := ReadMachineCPU("/proc")
	if err != nil {
		b.logf("%v", err)
	}
	return c
}

// settleDisk writes out everything the machine's file systems hold
// unwritten (sync(2)) before one of the bystander's runs, so that each
// run's disk writes are its own: the kernel writes a page out up to 30 s
// after it changed, which would carry the flood's writes into the run
// after it.
func (b *Bench) settleDisk() {
	start := time.Now()
	unix.Sync()
	if d := time.Since(start); d > time.Second {
		b.logf("writing out the file systems before the bystander's run took %v", d.Round(time.Millisecond))
	}
}

// diskIO reads the machine's disk counters; a failed read is logged and
// reads as zero (the plain load then writes nothing, and says so).
func (b *Bench) diskIO() DiskIO {
	d, err := ReadDiskIO("/proc/diskstats", "/sys/block")
	if err != nil {
		b.logf("%v", err)
	}
	return d
}

// alone is the bystander's plan for its run alone: the same rate and
// duration under a run id of its own, so the two ledgers stay apart.
func (r *bystanderRun) alone() Plan {
	p := r.plan
	p.Run += "-alone"
	return p
}

// sendIngest posts event seq to the ingest URL as GitHub would: the body
// signed in X-Hub-Signature-256, a unique X-GitHub-Delivery.
func (t *Tenant) sendIngest(ctx context.Context, p Plan, seq int64, sched time.Time, pad string) Sent {
	data, _ := json.Marshal(payload{Run: p.Run, Seq: seq, Sched: sched.UnixNano(), Pad: pad})
	body := make([]byte, 0, len(data)+64)
	body = append(body, `{"id":"`...)
	body = strconv.AppendInt(body, seq, 10)
	body = append(body, `","data":`...)
	body = append(body, data...)
	body = append(body, '}')
	mac := hmac.New(sha256.New, []byte(p.Ingest.Secret))
	mac.Write(body)
	s := Sent{Seq: seq, Sched: sched}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.Ingest.URL, bytes.NewReader(body))
	if err != nil {
		s.Err, s.Done = err.Error(), time.Now()
		return s
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Event", "push")
	req.Header.Set("X-GitHub-Delivery", p.Run+"-"+strconv.FormatInt(seq, 10))
	req.Header.Set("X-Hub-Signature-256", "sha256="+hex.EncodeToString(mac.Sum(nil)))
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
	if res.StatusCode != http.StatusOK {
		s.Err = fmt.Sprintf("%d %s", res.StatusCode, bytes.TrimSpace(raw))
	}
	return s
}
