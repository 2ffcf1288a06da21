package main

import "strings"

// DefaultScenarios are the scenarios the plots show unless told otherwise:
// the ones docs/benchmarks.md reports on top (fixed rates, one endpoint,
// noisy neighbour, pull queues, inbound).
const DefaultScenarios = "b,e,f,g,h"

// Selector picks scenarios by name, the way BENCH_ONLY does: a name
// selects itself and every scenario named name-… or name/… ("e" selects
// e-one-endpoint-500, "g-queue-1" selects g-queue-1/drain). The warm-up
// is never selected; an empty Selector selects everything else.
type Selector []string

// ParseSelector reads a comma-separated list of names.
func ParseSelector(s string) Selector {
	var sel Selector
	for _, n := range strings.Split(s, ",") {
		if n = strings.TrimSpace(n); n != "" {
			sel = append(sel, n)
		}
	}
	return sel
}

// Match reports whether the scenario called name is selected.
func (sel Selector) Match(name string) bool {
	if name == "warmup" {
		return false
	}
	if len(sel) == 0 {
		return true
	}
	for _, w := range sel {
		if name == w || strings.HasPrefix(name, w+"-") || strings.HasPrefix(name, w+"/") {
			return true
		}
	}
	return false
}
