//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// maxWorkerFiles bounds a worker's descriptors: it needs its three
// standard streams and what the Go runtime opens for itself.
const maxWorkerFiles = 32

// workerNice is the worker's scheduling priority: tenants' code yields
// the CPU to Ferry's own work (accepting, committing, delivering) and to
// PostgreSQL, so a tenant whose transformations spin until their deadline
// on every worker it may hold slows the others' transformations, not
// everyone's requests. Under the Linux scheduler a task at nice 10 weighs
// about a tenth of one at 0.
const workerNice = 10

// applyLimits sets the worker's own resource limits, before it reads any
// request: a lower scheduling priority, memory (RLIMIT_DATA: the Go heap
// is private anonymous memory, and its PROT_NONE address reservations do
// not count, as they would for RLIMIT_AS), total CPU time as a backstop
// (the pool retires a worker at half of it; the kernel kills one that
// reaches it), no core files, no files written, few descriptors.
func applyLimits(cfg workerConfig) error {
	if err := lowerPriority(workerNice); err != nil {
		// A priority is no limit: without /proc the worker still runs,
		// at Ferry's priority.
		fmt.Fprintf(os.Stderr, "transformation worker: %v\n", err)
	}
	limits := []struct {
		name     string
		resource int
		value    uint64
	}{
		{"RLIMIT_CORE", unix.RLIMIT_CORE, 0},
		{"RLIMIT_FSIZE", unix.RLIMIT_FSIZE, 0},
		{"RLIMIT_NOFILE", unix.RLIMIT_NOFILE, maxWorkerFiles},
	}
	if cfg.Memory > 0 {
		limits = append(limits, struct {
			name     string
			resource int
			value    uint64
		}{"RLIMIT_DATA", unix.RLIMIT_DATA, cfg.Memory})
	}
	if cfg.CPU > 0 {
		// Soft and hard alike: the Go runtime ignores SIGXCPU, so only
		// the hard limit's SIGKILL would end the worker anyway.
		limits = append(limits, struct {
			name     string
			resource int
			value    uint64
		}{"RLIMIT_CPU", unix.RLIMIT_CPU, uint64((cfg.CPU + time.Second - 1) / time.Second)})
	}
	for _, l := range limits {
		var cur unix.Rlimit
		if err := unix.Getrlimit(l.resource, &cur); err != nil {
			return fmt.Errorf("get %s: %w", l.name, err)
		}
		v := min(l.value, cur.Max) // an unprivileged process can only lower
		if err := unix.Setrlimit(l.resource, &unix.Rlimit{Cur: v, Max: v}); err != nil {
			return fmt.Errorf("set %s to %d: %w", l.name, v, err)
		}
	}
	return nil
}

// lowerPriority sets every thread of the process to nice. Linux keeps a
// nice value per thread, and the Go runtime started some before main:
// each is set by its id; threads started later inherit their creator's.
// Twice over, in case one was started while the first pass ran.
func lowerPriority(nice int) error {
	for range 2 {
		tasks, err := os.ReadDir("/proc/self/task")
		if err != nil {
			return fmt.Errorf("list threads: %w", err)
		}
		for _, t := range tasks {
			tid, err := strconv.Atoi(t.Name())
			if err != nil {
				continue
			}
			// A thread that ended since the listing is no error.
			if err := unix.Setpriority(unix.PRIO_PROCESS, tid, nice); err != nil && !errors.Is(err, unix.ESRCH) {
				return fmt.Errorf("set nice %d on thread %d: %w", nice, tid, err)
			}
		}
	}
	return nil
}

// workerAttr makes a worker die with its parent: a worker looping inside
// a builtin never reads the end of its stdin.
func workerAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// killedByLimit reports whether a worker the pool did not kill was
// killed by the kernel: its CPU limit (SIGKILL at the hard limit, SIGXCPU
// at the soft one) or the OOM killer.
func killedByLimit(ps *os.ProcessState) bool {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	return ok && ws.Signaled() && (ws.Signal() == syscall.SIGKILL || ws.Signal() == syscall.SIGXCPU)
}

// nearMemoryLimit reports whether a dead worker's resident memory had
// reached half its data limit: a Go runtime that dies of its memory limit
// does not always get to say so (its message needs memory too), and a
// worker serving one small run is far below that.
func nearMemoryLimit(ps *os.ProcessState, limit int64) bool {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	return ok && limit > 0 && ru.Maxrss*1024 >= limit/2 // Maxrss is in KiB on Linux
}
