package load

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestReadDiskIO(t *testing.T) {
	sys := t.TempDir()
	for _, disk := range []string{"vda", "sdb"} {
		require.NoError(t, os.MkdirAll(filepath.Join(sys, disk, "device"), 0o755))
	}
	for _, virtual := range []string{"loop0", "zram0", "dm-0"} {
		require.NoError(t, os.MkdirAll(filepath.Join(sys, virtual), 0o755))
	}
	stats := filepath.Join(t.TempDir(), "diskstats")
	require.NoError(t, os.WriteFile(stats, []byte(
		// A disk of a kernel with flush counts, its partition, memory
		// and mapped disks, and a disk of an older kernel without them.
		" 254 0 vda 100 0 800 5 1000 50 16000 70 0 30 90 0 0 0 0 400 9\n"+
			" 254 1 vda1 90 0 700 5 900 50 15000 70 0 30 90 0 0 0 0 0 0\n"+
			"   7 0 loop0 5 0 40 0 3000 0 99999 0 0 0 0 0 0 0 0 0 0\n"+
			" 252 0 zram0 5 0 40 0 3000 0 99999 0 0 0 0 0 0 0 0 0 0\n"+
			" 253 0 dm-0 5 0 40 0 3000 0 99999 0 0 0 0 0 0 0 0 0 0\n"+
			"   8 16 sdb 10 0 80 1 20 0 8 2 0 3 4\n"), 0o644))
	d, err := ReadDiskIO(stats, sys)
	require.NoError(t, err)
	require.Equal(t, int64(1020), d.Writes)
	require.Equal(t, int64(16008*512), d.Bytes)
	require.Equal(t, int64(400), d.Flushes)

	require.NoError(t, os.WriteFile(stats, []byte(" 254 0 vda 1 0 8 5 x 50 16000 70 0 30 90\n"), 0o644))
	_, err = ReadDiskIO(stats, sys)
	require.ErrorContains(t, err, "vda")

	_, err = ReadDiskIO(filepath.Join(t.TempDir(), "none"), sys)
	require.Error(t, err)
}

func TestDiskRate(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 20, 0, 0, 0, time.UTC)
	prev := DiskIO{At: t0, Writes: 100, Bytes: 1 << 20, Flushes: 10}
	now := DiskIO{At: t0.Add(2 * time.Second), Writes: 2300, Bytes: 21 << 20, Flushes: 870}
	r := now.RateSince(prev)
	require.InDelta(t, 1100, r.WritesPerS, 1e-9)
	require.InDelta(t, float64(10<<20), r.BytesPerS, 1e-9)
	require.InDelta(t, 430, r.FlushesPerS, 1e-9)
	require.Equal(t, DiskRate{}, prev.RateSince(prev), "no time passed")

	alone := DiskRate{WritesPerS: 420, BytesPerS: 2e6, FlushesPerS: 500}
	require.Equal(t, DiskRate{WritesPerS: 680, BytesPerS: float64(10<<20) - 2e6, FlushesPerS: 0}, r.Beyond(alone),
		"never below zero")
	require.Equal(t, "10.5 MB/s, 1100 writes/s, 430 flushes/s", r.String())
}

func TestDiskLoadLike(t *testing.T) {
	tests := []struct {
		name string
		rate DiskRate
		want DiskLoad
	}{
		{name: "a synced write of a page per flush, the rest unsynced",
			rate: DiskRate{WritesPerS: 680, BytesPerS: 8e6, FlushesPerS: 282},
			want: DiskLoad{Syncs: 282, SyncBytes: 8192, Bytes: 8e6 - 282*8192}},
		{name: "no flushes: unsynced writes only",
			rate: DiskRate{WritesPerS: 100, BytesPerS: 5e6},
			want: DiskLoad{Bytes: 5e6}},
		{name: "less than a flush a second: unsynced writes only",
			rate: DiskRate{WritesPerS: 100, BytesPerS: 5e6, FlushesPerS: 0.5},
			want: DiskLoad{Bytes: 5e6}},
		{name: "flushes without bytes",
			rate: DiskRate{FlushesPerS: 50},
			want: DiskLoad{Syncs: 50, SyncBytes: 8192}},
		{name: "synced writes larger than the bytes leave none unsynced",
			rate: DiskRate{WritesPerS: 10, BytesPerS: 100e3, FlushesPerS: 40},
			want: DiskLoad{Syncs: 40, SyncBytes: 8192}},
		{name: "idle", rate: DiskRate{}, want: DiskLoad{}},
		{name: "bounded", rate: DiskRate{WritesPerS: 1, BytesPerS: 1e9, FlushesPerS: 1e6},
			want: DiskLoad{Syncs: maxBurnSyncs, SyncBytes: 8192, Bytes: maxBurnBytes}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := DiskLoadLike(tt.rate)
			require.Equal(t, tt.want, got)
			require.NoError(t, got.validate())
		})
	}
}
