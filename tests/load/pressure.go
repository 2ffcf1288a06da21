package load

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Pressure is the machine's pressure stall information (Linux's
// /proc/pressure) in one second: how many milliseconds of it at least
// one task waited for a core (CPUSome) or for the disk (IOSome), and
// how many every task with work waited for the disk (IOFull).
type Pressure struct {
	CPUSomeMS, IOSomeMS, IOFullMS float64
}

// PressureRecorder keeps the machine's pressure second by second while a
// bench runs, so that a stall's seconds can say whether the disk or the
// cores were the machine's bottleneck then, whatever Ferry did.
type PressureRecorder struct {
	dir string // /proc/pressure

	mu      sync.Mutex
	seconds map[int64]Pressure
}

// pressureSample is the cumulative stall time, in microseconds.
type pressureSample struct {
	at                      time.Time
	cpuSome, ioSome, ioFull int64
}

// StartPressure samples dir (normally /proc/pressure) every 250 ms until
// ctx ends. It fails when the kernel keeps no pressure information.
func StartPressure(ctx context.Context, dir string) (*PressureRecorder, error) {
	r := &PressureRecorder{dir: dir, seconds: map[int64]Pressure{}}
	prev, err := r.sample()
	if err != nil {
		return nil, err
	}
	go func() {
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			cur, err := r.sample()
			if err != nil {
				continue
			}
			r.add(prev, cur)
			prev = cur
		}
	}()
	return r, nil
}

func (r *PressureRecorder) sample() (pressureSample, error) {
	s := pressureSample{at: time.Now()}
	var err error
	if s.cpuSome, _, err = readPressure(r.dir + "/cpu"); err != nil {
		return s, err
	}
	if s.ioSome, s.ioFull, err = readPressure(r.dir + "/io"); err != nil {
		return s, err
	}
	return s, nil
}

// add books the stall time between two samples to the second the later
// one was taken in.
func (r *PressureRecorder) add(prev, cur pressureSample) {
	sec := cur.at.Unix()
	r.mu.Lock()
	defer r.mu.Unlock()
	p := r.seconds[sec]
	p.CPUSomeMS += float64(cur.cpuSome-prev.cpuSome) / 1000
	p.IOSomeMS += float64(cur.ioSome-prev.ioSome) / 1000
	p.IOFullMS += float64(cur.ioFull-prev.ioFull) / 1000
	r.seconds[sec] = p
}

// Worst returns, of the seconds from..to (inclusive), the most of each
// kind of pressure, and false when none of them was recorded or r is nil.
func (r *PressureRecorder) Worst(from, to time.Time) (Pressure, bool) {
	if r == nil {
		return Pressure{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	var w Pressure
	found := false
	for sec := from.Unix(); sec <= to.Unix(); sec++ {
		p, ok := r.seconds[sec]
		if !ok {
			continue
		}
		found = true
		w.CPUSomeMS = max(w.CPUSomeMS, p.CPUSomeMS)
		w.IOSomeMS = max(w.IOSomeMS, p.IOSomeMS)
		w.IOFullMS = max(w.IOFullMS, p.IOFullMS)
	}
	return w, found
}

func readPressure(path string) (some, full int64, err error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, fmt.Errorf("pressure: %w", err)
	}
	return parsePressure(string(raw))
}

// parsePressure reads the cumulative totals (µs) of a /proc/pressure
// file: "some avg10=… total=N" and, except for cpu on older kernels,
// "full … total=N".
func parsePressure(text string) (some, full int64, err error) {
	seen := false
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		var total int64 = -1
		for _, f := range fields[1:] {
			if v, ok := strings.CutPrefix(f, "total="); ok {
				if total, err = strconv.ParseInt(v, 10, 64); err != nil {
					return 0, 0, fmt.Errorf("pressure: %q: %w", line, err)
				}
			}
		}
		if total < 0 {
			return 0, 0, fmt.Errorf("pressure: no total in %q", line)
		}
		switch fields[0] {
		case "some":
			some, seen = total, true
		case "full":
			full = total
		}
	}
	if !seen {
		return 0, 0, fmt.Errorf("pressure: no \"some\" line in %q", text)
	}
	return some, full, nil
}
