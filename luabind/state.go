package luabind

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/budget"
	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/luabind/internal/laux"
	"github.com/luahost/luahost/luabind/internal/luaerr"
	"github.com/luahost/luahost/luabind/internal/lualib"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// state is one Lua state and the script version loaded into it: the
// table the chunk returned, its callbacks, and the reused ctx. Every
// instance of a script shares its state; a hot reload builds a new state
// and swaps it in whole.
type state struct {
	host   *Host
	script *Script
	L      *lua.LState
	// version is the version of the source loaded into it
	// (snapshot.Version), which exports record.
	version string
	// src is that source, for a debugger's view of it (Script.Source).
	src string

	// table is the table the chunk returned: timers look their
	// functions up in it when they fire.
	table    *lua.LTable
	label    string
	priority int
	props    *lua.LTable
	// propsBytes is what one copy of props holds (a sizer's measure),
	// charged against the memory ceiling at every copy (chargeCopy).
	propsBytes int64
	onCreate   *lua.LFunction
	onUpdate   *lua.LFunction
	onDestroy  *lua.LFunction
	onReload   *lua.LFunction
	// straight runs a callback through gopher-lua's plain loop when it
	// is straight-line code; straightLen is its length then (0 when not),
	// measured for straightFn, and straightLens the lengths measured for
	// the state's callbacks, by prototype (straightLenOf).
	straight     *gopherx.Straight
	straightFn   *lua.LFunction
	straightLen  int64
	straightLens map[*lua.FunctionProto]int64
	eventNames   []string
	// handlers are the events' functions as the chunk returned them, in
	// eventNames' order (deliver.go).
	handlers []*lua.LFunction

	ctx *lua.LTable
	// ctxFields holds what ctx answers (ctx itself stays empty).
	ctxFields *lua.LTable
	protect   *lua.LFunction
	// stack, hook and traced are what direct calls use (direct.go); stack
	// is nil when callbacks go through protect instead.
	stack    *gopherx.CallStack
	hook     func(*lua.LState)
	traced   func(*lua.LState)
	entityMT *lua.LTable
	eventMT  *lua.LTable
	vecMT    *lua.LTable
	// delivery is what event delivery reuses (deliver.go).
	delivery delivery
	// selves are self tables made ahead.
	selves selfBatch
	// instBlock is what is left of the block instance records are cut from.
	instBlock []instance
	// keyBoxes holds the one box of each key the state's selves share
	// (shareKeys).
	keyBoxes map[string]lua.LValue

	// cur is the instance whose callback runs now (nil in chunk code),
	// curEntity its entity value.
	cur       *runtime.Instance
	curEntity lua.LValue
	// entityRead is set once a script of the state read ctx.entity
	// (ctx.go).
	entityRead bool
	// frame is the frame whose numbers ctx holds; dt the boxed dt.
	frame uint64
	dt    lua.LValue

	// loaded and preload are package.loaded and package.preload;
	// loading marks in loaded a module whose chunk runs now.
	loaded, preload *lua.LTable
	loading         lua.LValue
	modules         []string

	raised raised
	// labels are the pprof label sets of the state's callbacks, by name
	// (with Options.ProfileLabels).
	labels map[[2]string]context.Context
	// rng is math.random's generator, whose state a snapshot saves.
	rng *rand.PCG
	// rand draws from rng; under zoned rules, math.random draws from the
	// current entity's stream instead (world.go).
	rand *rand.Rand
	// onRestore, onExport and onImport run after a restore, before an
	// export and after an import.
	onRestore, onExport, onImport *lua.LFunction
}

// instance is the Lua side of one runtime.Instance (its Data).
type instance struct {
	self *lua.LTable
	// ent is the entity value ctx.entity gives, made when a script of
	// the state first reads ctx.entity (entityOf).
	ent lua.LValue
	// more is what only some instances have, nil until one is: an
	// instance is allocated for every entity, and a world of spinners
	// pays for three pointers, not eight.
	more *instanceMore
}

