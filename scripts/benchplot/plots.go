package main

import (
	"math"
	"slices"
	"strings"
)

// File is one generated SVG, named relative to the output directory.
type File struct {
	Name string
	Data []byte
}

// metric is one plotted quantity of an outcome; ok is false where the
// scenario does not measure it.
type metric struct {
	name  string
	value func(Outcome) (float64, bool)
}

// throughput is what the throughput plots show.
var throughput = []metric{
	{"accepted/s", func(o Outcome) (float64, bool) { return o.Report.AcceptedPerS, o.Report.AcceptedPerS > 0 }},
	{"delivered/s while sending", func(o Outcome) (float64, bool) { return o.Report.DeliveredPerS, o.Report.DeliveredPerS > 0 }},
}

// latency is what the latency plots show. A log scale cannot show 0, so
// a percentile of 0 ms is left out with the unmeasured ones.
var latency = []metric{
	{"p50", func(o Outcome) (float64, bool) {
		return o.Report.Latency.P50, o.Report.Latency.N > 0 && o.Report.Latency.P50 > 0
	}},
	{"p99", func(o Outcome) (float64, bool) {
		return o.Report.Latency.P99, o.Report.Latency.N > 0 && o.Report.Latency.P99 > 0
	}},
	{"answer p99", func(o Outcome) (float64, bool) {
		return o.Report.AckLatency.P99, o.Report.AckLatency.N > 0 && o.Report.AckLatency.P99 > 0
	}},
}

// Notes under the titles: how to read each measure.
const (
	throughputNote = "accepted/s: accepted events (inbound: requests) per second of sending; delivered/s: deliveries that arrived while sending lasted (g-queue …/drain: messages pulled and acked per second)"
	latencyNote    = "p50, p99: scheduled send → first 2xx receipt at a healthy endpoint (g-queue …/latency: 202 → pull); answer p99: scheduled send → Ferry's 202 (inbound: the provider's 200). Log scale"
)

// The files Plots writes.
const (
	currentThroughputFile = "current-throughput.svg"
	currentLatencyFile    = "current-latency.svg"
	historyThroughputFile = "history-throughput.svg"
	historyLatencyFile    = "history-latency.svg"
)

// Plots draws the charts of runs (oldest first, as LoadAll returns them)
// for the scenarios sel selects: the latest run's throughput and latency
// per scenario, and both across all runs. Without runs, each file says
// how to record one, so the pages that embed them never show a broken
// image.
func Plots(runs []Run, sel Selector) []File {
	if len(runs) == 0 {
		lines := []string{
			"No run is recorded yet. Record one on an idle machine:",
			"BENCH_RECORD=1 make bench   (or: cp bench-results.json docs/bench/runs/<date>-<commit>.json)",
			"then: make bench-plots",
		}
		return []File{
			{currentThroughputFile, message("Throughput per scenario: no recorded run", lines)},
			{currentLatencyFile, message("Latency per scenario: no recorded run", lines)},
			{historyThroughputFile, message("Throughput across runs: no recorded run", lines)},
			{historyLatencyFile, message("Latency across runs: no recorded run", lines)},
		}
	}
	latest := runs[len(runs)-1]
	names := scenarioNames(runs, sel)
	return []File{
		{currentThroughputFile, current(latest, names, throughput, "", "per second (log scale)",
			"Throughput per scenario, latest run", throughputNote)},
		{currentLatencyFile, current(latest, names, latency, "ms", "latency (ms, log scale)",
			"Latency per scenario, latest run", latencyNote)},
		{historyThroughputFile, history(runs, names, throughput, "", "Throughput across recorded runs", throughputNote)},
		{historyLatencyFile, history(runs, names, latency, "ms", "Latency across recorded runs", latencyNote)},
	}
}

// scenarioNames lists the selected scenarios of every run, in the order
// ferry-load ran them: the latest run's order, then scenarios only older
// runs had.
func scenarioNames(runs []Run, sel Selector) []string {
	var names []string
	for i := len(runs) - 1; i >= 0; i-- {
		for _, o := range runs[i].Results.Outcomes {
			if sel.Match(o.Scenario.Name) && !slices.Contains(names, o.Scenario.Name) {
				names = append(names, o.Scenario.Name)
			}
		}
	}
	return names
}

