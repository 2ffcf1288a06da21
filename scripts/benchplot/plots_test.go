package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// drawn is what a generated SVG shows, read back from its XML.
type drawn struct {
	legend   []string // series, in legend order
	groups   []string // scenarios (bar groups or panels), in order
	bars     []string // "scenario series" per bar
	points   []string // "scenario series run" per point
	voids    []string // "scenario run" per void mark in a panel
	messages int      // lines of a chart with nothing to draw
}

// readSVG parses an SVG and fails the test unless it is well-formed XML
// with an svg root in the SVG namespace.
func readSVG(t *testing.T, data []byte) drawn {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	var d drawn
	var scenario string
	depth := 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err, "not well-formed XML")
		switch el := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				require.Equal(t, "svg", el.Name.Local)
				require.Equal(t, "http://www.w3.org/2000/svg", el.Name.Space)
			}
			depth++
			a := attrs(el)
			switch {
			case el.Name.Local == "g" && a["class"] == "scenario":
				scenario = a["data-scenario"]
				d.groups = append(d.groups, scenario)
			case el.Name.Local == "g" && a["class"] == "legend":
				d.legend = append(d.legend, a["data-series"])
			case a["class"] == "bar":
				d.bars = append(d.bars, scenario+" "+a["data-series"])
			case a["class"] == "point":
				d.points = append(d.points, scenario+" "+a["data-series"]+" "+a["data-run"])
			case a["class"] == "void":
				d.voids = append(d.voids, scenario+" "+a["data-run"])
			case a["class"] == "message":
				d.messages++
			}
		case xml.EndElement:
			depth--
		}
	}
	require.Zero(t, depth)
	return d
}

func attrs(el xml.StartElement) map[string]string {
	m := map[string]string{}
	for _, a := range el.Attr {
		m[a.Name.Local] = a.Value
	}
	return m
}

func TestPlots(t *testing.T) {
	t.Parallel()
	fFull := []string{"f-noisy-neighbour/victim-alone", "f-noisy-neighbour/victim", "f-noisy-neighbour/noisy"}
	oneRun := append(append([]string{"b-rate-500", "e-one-endpoint-2000"}, fFull...), "g-queue-1/drain", "g-queue-1/latency", "h-inbound")
	tests := []struct {
		name  string
		paths []string
		sel   string
		want  map[string]drawn
	}{
		{
			name:  "one run",
			paths: []string{fullRun},
			sel:   DefaultScenarios,
			want: map[string]drawn{
				currentThroughputFile: {
					legend: []string{"accepted/s", "delivered/s while sending"},
					groups: oneRun,
					bars: []string{
						"b-rate-500 accepted/s", "b-rate-500 delivered/s while sending",
						// e-one-endpoint-2000 is void: no bars.
						"f-noisy-neighbour/victim-alone accepted/s", "f-noisy-neighbour/victim-alone delivered/s while sending",
						"f-noisy-neighbour/victim accepted/s", "f-noisy-neighbour/victim delivered/s while sending",
						"f-noisy-neighbour/noisy accepted/s",
						"g-queue-1/drain delivered/s while sending",
						"g-queue-1/latency accepted/s",
						"h-inbound accepted/s", "h-inbound delivered/s while sending",
					},
				},
				currentLatencyFile: {
					legend: []string{"p50", "p99", "answer p99"},
					groups: oneRun,
					bars: []string{
						"b-rate-500 p50", "b-rate-500 p99", "b-rate-500 answer p99",
						"f-noisy-neighbour/victim-alone p50", "f-noisy-neighbour/victim-alone p99", "f-noisy-neighbour/victim-alone answer p99",
						"f-noisy-neighbour/victim p50", "f-noisy-neighbour/victim p99", "f-noisy-neighbour/victim answer p99",
						"f-noisy-neighbour/noisy p50", "f-noisy-neighbour/noisy p99", "f-noisy-neighbour/noisy answer p99",
						"g-queue-1/latency p50", "g-queue-1/latency p99",
						"h-inbound p50", "h-inbound p99", "h-inbound answer p99",
					},
				},
				historyLatencyFile: {
					legend: []string{"p50", "p99", "answer p99"},
					groups: oneRun,
					points: []string{
						"b-rate-500 p50 2030-01-02-aaaaaaa", "b-rate-500 p99 2030-01-02-aaaaaaa", "b-rate-500 answer p99 2030-01-02-aaaaaaa",
						"f-noisy-neighbour/victim-alone p50 2030-01-02-aaaaaaa", "f-noisy-neighbour/victim-alone p99 2030-01-02-aaaaaaa",
						"f-noisy-neighbour/victim-alone answer p99 2030-01-02-aaaaaaa",
						"f-noisy-neighbour/victim p50 2030-01-02-aaaaaaa", "f-noisy-neighbour/victim p99 2030-01-02-aaaaaaa",
						"f-noisy-neighbour/victim answer p99 2030-01-02-aaaaaaa",
						"f-noisy-neighbour/noisy p50 2030-01-02-aaaaaaa", "f-noisy-neighbour/noisy p99 2030-01-02-aaaaaaa",
						"f-noisy-neighbour/noisy answer p99 2030-01-02-aaaaaaa",
						"g-queue-1/latency p50 2030-01-02-aaaaaaa", "g-queue-1/latency p99 2030-01-02-aaaaaaa",
						"h-inbound p50 2030-01-02-aaaaaaa", "h-inbound p99 2030-01-02-aaaaaaa", "h-inbound answer p99 2030-01-02-aaaaaaa",
					},
					voids:    []string{"e-one-endpoint-2000 2030-01-02-aaaaaaa"},
					messages: 1, // g-queue-1/drain has no latency
				},
			},
		},
		{
			name:  "two runs, the latest of some scenarios",
			paths: []string{"testdata/runs"},
			sel:   "b,h,e",
			want: map[string]drawn{
				// The latest run had b and h only.
				currentLatencyFile: {
					legend: []string{"p50", "p99", "answer p99"},
					groups: []string{"b-rate-500", "h-inbound"},
					bars: []string{
						"b-rate-500 p50", "b-rate-500 p99", "b-rate-500 answer p99",
						"h-inbound p50", "h-inbound p99", "h-inbound answer p99",
					},
				},
				// The latest run's scenarios first, then the older ones'.
				historyThroughputFile: {
					legend: []string{"accepted/s", "delivered/s while sending"},
					groups: []string{"b-rate-500", "h-inbound", "e-one-endpoint-2000"},
					points: []string{
						"b-rate-500 accepted/s 2030-01-02-aaaaaaa", "b-rate-500 accepted/s 2030-01-03-bbbbbbb",
						"b-rate-500 delivered/s while sending 2030-01-02-aaaaaaa", "b-rate-500 delivered/s while sending 2030-01-03-bbbbbbb",
						"h-inbound accepted/s 2030-01-02-aaaaaaa", "h-inbound accepted/s 2030-01-03-bbbbbbb",
						"h-inbound delivered/s while sending 2030-01-02-aaaaaaa", "h-inbound delivered/s while sending 2030-01-03-bbbbbbb",
					},
					voids: []string{"e-one-endpoint-2000 2030-01-02-aaaaaaa"},
				},
			},
		},
		{
			name:  "no scenario selected",
			paths: []string{fullRun},
			sel:   "z",
			want: map[string]drawn{
				currentThroughputFile: {messages: 1},
				historyLatencyFile:    {messages: 1},
			},
		},
		{
			name:  "no recorded run",
			paths: nil,
			sel:   DefaultScenarios,
			want: map[string]drawn{
				currentThroughputFile: {messages: 3},
				currentLatencyFile:    {messages: 3},
				historyThroughputFile: {messages: 3},
				historyLatencyFile:    {messages: 3},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			runs, err := LoadAll(tt.paths)
			require.NoError(t, err)
			files := Plots(runs, ParseSelector(tt.sel))
			var names []string
			for _, f := range files {
				names = append(names, f.Name)
				got := readSVG(t, f.Data)
				if want, ok := tt.want[f.Name]; ok {
					require.Equal(t, want, got, f.Name)
				}
			}
			require.Equal(t, []string{currentThroughputFile, currentLatencyFile, historyThroughputFile, historyLatencyFile}, names)

			// Deterministic: the same runs, given in another order, draw
			// the same bytes.
			rev := slices.Clone(tt.paths)
			slices.Reverse(rev)
			again, err := LoadAll(rev)
			require.NoError(t, err)
			require.Equal(t, files, Plots(again, ParseSelector(tt.sel)))
		})
	}
}

