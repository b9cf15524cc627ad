package luabind

import (
	"cmp"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

// A Debugger pauses a Host's scripts between two VM instructions — at a
// breakpoint, at a script error, on request, or after a step — and, while
// they are paused, shows their call stack, locals, upvalues and self and
// evaluates expressions in a paused frame.
//
// gopher-lua has no debug hook, but it asks a state's context whether to
// stop before every instruction: a Host with a Debugger gives each of its
// states a context that asks the Debugger first. A Host never asked for
// one (Host.Debugger) keeps its states' contexts as they are, so
// debugging costs nothing until it is used; with a Debugger attached and
// nothing to watch for (no breakpoint, no step, no pause asked), each
// instruction costs one atomic load more.
//
// While paused, the goroutine driving the Host waits inside the paused
// instruction: nothing else of the world runs, and the inspection methods
// (Stack, Scopes, Variables, Evaluate) are carried out there, so they are
// safe to call from any goroutine. The work budget counts instructions, so
// the paused time costs none of it.
//
// The methods are safe for concurrent use.
type Debugger struct {
	h *Host

	// active is set while anything is to be watched for at every
	// instruction.
	active       atomic.Bool
	pauseReq     atomic.Bool
	breakOnError atomic.Bool
	// stepping mirrors step != stepNone for other goroutines.
	stepping atomic.Bool
	// held makes the world run on without pausing (Hold).
	held atomic.Bool

	mu  sync.Mutex
	bps map[string]map[int]*breakpoint
	// observers are told of every pause and resume (Observe).
	observers []func(Stop, bool)

	stops chan Stop
	cmds  chan debugCmd

	// The fields below are touched only by the goroutine driving the host.
	paused *pausedAt
	step   stepMode
	// stepL and stepDepth are the state and the call depth a step
	// started from.
	stepL     *lua.LState
	stepDepth int
	// lastL is the state of the last instruction seen, lines the line
	// of the last instruction seen at each call depth of it.
	lastL *lua.LState
	lines []int
	abs   map[string]string
}

// A Breakpoint is a line of a script where the world pauses.
type Breakpoint struct {
	// File is the script's path, relative to the working directory or
	// absolute.
	File string
	// Line is the 1-based line.
	Line int
	// Condition, when not empty, is a Lua expression evaluated in the
	// breakpoint's frame: the world pauses only when it is true (neither
	// nil nor false). An expression that fails pauses, so that the
	// mistake shows.
	Condition string
	// HitCondition, when not empty, pauses only on some hits: "N" or
	// ">= N" from the Nth hit on, "> N", "== N", "< N", "<= N", or "% N"
	// every Nth hit.
	HitCondition string
	// Entity, when not zero, pauses only in a callback of that entity's
	// instances.
	Entity runtime.Handle
	// Once removes the breakpoint when it pauses.
	Once bool
}

type breakpoint struct {
	Breakpoint
	hits int
}

// A Stop says why and where the world paused.
type Stop struct {
	// Reason is "breakpoint", "step", "exception" or "pause".
	Reason string
	// File and Line are where the paused instruction is.
	File string
	Line int
	// Error is the error's message for an exception stop.
	Error string
}

// A Frame is one Lua function of the paused call stack, innermost first.
type Frame struct {
	Name string
	File string
	Line int
}

// A Scope is a named group of variables of a frame: "Locals",
// "Upvalues" or "self".
type Scope struct {
	Name string
	// Ref is what Variables takes to list the scope's variables.
	Ref int
}

// A Variable is one value shown by the debugger.
type Variable struct {
	Name string
	// Value is the value as Lua's tostring gives it, strings quoted.
	Value string
	// Type is the Lua type's name.
	Type string
	// Ref, when not 0, is what Variables takes to list the value's
	// fields (a table's).
	Ref int
}

// ErrNotPaused is what the inspection and step methods return while the
// world runs.
var ErrNotPaused = errors.New("the world is not paused")

type stepMode int

const (
	stepNone stepMode = iota
	stepIn
	stepOver
	stepOut
)

// Debugger returns the Host's debugger, making it on the first call.
// Scripts loaded after the call are watched (call it before the scene
// loads to debug the chunks and the first onCreate); those loaded before
// are watched once they are reloaded.
func (h *Host) Debugger() *Debugger {
	if h.debug == nil {
		h.debug = &Debugger{
			h:     h,
			bps:   map[string]map[int]*breakpoint{},
			stops: make(chan Stop, 16),
			cmds:  make(chan debugCmd),
			abs:   map[string]string{},
		}
	}
	return h.debug
}

// UseDebugger makes d, the debugger of another host, this host's: its
// breakpoints and settings stay, the host it served is no longer watched,
// and the states this host has made already are watched from now on. It
// is for a world that goes on in a new host, such as one moved back to an
// earlier frame. Call it between frames, on the goroutine that drives
// both hosts, while d is not paused.
func (h *Host) UseDebugger(d *Debugger) {
	if d.h == h {
		return
	}
	if d.h != nil && d.h.debug == d {
		d.h.debug = nil
	}
	d.h, h.debug = h, d
	d.step, d.stepL, d.lastL, d.lines = stepNone, nil, nil, d.lines[:0]
	d.stepping.Store(false)
	d.mu.Lock()
	d.refresh()
	d.mu.Unlock()
	for _, s := range h.order {
		if s.st != nil && s.st.L != nil {
			d.watch(s.st.L)
		}
	}
}

// Hold makes the world run on without pausing while on is set:
// breakpoints, steps, pause requests and script errors pass by (a pause
// asked meanwhile waits for the end of the hold). It lets a paused world
// finish its frame, as before moving it back.
func (d *Debugger) Hold(on bool) { d.held.Store(on) }

// Observe registers fn, which is told of every pause, with its Stop and
// paused set, and of every resume, with paused false. It runs on the
// goroutine driving the host while that waits, so it must return soon
// and not call the debugger's inspection or step methods.
func (d *Debugger) Observe(fn func(stop Stop, paused bool)) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.observers = append(d.observers, fn)
}

