//go:build linux

package sandbox

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Every thread of a worker runs at workerNice, the ones the Go runtime
// started before the worker lowered its priority included: Linux keeps
// a nice value per thread.
func TestWorkerThreadsRunBelowFerry(t *testing.T) {
	exe, err := os.Executable()
	require.NoError(t, err)
	w, err := start(exe, workerConfig{}, 10*time.Second)
	require.NoError(t, err)
	t.Cleanup(w.close)

	tasks, err := filepath.Glob("/proc/" + strconv.Itoa(w.pid) + "/task/*/stat")
	require.NoError(t, err)
	require.NotEmpty(t, tasks)
	for _, path := range tasks {
		stat, err := os.ReadFile(path)
		require.NoError(t, err)
		// Fields after the command's closing parenthesis: state is the
		// 3rd field of stat, nice the 19th.
		fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		nice, err := strconv.Atoi(fields[19-3])
		require.NoError(t, err)
		require.Equal(t, workerNice, nice, "thread %s", path)
	}
}
