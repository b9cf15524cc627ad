package luabind

import (
	goruntime "runtime"
	"syscall"
	"time"
	"unsafe"
)

// threadCPU returns the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID):
// unlike the wall clock, it does not count the time the thread was
// descheduled, which on a loaded machine is most of the noise. The caller
// must hold its OS thread (runtime.LockOSThread).
func threadCPU() time.Duration {
	const clockThreadCPUTimeID = 3
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}

// cpuTime returns the CPU time f takes on the calling goroutine, its
// thread locked meanwhile: the tests that bound a frame's or a copy's
// time read it, so that a loaded machine, which deschedules the thread,
// does not fail them.
func cpuTime(f func()) time.Duration {
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	start := threadCPU()
	f()
	return threadCPU() - start
}
