package luabind

import (
	"context"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/budget"
)

// consoleThread is the context of a coroutine that a console snippet made
// in a host whose work budget is off, and of every coroutine made inside
// one: the console's budget goes with the coroutine, so that a script
// resuming it in a later frame, where nothing is budgeted, cannot spin in
// it for good. Each outermost resume of such a coroutine may run
// DefaultWork instructions (own, armed by the sandbox's coroutine.resume);
// the host's budget of the moment (a later snippet's, or the host's own
// for its memory limit and ceiling; none when every limit is off) still
// sees the instructions. Its cost, one more call in the check before
// every instruction, is paid by these coroutines alone.
type consoleThread struct {
	own  *budget.Budget
	host *Host
}

func (c *consoleThread) Deadline() (time.Time, bool) { return time.Time{}, false }

// Done implements context.Context, counting the instruction on both
// budgets.
func (c *consoleThread) Done() <-chan struct{} {
	if ch := c.own.Done(); ch != nil {
		return ch
	}
	if b := c.host.budget; b != nil {
		return b.Done()
	}
	return nil
}

func (c *consoleThread) Err() error {
	if err := c.own.Err(); err != nil {
		return err
	}
	if b := c.host.budget; b != nil {
		return b.Err()
	}
	return nil
}

func (c *consoleThread) Value(any) any { return nil }

// Unwrap returns the coroutine's own budget: library functions charge
// their work done in Go to it (budget.Charge).
func (c *consoleThread) Unwrap() context.Context { return c.own }

// AfterFunc lets gopher-lua derive a context from this one without a
// goroutine, as a budget does.
func (c *consoleThread) AfterFunc(func()) func() bool { return func() bool { return true } }

// threadContext returns the context of a coroutine that L creates: L's
// console context when L is a console-made coroutine, a fresh one when a
// console snippet runs and the host's work budget is off, the host's
// budget otherwise, and nil when it has none.
func (h *Host) threadContext(L *lua.LState) context.Context {
	if c := consoleThreadOf(L); c != nil {
		return c
	}
	if h.console && h.opts.Work <= 0 {
		return &consoleThread{own: budget.New(budget.Options{Work: DefaultWork}), host: h}
	}
	if h.budget == nil {
		return nil
	}
	return h.budget
}

// resumeConsoleThread runs resume, a resume of th, under th's console
// budget when th has one (see consoleThread), and returns, when that
// budget ran out during the outermost such resume, the message the resume
// fails with ("" otherwise).
func resumeConsoleThread(th *lua.LState, resume func()) (stopped string) {
	c := consoleThreadOf(th)
	if c == nil {
		resume()
		return ""
	}
	c.own.Arm()
	defer func() {
		if o := disarm(c.own, true); o.err != nil {
			stopped = "a coroutine the console made exceeded its " + o.what
		}
	}()
	resume()
	return ""
}

// consoleThreadOf returns th's console context, or nil when it has none.
func consoleThreadOf(th *lua.LState) *consoleThread {
	ctx := th.Context()
	for ctx != nil {
		if c, ok := ctx.(*consoleThread); ok {
			return c
		}
		u, ok := ctx.(interface{ Unwrap() context.Context })
		if !ok {
			return nil
		}
		ctx = u.Unwrap()
	}
	return nil
}