// tell calls the observers.
func (d *Debugger) tell(stop Stop, paused bool) {
	d.mu.Lock()
	obs := d.observers
	d.mu.Unlock()
	for _, fn := range obs {
		fn(stop, paused)
	}
}

// Breakpoints returns the breakpoints set, by file (as SetBreakpoints
// was given it) and line.
func (d *Debugger) Breakpoints() []Breakpoint {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []Breakpoint
	for _, lines := range d.bps {
		for _, bp := range lines {
			out = append(out, bp.Breakpoint)
		}
	}
	slices.SortFunc(out, func(a, b Breakpoint) int {
		return cmp.Or(strings.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line))
	})
	return out
}

// WhilePaused runs fn on the goroutine driving the host, which waits
// paused, and returns ErrNotPaused when the world is not paused. fn may
// read the world, as between frames, but must not call the debugger.
func (d *Debugger) WhilePaused(fn func()) error {
	return d.do(func(*pausedAt) error {
		fn()
		return nil
	})
}

// Where returns where the world is paused, or ErrNotPaused.
func (d *Debugger) Where() (Stop, error) {
	var stop Stop
	err := d.do(func(p *pausedAt) error {
		stop = p.stop
		return nil
	})
	return stop, err
}

// Stops returns the channel on which the debugger says each pause. It is
// buffered; a pause nobody reads in time is not lost (the world stays
// paused), only its notice.
func (d *Debugger) Stops() <-chan Stop { return d.stops }

// SetBreakpoints replaces the breakpoints of file with bps (each bp's
// File is ignored: file is theirs) and returns the lines set.
func (d *Debugger) SetBreakpoints(file string, bps []Breakpoint) []int {
	key := absPath(file)
	d.mu.Lock()
	defer d.mu.Unlock()
	lines := make(map[int]*breakpoint, len(bps))
	var set []int
	for _, bp := range bps {
		bp.File = file
		lines[bp.Line] = &breakpoint{Breakpoint: bp}
		set = append(set, bp.Line)
	}
	if len(lines) == 0 {
		delete(d.bps, key)
	} else {
		d.bps[key] = lines
	}
	d.refresh()
	return set
}

// SetBreakOnError makes every script error pause the world (on) or not,
// with the failing frame still on the stack.
func (d *Debugger) SetBreakOnError(on bool) { d.breakOnError.Store(on) }

// Pause asks the world to pause at the next instruction of a script.
func (d *Debugger) Pause() {
	d.pauseReq.Store(true)
	d.active.Store(true)
}

// Continue resumes the paused world.
func (d *Debugger) Continue() error { return d.resume(stepNone) }

// Next resumes the world until the next line of the paused function or
// of a function that it returns to.
func (d *Debugger) Next() error { return d.resume(stepOver) }

// StepIn resumes the world until the next line anywhere, in a function
// the paused line calls included.
func (d *Debugger) StepIn() error { return d.resume(stepIn) }

// StepOut resumes the world until the paused function has returned.
func (d *Debugger) StepOut() error { return d.resume(stepOut) }

// Detach clears every breakpoint and resumes the world if it is paused.
func (d *Debugger) Detach() {
	d.breakOnError.Store(false)
	d.pauseReq.Store(false)
	d.mu.Lock()
	clear(d.bps)
	d.refresh()
	d.mu.Unlock()
	_ = d.Continue()
}

// Stack returns the paused call stack, innermost first.
func (d *Debugger) Stack() ([]Frame, error) {
	var frames []Frame
	err := d.do(func(p *pausedAt) error {
		frames = p.stack()
		return nil
	})
	return frames, err
}

