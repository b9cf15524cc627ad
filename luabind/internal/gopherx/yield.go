package gopherx

import (
	goruntime "runtime"
	"sync/atomic"
)

// The Go functions of gopher-lua that Yieldable looks for on the
// goroutine's stack, by their symbol names.
const (
	goCallR     = "github.com/yuin/gopher-lua.(*LState).callR"
	goThreadRun = "github.com/yuin/gopher-lua.threadRun"
)

// Yieldable reports whether the VM loop running the caller is its
// coroutine's own: no Go code called back into Lua (gopher-lua's callR)
// since the coroutine was resumed (threadRun). gopher-lua yields by
// returning from the VM loop, so a yield across a Go call would return
// into that Go function with nothing. It reads the goroutine's stack a
// few frames at a time, up to the resume: usually one short read.
func Yieldable() bool {
	var pcs [6]uintptr
	for skip := 3; skip < 512; skip += len(pcs) {
		n := goruntime.Callers(skip, pcs[:])
		for _, pc := range pcs[:n] {
			switch frameKind(pc) {
			case callRFrame:
				return false
			case threadRunFrame:
				return true
			}
		}
		if n < len(pcs) {
			break
		}
	}
	// No resume found: some Go code is in between, or the stack is
	// deeper than any coroutine's should be.
	return false
}

const (
	otherFrame = iota
	callRFrame
	threadRunFrame
)

// callREntry and threadRunEntry are the entry points of the two
// gopher-lua functions Yieldable looks for, learnt by name the first
// time each is met.
var callREntry, threadRunEntry atomic.Uintptr

// frameKind tells which of those functions the return address pc is in.
func frameKind(pc uintptr) int {
	f := goruntime.FuncForPC(pc - 1)
	if f == nil {
		return otherFrame
	}
	switch entry := f.Entry(); entry {
	case callREntry.Load():
		return callRFrame
	case threadRunEntry.Load():
		return threadRunFrame
	default:
		switch f.Name() {
		case goCallR:
			callREntry.Store(entry)
			return callRFrame
		case goThreadRun:
			threadRunEntry.Store(entry)
			return threadRunFrame
		}
	}
	return otherFrame
}
