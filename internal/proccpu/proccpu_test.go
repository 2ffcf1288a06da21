package proccpu

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestSelfCountsWorkDone(t *testing.T) {
	if runtime.GOOS != "linux" {
		require.Zero(t, Self(), "off Linux the CPU time is unknown")
		return
	}
	before := Self()
	for end := time.Now().Add(50 * time.Millisecond); time.Now().Before(end); {
	}
	require.Greater(t, Self()-before, 10*time.Millisecond, "50 ms of spinning shows in the process's CPU time")
}