// TestRun writes the plots of the fixtures twice: byte-identical files,
// and the values escaped into the captions.
func TestRun(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	require.NoError(t, run([]string{"-out", out, "testdata/runs"}, &stdout, &stderr))
	first := map[string][]byte{}
	for _, name := range []string{currentThroughputFile, currentLatencyFile, historyThroughputFile, historyLatencyFile} {
		b, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err)
		first[name] = b
	}
	require.Contains(t, string(first[currentLatencyFile]), "Synthetic CPU &lt;test&gt; &amp; co")
	require.Contains(t, stdout.String(), "2 recorded run(s)")

	require.NoError(t, run([]string{"-out", out, "testdata/runs"}, &stdout, &stderr))
	for name, b := range first {
		again, err := os.ReadFile(filepath.Join(out, name))
		require.NoError(t, err)
		require.Equal(t, b, again, name)
	}

	err := run([]string{"-out", out}, &stdout, &stderr)
	require.Error(t, err)
	require.True(t, strings.Contains(stderr.String(), "usage: benchplot"))
}

func TestFormatting(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"num trims zeros", num(12.50), "12.5"},
		{"num rounds", num(1.0 / 3), "0.33"},
		{"num has no negative zero", num(-0.001), "0"},
		{"grouped", grouped(2921.4), "2,921"},
		{"grouped small", grouped(6.7), "6.7"},
		{"grouped million", grouped(1234567), "1,234,567"},
		{"millis", millis(39), "39 ms"},
		{"millis decimals", millis(11.24), "11.2 ms"},
		{"millis seconds", millis(2246), "2.25 s"},
		{"millis big", millis(337.4), "337 ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.Equal(t, tt.want, tt.got)
		})
	}
}

func TestScales(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		sc        scale
		wantTicks []float64
	}{
		{"linear to a round top", linearScale(2921), []float64{0, 500, 1000, 1500, 2000, 2500, 3000}},
		{"linear small", linearScale(6.7), []float64{0, 2, 4, 6, 8}},
		{"linear empty", linearScale(0), []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{"log decades", logScale(6.1, 2246, "ms"), []float64{1, 10, 100, 1000, 10000}},
		{"log one decade", logScale(12, 30, "ms"), []float64{10, 100}},
		{"log exact decade", logScale(10, 10, "ms"), []float64{10, 100}},
		{"log empty", logScale(0, 0, "ms"), []float64{1, 10}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			require.InDeltaSlice(t, tt.wantTicks, tt.sc.ticks, 1e-9)
			require.InDelta(t, 0.0, tt.sc.frac(tt.sc.ticks[0]), 1e-9)
			require.InDelta(t, 1.0, tt.sc.frac(tt.sc.ticks[len(tt.sc.ticks)-1]), 1e-9)
		})
	}
}