// instanceMore is the part of an instance that most have not.
type instanceMore struct {
	// local is the value of the entity's runtime handle that entity
	// methods under zoned rules run on (onLocal), made on first use.
	local *lua.LUserData
	// propKeys are the top-level string keys the attach's props set: a
	// hot reload never gives them a new default.
	propKeys []string
	// timers are the instance's pending timers, by due time then id.
	timers []timer
}

// extra returns li.more, made on first use.
func (li *instance) extra() *instanceMore {
	if li.more == nil {
		li.more = &instanceMore{}
	}
	return li.more
}

// pending returns the instance's pending timers.
func (li *instance) pending() []timer {
	if li.more == nil {
		return nil
	}
	return li.more.timers
}

// setPending replaces the instance's pending timers.
func (li *instance) setPending(ts []timer) {
	if li.more == nil && ts == nil {
		return
	}
	li.extra().timers = ts
}

// props returns the top-level string keys the attach's props set.
func (li *instance) props() []string {
	if li.more == nil {
		return nil
	}
	return li.more.propKeys
}

// setProps replaces the keys props returns.
func (li *instance) setProps(keys []string) {
	if li.more == nil && keys == nil {
		return
	}
	li.extra().propKeys = keys
}

// propKeys returns the top-level string keys of attach props (plain data).
func propKeys(props any) []string {
	t, ok := props.(*runtime.Table)
	if !ok {
		return nil
	}
	var keys []string
	for _, f := range t.Fields {
		if k, ok := f.Key.(string); ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// build compiles src, takes a fresh sandboxed state, binds the script's
// API into it and runs the chunk under the budget. The chunk must return a
// table; its fields are checked. On any failure the state is closed and a
// *LoadError returned.
func (h *Host) build(s *Script, src []byte) (*state, error) {
	st, ret, err := h.run(s, src)
	if err != nil {
		return nil, err
	}
	tbl, ok := ret.(*lua.LTable)
	if !ok {
		st.close()
		return nil, &LoadError{Script: s.name, File: s.file, Message: fmt.Sprintf("%s: the script must return a table, not %s", s.file, ret.Type())}
	}
	if err := st.define(tbl); err != nil {
		st.close()
		return nil, &LoadError{Script: s.name, File: s.file, Message: fmt.Sprintf("%s: %v", s.file, err)}
	}
	return st, nil
}

// run compiles src, takes a fresh sandboxed state, binds the script's API
// into it and runs the chunk under the budget. It returns the state and
// what the chunk returned, or closes the state and returns a *LoadError.
func (h *Host) run(s *Script, src []byte) (*state, lua.LValue, error) {
	proto, err := h.chunks.compile(s.name, s.file, src, h.maxString())
	if err != nil {
		return nil, nil, err
	}
	L := h.states.Get()
	if h.debug != nil {
		h.debug.watch(L)
	}
	st := &state{host: h, script: s, L: L, frame: ^uint64(0), version: snapshot.Version(src), src: string(src)}
	st.bind()
	L.Push(L.NewFunctionFromProto(proto))
	h.building = append(h.building, st)
	err = st.pcall(0, 1, kindChunk, "chunk")
	h.building = h.building[:len(h.building)-1]
	if err != nil {
		st.close()
		if se, ok := err.(*runtime.ScriptError); ok {
			return nil, nil, loadError(s.name, s.file, se.Message)
		}
		return nil, nil, loadError(s.name, s.file, err.Error())
	}
	ret := L.Get(-1)
	L.Pop(1)
	return st, ret, nil
}

// define reads the script table.
func (st *state) define(t *lua.LTable) error {
	st.table = t
	st.label = st.script.name[strings.LastIndex(st.script.name, "/")+1:]
	switch v := t.RawGetString("name").(type) {
	case *lua.LNilType:
	case lua.LString:
		st.label = string(v)
	default:
		return fmt.Errorf("field 'name' must be a string, not %s", v.Type())
	}
	switch v := t.RawGetString("priority").(type) {
	case *lua.LNilType:
	case lua.LNumber:
		if !isInt(v) {
			return fmt.Errorf("field 'priority' must be a whole number, not %v", v)
		}
		st.priority = int(v)
	default:
		return fmt.Errorf("field 'priority' must be a number, not %s", v.Type())
	}
	switch v := t.RawGetString("properties").(type) {
	case *lua.LNilType:
		st.props = st.L.CreateTable(0, 0)
	case *lua.LTable:
		if _, err := st.toPlain(v, "properties"); err != nil {
			return fmt.Errorf("field 'properties': %v", err)
		}
		// The defaults are the properties as the chunk returned them:
		// selves are made from them ahead (selfBatch), so later changes
		// to the table must not reach them.
		st.props = copyTable(st.L, v, 0)
		z := newSizer(&pointerSet{})
		z.table(st.props)
		st.propsBytes = z.bytes
	default:
		return fmt.Errorf("field 'properties' must be a table, not %s", v.Type())
	}
	for _, cb := range []struct {
		name string
		fn   **lua.LFunction
	}{{"onCreate", &st.onCreate}, {"onUpdate", &st.onUpdate}, {"onDestroy", &st.onDestroy}, {"onReload", &st.onReload},
		{"onRestore", &st.onRestore}, {"onExport", &st.onExport}, {"onImport", &st.onImport}} {
		switch v := t.RawGetString(cb.name).(type) {
		case *lua.LNilType:
		case *lua.LFunction:
			*cb.fn = v
		default:
			return fmt.Errorf("field '%s' must be a function, not %s", cb.name, v.Type())
		}
	}
	switch v := t.RawGetString("events").(type) {
	case *lua.LNilType:
	case *lua.LTable:
		var bad error
		v.ForEach(func(k, fn lua.LValue) {
			name, ok := k.(lua.LString)
			if _, isFn := fn.(*lua.LFunction); !ok || !isFn {
				bad = fmt.Errorf("field 'events' must map event names to functions (at %v)", k)
				return
			}
			st.eventNames = append(st.eventNames, string(name))
		})
		if bad != nil {
			return bad
		}
		slices.Sort(st.eventNames)
		st.handlers = make([]*lua.LFunction, len(st.eventNames))
		for i, name := range st.eventNames {
			st.handlers[i] = v.RawGetString(name).(*lua.LFunction)
		}
	default:
		return fmt.Errorf("field 'events' must be a table, not %s", v.Type())
	}
	return nil
}

// bind installs what depends on the host and the script: print, require,
// math.random, ctx, the entity and event types, registered functions.
func (st *state) bind() {
	h, L := st.host, st.L
	g := L.G.Global
	g.RawSetString("print", L.NewFunction(st.print))
	g.RawSetString("require", L.NewFunction(st.require))
	st.bindPackage()
	st.rng = lualib.NewRand(h.rt.Seed(), st.script.name)
	st.rand = rand.New(st.rng)
	lualib.BindRandomFrom(L, st.random, st.reseed)
	st.protect = newProtect(L, h.debugError)
	st.stack, st.traced = gopherx.NewCallStack(L), L.Panic
	st.hook = newHook(st.traced, h.debugError)
	st.entityMT = st.newEntityType()
	st.eventMT = st.newEventType()
	st.newVecType()
	st.ctx = st.newCtx()
	luaerr.NameFunctions(L, st.ctxFields, st.entityMT.RawGetString("__index").(*lua.LTable))
	for _, f := range h.funcs {
		st.bindFunc(f.name, f.fn)
	}
}

// bindFunc exposes a registered Go function as a global.
func (st *state) bindFunc(name string, fn Func) {
	st.L.G.Global.RawSetString(name, st.L.NewFunction(func(L *lua.LState) int {
		top := L.GetTop()
		args := make([]any, top)
		for i := 1; i <= top; i++ {
			v, err := st.toPlain(L.Get(i), "")
			if err != nil {
				st.argError(L, i, err)
			}
			args[i-1] = v
		}
		res, err := callFunc(fn, st.cur, args)
		st.stopping(L)
		if pe, ok := err.(*runtime.PanicError); ok {
			st.goPanic(L, name, pe)
		}
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, name+": ") {
				msg = name + ": " + msg
			}
			st.raise(L, msg, err)
		}
		p, err := runtime.PlainAt("result", res)
		if err != nil {
			st.raise(L, name+": "+err.Error(), err)
		}
		L.Push(st.fromPlain(p))
		return 1
	}))
}

