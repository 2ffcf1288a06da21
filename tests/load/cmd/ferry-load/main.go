// Command ferry-load drives Ferry's benchmark (`make bench`) as separate
// processes:
//
//	ferry-load sink  -addr 127.0.0.1:9100          the fast webhook receiver
//	ferry-load bench -ferry URL -sink URL -pid PID  the scenarios, tables (ledger, per-stage latency) and a JSON file
//	ferry-load run   -ferry URL -sink URL -rate R   one scenario; exit status 1 when its ledger is void (make chaos)
//	ferry-load createdb|dropdb -admin URL -name DB  a fresh database for the run
//	ferry-load grow -db URL -events N               N events of history in Ferry's migrated database (BENCH_GROW)
//	ferry-load insync -brokers B -stable 10s    waits until no partition is under-replicated for that long (make chaos)
//	ferry-load topics -brokers B -prefix P [-drop]  counts (or deletes) the topics whose names begin with P
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/ferry-dev/ferry/tests/load"
	"github.com/ferry-dev/ferry/tests/topics"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: ferry-load sink|bench|run|createdb|dropdb|grow|insync|topics|burn [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "sink":
		err = sink(ctx, os.Args[2:])
	case "bench":
		err = bench(ctx, os.Args[2:])
	case "run":
		err = runOne(ctx, os.Args[2:])
	case "createdb", "dropdb":
		err = database(ctx, os.Args[1], os.Args[2:])
	case "grow":
		err = growDB(ctx, os.Args[2:])
	case "insync":
		err = insync(ctx, os.Args[2:])
	case "topics":
		err = topicsCmd(ctx, os.Args[2:])
	case "burn":
		err = burn(ctx, os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "ferry-load:", err)
		os.Exit(1)
	}
}

func sink(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("sink", flag.ExitOnError)
	addr := fs.String("addr", "127.0.0.1:9100", "listen address")
	_ = fs.Parse(args)
	srv := &http.Server{Addr: *addr, Handler: load.NewSink(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// burn keeps the given cores busy and the disk writing for a while
// (load.Burn): the plain load the inbound bystander is measured beside,
// in a process of its own so that it shares not even a Go scheduler with
// the generator.
func burn(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("burn", flag.ExitOnError)
	cores := fs.Float64("cores", 0, "cores to keep busy (fractions allowed), the writes' CPU included")
	d := fs.Duration("for", 0, "how long")
	var disk load.DiskLoad
	fs.Float64Var(&disk.Syncs, "syncs", 0, "writes a second that are each followed by fdatasync")
	fs.IntVar(&disk.SyncBytes, "sync-bytes", 8192, "the size of each synced write")
	fs.Float64Var(&disk.Bytes, "bytes", 0, "bytes a second written without waiting for the disk")
	dir := fs.String("dir", os.TempDir(), "where the writes' files go (removed at the end): the disk to load")
	_ = fs.Parse(args)
	if *d <= 0 {
		return errors.New("-for is required")
	}
	ctx, cancel := context.WithTimeout(ctx, *d)
	defer cancel()
	return load.Burn(ctx, *cores, disk, *dir)
}

// burner runs "ferry-load burn" (this executable) for the bench, its
// files beside the system's temporary files.
func burner(ctx context.Context, cores float64, disk load.DiskLoad, d time.Duration) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }
	cmd := exec.CommandContext(ctx, self, "burn", "-cores", f(cores), "-for", d.String(),
		"-syncs", f(disk.Syncs), "-sync-bytes", strconv.Itoa(disk.SyncBytes), "-bytes", f(disk.Bytes))
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("burn %.2f cores: %w", cores, err)
	}
	return nil
}

