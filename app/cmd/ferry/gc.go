package main

import "runtime/debug"

// The garbage collector's settings for `ferry serve` when the environment
// does not set GOGC or GOMEMLIMIT (docs/operations.md, "Memory").
//
// With Go's default (GOGC=100, no limit) the collector took about a tenth
// of Ferry's CPU at full load, and `a-max-throughput` delivered 2,639 and
// 2,775 events/s against 2,971 and 3,044 with GOGC=200 (docs/benchmarks.md,
// 2026-11-26 19:01). The heap then grows to three times what is live
// instead of twice, so a soft limit keeps a process near the 256 MiB the
// operations guide asks for: close to it, the collector runs more often
// instead of letting the heap grow.
const (
	defaultGCPercent   = 200
	defaultMemoryLimit = 200 << 20
)

// tuneGC applies the defaults above where getenv leaves them unset.
func tuneGC(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(defaultGCPercent)
	}
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
}