// callFunc calls a registered function; a panic in it is recovered as a
// *runtime.PanicError with the Go stack.
func callFunc(fn Func, inst *runtime.Instance, args []any) (res any, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = runtime.NewPanicError(v)
		}
	}()
	return fn(inst, args)
}

// raised is the last Go error raised into a state as a Lua error, and the
// message it was raised with.
type raised struct {
	msg string
	err error
}

// raise raises msg (bounded) as a Lua error at the calling script's line
// and remembers err, so that the callback's report wraps it if the error
// reaches the callback's end: errors.Is(report, err) then holds.
func (st *state) raise(L *lua.LState, msg string, err error) {
	msg = luaerr.Bound(msg)
	st.raised = raised{msg: msg, err: err}
	L.RaiseError("%s", msg)
}

// argError raises err as a bad argument n ("bad argument #n to 'f'
// (message)") and remembers it, as raise does.
func (st *state) argError(L *lua.LState, n int, err error) {
	msg := luaerr.Bound(err.Error())
	st.raised = raised{msg: "(" + msg + ")", err: err}
	L.ArgError(n, msg)
}

// goError returns the Go error a callback's Lua error came from, when it
// is still the message raise raised (not a new error a script made of
// it), or nil.
func (st *state) goError(err error) error {
	var ae *lua.ApiError
	if st.raised.err == nil || !errors.As(err, &ae) {
		return nil
	}
	if s, ok := ae.Object.(lua.LString); ok && strings.HasSuffix(string(s), st.raised.msg) {
		return st.raised.err
	}
	return nil
}

