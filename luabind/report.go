package luabind

import (
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/luahost/luahost/runtime"
)

// maxDistinctErrors bounds the distinct errors an ErrorLog keeps: a script
// whose messages all differ (they quote a counter) cannot grow it without
// end. Errors past it are still written and counted in Dropped.
const maxDistinctErrors = 1000

// ErrorLog writes the errors a runtime reports to a writer, the way a
// designer reads them: the same error (script, callback and message) from
// many instances in one frame is written once, with a line counting the
// others ("... and 26 more instances of enemy"), and every distinct error
// is kept with its count and its first and last frame, for a summary.
//
// A frame's callback errors are written at the end of the frame (and
// those of setup at the start of the first, or at Close); an error that
// is no instance's (a failed reload) is written at once.
type ErrorLog struct {
	w io.Writer

	// frame holds this frame's instance errors, in the order first seen.
	frame []*frameError
	at    map[errorKey]*frameError
	tally ErrorTally
}

// ErrorTally keeps every distinct error a runtime reports (script,
// callback and message) with its count and its first and last frame, for
// a summary such as --stats or the inspector's list.
type ErrorTally struct {
	mu       sync.Mutex
	distinct []ErrorCount
	index    map[errorKey]int
	dropped  int
}

// ErrorCount is one distinct error and how often it happened.
type ErrorCount struct {
	// Script, Callback and Message are the error's (Message with
	// file:line in front where known).
	Script, Callback, Message string
	// Count is how many times it was reported.
	Count int
	// First and Last are the frames of its first and last report.
	First, Last uint64
}

type errorKey struct{ script, callback, message string }

type frameError struct {
	first *runtime.ScriptError
	more  int
}

// NewErrorLog returns an ErrorLog that hears every error rt reports and
// writes to w. Give the runtime runtime.Discard as its OnError, or every
// error is written twice.
func NewErrorLog(rt *runtime.Runtime, w io.Writer) *ErrorLog {
	l := &ErrorLog{w: w, at: map[errorKey]*frameError{}}
	rt.OnReport(l.report)
	rt.BeforeStep(l.flush)
	rt.AfterStep(l.flush)
	rt.OnClose(l.flush)
	return l
}

// report takes one reported error.
func (l *ErrorLog) report(err error) {
	var se *runtime.ScriptError
	if !errors.As(err, &se) {
		l.flush()
		fmt.Fprintln(l.w, err)
		l.tally.add(err)
		return
	}
	k := errorKey{se.Script, se.Callback, se.Message}
	l.tally.add(err)
	if se.Entity.IsZero() {
		l.flush()
		fmt.Fprintln(l.w, err)
		return
	}
	if fe, ok := l.at[k]; ok {
		fe.more++
		return
	}
	fe := &frameError{first: se}
	l.at[k] = fe
	l.frame = append(l.frame, fe)
}

// NewErrorTally returns an ErrorTally of the errors rt reports from now
// on.
func NewErrorTally(rt *runtime.Runtime) *ErrorTally {
	t := &ErrorTally{}
	rt.OnReport(t.add)
	return t
}

// add counts one reported error.
func (t *ErrorTally) add(err error) {
	k, f := errorKey{message: err.Error()}, uint64(0)
	var se *runtime.ScriptError
	if errors.As(err, &se) {
		k, f = errorKey{se.Script, se.Callback, se.Message}, se.Frame
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if i, ok := t.index[k]; ok {
		t.distinct[i].Count++
		t.distinct[i].Last = f
		return
	}
	if len(t.distinct) >= maxDistinctErrors {
		t.dropped++
		return
	}
	if t.index == nil {
		t.index = map[errorKey]int{}
	}
	t.index[k] = len(t.distinct)
	t.distinct = append(t.distinct, ErrorCount{Script: k.script, Callback: k.callback, Message: k.message, Count: 1, First: f, Last: f})
}

// flush writes the errors held for this frame.
func (l *ErrorLog) flush() {
	for _, fe := range l.frame {
		fmt.Fprintln(l.w, fe.first)
		switch fe.more {
		case 0:
		case 1:
			fmt.Fprintf(l.w, "\t... and 1 more instance of %s\n", fe.first.Script)
		default:
			fmt.Fprintf(l.w, "\t... and %d more instances of %s\n", fe.more, fe.first.Script)
		}
	}
	clear(l.frame)
	l.frame = l.frame[:0]
	clear(l.at)
}

// Distinct returns the distinct errors so far, in the order first
// reported, and how many more distinct errors were not kept (past the
// first 1,000). It is safe to call from any goroutine.
func (t *ErrorTally) Distinct() (errs []ErrorCount, dropped int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]ErrorCount(nil), t.distinct...), t.dropped
}

// Distinct is the distinct errors written so far (see ErrorTally).
func (l *ErrorLog) Distinct() (errs []ErrorCount, dropped int) { return l.tally.Distinct() }
