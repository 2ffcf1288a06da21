//go:build linux

package routing

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadClock is the CPU-time clock of the calling OS thread, readable
// from any thread of the process (Linux: the per-thread CPUCLOCK_SCHED
// clock id, as pthread_getcpuclockid makes it). The caller must hold its
// goroutine on the thread (runtime.LockOSThread) for the clock to mean
// that goroutine's CPU time.
type threadClock struct{ id int32 }

func currentThreadClock() (threadClock, bool) {
	tid := unix.Gettid()
	return threadClock{id: int32(^tid<<3 | 6)}, true
}

// used returns the CPU time the thread has consumed so far.
func (c threadClock) used() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(c.id, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