// require(name) returns package.loaded[name] when it is set. Otherwise it
// runs the loader package.preload[name], or else the module's file:
// Dir/name.lua, or Dir/name/init.lua (dots become slashes), with name as
// its argument. What the module returns (or, when it returns nothing,
// what it stored in package.loaded[name], or true) becomes
// package.loaded[name] and the result. Names with "..", slashes or
// absolute paths are refused; files are read once per state.
func (st *state) require(L *lua.LState) int {
	name := L.CheckString(1)
	switch v := st.loaded.RawGetString(name); {
	case v == st.loading:
		L.RaiseError("loop requiring module %s", luaerr.Quote(name))
	case lua.LVAsBool(v):
		L.Push(v)
		return 1
	}
	loader, ok := st.preload.RawGetString(name).(*lua.LFunction)
	if !ok {
		loader = st.moduleFile(L, name)
	}
	st.loaded.RawSetString(name, st.loading)
	defer func() {
		// A module whose chunk failed is not loaded: the next require
		// tries again instead of reporting a loop.
		if st.loaded.RawGetString(name) == st.loading {
			st.loaded.RawSetString(name, lua.LNil)
		}
	}()
	L.Push(loader)
	L.Push(lua.LString(name))
	L.Call(1, 1)
	v := L.Get(-1)
	L.Pop(1)
	if v != lua.LNil {
		st.loaded.RawSetString(name, v)
	}
	if v = st.loaded.RawGetString(name); v == st.loading {
		v = lua.LTrue
		st.loaded.RawSetString(name, v)
	}
	L.Push(v)
	return 1
}

