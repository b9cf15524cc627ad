package runtime

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentinel errors. Errors returned by the runtime wrap one of these with
// context; test for them with errors.Is.
var (
	// ErrStaleHandle means a handle whose entity is gone: it was never
	// valid (the zero Handle), or its slot was reclaimed.
	ErrStaleHandle = errors.New("stale entity handle")
	// ErrIllegalTransition means a lifecycle change the lifecycle's table
	// does not allow. The error names both states.
	ErrIllegalTransition = errors.New("illegal transition")
	// ErrInstanceState means a script instance was driven out of order:
	// update before create, create twice, destroy twice.
	ErrInstanceState = errors.New("illegal script instance call")
	// ErrNotAttachable means an attach to an entity that is dying or
	// cancelled.
	ErrNotAttachable = errors.New("entity cannot take scripts")
	// ErrTooManyInstances means an attach to an entity that already holds
	// Options.MaxEntityInstances live instances.
	ErrTooManyInstances = errors.New("too many script instances on one entity")
	// ErrBadName means a name that is not valid UTF-8 (a snapshot writes
	// names as text).
	ErrBadName = errors.New("a name must be valid UTF-8 text")
	// ErrClosed means the runtime was closed.
	ErrClosed = errors.New("runtime is closed")
	// ErrStepping means a call that is not allowed while a frame runs,
	// such as Step from inside a callback.
	ErrStepping = errors.New("not allowed while a frame runs")
	// ErrInvalidDT means a Step whose dt is NaN, infinite or negative.
	ErrInvalidDT = errors.New("invalid dt")
	// ErrEventDepth means a dispatch nested deeper than Options.MaxEventDepth.
	ErrEventDepth = errors.New("event dispatch nested too deep")
	// ErrNotPlain means a value that cannot live on the blackboard or in
	// event data: a function, a cycle, a type with no plain form.
	ErrNotPlain = errors.New("not plain data")
)

// TransitionError is returned for an illegal lifecycle transition. It
// matches ErrIllegalTransition with errors.Is.
type TransitionError struct {
	From, To State
}

// Error returns "illegal transition FROM -> TO".
func (e *TransitionError) Error() string {
	return fmt.Sprintf("illegal transition %s -> %s", e.From, e.To)
}

// Is reports whether target is ErrIllegalTransition.
func (e *TransitionError) Is(target error) bool { return target == ErrIllegalTransition }

// ScriptError is a failure of one script callback: a Lua error, a budget
// overrun, or an error returned by a Go-native script. The runtime reports
// each one once through Options.OnError and faults the instance.
type ScriptError struct {
	// Script is the script's name.
	Script string
	// File and Line locate the error in the script's source, when known.
	File string
	Line int
	// Callback is the callback that failed: "onCreate", "onUpdate",
	// "onDestroy", "onReload" or "events.NAME".
	Callback string
	// Entity is the instance's entity.
	Entity Handle
	// EntityName is the entity's scene or given name when the error
	// happened ("" when it had none).
	EntityName string
	// Frame is the frame the error happened in (0 during setup).
	Frame uint64
	// Message is the error itself, with file:line in front where known.
	Message string
	// Traceback is a short traceback of the script, when known.
	Traceback string
	// Err is the Go error that caused the failure, if any; Unwrap
	// returns it, so errors.Is and errors.As see through the report. It
	// is what a registered function returned (or the *PanicError of its
	// panic), what a Go-native script returned, the error of the host's
	// API that a script's call ran into (ErrNotPlain, ErrStaleHandle,
	// ErrNotAttachable, ErrEventDepth, a load error...), or the host's
	// mark of a stopped callback (budget, memory). It is nil for an error
	// the script raised itself, or one it made of a Go error's message.
	Err error
}

// Error formats the error as the message, then a line naming the script,
// entity, callback and frame, then the traceback. What a script chose
// (its message) cannot pass for a line of the host's: its control
// characters are escaped and its lines after the first indented
// (SafeText).
func (e *ScriptError) Error() string {
	var b strings.Builder
	b.WriteString(SafeText(e.Message, "\t"))
	fmt.Fprintf(&b, "\n\tin script %s, %s, %s, frame %d", e.Script, e.EntityLabel(), e.Callback, e.Frame)
	if e.Traceback != "" {
		for line := range strings.SplitSeq(strings.TrimRight(e.Traceback, "\n"), "\n") {
			b.WriteString("\n\t")
			b.WriteString(strings.TrimLeft(line, "\t "))
		}
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *ScriptError) Unwrap() error { return e.Err }

// EntityLabel names the error's entity for a designer: its name and
// handle, "grunt 7 (entity 24:1)", or the handle alone, "entity(24:1)",
// when it has no name. A name with control characters is quoted, so
// that it cannot break the report's lines.
func (e *ScriptError) EntityLabel() string {
	name := e.EntityName
	if name == "" {
		return e.Entity.String()
	}
	if strings.ContainsFunc(name, unicode.IsControl) {
		name = strconv.Quote(name)
	}
	return fmt.Sprintf("%s (entity %d:%d)", name, e.Entity.Index, e.Entity.Gen)
}

// SafeText returns s, text a script chose, fit to be written among the
// host's own lines: every control character but the tab and the line
// break (C0, DEL and C1, which terminals act on: an escape sequence can
// erase a line, a carriage return overwrite it) is written as a Go escape
// (\x1b, \r, \u0085), and every line after the first starts with indent,
// so that no line of s begins where a host line does. Invalid UTF-8 is
// kept as it is. O(len(s)); s itself when it needs no change.
func SafeText(s, indent string) string {
	clean := true
	for _, r := range s {
		if (r == '\n' && indent != "") || (r != '\n' && r != '\t' && unicode.IsControl(r)) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\n':
			b.WriteByte('\n')
			b.WriteString(indent)
		case r == '\t' || !unicode.IsControl(r):
			b.WriteString(s[i : i+n])
		default:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += n
	}
	return b.String()
}