// insync waits for a rolling restart's cluster to be whole again, asking
// its metadata rather than starting a JVM tool per look: on a small
// machine those tools took the CPU the restarted broker needed.
func insync(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("insync", flag.ExitOnError)
	brokers := fs.String("brokers", "", "the Kafka brokers, comma-separated")
	stable := fs.Duration("stable", 10*time.Second, "how long every partition must stay fully in sync")
	timeout := fs.Duration("timeout", 2*time.Minute, "give up after")
	_ = fs.Parse(args)
	if *brokers == "" {
		return errors.New("-brokers is required")
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	return load.AwaitInSync(ctx, strings.Split(*brokers, ","), *stable, 250*time.Millisecond)
}

func database(ctx context.Context, cmd string, args []string) error {
	fs := flag.NewFlagSet(cmd, flag.ExitOnError)
	admin := fs.String("admin", "", "URL of a database to connect to")
	name := fs.String("name", "", "database to create or drop")
	_ = fs.Parse(args)
	if *admin == "" || *name == "" || strings.ContainsAny(*name, " ;\"'") {
		return errors.New("-admin and a plain -name are required")
	}
	db, err := sql.Open("pgx", *admin)
	if err != nil {
		return err
	}
	defer db.Close()
	q := "CREATE DATABASE " + *name
	if cmd == "dropdb" {
		q = "DROP DATABASE IF EXISTS " + *name + " WITH (FORCE)"
	}
	_, err = db.ExecContext(ctx, q)
	return err
}

// growDB fills Ferry's database with history before a bench (load.Grow).
func growDB(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("grow", flag.ExitOnError)
	url := fs.String("db", "", "Ferry's database URL, migrated (Ferry has started on it)")
	events := fs.Int("events", 0, "events of history to write, each with its delivery and attempt")
	_ = fs.Parse(args)
	if *url == "" || *events <= 0 {
		return errors.New("-db and a positive -events are required")
	}
	db, err := sql.Open("pgx", *url)
	if err != nil {
		return err
	}
	defer db.Close()
	return load.Grow(ctx, db, *events, func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) })
}

