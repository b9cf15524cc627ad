package luabind

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/compile"
	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/luabind/internal/laux"
	"github.com/luahost/luahost/luabind/internal/luaerr"
)

// The goroutine driving the host's side of the debugger: the check before
// each instruction, and the pause.

// place is where the running code is: a state, a chunk, a line, a call
// depth, and whether the line was just entered (its function's previous
// instruction was on another line, or the function just started), which
// is when a breakpoint or a step acts: not at every instruction of one
// line, nor when a call made on the line returns to it.
type place struct {
	L       *lua.LState
	source  string
	line    int
	depth   int
	entered bool
}

// trap runs before an instruction of L while something is watched for.
func (d *Debugger) trap(L *lua.LState) {
	if d.paused != nil || d.held.Load() {
		// Lua that the paused world runs for the debugger itself (a
		// condition, an expression, a __tostring).
		return
	}
	dbg, ok := L.GetStack(0)
	if !ok {
		return
	}
	if _, err := L.GetInfo("Sl", dbg, lua.LNil); err != nil || dbg.CurrentLine <= 0 {
		return
	}
	here := d.at(L, dbg.Source, dbg.CurrentLine, gopherx.CallDepth(L))
	switch {
	case d.pauseReq.Swap(false):
		d.pause(L, Stop{Reason: "pause"}, true)
	case d.stepped(here):
		d.pause(L, Stop{Reason: "step"}, true)
	case here.entered:
		if bp := d.breakpointAt(here); bp != nil && d.hit(L, bp) {
			d.pause(L, Stop{Reason: "breakpoint"}, true)
		}
	}
}

// at records an instruction at line and depth of L and returns its place.
func (d *Debugger) at(L *lua.LState, source string, line, depth int) place {
	if L != d.lastL {
		d.lastL, d.lines = L, d.lines[:0]
	}
	// Deeper entries belong to calls that returned.
	if len(d.lines) > depth+1 {
		d.lines = d.lines[:depth+1]
	}
	for len(d.lines) <= depth {
		d.lines = append(d.lines, 0)
	}
	entered := d.lines[depth] != line
	d.lines[depth] = line
	return place{L: L, source: source, line: line, depth: depth, entered: entered}
}

// stepped reports whether a step in progress ends at here.
func (d *Debugger) stepped(here place) bool {
	switch d.step {
	case stepIn:
		return here.entered || here.L != d.stepL || here.depth != d.stepDepth
	case stepOver:
		return here.L != d.stepL || here.depth < d.stepDepth ||
			here.depth == d.stepDepth && here.entered
	case stepOut:
		return here.L != d.stepL || here.depth < d.stepDepth
	}
	return false
}

