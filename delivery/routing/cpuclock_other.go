//go:build !linux

package routing

import "time"

// threadClock is unavailable off Linux: runs are then bounded by wall
// clock alone (TransformConfig.Timeout).
type threadClock struct{}

func currentThreadClock() (threadClock, bool) { return threadClock{}, false }

func (threadClock) used() (time.Duration, bool) { return 0, false }