func bench(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("bench", flag.ExitOnError)
	ferryURL := fs.String("ferry", "http://127.0.0.1:8088", "Ferry's base URL")
	ferryDB := fs.String("db", "", "Ferry's database URL: gives load tenants operator-set limits instead of the free plan's")
	sinkURL := fs.String("sink", "http://127.0.0.1:9100", "the sink's base URL")
	pids := fs.String("pid", "", "comma-separated pids of the Ferry processes to sample")
	dur := fs.Duration("duration", 30*time.Second, "sending time per scenario")
	only := fs.String("only", "", "comma-separated scenario names to run (default all)")
	out := fs.String("out", "bench-results.json", "JSON results file")
	note := fs.String("note", "", "free text stored with the results (settings, command)")
	guardFile := fs.String("guard", "", "a guard file (docs/bench/guard.json): fail when a guarded scenario's p50 exceeds its limit")
	statements := fs.Bool("pg-statements", false, "read pg_stat_statements of -db over each scenario (the database must track them)")
	_ = fs.Parse(args)

	b := &load.Bench{FerryURL: *ferryURL, FerryDB: *ferryDB, SinkURL: *sinkURL,
		Log: func(f string, a ...any) { fmt.Fprintf(os.Stderr, f+"\n", a...) }, Burn: burner}
	if *statements {
		st, err := load.OpenStatements(ctx, *ferryDB)
		if err != nil {
			return err
		}
		defer st.Close()
		b.Statements = st
	}
	for _, p := range strings.Split(*pids, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil {
			b.FerryPIDs = append(b.FerryPIDs, n)
		}
	}
	pressure := startPressure(ctx)
	settle := 60 * time.Second
	scenarios := []load.Scenario{
		{Name: "warmup", Routed: true, OK: 8, Plan: load.Plan{Rate: 50, Duration: 5 * time.Second}, Settle: settle},
		{Name: "a-max-throughput", Routed: true, OK: 8, Plan: load.Plan{Rate: 0, Concurrency: 64, Duration: *dur}, Settle: 2 * settle},
		// a at a fixed rate: the eight endpoints' sustained target, sent
		// open-loop so the rate does not follow the answer time.
		{Name: "a-rate-4000", Routed: true, OK: 8, Plan: load.Plan{Rate: 4000, Duration: *dur}, Settle: 2 * settle},
		{Name: "b-rate-100", Routed: true, OK: 8, Plan: load.Plan{Rate: 100, Duration: *dur}, Settle: settle},
		{Name: "b-rate-500", Routed: true, OK: 8, Plan: load.Plan{Rate: 500, Duration: *dur}, Settle: settle},
		// b-rate-500 with every endpoint a customer's and every event sent for one.
		{Name: "b-customers-500", Routed: true, Customers: true, OK: 8, Plan: load.Plan{Rate: 500, Duration: *dur}, Settle: settle},
		{Name: "b-rate-1000", Routed: true, OK: 8, Plan: load.Plan{Rate: 1000, Duration: *dur}, Settle: settle},
		{Name: "c-fanout-100", OK: 100, Plan: load.Plan{Rate: 20, Duration: *dur}, Settle: settle},
		// d's control: the same 17 healthy endpoints and rate, nothing failing.
		{Name: "d-control", OK: 17, Plan: load.Plan{Rate: 25, Duration: *dur}, Settle: settle},
		{Name: "d-failing-10pct", OK: 17, Fail: 2, Hang: 1, Plan: load.Plan{Rate: 25, Duration: *dur}, Settle: settle},
		// e: every event to ONE endpoint at default settings (max_in_flight 16).
		{Name: "e-one-endpoint-100", OK: 1, Plan: load.Plan{Rate: 100, Duration: *dur}, Settle: settle},
		{Name: "e-one-endpoint-500", OK: 1, Plan: load.Plan{Rate: 500, Duration: *dur}, Settle: settle},
		{Name: "e-one-endpoint-2000", OK: 1, Plan: load.Plan{Rate: 2000, Duration: *dur}, Settle: settle},
		{Name: "e-one-endpoint-max", OK: 1, Plan: load.Plan{Rate: 0, Concurrency: 64, Duration: *dur}, Settle: 2 * settle},
	}
	// f: the noisy-neighbour reference case (issue 12): 50 endpoints with
	// max_in_flight 1 at a tarpit hold 1,100 × 50 deliveries while a victim
	// sends one event every 150 ms.
	noisy := load.NoisyScenario{Name: "f-noisy-neighbour", NoisyEndpoints: 50, NoisyEvents: 1100, NoisyTimeout: 30,
		VictimGap: 150 * time.Millisecond, VictimDuration: *dur, VictimWait: 10 * time.Second, Settle: 3 * time.Minute}
	// g: pull queues (issue 17): 4 consumers per queue draining a backlog
	// in batches of 100, then 202 → pull latency with long-polling
	// consumers; one queue and eight.
	queueScenarios := []load.QueueScenario{
		{Name: "g-queue-1", Queues: 1, Consumers: 4, Batch: 100, Backlog: 20000, Rate: 200, Duration: *dur},
		{Name: "g-queue-8", Queues: 8, Consumers: 4, Batch: 100, Backlog: 20000, Rate: 200, Duration: *dur},
	}
	// h: inbound sources (issue 16): GitHub-signed requests to one
	// source, verified, deduplicated, captured and forwarded raw; the
	// target rate, a fifth of it to see the answer time unsaturated, and
	// the target rate beside another tenant's 100 outbound events/s.
	inboundScenarios := []load.InboundScenario{
		{Name: "h-inbound", Rate: 1000, Duration: *dur, Settle: settle},
		{Name: "h-inbound-200", Rate: 200, Duration: *dur, Settle: settle},
		{Name: "h-inbound-bystander", Rate: 1000, Duration: *dur, Settle: settle, BystanderRate: 100},
	}
	var want []string
	for _, n := range strings.Split(*only, ",") {
		if n = strings.TrimSpace(n); n != "" {
			want = append(want, n)
		}
	}
	// A name selects that scenario and every scenario named name-…
	// (e-one-endpoint selects its three rates).
	selected := func(name string) bool {
		if len(want) == 0 || name == "warmup" {
			return true
		}
		for _, w := range want {
			if name == w || strings.HasPrefix(name, w+"-") {
				return true
			}
		}
		return false
	}
	doc := struct {
		StartedAt string         `json:"started_at"`
		Machine   load.Machine   `json:"machine"`
		Note      string         `json:"note,omitempty"`
		Duration  string         `json:"duration_per_scenario"`
		Outcomes  []load.Outcome `json:"outcomes"`
	}{StartedAt: time.Now().UTC().Format(time.RFC3339), Machine: load.DescribeMachine(runtime.NumCPU()), Note: *note, Duration: dur.String()}
	fmt.Printf("machine: %d CPUs (%s), %.0f MiB RAM, load average %s; shared and noisy\n",
		doc.Machine.CPUs, doc.Machine.CPUModel, doc.Machine.MemoryMB, doc.Machine.LoadAvg)
	report := func(o load.Outcome) {
		doc.Outcomes = append(doc.Outcomes, o)
		r := o.Report
		fmt.Fprintf(os.Stderr, "  %s: accepted %d (%.0f/s), delivered %d, missing %d, dup %d, p50 %.1fms p99 %.1fms, rss %.0f MiB%s\n",
			o.Scenario.Name, r.Accepted, r.AcceptedPerS, r.Delivered, r.Missing, r.Duplicates, r.Latency.P50, r.Latency.P99, o.Ferry.MaxRSSMB,
			map[bool]string{true: " VOID: " + r.VoidReason + o.Error, false: ""}[r.Void || o.Error != ""])
		if o.Note != "" {
			fmt.Fprintf(os.Stderr, "    %s\n", o.Note)
		}
		load.PrintStatements(os.Stderr, o.Statements, r.Accepted, 12)
	}
	for _, sc := range scenarios {
		if !selected(sc.Name) {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		fmt.Fprintf(os.Stderr, "running %s ...\n", sc.Name)
		report(b.Run(ctx, sc))
	}
	if selected(noisy.Name) && ctx.Err() == nil {
		fmt.Fprintf(os.Stderr, "running %s ...\n", noisy.Name)
		for _, o := range b.RunNoisy(ctx, noisy) {
			report(o)
		}
	}
	for _, qs := range queueScenarios {
		if !selected(qs.Name) || ctx.Err() != nil {
			continue
		}
		fmt.Fprintf(os.Stderr, "running %s ...\n", qs.Name)
		for _, o := range b.RunQueue(ctx, qs) {
			report(o)
		}
	}
	for _, is := range inboundScenarios {
		if !selected(is.Name) || ctx.Err() != nil {
			continue
		}
		fmt.Fprintf(os.Stderr, "running %s ...\n", is.Name)
		report(b.RunInbound(ctx, is))
	}
	printTable(doc.Outcomes)
	printStalls(doc.Outcomes, pressure)
	printStages(doc.Outcomes)
	raw, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(*out, raw, 0o644); err != nil {
		return err
	}
	fmt.Printf("results written to %s\n", *out)
	if *guardFile != "" {
		return checkGuard(*guardFile, doc.Outcomes)
	}
	return nil
}

// guard is a recorded figure a bench run must stay near: a scenario's
// p50 may not exceed Factor times the recorded one.
type guard struct {
	Scenario string  `json:"scenario"`
	P50MS    float64 `json:"p50_ms"`
	Factor   float64 `json:"factor"`
	Recorded string  `json:"recorded"` // when, on which commit and machine
}

// checkGuard fails loudly when a guarded scenario ran slower than its
// guard allows, or did not run at all.
func checkGuard(path string, outs []load.Outcome) error {
	raw, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("guard: %w", err)
	}
	var guards []guard
	if err := json.Unmarshal(raw, &guards); err != nil {
		return fmt.Errorf("guard %s: %w", path, err)
	}
	var failures []string
	for _, g := range guards {
		limit := g.P50MS * g.Factor
		i := slices.IndexFunc(outs, func(o load.Outcome) bool { return o.Scenario.Name == g.Scenario })
		switch {
		case i < 0:
			failures = append(failures, fmt.Sprintf("%s did not run", g.Scenario))
		case outs[i].Error != "" || outs[i].Report.Void:
			failures = append(failures, fmt.Sprintf("%s failed: %s%s", g.Scenario, outs[i].Error, outs[i].Report.VoidReason))
		case outs[i].Report.Latency.P50 > limit:
			failures = append(failures, fmt.Sprintf("%s p50 %.1f ms is over %.1f ms (%.0f× the %.1f ms recorded %s)",
				g.Scenario, outs[i].Report.Latency.P50, limit, g.Factor, g.P50MS, g.Recorded))
		default:
			fmt.Printf("guard: %s p50 %.1f ms, within %.1f ms (%.0f× the %.1f ms recorded %s)\n",
				g.Scenario, outs[i].Report.Latency.P50, limit, g.Factor, g.P50MS, g.Recorded)
		}
	}
	if len(failures) > 0 {
		for _, f := range failures {
			fmt.Fprintf(os.Stderr, "GUARD FAILED: %s\n", f)
		}
		return fmt.Errorf("bench guard failed: %s", strings.Join(failures, "; "))
	}
	return nil
}