// moduleFile compiles the file of module name (Dir/name.lua, or else
// Dir/name/init.lua) and returns its chunk.
func (st *state) moduleFile(L *lua.LState, name string) *lua.LFunction {
	if !moduleName.MatchString(name) {
		L.ArgError(1, fmt.Sprintf("invalid module name %s (want dotted names under the script directory, such as \"lib.vector\")", luaerr.Quote(name)))
	}
	if st.host.console {
		L.RaiseError("module %s is not loaded by this script, and the console reads no files", luaerr.Quote(name))
	}
	base := strings.ReplaceAll(name, ".", "/")
	var tried []string
	for _, rel := range []string{base + ".lua", base + "/init.lua"} {
		path := filepath.Join(st.host.opts.Dir, filepath.FromSlash(rel))
		file := filepath.ToSlash(path)
		src, err := st.host.readSource(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			tried = append(tried, "no file "+file)
			continue
		case err != nil:
			L.RaiseError("module %s refused: %s", luaerr.Quote(name), refusal(file, err))
		}
		proto, err := st.host.chunks.compile(st.script.name, file, src, st.host.maxString())
		if err != nil {
			L.RaiseError("%s", err.Error())
		}
		st.modules = append(st.modules, rel)
		return L.NewFunctionFromProto(proto)
	}
	L.RaiseError("module %s not found: %s", luaerr.Quote(name), strings.Join(tried, ", "))
	return nil
}

// newSelf builds a new instance's self: a deep copy of the properties,
// whose top-level keys are overridden by props (plain data). A copy that
// would pass the memory ceiling is an error (chargeCopy).
func (st *state) newSelf(props any) (*lua.LTable, error) {
	self, err := st.selves.take(st)
	if err != nil {
		return nil, err
	}
	if t, ok := props.(*runtime.Table); ok {
		for _, f := range t.Fields {
			self.RawSet(st.fromPlain(f.Key), st.fromPlain(f.Value))
		}
	}
	return self, nil
}

// syncFrame refreshes ctx.frame, ctx.time and ctx.dt once per frame, so
// that a callback costs no boxing of numbers.
func (st *state) syncFrame() {
	if f := st.host.rt.Frame(); f != st.frame {
		st.newFrame(f)
	}
}

// newFrame sets ctx's numbers to those of frame f.
func (st *state) newFrame(f uint64) {
	rt := st.host.rt
	st.frame = f
	st.dt = lua.LNumber(rt.DT())
	st.ctxFields.RawSetString("frame", lua.LNumber(f))
	st.ctxFields.RawSetString("time", lua.LNumber(rt.Time()))
	st.ctxFields.RawSetString("dt", st.dt)
}

// enter makes inst the current instance and returns the previous one,
// for callbacks that nest (an event handler inside an emit).
func (st *state) enter(inst *runtime.Instance, li *instance) (*runtime.Instance, lua.LValue) {
	st.syncFrame()
	prev, prevEnt := st.cur, st.curEntity
	st.cur, st.curEntity = inst, li.ent
	if st.entityRead {
		st.curEntity = st.entityOf(inst, li)
		st.showEntity(st.curEntity)
	}
	return prev, prevEnt
}

func (st *state) leave(prev *runtime.Instance, prevEnt lua.LValue) {
	st.cur, st.curEntity = prev, prevEnt
	if prev != nil && st.entityRead {
		// ctx.entity may have been read first in the nested callback.
		st.curEntity = st.entityOf(prev, prev.Data.(*instance))
		st.showEntity(st.curEntity)
	}
}

// stopping raises the budget's stop in the calling script when the
// outermost callback's clock ran out while the Lua function that called
// it ran nested callbacks: the outer callback is then reported at its own
// line, the call that ran them.
func (st *state) stopping(L *lua.LState) {
	if b := st.host.budget; b != nil && b.Stopping() {
		L.RaiseError("%s", errStopped.Error())
	}
}

// maxNesting bounds callbacks running one inside another (an onCreate run
// by attach or spawn, a handler run by emit or send, inside a callback):
// far below the Go and Lua stacks' limits, far above any designer's need.
const maxNesting = 200

// tooDeep is what runs in place of a callback nested past maxNesting.
func tooDeep(L *lua.LState) int {
	L.RaiseError("callbacks nested more than %d deep (an onCreate that attaches or spawns its own script?)", maxNesting)
	return 0
}

