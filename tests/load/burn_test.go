package load

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestStatTicks(t *testing.T) {
	tests := []struct {
		name                 string
		stat                 string
		wantTicks, wantStart int64
		valid                bool
	}{
		{name: "utime and stime are the 14th and 15th fields, the start the 22nd",
			stat: "1234 (postgres) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 40 0 0 20 0 1 0 500 1000 200", wantTicks: 290, wantStart: 500, valid: true},
		{name: "a command with spaces and parentheses",
			stat: "77 (my (odd) cmd) R 1 77 77 0 -1 0 0 0 0 0 7 3 0 0 20 0 1 0 5 10 2", wantTicks: 10, wantStart: 5, valid: true},
		{name: "cut short", stat: "77 (x) R 1 2 3", valid: false},
		{name: "no command", stat: "garbage", valid: false},
		{name: "a time that is no number", stat: "1 (x) S 1 1 1 0 -1 0 0 0 0 0 x 3 0 0 20 0 1 0 5 10 2", valid: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ticks, started, ok := statTicks(tt.stat)
			require.Equal(t, tt.valid, ok)
			if tt.valid {
				require.Equal(t, tt.wantTicks, ticks)
				require.Equal(t, tt.wantStart, started)
			}
		})
	}
}

func TestCoresSince(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)
	a, b, c := Process{1, 10}, Process{2, 20}, Process{3, 30}
	prev := MachineCPU{At: t0, Ticks: map[Process]int64{a: 1000, b: 500, c: 70}}
	tests := []struct {
		name string
		now  MachineCPU
		want float64
	}{
		{name: "200 ticks over 2 s is a core",
			now: MachineCPU{At: t0.Add(2 * time.Second), Ticks: map[Process]int64{a: 1150, b: 550, c: 70}}, want: 1},
		{name: "a process started meanwhile counts whole, one that ended not at all",
			now: MachineCPU{At: t0.Add(time.Second), Ticks: map[Process]int64{a: 1050, {4, 900}: 30}}, want: 0.8},
		{name: "a pid used again is another process",
			now: MachineCPU{At: t0.Add(time.Second), Ticks: map[Process]int64{a: 1000, {2, 950}: 10}}, want: 0.1},
		{name: "no time passed", now: prev, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.InDelta(t, tt.want, tt.now.CoresSince(prev), 1e-9)
		})
	}
}

func TestBurnRefusesImpossibleLoads(t *testing.T) {
	for _, cores := range []float64{0, -1, float64(runtime.NumCPU()) + 0.5} {
		require.Error(t, Burn(context.Background(), cores, DiskLoad{}, t.TempDir()), "cores %g", cores)
	}
	for _, disk := range []DiskLoad{
		{Syncs: -1, SyncBytes: 4096},
		{Syncs: 10, SyncBytes: 0},
		{Syncs: 10, SyncBytes: 2 << 20},
		{Syncs: maxBurnSyncs + 1, SyncBytes: 4096},
		{Bytes: -5},
		{Bytes: 1e12},
	} {
		require.Error(t, Burn(context.Background(), 0.1, disk, t.TempDir()), "disk %+v", disk)
	}
}

func TestBurnWritesAndCleansUp(t *testing.T) {
	dir := t.TempDir()
	before := writtenChars(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	require.NoError(t, Burn(ctx, 0.2, DiskLoad{Syncs: 50, SyncBytes: 4096, Bytes: 1 << 20}, dir))
	// The log's 16 MB readied, then some 40 synced writes and most of a
	// megabyte unsynced in the second.
	require.Greater(t, writtenChars(t)-before, int64(burnLogSize+(1<<19)))
	left, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Empty(t, left, "the plain load's files are removed")
}

func TestBurnFailsWhenItCannotWrite(t *testing.T) {
	err := Burn(context.Background(), 0.1, DiskLoad{Syncs: 10, SyncBytes: 4096}, filepath.Join(t.TempDir(), "missing"))
	require.ErrorIs(t, err, fs.ErrNotExist)
}

// writtenChars is what this process has written so far, to any file
// system (/proc/self/io's wchar).
func writtenChars(t *testing.T) int64 {
	t.Helper()
	raw, err := os.ReadFile("/proc/self/io")
	require.NoError(t, err)
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			require.NoError(t, err)
			return n
		}
	}
	t.Fatalf("no wchar in /proc/self/io: %q", raw)
	return 0
}

func TestReadMachineCPUOfThisMachine(t *testing.T) {
	c, err := ReadMachineCPU("/proc")
	require.NoError(t, err)
	var mine bool
	for p := range c.Ticks {
		mine = mine || p.PID == os.Getpid()
	}
	require.True(t, mine, "the test's own process is among the machine's")
}