func runOne(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	ferryURL := fs.String("ferry", "http://127.0.0.1:8088", "Ferry's base URL")
	ferryDB := fs.String("db", "", "Ferry's database URL: gives load tenants operator-set limits instead of the free plan's")
	sinkURL := fs.String("sink", "http://127.0.0.1:9100", "the sink's base URL")
	pids := fs.String("pid", "", "comma-separated pids of the Ferry processes to sample")
	name := fs.String("name", "run", "scenario name")
	rate := fs.Float64("rate", 200, "events/s (0: closed loop)")
	conc := fs.Int("concurrency", 0, "sending workers (default: from the rate)")
	dur := fs.Duration("duration", 30*time.Second, "sending time")
	ok := fs.Int("endpoints", 4, "healthy endpoints")
	routed := fs.Bool("routed", true, "one endpoint per event (false: every endpoint gets every event)")
	settle := fs.Duration("settle", 2*time.Minute, "how long deliveries may take after sending stops")
	out := fs.String("out", "", "JSON results file (optional)")
	brokers := fs.String("failover-brokers", "", "a failover run (make chaos): the Kafka brokers, to record who leads each partition before sending")
	topic := fs.String("failover-topic", "deliveries", "the deliveries topic's full name")
	events := fs.String("failover-events", "", "the chaos script's events file (lines: kill|stop|started NODE UNIX_MS)")
	maxHealthyP99 := fs.Duration("max-healthy-p99", 0, "fail unless jobs on partitions that kept their leader have p99 at most this (0: no check)")
	maxAffected := fs.Duration("max-affected", 0, "fail unless every job on a partition that lost its leader arrived within this of being sent (0: no check)")
	maxP50 := fs.Duration("max-p50", 0, "fail unless the run's p50 is at most this (0: no check)")
	maxP99 := fs.Duration("max-p99", 0, "fail unless the run's p99 is at most this (0: no check)")
	_ = fs.Parse(args)
	pressure := startPressure(ctx)
	var leaders load.Leaders
	if *brokers != "" {
		var err error
		if leaders, err = load.ReadLeaders(ctx, strings.Split(*brokers, ","), *topic); err != nil {
			return err
		}
		fmt.Printf("partition leaders of %s before sending: %v\n", *topic, leaders.ByPartition)
	}
	b := &load.Bench{FerryURL: *ferryURL, FerryDB: *ferryDB, SinkURL: *sinkURL}
	for _, p := range strings.Split(*pids, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil {
			b.FerryPIDs = append(b.FerryPIDs, n)
		}
	}
	o := b.Run(ctx, load.Scenario{Name: *name, Routed: *routed, OK: *ok,
		Plan: load.Plan{Rate: *rate, Concurrency: *conc, Duration: *dur}, Settle: *settle})
	printTable([]load.Outcome{o})
	printStalls([]load.Outcome{o}, pressure)
	var failures []string
	if *brokers != "" && *events != "" {
		evs, err := load.ReadChaosEvents(*events)
		if err != nil {
			return err
		}
		sched := map[int64]time.Time{}
		for _, s := range o.Sent.Sent {
			sched[s.Seq] = s.Sched
		}
		fr := load.AnalyseFailover(leaders, evs, o.EndpointIDs, o.Arrivals, func(seq int64) (time.Time, bool) {
			t, ok := sched[seq]
			return t, ok
		})
		o.Failover = &fr
		printFailover(fr)
		ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
		if *maxHealthyP99 > 0 && fr.Healthy.P99 > ms(*maxHealthyP99) {
			failures = append(failures, fmt.Sprintf("healthy partitions' p99 %.0f ms > %s", fr.Healthy.P99, *maxHealthyP99))
		}
		if *maxAffected > 0 && fr.Affected.Max > ms(*maxAffected) {
			failures = append(failures, fmt.Sprintf("a job on a partition that lost its leader took %.0f ms > %s", fr.Affected.Max, *maxAffected))
		}
	}
	if *maxP50 > 0 && o.Report.Latency.P50 > float64(*maxP50)/float64(time.Millisecond) {
		failures = append(failures, fmt.Sprintf("p50 %.0f ms > %s", o.Report.Latency.P50, *maxP50))
	}
	if *maxP99 > 0 && o.Report.Latency.P99 > float64(*maxP99)/float64(time.Millisecond) {
		failures = append(failures, fmt.Sprintf("p99 %.0f ms > %s", o.Report.Latency.P99, *maxP99))
	}
	if *out != "" {
		raw, _ := json.MarshalIndent(o, "", "  ")
		if err := os.WriteFile(*out, raw, 0o644); err != nil {
			return err
		}
	}
	if o.Error != "" {
		return errors.New(o.Error)
	}
	if o.Report.Void {
		return fmt.Errorf("ledger void: %s", o.Report.VoidReason)
	}
	if len(failures) > 0 {
		return fmt.Errorf("targets missed: %s", strings.Join(failures, "; "))
	}
	return nil
}

