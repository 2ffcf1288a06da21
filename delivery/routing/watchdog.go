package routing

import (
	"runtime/metrics"
	"sync"
	"time"
)

// heapMetric is the bytes of heap objects, live or not yet swept: what a
// script that keeps allocating makes grow, read without stopping the
// world.
const heapMetric = "/memory/classes/heap/objects:bytes"

// cpuLimit stops a run once its thread has used limit of CPU time.
type cpuLimit struct {
	clock threadClock
	start time.Duration
	limit time.Duration
	stop  func()
}

// watchdog bounds the memory (and, where it can be read, the CPU time)
// of transformation runs. goja has no
// allocator hook and Go no per-goroutine allocation count, so it samples
// the process heap while at least one run is in progress and stops each
// run during which the heap has grown by more than limit. One goroutine
// samples for all runs; it exists only while runs do.
type watchdog struct {
	limit uint64
	every time.Duration

	mu      sync.Mutex
	runs    map[*watchedRun]struct{}
	running bool
}

type watchedRun struct {
	baseline uint64
	stop     func()
	cpu      *cpuLimit
	stopped  bool
}

func newWatchdog(limit uint64, every time.Duration) *watchdog {
	return &watchdog{limit: limit, every: every, runs: make(map[*watchedRun]struct{})}
}

// heapBytes reads heapMetric.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// add watches a run from now on; stop is called (once) when the heap
// outgrows the run's bound, cpu.stop (once) when the run's thread used
// its CPU time (cpu may be nil). The returned func ends the watch.
func (w *watchdog) add(stop func(), cpu *cpuLimit) (done func()) {
	r := &watchedRun{baseline: heapBytes(), stop: stop, cpu: cpu}
	w.mu.Lock()
	w.runs[r] = struct{}{}
	if !w.running {
		w.running = true
		go w.loop()
	}
	w.mu.Unlock()
	return func() {
		w.mu.Lock()
		delete(w.runs, r)
		w.mu.Unlock()
	}
}

func (w *watchdog) loop() {
	t := time.NewTicker(w.every)
	defer t.Stop()
	for range t.C {
		heap := heapBytes()
		w.mu.Lock()
		if len(w.runs) == 0 {
			w.running = false
			w.mu.Unlock()
			return
		}
		for r := range w.runs {
			if r.stopped {
				continue
			}
			if heap > r.baseline+w.limit {
				r.stopped = true
				r.stop()
			} else if r.cpu != nil {
				if used, ok := r.cpu.clock.used(); ok && used-r.cpu.start > r.cpu.limit {
					r.stopped = true
					r.cpu.stop()
				}
			}
		}
		w.mu.Unlock()
	}
}
