package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The fixtures in testdata/runs are synthetic: written by marshalling
// tests/load's own types the way ferry-load bench does, with made-up
// figures. They are not measurements.
const (
	fullRun    = "testdata/runs/2030-01-02-aaaaaaa.json"
	partialRun = "testdata/runs/2030-01-03-bbbbbbb.json"
)

func TestLoad(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		path    string // a fixture, or
		content string // a file written for the test
		wantErr error  // matched with errors.Is; nil: must succeed
		anyErr  bool
		check   func(t *testing.T, r Run)
	}{
		{
			name: "every kind of scenario",
			path: fullRun,
			check: func(t *testing.T, r Run) {
				require.Equal(t, "2030-01-02-aaaaaaa", r.Label)
				res := r.Results
				require.Equal(t, time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC), res.StartedAt.UTC())
				require.Equal(t, Machine{CPUs: 2, CPUModel: "Synthetic CPU <test> & co", MemoryMB: 2048,
					LoadAvg: "0.10 0.20 0.30", Kernel: "6.1.0-test"}, res.Machine)
				require.Equal(t, "10s", res.Duration)
				require.Len(t, res.Outcomes, 10)

				b, ok := outcome(r, "b-rate-500")
				require.True(t, ok)
				require.Equal(t, 500.0, b.Scenario.Plan.Rate)
				require.Equal(t, 10*time.Second, b.Scenario.Plan.Duration)
				require.Equal(t, 500.0, b.Report.AcceptedPerS)
				require.Equal(t, 500.0, b.Report.DeliveredPerS)
				require.Equal(t, Latency{N: 5000, P50: 10, P95: 20, P99: 40, Max: 140}, b.Report.Latency)
				require.Equal(t, 8.0, b.Report.AckLatency.P99)
				require.Equal(t, ProcStats{MaxRSSMB: 96, MeanRSSMB: 90, CPUCores: 0.5}, b.Ferry)
				require.False(t, b.Void())

				a, ok := outcome(r, "a-max-throughput")
				require.True(t, ok)
				require.Equal(t, 0.0, a.Scenario.Plan.Rate)
				require.Equal(t, 64, a.Scenario.Plan.Concurrency)

				e, ok := outcome(r, "e-one-endpoint-2000")
				require.True(t, ok)
				require.True(t, e.Void())
				require.Equal(t, 1000, e.Report.Missing)

				noisy, ok := outcome(r, "f-noisy-neighbour/noisy")
				require.True(t, ok)
				require.Equal(t, int64(1100), noisy.Scenario.Plan.Events)
				require.Equal(t, 21.9, noisy.Report.DrainS)

				drain, ok := outcome(r, "g-queue-1/drain")
				require.True(t, ok)
				require.Equal(t, 0, drain.Report.Latency.N)
				require.Equal(t, 5000.0, drain.Report.DeliveredPerS)

				h, ok := outcome(r, "h-inbound")
				require.True(t, ok)
				require.Equal(t, 1000.0, h.Scenario.Plan.Rate)
				require.Equal(t, 15.0, h.Report.AckLatency.P99)
			},
		},
		{
			name: "a run of some scenarios (BENCH_ONLY)",
			path: partialRun,
			check: func(t *testing.T, r Run) {
				require.Equal(t, "2030-01-03-bbbbbbb", r.Label)
				require.Len(t, r.Results.Outcomes, 2)
				require.Equal(t, "1.50 0.70 0.40", r.Results.Machine.LoadAvg)
			},
		},
		{
			name: "fields the plots do not use are ignored",
			content: `{"started_at":"2031-05-06T07:08:09Z","machine":{"cpus":8,"gpu":"none"},"duration_per_scenario":"30s",
				"outcomes":[{"scenario":{"name":"b-rate-100","plan":{"Rate":100,"Ingest":null}},"stages":[{"stage":"sent"}],
				"report":{"accepted_per_s":99.5,"by_user_agent":{"x":1}}}],"future":true}`,
			check: func(t *testing.T, r Run) {
				require.Equal(t, 8, r.Results.Machine.CPUs)
				require.Equal(t, 99.5, r.Results.Outcomes[0].Report.AcceptedPerS)
			},
		},
		{
			name:    "one outcome, as ferry-load run -out writes it",
			content: `{"scenario":{"name":"run"},"report":{"accepted":1},"ferry":{}}`,
			wantErr: ErrNotResults,
		},
		{
			name:    "no outcomes",
			content: `{"started_at":"2031-05-06T07:08:09Z","machine":{}}`,
			wantErr: ErrNotResults,
		},
		{
			name:    "not JSON",
			content: `cpus: 2`,
			anyErr:  true,
		},
		{
			name:    "missing file",
			path:    "testdata/runs/none.json",
			wantErr: os.ErrNotExist,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := tt.path
			if tt.content != "" {
				path = filepath.Join(t.TempDir(), "results.json")
				require.NoError(t, os.WriteFile(path, []byte(tt.content), 0o644))
			}
			r, err := Load(path)
			switch {
			case tt.wantErr != nil:
				require.ErrorIs(t, err, tt.wantErr)
			case tt.anyErr:
				require.Error(t, err)
			default:
				require.NoError(t, err)
				tt.check(t, r)
			}
		})
	}
}

func TestLoadAll(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		paths []string
		want  []string // labels
	}{
		{"files in order", []string{fullRun, partialRun}, []string{"2030-01-02-aaaaaaa", "2030-01-03-bbbbbbb"}},
		{"files out of order", []string{partialRun, fullRun}, []string{"2030-01-02-aaaaaaa", "2030-01-03-bbbbbbb"}},
		{"a directory", []string{"testdata/runs"}, []string{"2030-01-02-aaaaaaa", "2030-01-03-bbbbbbb"}},
		{"an empty directory", []string{t.TempDir()}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			runs, err := LoadAll(tt.paths)
			require.NoError(t, err)
			var got []string
			for _, r := range runs {
				got = append(got, r.Label)
			}
			require.Equal(t, tt.want, got)
		})
	}
}

func TestSelector(t *testing.T) {
	t.Parallel()
	tests := []struct {
		sel  string
		name string
		want bool
	}{
		{DefaultScenarios, "b-rate-500", true},
		{DefaultScenarios, "e-one-endpoint-max", true},
		{DefaultScenarios, "f-noisy-neighbour/victim", true},
		{DefaultScenarios, "g-queue-8/drain", true},
		{DefaultScenarios, "h-inbound-200", true},
		{DefaultScenarios, "a-max-throughput", false},
		{DefaultScenarios, "c-fanout-100", false},
		{DefaultScenarios, "warmup", false},
		{"", "a-max-throughput", true},
		{"", "warmup", false},
		{"g-queue-1", "g-queue-1/latency", true},
		{"g-queue-1", "g-queue-8/latency", false},
		{"h-inbound", "h-inbound-200", true},
		{" b-rate-500 , c ", "c-fanout-100", true},
		{"b-rate-500", "b-rate-5000", false},
	}
	for _, tt := range tests {
		t.Run(tt.sel+"/"+tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, ParseSelector(tt.sel).Match(tt.name))
		})
	}
}
