package load

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ferry-dev/ferry/internal/proccpu"
)

// MachineCPU is the CPU time every process of the machine had used at
// a moment, in clock ticks (utime and stime of /proc/[pid]/stat, which
// Linux scales to the scheduler's exact run time). Summed per process
// rather than read from /proc/stat, whose counters sample the cpus at
// each tick: it counted Burn's load of 30 µs runs at three quarters of
// its size.
type MachineCPU struct {
	At    time.Time
	Ticks map[Process]int64
}

// Process names a process for as long as it lives: a pid, and when it
// started (in clock ticks after boot), as Linux reuses pids.
type Process struct {
	PID     int
	Started int64
}

// ReadMachineCPU reads every process under procDir (normally /proc).
// Processes that end meanwhile are skipped.
func ReadMachineCPU(procDir string) (MachineCPU, error) {
	entries, err := os.ReadDir(procDir)
	if err != nil {
		return MachineCPU{}, fmt.Errorf("read machine CPU: %w", err)
	}
	c := MachineCPU{At: time.Now(), Ticks: map[Process]int64{}}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join(procDir, e.Name(), "stat"))
		if err != nil {
			continue
		}
		if t, started, ok := statTicks(string(b)); ok {
			c.Ticks[Process{pid, started}] = t
		}
	}
	return c, nil
}

// statTicks reads a /proc/[pid]/stat line: utime+stime, and when the
// process started.
func statTicks(stat string) (ticks, started int64, ok bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(stat[i+1:]) // from the 3rd field, state
	if len(f) < 20 {
		return 0, 0, false
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	s, err2 := strconv.ParseInt(f[12], 10, 64)
	started, err3 := strconv.ParseInt(f[19], 10, 64)
	return u + s, started, err1 == nil && err2 == nil && err3 == nil
}

// CoresSince is how many cores the machine's processes kept busy on
// average between prev and c: a process started meanwhile counts whole,
// one that ended meanwhile not at all.
func (c MachineCPU) CoresSince(prev MachineCPU) float64 {
	wall := c.At.Sub(prev.At).Seconds()
	if wall <= 0 {
		return 0
	}
	var ticks int64
	for p, t := range c.Ticks {
		ticks += t - prev.Ticks[p]
	}
	return float64(ticks) / clockTicks / wall
}

// clockTicks is Linux's USER_HZ, the unit of /proc/[pid]/stat's times.
const clockTicks = 100

// The plain load's shape: burnThreads threads that each wake at random
// (exponentially distributed gaps) and spin, as a server's threads make
// many short runs. At 0.8 of a core that is some 13,000–27,000 wake-ups a
// second, near the 36,000 of the inbound flood over Ferry, PostgreSQL,
// Kafka, the generator and the sink (docs/benchmarks.md, 2026-11-27
// 12:18). Two threads busy for milliseconds at a time moved the
// bystander's latency about as far (docs/benchmarks.md, 2026-11-28 10:27).
const (
	burnThreads = 32
	// burnSpin is how long a run spins once awake.
	burnSpin = 30 * time.Microsecond
	// burnSteer is how often the gaps between runs are steered so that
	// the process's CPU time, its wake-ups' included, makes the cores
	// asked.
	burnSteer = 250 * time.Millisecond
)

// Burn keeps cores of the machine busy (at most one per cpu) until ctx
// ends, with nothing but spinning, and makes disk's writes in files of
// its own under dir: a plain load that shares no connection, lock or
// queue with anything else. Each thread sleeps in the kernel
// (nanosleep), not in Go's scheduler, so that every run is a wake-up the
// kernel schedules. It is meant for a process of its own (ferry-load
// burn): it gives every thread a Go processor, as otherwise a thread
// back from its sleep waits for one that a sleeping thread still holds.
// The writes' CPU counts in the cores asked.
func Burn(ctx context.Context, cores float64, disk DiskLoad, dir string) error {
	if cores <= 0 || math.IsNaN(cores) || cores > float64(runtime.NumCPU()) {
		return fmt.Errorf("burn: cores must be above 0 and at most %d, not %g", runtime.NumCPU(), cores)
	}
	if err := disk.validate(); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// One more for the steering and one for the writes.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(burnThreads + 2))
	// A wake-up costs the kernel and Go's runtime about as much again as
	// the spin: the mean gap starts there and is steered from what the
	// process actually used.
	var meanGap atomic.Int64
	meanGap.Store(int64(float64(2*burnSpin*burnThreads) / cores))
	var wg sync.WaitGroup
	wg.Go(func() { steerGaps(ctx, cores, &meanGap) })
	var diskErr error
	if !disk.idle() {
		wg.Go(func() {
			if diskErr = writeDisk(ctx, disk, dir); diskErr != nil {
				cancel()
			}
		})
	}
	for i := range burnThreads {
		rng := rand.New(rand.NewPCG(uint64(i), uint64(time.Now().UnixNano())))
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			// The kernel's default 50 µs of slack on every sleep would
			// stretch the gaps.
			_ = unix.Prctl(unix.PR_SET_TIMERSLACK, 1, 0, 0, 0)
			for ctx.Err() == nil {
				gap := unix.NsecToTimespec(int64(rng.ExpFloat64() * float64(meanGap.Load())))
				_ = unix.Nanosleep(&gap, nil)
				until := time.Now().Add(burnSpin)
				for time.Now().Before(until) {
				}
			}
		})
	}
	wg.Wait()
	return diskErr
}