// current draws the latest run's bar chart of metrics for the selected
// scenarios it ran.
func current(run Run, names []string, metrics []metric, unit, yLabel, title, note string) []byte {
	c := barChart{
		title:    title + ": " + run.Label,
		subtitle: append(describeRun(run), note),
		yLabel:   yLabel,
		unit:     unit,
		log:      true, // rates from 7/s to thousands, latencies from ms to s
		series:   metricNames(metrics),
	}
	for _, name := range names {
		o, ok := outcome(run, name)
		if !ok {
			continue
		}
		g := barGroup{name: name, void: o.Void()}
		for _, m := range metrics {
			v, ok := m.value(o)
			g.values = append(g.values, value{v: v, ok: ok && !g.void})
		}
		c.groups = append(c.groups, g)
	}
	if len(c.groups) == 0 {
		return message(c.title, []string{"The latest run has none of the selected scenarios."})
	}
	return c.svg()
}

// history draws the small multiples of metrics across runs.
func history(runs []Run, names []string, metrics []metric, unit, title, note string) []byte {
	c := historyChart{
		title:  title,
		unit:   unit,
		series: metricNames(metrics),
	}
	for _, r := range runs {
		c.runs = append(c.runs, r.Label)
	}
	c.subtitle = []string{
		plural(len(runs), "recorded run", "recorded runs") + ", oldest " + runs[0].Label + ", latest " + runs[len(runs)-1].Label +
			"; each panel has its own scale",
	}
	c.subtitle = append(c.subtitle, describeMachines(runs)...)
	c.subtitle = append(c.subtitle, note)
	for _, name := range names {
		p := historyPanel{name: name, values: make([][]value, len(metrics)), void: make([]bool, len(runs))}
		for i := range metrics {
			p.values[i] = make([]value, len(runs))
		}
		for r, run := range runs {
			o, ok := outcome(run, name)
			if !ok {
				continue
			}
			p.void[r] = o.Void()
			for i, m := range metrics {
				v, ok := m.value(o)
				p.values[i][r] = value{v: v, ok: ok && !p.void[r]}
			}
		}
		c.panels = append(c.panels, p)
	}
	if len(c.panels) == 0 {
		return message(c.title, []string{"No recorded run has any of the selected scenarios."})
	}
	return c.svg()
}

// outcome finds the scenario called name in run.
func outcome(run Run, name string) (Outcome, bool) {
	for _, o := range run.Results.Outcomes {
		if o.Scenario.Name == name {
			return o, true
		}
	}
	return Outcome{}, false
}

func metricNames(ms []metric) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.name
	}
	return out
}

// describeRun is a run's caption: when, how long, on what.
func describeRun(r Run) []string {
	res := r.Results
	when := "started " + res.StartedAt.UTC().Format("2006-01-02 15:04 UTC")
	if res.Duration != "" {
		when += ", " + res.Duration + " per scenario"
	}
	return []string{when, describeMachine(res.Machine) + ", load average " + orDash(res.Machine.LoadAvg) + " at the start"}
}

// describeMachines is the caption of several runs: the latest run's
// machine, and a warning when the runs were taken on different ones.
func describeMachines(runs []Run) []string {
	var kinds []string
	for _, r := range runs {
		if k := describeMachine(r.Results.Machine); !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	latest := runs[len(runs)-1].Results.Machine
	out := []string{"latest on " + describeMachine(latest) + ", load average " + orDash(latest.LoadAvg) + " at the start"}
	if len(kinds) > 1 {
		out = append(out, "the runs were taken on "+plural(len(kinds), "machine", "different machines")+": compare with care ("+strings.Join(kinds, "; ")+")")
	}
	return out
}

// describeMachine is "2 CPUs (model), 23.5 GiB RAM".
func describeMachine(m Machine) string {
	s := plural(m.CPUs, "CPU", "CPUs")
	if m.CPUModel != "" {
		s += " (" + m.CPUModel + ")"
	}
	if m.MemoryMB > 0 {
		s += ", " + num(math.Round(m.MemoryMB/1024*10)/10) + " GiB RAM"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return grouped(float64(n)) + " " + many
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// message is a chart that only says something: no data to draw.
func message(title string, lines []string) []byte {
	d := newSVG(760, 60+18*float64(len(lines)))
	d.text(16, 26, "start", 16, 0, "", `font-weight="600"`, title)
	for i, l := range lines {
		d.text(16, 52+18*float64(i), "start", 12, 0, mutedInk, `class="message"`, l)
	}
	return d.bytes()
}