// pcall calls the function below nargs arguments on the stack,
// protected, under the budget, with its errors worded like reference
// Lua's (a direct call, or through st.protect), and counts and times it as a callback of
// kind (stats.go). A nested callback stopped without blame returns
// errNested, which callers treat as a normal return; any other error is a
// *runtime.ScriptError.
func (st *state) pcall(nargs, nret int, kind callbackKind, callback string) error {
	return st.pcallAs(nargs, nret, kind, callback, "")
}

// pcallAs is pcall for a callback named callback+suffix, a name built only
// when there is an error to report.
func (st *state) pcallAs(nargs, nret int, kind callbackKind, callback, suffix string) error {
	c := &st.host.clock
	if kind == kindChunk || c.off {
		return st.protected(nargs, nret, callback, suffix)
	}
	// Untimed (most cheap callbacks), timing costs a countdown, a flag's
	// test and the counters (stats.go).
	k := &st.script.timing.kinds[kind]
	c.skip--
	if c.skip <= 0 || !k.sampled {
		return st.timedCall(nargs, nret, k, callback, suffix)
	}
	err := st.protected(nargs, nret, callback, suffix)
	st.count(k, err)
	st.published()
	return err
}

// protected is pcallAs without the timing.
func (st *state) protected(nargs, nret int, callback, suffix string) error {
	h, L := st.host, st.L
	depth := st.depth()
	if depth >= stackCapacity {
		// Called from a Go function in the call stack's last frame: the
		// callback cannot start (stackFull says why it must not try).
		L.Pop(nargs + 1)
		overflow := &lua.ApiError{Type: lua.ApiErrorRun, Object: lua.LString(laux.Where(L, 1) + "stack overflow")}
		return scriptError(st.script, callback+suffix, overflow, overrun{})
	}
	if h.nesting >= maxNesting {
		// A callback that would run too deep inside others (an onCreate
		// that attaches its own script) fails in place of its code: the
		// innermost is refused, the callbacks around it go on.
		L.Replace(L.GetTop()-nargs, L.NewFunction(tooDeep))
	}
	b := h.budget
	if b != nil {
		b.Arm()
	}
	h.nesting++
	var err error
	if st.stack != nil {
		err = st.call(nargs, nret, depth, st.straightCall(b, nargs))
	} else {
		L.Insert(st.protect, L.GetTop()-nargs)
		err = L.PCall(nargs+1, nret, nil)
	}
	h.nesting--
	return st.ended(b, err, callback, suffix)
}

// ended ends a protected call under b (nil: no budget) that returned err
// and returns what the call's caller gets: nil, errNested, or a
// *runtime.ScriptError.
func (st *state) ended(b *budget.Budget, err error, callback, suffix string) error {
	o := disarm(b, err != nil)
	if err == nil {
		return nil
	}
	if o.nested {
		return errNested
	}
	se := scriptError(st.script, callback+suffix, err, o)
	if pe := st.host.takePanic(); pe != nil && se.Err == nil {
		se.Err = pe
	}
	if se.Err == nil {
		se.Err = st.goError(err)
	}
	if pe, ok := se.Err.(*runtime.PanicError); ok {
		se.Traceback = strings.TrimSuffix(se.Traceback+"\nGo stack:\n"+pe.Stack, "\n")
	}
	return se
}

// callback runs fn(self, ctx, args...) for inst.
func (st *state) callback(inst *runtime.Instance, fn *lua.LFunction, kind callbackKind, name string, nret int, args ...lua.LValue) error {
	li := inst.Data.(*instance)
	prev, prevEnt := st.enter(inst, li)
	L := st.L
	L.Push(fn)
	L.Push(li.self)
	L.Push(st.ctx)
	for _, a := range args {
		L.Push(a)
	}
	err := st.pcall(2+len(args), nret, kind, name)
	st.leave(prev, prevEnt)
	return err
}

func (st *state) close() {
	if st.L != nil {
		st.L.Close()
		st.L = nil
	}
}
