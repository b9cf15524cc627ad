package runtime

import (
	"errors"
	"fmt"
	goruntime "runtime"
	"strings"
)

// ErrPanic marks a panic recovered from Go code that a callback ran: a
// Go-native script's callback, or a Go function registered for scripts.
// Test for it with errors.Is.
var ErrPanic = errors.New("panic")

// PanicError is a recovered panic. It matches ErrPanic with errors.Is,
// and unwraps to the panic's value when that is an error.
type PanicError struct {
	// Value is what was passed to panic.
	Value any
	// Stack is the Go stack of the panicking goroutine, from the panic
	// on, at most maxStackFrames frames.
	Stack string
}

// maxStackFrames bounds the Go stack a PanicError keeps.
const maxStackFrames = 12

// Error returns "panic: VALUE".
func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Is reports whether target is ErrPanic.
func (e *PanicError) Is(target error) bool { return target == ErrPanic }

// Unwrap returns the panic's value when it is an error (a runtime error
// such as a nil dereference), or nil.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// NewPanicError wraps v, a value just recovered, with the stack of the
// goroutine that panicked. Call it from the deferred function that
// recovered: the stack is read there, where the panicking frames are
// still on it.
func NewPanicError(v any) *PanicError {
	pcs := make([]uintptr, 64)
	n := goruntime.Callers(2, pcs)
	frames := goruntime.CallersFrames(pcs[:n])
	var b strings.Builder
	started, count := false, 0
	for {
		f, more := frames.Next()
		if started && count < maxStackFrames && !strings.HasPrefix(f.Function, "runtime.") {
			fmt.Fprintf(&b, "%s\n\t%s:%d\n", f.Function, f.File, f.Line)
			count++
		}
		// The frames below runtime.gopanic are the ones that panicked.
		if f.Function == "runtime.gopanic" {
			started = true
		}
		if !more {
			break
		}
	}
	return &PanicError{Value: v, Stack: b.String()}
}

// recovered turns a value recovered from a callback into the error the
// runtime reports: a *ScriptError wrapping a *PanicError, whose
// traceback is the Go stack. Call it from the deferred function that
// recovered.
func recovered(v any) *ScriptError {
	pe, ok := v.(*PanicError)
	if !ok {
		pe = NewPanicError(v)
	}
	return &ScriptError{Message: pe.Error(), Traceback: pe.Stack, Err: pe}
}
