package load

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// DiskIO is what the machine's disks had written at a moment, summed
// over whole disks (/proc/diskstats).
type DiskIO struct {
	At      time.Time
	Writes  int64 // write requests completed
	Bytes   int64 // bytes written
	Flushes int64 // flush requests completed: a synced write's cost
}

// DiskRate is how fast the machine's disks wrote between two reads.
type DiskRate struct {
	WritesPerS  float64 `json:"writes_per_s"`
	BytesPerS   float64 `json:"bytes_per_s"`
	FlushesPerS float64 `json:"flushes_per_s"`
}

// String reads as "9.8 MB/s, 1100 writes/s, 430 flushes/s".
func (r DiskRate) String() string {
	return fmt.Sprintf("%.1f MB/s, %.0f writes/s, %.0f flushes/s", r.BytesPerS/1e6, r.WritesPerS, r.FlushesPerS)
}

// ReadDiskIO sums /proc/diskstats (procFile) over the whole disks that
// sysBlock (normally /sys/block) lists with a device behind them. That
// leaves out partitions, which repeat their disk's counts, and loop,
// RAM and device-mapper disks, which either write to another disk or to
// memory.
func ReadDiskIO(procFile, sysBlock string) (DiskIO, error) {
	raw, err := os.ReadFile(procFile)
	if err != nil {
		return DiskIO{}, fmt.Errorf("read disk stats: %w", err)
	}
	d := DiskIO{At: time.Now()}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 10 {
			continue
		}
		if _, err := os.Stat(filepath.Join(sysBlock, f[2], "device")); err != nil {
			continue
		}
		writes, err1 := strconv.ParseInt(f[7], 10, 64)
		sectors, err2 := strconv.ParseInt(f[9], 10, 64)
		if err1 != nil || err2 != nil {
			return DiskIO{}, fmt.Errorf("read disk stats: %s: not a number in %q", f[2], sc.Text())
		}
		d.Writes += writes
		d.Bytes += sectors * 512 // diskstats counts 512-byte sectors whatever the disk's own
		// The flush counts came with Linux 5.5.
		if len(f) >= 20 {
			if flushes, err := strconv.ParseInt(f[18], 10, 64); err == nil {
				d.Flushes += flushes
			}
		}
	}
	return d, nil
}

// RateSince is how fast the disks wrote between prev and d.
func (d DiskIO) RateSince(prev DiskIO) DiskRate {
	wall := d.At.Sub(prev.At).Seconds()
	if wall <= 0 {
		return DiskRate{}
	}
	return DiskRate{
		WritesPerS:  float64(d.Writes-prev.Writes) / wall,
		BytesPerS:   float64(d.Bytes-prev.Bytes) / wall,
		FlushesPerS: float64(d.Flushes-prev.Flushes) / wall,
	}
}

// Beyond is how much faster r wrote than base, never below zero.
func (r DiskRate) Beyond(base DiskRate) DiskRate {
	return DiskRate{
		WritesPerS:  max(r.WritesPerS-base.WritesPerS, 0),
		BytesPerS:   max(r.BytesPerS-base.BytesPerS, 0),
		FlushesPerS: max(r.FlushesPerS-base.FlushesPerS, 0),
	}
}

// BystanderDisk is how fast the machine's disks wrote in each of an
// inbound bystander's three runs.
type BystanderDisk struct {
	Alone          DiskRate `json:"alone"`
	BesideScenario DiskRate `json:"beside_scenario"`
	BesideLoad     DiskRate `json:"beside_load"`
}

// DiskLoad is what Burn writes besides spinning: Syncs writes a second
// of SyncBytes each, each followed by fdatasync, as a database writes
// its log at every commit; and Bytes a second more, handed to the disk
// at once without waiting, as data pages and Kafka's segments are.
type DiskLoad struct {
	Syncs     float64 `json:"syncs_per_s"`
	SyncBytes int     `json:"sync_bytes"`
	Bytes     float64 `json:"bytes_per_s"`
}

// Limits of a DiskLoad, so that a mistaken size cannot fill the disk or
// stall the machine.
const (
	maxBurnSyncs     = 5000
	maxBurnSyncBytes = 1 << 20
	maxBurnBytes     = 200e6
)

// DiskLoadLike is a DiskLoad that makes the disks write about as r
// says: a synced write of a page of PostgreSQL's log per flush, and the
// rest of r's bytes unsynced. On this project's machine (ext4 on a
// virtual disk) each synced write cost the disk about three write
// requests, so the load makes more requests than r, of the same bytes
// and flushes; the bench reports what it made.
func DiskLoadLike(r DiskRate) DiskLoad {
	l := DiskLoad{Syncs: min(r.FlushesPerS, maxBurnSyncs)}
	if l.Syncs < 1 {
		l.Syncs = 0
	} else {
		l.SyncBytes = burnSyncBytes
	}
	l.Bytes = min(max(r.BytesPerS-l.Syncs*float64(l.SyncBytes), 0), maxBurnBytes)
	return l
}

// burnSyncBytes is the size of a synced write: PostgreSQL writes its log
// in 8 KB pages, and a small transaction's commit writes one or two.
const burnSyncBytes = 8192

// validate says what is wrong with l, if anything.
func (l DiskLoad) validate() error {
	switch {
	case l.Syncs < 0 || l.Syncs > maxBurnSyncs || l.Syncs != l.Syncs:
		return fmt.Errorf("burn: synced writes must be 0 to %d a second, not %g", maxBurnSyncs, l.Syncs)
	case l.Syncs > 0 && (l.SyncBytes < 512 || l.SyncBytes > maxBurnSyncBytes):
		return fmt.Errorf("burn: a synced write must be 512 B to %d B, not %d", maxBurnSyncBytes, l.SyncBytes)
	case l.Bytes < 0 || l.Bytes > maxBurnBytes || l.Bytes != l.Bytes:
		return fmt.Errorf("burn: unsynced writes must be 0 to %.0f MB a second, not %g B", maxBurnBytes/1e6, l.Bytes)
	}
	return nil
}

// idle reports whether l writes nothing.
func (l DiskLoad) idle() bool { return l.Syncs == 0 && l.Bytes == 0 }
