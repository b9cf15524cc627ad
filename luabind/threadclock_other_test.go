//go:build !linux

package luabind

import "time"

var clockStart = time.Now()

// threadCPU falls back to the wall clock where the thread's CPU clock is
// not read.
func threadCPU() time.Duration { return time.Since(clockStart) }

// cpuTime falls back to the wall clock f takes.
func cpuTime(f func()) time.Duration {
	start := time.Now()
	f()
	return time.Since(start)
}