// Scopes returns the scopes of frame n of the paused stack (0 is the
// innermost).
func (d *Debugger) Scopes(frame int) ([]Scope, error) {
	var scopes []Scope
	err := d.do(func(p *pausedAt) (err error) {
		scopes, err = p.scopes(frame)
		return err
	})
	return scopes, err
}

// Variables returns the variables of a scope or the fields of a value,
// by the Ref a Scope or Variable gave.
func (d *Debugger) Variables(ref int) ([]Variable, error) {
	var vars []Variable
	err := d.do(func(p *pausedAt) (err error) {
		vars, err = p.variables(ref)
		return err
	})
	return vars, err
}

// Evaluate evaluates the Lua expression expr in frame n of the paused
// stack, seeing its locals, upvalues and globals. It may not assign a
// variable unless write is set; a function it calls runs as in the
// script, and may change what it reaches.
func (d *Debugger) Evaluate(frame int, expr string, write bool) (Variable, error) {
	var v Variable
	err := d.do(func(p *pausedAt) (err error) {
		v, err = p.evaluate(frame, expr, write)
		return err
	})
	return v, err
}

// Paused reports whether the world is paused.
func (d *Debugger) Paused() bool {
	err := d.do(func(*pausedAt) error { return nil })
	return err == nil
}

// debugCmd is a request carried out on the goroutine driving the host
// while it is paused; resume, when not 0, ends the pause.
type debugCmd struct {
	run    func(*pausedAt) error
	resume stepMode
	cont   bool
	done   chan error
}

// cmdWait bounds how long a request waits for a paused world: a world
// that is running has nobody to answer.
const cmdWait = 50 * time.Millisecond

func (d *Debugger) do(run func(*pausedAt) error) error {
	c := debugCmd{run: run, done: make(chan error, 1)}
	select {
	case d.cmds <- c:
		return <-c.done
	case <-time.After(cmdWait):
		return ErrNotPaused
	}
}

func (d *Debugger) resume(mode stepMode) error {
	c := debugCmd{resume: mode, cont: true, done: make(chan error, 1)}
	select {
	case d.cmds <- c:
		return <-c.done
	case <-time.After(cmdWait):
		return ErrNotPaused
	}
}

// refresh sets active from what is to be watched for. Called with mu
// held.
func (d *Debugger) refresh() {
	d.active.Store(len(d.bps) > 0 || d.pauseReq.Load() || d.stepping.Load())
}

func absPath(file string) string {
	if a, err := filepath.Abs(file); err == nil {
		return a
	}
	return filepath.Clean(file)
}

// watch gives L a context that asks the debugger before each
// instruction, unless it has one.
func (d *Debugger) watch(L *lua.LState) {
	if _, ok := L.Context().(*debugCtx); !ok {
		L.SetContext(&debugCtx{Context: L.Context(), L: L, d: d, h: d.h})
	}
}

// debugCtx is a state's context under a debugger: Done asks the debugger
// first, while the debugger serves the state's host h, then answers as
// the context it wraps (the budget, or none).
type debugCtx struct {
	context.Context
	L *lua.LState
	d *Debugger
	h *Host
}

func (c *debugCtx) Done() <-chan struct{} {
	if c.d.active.Load() && c.d.h == c.h {
		c.d.trap(c.L)
	}
	if c.Context == nil {
		return nil
	}
	return c.Context.Done()
}

func (c *debugCtx) Err() error {
	if c.Context == nil {
		return nil
	}
	return c.Context.Err()
}

func (c *debugCtx) Deadline() (time.Time, bool) {
	if c.Context == nil {
		return time.Time{}, false
	}
	return c.Context.Deadline()
}

func (c *debugCtx) Value(k any) any {
	if c.Context == nil {
		return nil
	}
	return c.Context.Value(k)
}

// Unwrap returns the context the debugger's wraps, so that the budget's
// charges reach it (budget.Of).
func (c *debugCtx) Unwrap() context.Context { return c.Context }

// AfterFunc lets gopher-lua derive a coroutine's context without a
// goroutine, as the budget does.
func (c *debugCtx) AfterFunc(func()) func() bool { return func() bool { return true } }

// hitMatches reports whether the hits-th hit of a breakpoint with the
// hit condition cond pauses.
func hitMatches(cond string, hits int) bool {
	cond = strings.TrimSpace(cond)
	if cond == "" {
		return true
	}
	op := ">="
	for _, o := range []string{">=", "<=", "==", ">", "<", "%"} {
		if strings.HasPrefix(cond, o) {
			op, cond = o, strings.TrimSpace(cond[len(o):])
			break
		}
	}
	n, err := strconv.Atoi(cond)
	if err != nil {
		return true
	}
	switch op {
	case ">":
		return hits > n
	case "<":
		return hits < n
	case "<=":
		return hits <= n
	case "==":
		return hits == n
	case "%":
		return n > 0 && hits%n == 0
	}
	return hits >= n
}
