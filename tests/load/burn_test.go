package load

import (
	"context"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestParseMachineCPU(t *testing.T) {
	tests := []struct {
		name    string
		stat    string
		want    MachineCPU
		wantErr bool
	}{
		{name: "busy counts user, nice, system, irq, softirq and steal; idle and iowait only the total",
			stat: "cpu  100 20 30 1000 50 5 6 7 0 0\ncpu0 50 10 15 500 25 2 3 3 0 0\n",
			want: MachineCPU{Busy: 100 + 20 + 30 + 5 + 6 + 7, Total: 100 + 20 + 30 + 5 + 6 + 7 + 1000 + 50}},
		{name: "guest time is in user already and not counted again",
			stat: "cpu  100 0 0 100 0 0 0 0 40 40\n", want: MachineCPU{Busy: 100, Total: 200}},
		{name: "not the machine's line", stat: "cpu0 1 2 3 4 5 6 7 8\n", wantErr: true},
		{name: "too few fields", stat: "cpu 1 2 3\n", wantErr: true},
		{name: "a field that is no number", stat: "cpu 1 2 x 4 5 6 7 8 0 0\n", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseMachineCPU(tt.stat)
			if tt.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

func TestCoresSince(t *testing.T) {
	prev := MachineCPU{Busy: 1000, Total: 4000}
	tests := []struct {
		name string
		now  MachineCPU
		cpus int
		want float64
	}{
		{name: "a quarter of the ticks busy on 2 cpus is half a core", now: MachineCPU{Busy: 1100, Total: 4400}, cpus: 2, want: 0.5},
		{name: "all busy on 2 cpus", now: MachineCPU{Busy: 1400, Total: 4400}, cpus: 2, want: 2},
		{name: "idle", now: MachineCPU{Busy: 1000, Total: 4400}, cpus: 2, want: 0},
		{name: "no time passed", now: prev, cpus: 2, want: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.InDelta(t, tt.want, tt.now.CoresSince(prev, tt.cpus), 1e-9)
		})
	}
}

func TestBurnRefusesImpossibleLoads(t *testing.T) {
	for _, cores := range []float64{0, -1, float64(runtime.NumCPU()) + 0.5} {
		require.Error(t, Burn(context.Background(), cores), "cores %g", cores)
	}
}

func TestReadMachineCPUOfThisMachine(t *testing.T) {
	c, err := ReadMachineCPU("/proc/stat")
	require.NoError(t, err)
	require.Greater(t, c.Total, c.Busy, "the machine has been idle at some point since it booted")
}