// printFailover prints a failover run's latencies split by partition.
func printFailover(fr load.FailoverReport) {
	fmt.Println()
	for _, e := range fr.Events {
		fmt.Printf("chaos: %s broker %d at %s\n", e.What, e.Node, e.At.UTC().Format("15:04:05.000"))
	}
	fmt.Printf("partitions led by disturbed brokers %v: %v (%d endpoints on them, %d elsewhere)\n",
		fr.Disturbed, fr.AffectedPartitions, fr.AffectedEndpoints, fr.HealthyEndpoints)
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "jobs	n	p50 ms	p95 ms	p99 ms	max ms	")
	for _, row := range []struct {
		name string
		l    load.Latency
	}{{"all", fr.All}, {"healthy partitions", fr.Healthy}, {"  sent after the first disturbance", fr.HealthyAfter},
		{"partitions that lost their leader", fr.Affected}, {"  sent after the first disturbance", fr.AffectedAfter}} {
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t\n", row.name, row.l.N, row.l.P50, row.l.P95, row.l.P99, row.l.Max)
	}
	tw.Flush()
	if len(fr.SlowSeconds) == 0 {
		return
	}
	fmt.Println("seconds (by scheduled send) with a delivery over 1 s:")
	tw = tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "sent at\tn\tp50 ms\tmax ms\tover 1 s: affected\thealthy\t")
	for _, s := range fr.SlowSeconds {
		fmt.Fprintf(tw, "%s\t%d\t%.1f\t%.1f\t%d\t%d\t\n", s.At.UTC().Format("15:04:05"), s.Latency.N, s.Latency.P50,
			s.Latency.Max, s.Affected, s.Healthy)
	}
	tw.Flush()
}

