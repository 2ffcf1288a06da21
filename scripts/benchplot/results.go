package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// ErrNotResults is returned for a JSON file that is not what
// `ferry-load bench` writes (for instance the single outcome written by
// `ferry-load run -out`).
var ErrNotResults = errors.New("not a ferry-load bench results file (needs started_at and outcomes)")

// Results is one bench-results.json as `ferry-load bench` (make bench)
// writes it. It mirrors the shape of tests/load's types and of the
// document in tests/load/cmd/ferry-load, declaring only the fields the
// plots and their captions use; the others are ignored, so the format
// may grow without breaking the plots.
type Results struct {
	StartedAt time.Time `json:"started_at"`
	Machine   Machine   `json:"machine"`
	Note      string    `json:"note"`
	// Duration is the sending time per scenario, as Go prints a
	// time.Duration ("30s").
	Duration string    `json:"duration_per_scenario"`
	Outcomes []Outcome `json:"outcomes"`
}

// Machine describes where a run happened (load.Machine).
type Machine struct {
	CPUs     int     `json:"cpus"`
	CPUModel string  `json:"cpu_model"`
	MemoryMB float64 `json:"memory_mb"`
	LoadAvg  string  `json:"load_avg_at_start"`
	Kernel   string  `json:"kernel"`
}

// Outcome is one scenario's result (load.Outcome).
type Outcome struct {
	Scenario Scenario  `json:"scenario"`
	Report   Report    `json:"report"`
	Ferry    ProcStats `json:"ferry"`
	Note     string    `json:"note"`
	Error    string    `json:"error"`
}

// Scenario is a scenario's settings (load.Scenario). Its plan has no JSON
// tags in tests/load, so its fields carry their Go names.
type Scenario struct {
	Name string `json:"name"`
	Plan struct {
		Rate        float64       `json:"Rate"`
		Duration    time.Duration `json:"Duration"`
		Concurrency int           `json:"Concurrency"`
		Events      int64         `json:"Events"`
	} `json:"plan"`
}

// Report is a scenario's closed ledger (load.Report).
type Report struct {
	Accepted      int     `json:"accepted"`
	Delivered     int     `json:"delivered"`
	Missing       int     `json:"missing"`
	Duplicates    int     `json:"duplicates"`
	Void          bool    `json:"void"`
	VoidReason    string  `json:"void_reason"`
	AcceptedPerS  float64 `json:"accepted_per_s"`
	DeliveredPerS float64 `json:"delivered_in_window_per_s"`
	DrainS        float64 `json:"drain_s"`
	// Latency is scheduled send → first 2xx receipt (g-queue: 202 → pull).
	Latency Latency `json:"latency"`
	// AckLatency is scheduled send → the answer to the sender (202 for
	// events, 200 for inbound requests).
	AckLatency Latency `json:"ack_latency"`
}

// Latency is a distribution's summary in milliseconds (load.Latency).
// N is 0 when nothing was measured.
type Latency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P95 float64 `json:"p95_ms"`
	P99 float64 `json:"p99_ms"`
	Max float64 `json:"max_ms"`
}

// ProcStats is Ferry's footprint during a scenario (load.ProcStats).
type ProcStats struct {
	MaxRSSMB  float64 `json:"max_rss_mb"`
	MeanRSSMB float64 `json:"mean_rss_mb"`
	CPUCores  float64 `json:"cpu_cores"`
}

// Void reports whether the outcome's figures must not be used: its ledger
// did not close or the scenario failed.
func (o Outcome) Void() bool { return o.Report.Void || o.Error != "" }

// Run is one recorded run: its results and the label it is shown under,
// the file's name without .json (by convention <date>-<short commit>).
type Run struct {
	Label   string
	Path    string
	Results Results
}

// Load reads one results file. It returns ErrNotResults (wrapped) for
// JSON of another shape.
func Load(path string) (Run, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Run{}, fmt.Errorf("read results: %w", err)
	}
	var r Results
	if err := json.Unmarshal(raw, &r); err != nil {
		return Run{}, fmt.Errorf("parse %s: %w", path, err)
	}
	if r.StartedAt.IsZero() || r.Outcomes == nil {
		return Run{}, fmt.Errorf("%s: %w", path, ErrNotResults)
	}
	return Run{Label: strings.TrimSuffix(filepath.Base(path), ".json"), Path: path, Results: r}, nil
}

// LoadAll reads every results file named in paths; a directory stands for
// the *.json files directly inside it. The runs come back oldest first
// (by started_at, then label), whatever order the paths were given in.
func LoadAll(paths []string) ([]Run, error) {
	var files []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("results: %w", err)
		}
		if !st.IsDir() {
			files = append(files, p)
			continue
		}
		inside, err := filepath.Glob(filepath.Join(p, "*.json"))
		if err != nil {
			return nil, fmt.Errorf("list %s: %w", p, err)
		}
		files = append(files, inside...)
	}
	runs := make([]Run, 0, len(files))
	for _, f := range files {
		r, err := Load(f)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	slices.SortStableFunc(runs, func(a, b Run) int {
		if c := a.Results.StartedAt.Compare(b.Results.StartedAt); c != 0 {
			return c
		}
		return strings.Compare(a.Label, b.Label)
	})
	return runs, nil
}
