package runtime

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
)

// ErrInterrupted marks a callback stopped because its frame's context was
// done (StepContext): it is not the callback's fault, so its instance is
// neither faulted nor reported. A Script returns an error that matches it
// when the runtime asked it to stop (OnInterrupt).
var ErrInterrupted = errors.New("interrupted: the frame's context is done")

// FrameError is what StepContext returns for a frame cut short by its
// context: which updates ran, and the callback that was stopped. It
// unwraps to the context's error.
type FrameError struct {
	// Frame is the frame's number.
	Frame uint64
	// Updated is how many instances got their update before the frame
	// was cut; Skipped how many runnable ones did not.
	Updated, Skipped int
	// Stopped is the instance whose callback was running when the
	// context was done and was stopped (nil when none was).
	Stopped *Instance
	// Err is the context's error.
	Err error
}

// Error says how far the frame ran.
func (e *FrameError) Error() string {
	stopped := ""
	if e.Stopped != nil {
		stopped = fmt.Sprintf(", %s stopped in %s", e.Stopped.Script().Name(), e.Stopped.Entity())
	}
	return fmt.Sprintf("frame %d cut short: %d instances updated, %d skipped%s: %v", e.Frame, e.Updated, e.Skipped, stopped, e.Err)
}

// Unwrap returns the context's error.
func (e *FrameError) Unwrap() error { return e.Err }

// frameControl is the state of a frame bounded by a context and of the
// panics of the embedder's hooks.
type frameControl struct {
	// done is set, from any goroutine, when the frame's context is done.
	done atomic.Bool
	// interrupters are told (true) when the frame's context is done and
	// (false) when the frame no longer needs its callbacks stopped.
	interrupters []func(bool)
	updated      int
	skipped      int
	stopped      *Instance
	overruns     uint64
	// panicked is the first panic of OnError (or OnReport) in the frame,
	// which Step returns.
	panicked *PanicError
}

// OnInterrupt registers fn, which a Script host uses to stop its running
// callback when a frame's context is done: fn(true) is called from any
// goroutine, at once, when the context of the running StepContext is
// done; fn(false) on the driving goroutine when the frame's update ended
// (the flush that follows runs every onDestroy under its usual bounds).
// A callback so stopped returns an error that matches ErrInterrupted.
func (rt *Runtime) OnInterrupt(fn func(bool)) {
	rt.frameCtl.interrupters = append(rt.frameCtl.interrupters, fn)
}

// StepContext is Step bounded by ctx: when ctx is done during the frame,
// the running callback is stopped promptly (Lua callbacks at their next
// instruction; a Go-native callback when it returns), no further update
// runs, and the frame ends as usual (onDestroy of what was detached or
// killed, reap, commit of the write cache, spawned entities become
// Active), so the world is consistent. It then returns a *FrameError that
// says which updates ran and unwraps to ctx's error, and the frame counts
// in Stats.Overruns. A ctx already done refuses the frame and changes
// nothing. Watching ctx costs one registration a frame; a ctx that is
// never done (context.Background) costs nothing.
func (rt *Runtime) StepContext(ctx context.Context, dt float64) error {
	if ctx.Done() == nil {
		return rt.step(dt)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	fc := &rt.frameCtl
	fc.updated, fc.skipped, fc.stopped = 0, 0, nil
	ran := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(ran)
		fc.done.Store(true)
		for _, fn := range fc.interrupters {
			fn(true)
		}
	})
	err := rt.step(dt)
	if !stop() {
		// The context was done: its function may still be running, and
		// must be done before the interrupters are told to resume.
		<-ran
	}
	if !fc.done.Swap(false) {
		return err
	}
	for _, fn := range fc.interrupters {
		fn(false)
	}
	if err != nil {
		return err
	}
	fc.overruns++
	return &FrameError{Frame: rt.frame, Updated: fc.updated, Skipped: fc.skipped, Stopped: fc.stopped, Err: ctx.Err()}
}

// interrupted reports whether the running frame's context is done.
func (rt *Runtime) interrupted() bool { return rt.frameCtl.done.Load() }

// endUpdate tells the interrupters that the frame's update ended.
func (rt *Runtime) endUpdate() {
	if rt.frameCtl.done.Load() {
		for _, fn := range rt.frameCtl.interrupters {
			fn(false)
		}
	}
}

// guard runs fn, a hook of the embedder's registered for what, and
// reports a panic it raised, with its Go stack, as an error of what; the
// frame goes on.
func (rt *Runtime) guard(what string, fn func()) {
	defer func() {
		if v := recover(); v != nil {
			se := recovered(v)
			se.Callback = what
			se.Message = what + ": " + se.Message
			se.Frame = rt.frame
			rt.Report(se)
		}
	}()
	fn()
}

// callReport calls fn, OnError or an OnReport function, with err, and
// keeps a panic it raised for Step to return.
func (rt *Runtime) callReport(what string, fn func(error), err error) {
	defer func() {
		if v := recover(); v != nil {
			pe := NewPanicError(v)
			switch {
			case !rt.stepping:
				fmt.Fprintf(os.Stderr, "%s panicked reporting an error: %v\n%s", what, pe, pe.Stack)
			case rt.frameCtl.panicked == nil:
				rt.frameCtl.panicked = pe
			}
		}
	}()
	fn(err)
}
