//go:build !linux

package sandbox

import (
	"os"
	"syscall"
)

// applyLimits sets no limits off Linux: the deadline kill still holds,
// the memory and CPU backstops do not.
func applyLimits(workerConfig) error { return nil }

func workerAttr() *syscall.SysProcAttr { return nil }

// killedByLimit is never known off Linux, where no limit kills.
func killedByLimit(*os.ProcessState) bool { return false }

func nearMemoryLimit(*os.ProcessState, int64) bool { return false }