func printTable(outs []load.Outcome) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "scenario\trate\tsent\taccepted\taccepted/s\tdelivered/s*\texpected\tdelivered\tmissing\tdup\tp50 ms\tp95 ms\tp99 ms\tmax ms\tdrain s\tRSS MiB\tCPU\tledger\t")
	for _, o := range outs {
		r := o.Report
		rate := "max"
		if o.Scenario.Plan.Rate > 0 {
			rate = fmt.Sprintf("%.0f/s", o.Scenario.Plan.Rate)
		}
		ledger := "balanced"
		if r.Void || o.Error != "" {
			ledger = "VOID " + r.VoidReason + o.Error
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%.0f\t%.0f\t%d\t%d\t%d\t%d\t%.1f\t%.1f\t%.1f\t%.1f\t%.1f\t%.0f\t%.2f\t%s\t\n",
			o.Scenario.Name, rate, r.Sent, r.Accepted, r.AcceptedPerS, r.DeliveredPerS, r.Expected, r.Delivered, r.Missing,
			r.Duplicates, r.Latency.P50, r.Latency.P95, r.Latency.P99, r.Latency.Max, r.DrainS, o.Ferry.MaxRSSMB, o.Ferry.CPUCores, ledger)
	}
	tw.Flush()
	fmt.Println("latency: scheduled send time → first 2xx receipt at a healthy endpoint (no coordinated omission);")
	fmt.Println("*delivered/s: deliveries that arrived while sending lasted; drain: time after sending until the ledger closed")
}

// startPressure records the machine's pressure until ctx ends, or
// returns nil (and says so) on a kernel that keeps none.
func startPressure(ctx context.Context) *load.PressureRecorder {
	p, err := load.StartPressure(ctx, "/proc/pressure")
	if err != nil {
		fmt.Fprintf(os.Stderr, "ferry-load: stalls will not say the machine's pressure: %v\n", err)
		return nil
	}
	return p
}

