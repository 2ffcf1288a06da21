//go:build linux

package proccpu

import (
	"time"

	"golang.org/x/sys/unix"
)

// Self is the CPU time this process has used (user and system); 0 when
// the kernel does not say.
func Self() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
