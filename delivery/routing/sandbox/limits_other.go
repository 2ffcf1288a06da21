//go:build !linux

package sandbox

import (
	"os"
	"syscall"
	"time"
)

// applyLimits sets no limits off Linux: the deadline kill still holds,
// the memory and CPU backstops do not.
func applyLimits(workerConfig) error { return nil }

// processCPU is unknown off Linux; the pool then never retires a worker
// for its CPU time (none has a CPU limit to reach).
func processCPU() time.Duration { return 0 }

func workerAttr() *syscall.SysProcAttr { return nil }

// killedByLimit is never known off Linux, where no limit kills.
func killedByLimit(*os.ProcessState) bool { return false }

func nearMemoryLimit(*os.ProcessState, int64) bool { return false }