// printStalls names the seconds of each scenario (and of its bystander)
// in which an answer or a delivery took over load.StallAfter, with the
// machine's pressure in that second and the next when pressure (which
// may be nil) recorded them: whether the disk or the cores held everyone
// up then, or only Ferry was slow.
func printStalls(outs []load.Outcome, pressure *load.PressureRecorder) {
	var lines []string
	add := func(name string, r *load.Report) {
		if r == nil {
			return
		}
		const shown = 8
		for i, st := range r.Stalls {
			if i == shown {
				lines = append(lines, fmt.Sprintf("  %s: and %d seconds more", name, len(r.Stalls)-shown))
				break
			}
			line := fmt.Sprintf("  %s %s: %d answers and %d deliveries over %v, the slowest %.0f ms",
				name, st.At.UTC().Format("15:04:05"), st.Acks, st.Deliveries, load.StallAfter, st.MaxMS)
			if p, ok := pressure.Worst(st.At, st.At.Add(time.Second)); ok {
				line += fmt.Sprintf("; the machine then (ms of a second): waiting for a core %.0f, for the disk %.0f (everyone: %.0f)",
					p.CPUSomeMS, p.IOSomeMS, p.IOFullMS)
			}
			lines = append(lines, line)
		}
	}
	for _, o := range outs {
		add(o.Scenario.Name, &o.Report)
		add(o.Scenario.Name+" (bystander alone)", o.BystanderAlone)
		add(o.Scenario.Name+" (bystander)", o.Bystander)
	}
	if len(lines) == 0 {
		fmt.Printf("stalls: none (no answer or delivery of a healthy endpoint took over %v)\n", load.StallAfter)
		return
	}
	fmt.Printf("stalls (seconds of scheduled send time with an answer or a delivery over %v, UTC):\n", load.StallAfter)
	for _, l := range lines {
		fmt.Println(l)
	}
}

// printStages prints each scenario's per-stage breakdown from Ferry's
// ferry_delivery_stage_seconds: time from acceptance to each stage (p50,
// p99 estimated from histogram buckets) and the mean time of each hop.
func printStages(outs []load.Outcome) {
	fmt.Println()
	fmt.Println("per-stage latency (ms from acceptance, first attempts; hop = mean time since the previous stage):")
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	header := "scenario\t"
	for _, st := range load.StageOrder() {
		header += st + " p50/p99\thop\t"
	}
	fmt.Fprintln(tw, header)
	for _, o := range outs {
		if len(o.Stages) == 0 {
			continue
		}
		by := map[string]load.StageLatency{}
		for _, st := range o.Stages {
			by[st.Stage] = st
		}
		line := o.Scenario.Name + "\t"
		for _, name := range load.StageOrder() {
			if st, ok := by[name]; ok {
				line += fmt.Sprintf("%.1f/%.1f\t%.1f\t", st.P50, st.P99, st.HopMean)
			} else {
				line += "-\t-\t"
			}
		}
		fmt.Fprintln(tw, line)
	}
	tw.Flush()
	fmt.Println("accepted = the event's created_at (to the µs); committed = ingest commit; published = Kafka ack;")
	fmt.Println("consumed = fetched by a worker; sent/answered = HTTP request start/end; logged = attempt log commit (successes);")
	fmt.Println("leased = a pull-queue message's first lease (g-queue)")
}

// topicsCmd lists, or with -drop deletes, the topics of a prefix: the
// bench drops its own with it, and warns of those earlier runs left.
// A run killed before its cleanup leaves its topics, and every later run
// shares the broker with their partitions (docs/benchmarks.md, "Running
// the bench").
func topicsCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("topics", flag.ExitOnError)
	brokers := fs.String("brokers", "", "the Kafka brokers, comma-separated")
	prefix := fs.String("prefix", "", "the topics whose names begin with this")
	drop := fs.Bool("drop", false, "delete them")
	_ = fs.Parse(args)
	if *brokers == "" || *prefix == "" {
		return errors.New("-brokers and -prefix are required")
	}
	if *drop {
		names, err := topics.Drop(ctx, strings.Split(*brokers, ","), *prefix)
		fmt.Printf("dropped %d topics\n", len(names))
		return err
	}
	names, partitions, err := topics.List(ctx, strings.Split(*brokers, ","), *prefix)
	if err != nil {
		return err
	}
	fmt.Printf("%d topics, %d partitions\n", len(names), partitions)
	return nil
}