// The files writeDisk writes in, rewritten from their start once full.
const (
	burnLogSize  = 16 << 20
	burnDataSize = 64 << 20
)

// writeDisk makes l's writes, paced evenly, until ctx ends; it removes
// its files when done. A write that fails ends it with the error, so
// that a plain load that did not write is not taken for one that did.
func writeDisk(ctx context.Context, l DiskLoad, dir string) error {
	logFile, err := os.CreateTemp(dir, "ferry-burn-log-*")
	if err != nil {
		return fmt.Errorf("burn: %w", err)
	}
	defer os.Remove(logFile.Name())
	defer logFile.Close()
	dataFile, err := os.CreateTemp(dir, "ferry-burn-data-*")
	if err != nil {
		return fmt.Errorf("burn: %w", err)
	}
	defer os.Remove(dataFile.Name())
	defer dataFile.Close()
	logFd, dataFd := int(logFile.Fd()), int(dataFile.Fd())
	if l.Syncs > 0 {
		// Written whole and synced first, as a database readies its log's
		// segments: a synced write then costs the disk that write and a
		// flush, not the allocation of its blocks as well.
		zeros := make([]byte, 1<<20)
		for off := int64(0); off < burnLogSize; off += int64(len(zeros)) {
			if _, err := logFile.WriteAt(zeros, off); err != nil {
				return fmt.Errorf("burn: %w", err)
			}
		}
		if err := unix.Fdatasync(logFd); err != nil {
			return fmt.Errorf("burn: %w", err)
		}
	}
	ticks := l.Syncs
	if ticks == 0 {
		ticks = 100
	}
	interval := time.Duration(float64(time.Second) / ticks)
	var logBuf []byte
	if l.Syncs > 0 {
		logBuf = make([]byte, l.SyncBytes)
	}
	dataBuf := make([]byte, int(l.Bytes/ticks))
	var logOff, dataOff int64
	next := time.Now()
	for {
		next = next.Add(interval)
		if wait := time.Until(next); wait > 0 {
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(wait):
			}
		} else if wait < -time.Second {
			next = time.Now() // a long stall is not made up in a burst
		}
		if ctx.Err() != nil {
			return nil
		}
		if len(logBuf) > 0 {
			if logOff+int64(len(logBuf)) > burnLogSize {
				logOff = 0
			}
			if _, err := logFile.WriteAt(logBuf, logOff); err != nil {
				return fmt.Errorf("burn: %w", err)
			}
			if err := unix.Fdatasync(logFd); err != nil {
				return fmt.Errorf("burn: %w", err)
			}
			logOff += int64(len(logBuf))
		}
		if len(dataBuf) > 0 {
			if dataOff+int64(len(dataBuf)) > burnDataSize {
				dataOff = 0
			}
			if _, err := dataFile.WriteAt(dataBuf, dataOff); err != nil {
				return fmt.Errorf("burn: %w", err)
			}
			// Handed to the disk now rather than after the kernel's 30 s
			// of dirty expiry, which would outlast the run.
			if err := unix.SyncFileRange(dataFd, dataOff, int64(len(dataBuf)), unix.SYNC_FILE_RANGE_WRITE); err != nil {
				return fmt.Errorf("burn: %w", err)
			}
			dataOff += int64(len(dataBuf))
		}
	}
}

// steerGaps scales the mean gap every burnSteer by how far the
// process's CPU time over the last period was from cores.
func steerGaps(ctx context.Context, cores float64, meanGap *atomic.Int64) {
	t := time.NewTicker(burnSteer)
	defer t.Stop()
	last, lastAt := proccpu.Self(), time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		used, now := proccpu.Self(), time.Now()
		got := (used - last).Seconds() / now.Sub(lastAt).Seconds()
		last, lastAt = used, now
		if got <= 0 {
			continue
		}
		scaled := float64(meanGap.Load()) * min(max(got/cores, 0.5), 2)
		meanGap.Store(int64(min(max(scaled, float64(burnSpin)), float64(time.Second))))
	}
}