func (d *Debugger) breakpointAt(here place) *breakpoint {
	abs, ok := d.abs[here.source]
	if !ok {
		abs = absPath(here.source)
		d.abs[here.source] = abs
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.bps[abs][here.line]
}

// hit counts a hit of bp and reports whether it pauses.
func (d *Debugger) hit(L *lua.LState, bp *breakpoint) bool {
	if !bp.Entity.IsZero() {
		p := &pausedAt{d: d, L: L}
		st := p.state()
		if st == nil || st.cur == nil || st.cur.Entity() != bp.Entity {
			return false
		}
	}
	if bp.Condition != "" {
		p := &pausedAt{d: d, L: L, before: true}
		d.paused = p
		v, err := p.value(0, bp.Condition, false)
		d.paused = nil
		if err == nil && !lua.LVAsBool(v) {
			return false
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	bp.hits++
	if !hitMatches(bp.HitCondition, bp.hits) {
		return false
	}
	if bp.Once {
		key := absPath(bp.File)
		if d.bps[key][bp.Line] == bp {
			delete(d.bps[key], bp.Line)
			if len(d.bps[key]) == 0 {
				delete(d.bps, key)
			}
			d.refresh()
		}
	}
	return true
}

// debugError pauses at a script error being raised in L, when a
// debugger asks to. A budget's stop and a pending Go panic are not script
// errors.
func (h *Host) debugError(L *lua.LState) {
	if h.debug != nil && !h.passing(L) {
		h.debug.onError(L)
	}
}

// onError pauses at a script error being raised in L, when asked to.
func (d *Debugger) onError(L *lua.LState) {
	if d.paused != nil || !d.breakOnError.Load() || d.held.Load() {
		return
	}
	msg := ""
	if s, ok := L.Get(-1).(lua.LString); ok {
		msg = luaerr.Bound(string(s))
	}
	d.pause(L, Stop{Reason: "exception", Error: msg}, false)
}

// pause holds the world at L's current instruction, carrying out the
// debugger's requests, until one resumes it. before says that the
// instruction has not started (see pausedAt).
func (d *Debugger) pause(L *lua.LState, stop Stop, before bool) {
	p := &pausedAt{d: d, L: L, before: before}
	if dbg, err := p.luaFrame(0); err == nil {
		stop.File, stop.Line = dbg.Source, dbg.CurrentLine
	}
	d.step = stepNone
	d.stepping.Store(false)
	d.paused = p
	if b := d.h.budget; b != nil {
		b.Hold()
		defer b.Release()
	}
	p.stop = stop
	select {
	case d.stops <- stop:
	default:
	}
	d.tell(stop, true)
	for c := range d.cmds {
		if !c.cont {
			c.done <- p.run(c.run)
			continue
		}
		d.paused = nil
		d.step = c.resume
		d.stepping.Store(c.resume != stepNone)
		if c.resume != stepNone {
			d.stepL, d.stepDepth = L, gopherx.CallDepth(L)
		}
		d.mu.Lock()
		d.refresh()
		d.mu.Unlock()
		// Before the resume is answered: whoever asked for it is still
		// waiting, so observers can tell it from another's.
		d.tell(Stop{}, false)
		c.done <- nil
		return
	}
}

// run carries out a request, turning what it raises into its error: the
// paused instruction must not see it.
func (p *pausedAt) run(fn func(*pausedAt) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("debugger: %v", r)
		}
	}()
	return fn(p)
}

// pausedAt is the paused world, seen from the debugger: the state whose
// instruction waits and the values handed out by reference.
type pausedAt struct {
	d    *Debugger
	L    *lua.LState
	refs []lua.LValue
	// scopeRefs maps a scope's ref to its frame and kind.
	scopeRefs map[int]scopeRef
	thread    *lua.LState
	// before is set when the world is paused before an instruction of
	// its innermost Lua frame (not inside a call it makes, as at an
	// error).
	before bool
	// stop is why and where it paused.
	stop Stop
}

type scopeRef struct {
	frame int
	kind  string
}

func (p *pausedAt) stack() []Frame {
	var frames []Frame
	for level := 0; ; level++ {
		dbg, ok := p.L.GetStack(level)
		if !ok {
			break
		}
		if _, err := p.L.GetInfo("nSl", dbg, lua.LNil); err != nil {
			break
		}
		if dbg.What == "G" || dbg.CurrentLine <= 0 {
			continue
		}
		// The host calls callbacks from Go: gopher-lua names their frames
		// "main chunk".
		name := dbg.Name
		if cb := p.callbackName(gopherx.FrameFunction(dbg)); cb != "" && (name == "" || dbg.What == "main") {
			name = cb
		}
		if name == "" {
			name = "?"
		}
		frames = append(frames, Frame{Name: name, File: dbg.Source, Line: dbg.CurrentLine})
	}
	return frames
}

// luaFrame returns the Debug of the nth Lua frame (as stack counts them).
func (p *pausedAt) luaFrame(n int) (*lua.Debug, error) {
	seen := 0
	for level := 0; ; level++ {
		dbg, ok := p.L.GetStack(level)
		if !ok {
			return nil, fmt.Errorf("no frame %d", n)
		}
		if _, err := p.L.GetInfo("Sl", dbg, lua.LNil); err != nil {
			return nil, err
		}
		if dbg.What == "G" || dbg.CurrentLine <= 0 {
			continue
		}
		if seen == n {
			return dbg, nil
		}
		seen++
	}
}

func (p *pausedAt) scopes(frame int) ([]Scope, error) {
	if _, err := p.luaFrame(frame); err != nil {
		return nil, err
	}
	if p.scopeRefs == nil {
		p.scopeRefs = map[int]scopeRef{}
	}
	var out []Scope
	for _, kind := range []string{"Locals", "Upvalues", "self"} {
		if kind == "self" && p.self() == nil {
			continue
		}
		ref := p.ref(lua.LNil)
		p.scopeRefs[ref] = scopeRef{frame: frame, kind: kind}
		out = append(out, Scope{Name: kind, Ref: ref})
	}
	return out, nil
}

// state returns the state of the paused L, or nil.
func (p *pausedAt) state() *state {
	for _, s := range p.d.h.order {
		if st := s.st; st != nil && st.L == p.L {
			return st
		}
	}
	return nil
}

// callbackName names fn when it is a callback, an event handler or a
// function field of the paused script's table (a timer's target): the
// host calls those from Go, so gopher-lua knows no name for them.
func (p *pausedAt) callbackName(fn *lua.LFunction) string {
	st := p.state()
	if st == nil || fn == nil {
		return ""
	}
	for i, h := range st.handlers {
		if h == fn && i < len(st.eventNames) {
			return "events." + st.eventNames[i]
		}
	}
	name := ""
	st.table.ForEach(func(k, v lua.LValue) {
		if s, ok := k.(lua.LString); ok && v == fn && name == "" {
			name = string(s)
		}
	})
	return name
}

// self returns the self of the instance whose callback is paused, or nil.
func (p *pausedAt) self() *lua.LTable {
	if st := p.state(); st != nil && st.cur != nil {
		if li, ok := st.cur.Data.(*instance); ok {
			return li.self
		}
	}
	return nil
}

// ref hands out a reference to v (refs start at 1).
func (p *pausedAt) ref(v lua.LValue) int {
	p.refs = append(p.refs, v)
	return len(p.refs)
}

// locals returns the active locals of frame n, in declaration order
// (temporaries of the compile step left out).
func (p *pausedAt) locals(n int) ([]string, []lua.LValue, error) {
	dbg, err := p.luaFrame(n)
	if err != nil {
		return nil, nil, err
	}
	fn := gopherx.FrameFunction(dbg)
	pc, ok := gopherx.FramePC(dbg)
	if fn == nil || !ok {
		return nil, nil, nil
	}
	if n == 0 && p.before {
		// The paused instruction has not run: a local that its
		// predecessor made is active already, where gopher-lua, which
		// expects the instruction to be running, does not count it yet.
		pc++
	}
	var names []string
	var values []lua.LValue
	for i := 1; ; i++ {
		name, ok := fn.LocalName(i, pc)
		if !ok {
			break
		}
		if name[0] == '(' {
			continue
		}
		_, v := p.L.GetLocal(dbg, i)
		names, values = append(names, name), append(values, v)
	}
	return names, values, nil
}

func (p *pausedAt) upvalues(n int) ([]string, []lua.LValue, error) {
	dbg, err := p.luaFrame(n)
	if err != nil {
		return nil, nil, err
	}
	fn := gopherx.FrameFunction(dbg)
	if fn == nil {
		return nil, nil, nil
	}
	var names []string
	var values []lua.LValue
	for i := 1; ; i++ {
		name, v := p.L.GetUpvalue(fn, i)
		if name == "" {
			break
		}
		names, values = append(names, name), append(values, v)
	}
	return names, values, nil
}

func (p *pausedAt) variables(ref int) ([]Variable, error) {
	if sc, ok := p.scopeRefs[ref]; ok {
		var names []string
		var values []lua.LValue
		var err error
		switch sc.kind {
		case "Locals":
			names, values, err = p.locals(sc.frame)
		case "Upvalues":
			names, values, err = p.upvalues(sc.frame)
		case "self":
			return p.fields(p.self()), nil
		}
		if err != nil {
			return nil, err
		}
		vars := make([]Variable, len(names))
		for i := range names {
			vars[i] = p.variable(names[i], values[i])
		}
		return vars, nil
	}
	if ref < 1 || ref > len(p.refs) {
		return nil, fmt.Errorf("no variable %d", ref)
	}
	t, ok := p.refs[ref-1].(*lua.LTable)
	if !ok {
		return nil, nil
	}
	return p.fields(t), nil
}

// maxFields bounds the fields shown of one table.
const maxFields = 1000

func (p *pausedAt) fields(t *lua.LTable) []Variable {
	if t == nil {
		return nil
	}
	var vars []Variable
	for k, v := t.Next(lua.LNil); k != lua.LNil && len(vars) < maxFields; k, v = t.Next(k) {
		name := ""
		switch x := k.(type) {
		case lua.LString:
			name = string(x)
		case lua.LNumber:
			name = "[" + laux.FormatNumber(x) + "]"
		default:
			name = "[" + p.describe(k) + "]"
		}
		vars = append(vars, p.variable(name, v))
	}
	return vars
}

func (p *pausedAt) variable(name string, v lua.LValue) Variable {
	out := Variable{Name: name, Value: p.describe(v), Type: v.Type().String()}
	if _, ok := v.(*lua.LTable); ok {
		out.Ref = p.ref(v)
	}
	return out
}

// describe words v as tostring does (strings quoted), calling a
// __tostring in a thread of its own: L's stack holds the paused frame.
func (p *pausedAt) describe(v lua.LValue) string {
	switch x := v.(type) {
	case lua.LString:
		return strconv.Quote(string(x))
	case lua.LNumber:
		return laux.FormatNumber(x)
	}
	th := p.evalThread()
	var s string
	th.Push(th.NewFunction(func(L *lua.LState) int {
		s = L.ToStringMeta(v).String()
		return 0
	}))
	if err := th.PCall(0, 0, nil); err != nil {
		return v.String()
	}
	return s
}

// evalTimeout bounds what the debugger itself runs in the paused world.
const evalTimeout = time.Second

// evalThread returns a thread of the paused state's globals, with a stack
// of its own.
func (p *pausedAt) evalThread() *lua.LState {
	if p.thread == nil {
		p.thread, _ = p.L.NewThread()
		p.thread.RemoveContext()
	}
	return p.thread
}

func (p *pausedAt) evaluate(frame int, expr string, write bool) (Variable, error) {
	v, err := p.value(frame, expr, write)
	if err != nil {
		return Variable{}, err
	}
	return p.variable(expr, v), nil
}

// errReadOnly is what an expression that assigns gets without write.
var errReadOnly = errors.New("read-only: the debugger evaluates without assigning")

// value evaluates expr in frame n: its names are the frame's locals, then
// its upvalues, then the globals of its function.
func (p *pausedAt) value(frame int, expr string, write bool) (lua.LValue, error) {
	dbg, err := p.luaFrame(frame)
	if err != nil {
		return lua.LNil, err
	}
	names, values, err := p.locals(frame)
	if err != nil {
		return lua.LNil, err
	}
	upNames, upValues, _ := p.upvalues(frame)
	var globals lua.LValue = p.L.G.Global
	if fn := gopherx.FrameFunction(dbg); fn != nil && fn.Env != nil {
		globals = fn.Env
	}
	th := p.evalThread()
	env := th.NewTable()
	mt := th.NewTable()
	mt.RawSetString("__index", th.NewFunction(func(L *lua.LState) int {
		k := L.Get(2)
		if s, ok := k.(lua.LString); ok {
			for i := len(names) - 1; i >= 0; i-- {
				if names[i] == string(s) {
					L.Push(values[i])
					return 1
				}
			}
			for i, n := range upNames {
				if n == string(s) {
					L.Push(upValues[i])
					return 1
				}
			}
		}
		L.Push(L.GetTable(globals, k))
		return 1
	}))
	mt.RawSetString("__newindex", th.NewFunction(func(L *lua.LState) int {
		if !write {
			L.RaiseError("%s", errReadOnly.Error())
		}
		k, v := L.Get(2), L.Get(3)
		if s, ok := k.(lua.LString); ok {
			for i := len(names) - 1; i >= 0; i-- {
				if names[i] == string(s) {
					p.setLocal(dbg, string(s), v)
					values[i] = v
					return 0
				}
			}
		}
		L.SetTable(globals, k, v)
		return 0
	}))
	th.SetMetatable(env, mt)
	src := "return " + expr
	proto, err := compile.Compile(src, "=(debugger)", p.d.h.maxString())
	if err != nil {
		if proto, err = compile.Compile(expr, "=(debugger)", p.d.h.maxString()); err != nil {
			return lua.LNil, err
		}
	}
	fn := th.NewFunctionFromProto(proto)
	fn.Env = env
	ctx, cancel := context.WithTimeout(context.Background(), evalTimeout)
	defer cancel()
	th.SetContext(ctx)
	defer th.RemoveContext()
	th.Push(fn)
	if err := th.PCall(0, 1, nil); err != nil {
		return lua.LNil, errors.New(luaerr.ErrorMessage(err))
	}
	v := th.Get(-1)
	th.Pop(1)
	return v, nil
}

// setLocal assigns the active local name of the frame dbg.
func (p *pausedAt) setLocal(dbg *lua.Debug, name string, v lua.LValue) {
	slot := 0
	for i := 1; ; i++ {
		n, _ := p.L.GetLocal(dbg, i)
		if n == "" {
			break
		}
		if n == name {
			slot = i
		}
	}
	if slot > 0 {
		p.L.SetLocal(dbg, slot, v)
	}
}
