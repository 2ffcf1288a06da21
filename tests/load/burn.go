package load

import (
	"context"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MachineCPU is the machine's cumulative CPU time from /proc/stat, in
// clock ticks: busy (user, nice, system, irq, softirq, steal) and total
// (busy, idle and iowait).
type MachineCPU struct {
	Busy, Total uint64
}

// ReadMachineCPU reads the first line of path (normally /proc/stat).
func ReadMachineCPU(path string) (MachineCPU, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return MachineCPU{}, fmt.Errorf("read machine CPU: %w", err)
	}
	return parseMachineCPU(string(b))
}

func parseMachineCPU(s string) (MachineCPU, error) {
	line, _, _ := strings.Cut(s, "\n")
	f := strings.Fields(line)
	if len(f) < 9 || f[0] != "cpu" {
		return MachineCPU{}, fmt.Errorf("read machine CPU: unexpected first line %q", line)
	}
	var v [8]uint64 // user nice system idle iowait irq softirq steal
	for i := range v {
		n, err := strconv.ParseUint(f[i+1], 10, 64)
		if err != nil {
			return MachineCPU{}, fmt.Errorf("read machine CPU: field %d of %q: %w", i+1, line, err)
		}
		v[i] = n
	}
	busy := v[0] + v[1] + v[2] + v[5] + v[6] + v[7]
	return MachineCPU{Busy: busy, Total: busy + v[3] + v[4]}, nil
}

// CoresSince is how many of the machine's cpus cores were busy on
// average between prev and c.
func (c MachineCPU) CoresSince(prev MachineCPU, cpus int) float64 {
	if c.Total <= prev.Total {
		return 0
	}
	return float64(c.Busy-prev.Busy) / float64(c.Total-prev.Total) * float64(cpus)
}

// burnPeriod is the cycle of a burner's threads: each is busy for its
// share of every period and sleeps the rest. Short enough that every
// second sees many cycles, long enough for the sleeps to be kept.
const burnPeriod = 10 * time.Millisecond

// Burn keeps cores of the machine busy (at most one per cpu) until ctx
// ends, with nothing but spinning: a plain CPU load that shares no
// connection, lock or queue with anything else. It runs on
// ceil(cores) threads of their own, each busy for an equal share of
// every burnPeriod, their cycles spread over the period.
func Burn(ctx context.Context, cores float64) error {
	if cores <= 0 || math.IsNaN(cores) || cores > float64(runtime.NumCPU()) {
		return fmt.Errorf("burn: cores must be above 0 and at most %d, not %g", runtime.NumCPU(), cores)
	}
	threads := int(math.Ceil(cores))
	busy := time.Duration(float64(burnPeriod) * cores / float64(threads))
	var wg sync.WaitGroup
	for i := range threads {
		offset := burnPeriod * time.Duration(i) / time.Duration(threads)
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			burnThread(ctx, busy, offset)
		})
	}
	wg.Wait()
	return nil
}

// burnThread spins for busy of every burnPeriod, starting offset into
// the first, until ctx ends.
func burnThread(ctx context.Context, busy, offset time.Duration) {
	next := time.Now().Add(offset)
	for ctx.Err() == nil {
		time.Sleep(time.Until(next))
		// Busy from the wake-up, which comes late by the timer's slack
		// (up to a millisecond here): from next, the share would fall short.
		until := time.Now().Add(busy)
		for time.Now().Before(until) {
		}
		next = next.Add(burnPeriod)
		if late := time.Since(next); late > burnPeriod {
			// Descheduled for a whole period: skip the cycles missed
			// rather than spin through them back to back.
			next = next.Add(late.Truncate(burnPeriod))
		}
	}
}
