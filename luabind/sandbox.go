package luabind

import (
	"io"
	"math"
	"math/rand/v2"
	"regexp"
	"runtime/metrics"
	"slices"
	"strings"

	"github.com/luahost/luahost/luabind/internal/compile"
	"github.com/luahost/luahost/luabind/internal/laux"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"github.com/luahost/luahost/luabind/internal/lstring"
)

// The sandbox (SPEC 4.4). Every state is built with no library, then
// given exactly this:
//
//   - base functions, without dofile, loadfile, module, newproxy and
//     _printregs; load and loadstring take source text only (no bytecode,
//     at most maxLoadSize bytes); getfenv/setfenv refuse level 0;
//     collectgarbage only answers "count" (anything else does nothing);
//     unpack returns at most maxResults values; print writes one line to
//     the host's output; require loads modules from the script directory;
//   - string (find, match, gmatch, gsub, rep and format bounded and
//     interruptible), table, math (random seeded per state from the
//     runtime's seed), coroutine (every coroutine runs under the budget);
//   - os.time, os.clock, os.date and os.difftime.
//
// Nothing reaches files, processes, the environment or the network, and
// states share nothing: a change to one state's string metatable or
// globals is invisible to every other script.

const maxLoadSize = 1 << 20

// Sizes of a state (SPEC 10). The call stack grows on demand up to
// callStackSize frames: Lua-to-Lua recursion 12,000 deep (SPEC 4.7; Lua
// 5.1 stops near 16,000), at a fixed cost of a byte a frame. The value
// stack grows registryGrow slots (64 KiB) at a time up to registryMaxSize
// slots, which bounds unpack-like floods: gopher-lua grows it by a fixed
// step and copies it whole each time, so its default of 32 slots makes a
// deep recursion or a call with thousands of arguments quadratic, while
// this step fills the largest stack in 64 copies.
const (
	callStackSize   = 12000
	registrySize    = 256
	registryMaxSize = 1 << 18
	registryGrow    = 1 << 12
)

func init() {
	// Arrays longer than laux.ArrayPart go on in the hash part (arrays.go),
	// so that a sparse write fills at most laux.ArrayPart slots.
	lua.MaxArrayIndex = laux.ArrayPart + 1
}

// newSandbox builds a fresh sandboxed state. Everything that depends on
// the script that will run in it is bound later, by bind.
func (h *Host) newSandbox() *lua.LState {
	L := lua.NewState(lua.Options{
		SkipOpenLibs:        true,
		CallStackSize:       callStackSize,
		RegistrySize:        registrySize,
		RegistryMaxSize:     registryMaxSize,
		RegistryGrowStep:    registryGrow,
		MinimizeStackMemory: true,
	})
	for _, lib := range []struct {
		name string
		open lua.LGFunction
	}{
		{lua.BaseLibName, lua.OpenBase},
		{lua.TabLibName, lua.OpenTable},
		{lua.StringLibName, lua.OpenString},
		{lua.MathLibName, lua.OpenMath},
		{lua.CoroutineLibName, lua.OpenCoroutine},
		{lua.OsLibName, lua.OpenOs},
	} {
		L.Push(L.NewFunction(lib.open))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	g := L.G.Global
	for _, name := range []string{"dofile", "loadfile", "module", "newproxy", "_printregs", "require", "_GOPHER_LUA_VERSION"} {
		g.RawSetString(name, lua.LNil)
	}

	// os: only the clock and the calendar.
	osLib := g.RawGetString(lua.OsLibName).(*lua.LTable)
	g.RawSetString(lua.OsLibName, installOS(L, osLib, maxStringSize(h.opts.MaxStringSize)))

	str := g.RawGetString(lua.StringLibName).(*lua.LTable)
	lstring.Register(L, str, lstring.Limits{MaxSize: h.opts.MaxStringSize, NumberString: laux.FormatNumber})
	installBase(L, g)
	g.RawSetString("debug", installDebug(L))
	installTable(L, g.RawGetString(lua.TabLibName).(*lua.LTable), maxStringSize(h.opts.MaxStringSize))

	getfenv := g.RawGetString("getfenv").(*lua.LFunction)
	setfenv := g.RawGetString("setfenv").(*lua.LFunction)
	g.RawSetString("getfenv", L.NewFunction(guardLevel0(getfenv)))
	g.RawSetString("setfenv", L.NewFunction(guardLevel0(setfenv)))
	g.RawSetString("load", L.NewFunction(h.sandboxLoad))
	g.RawSetString("loadstring", L.NewFunction(h.sandboxLoadString))
	g.RawSetString("tostring", L.NewFunction(luaToString))
	g.RawSetString("ipairs", L.NewFunction(luaIpairs))
	g.RawSetString("collectgarbage", L.NewFunction(collectGarbage))
	g.RawSetString("unpack", L.NewFunction(boundedUnpack))
	protect, closer := newProtect(L), newCloser(L)
	g.RawSetString("pcall", L.NewFunction(newPCall(h, protect, closer)))
	g.RawSetString("xpcall", L.NewFunction(newXPCall(h, protect, closer)))

	co := g.RawGetString(lua.CoroutineLibName).(*lua.LTable)
	create := co.RawGetString("create").(*lua.LFunction)
	hook := L.NewFunction(hookThread)
	budgeted := L.NewFunction(func(L *lua.LState) int {
		fn := L.CheckFunction(1)
		if fn.IsG {
			L.ArgError(1, "Lua function expected")
		}
		L.Push(create)
		L.Push(L.NewFunctionFromProto(threadProto))
		L.Push(hook)
		L.Push(fn)
		L.Call(2, 1)
		L.Call(1, 1)
		if th, ok := L.Get(-1).(*lua.LState); ok && h.budget != nil {
			th.SetContext(h.budget)
		}
		return 1
	})
	co.RawSetString("create", budgeted)

	g = sortGlobals(L)
	co = g.RawGetString(lua.CoroutineLibName).(*lua.LTable)
	resume := L.NewFunction(wordResume(h, co.RawGetString("resume").(*lua.LFunction)))
	co.RawSetString("resume", resume)
	co.RawSetString("wrap", L.NewFunction(wrapCoroutine(budgeted, resume)))
	installYield(L, co)
	if h.budget != nil {
		L.SetContext(h.budget)
	}
	return L
}

// threadProto returns the function every coroutine runs: it installs the
// error mapper's hook in the coroutine (hookThread), then tail-calls the
// coroutine's function, so that its frames are the coroutine's own.
var threadProto = mustCompile("=coroutine", `
local hook, fn = ...
return function(...) hook() return fn(...) end
`)

// hookThread installs, in the coroutine calling it, a panic hook that
// rewrites every error raised in it (rewriteError) before gopher-lua's
// own hook, which the coroutine's first resume installed, raises it:
// errors inside coroutines name their culprit as the others do.
func hookThread(L *lua.LState) int {
	prev := L.Panic
	L.Panic = func(L *lua.LState) {
		rewriteTop(L)
		prev(L)
	}
	return 0
}

// sortGlobals rebuilds the global table and the library tables with their
// keys inserted in sorted order, and makes the new global table the
// state's environment. gopher-lua registers libraries from Go maps, whose
// order changes from run to run, and a Lua table's pairs order is its
// insertion order: without this, a script listing a library with pairs
// would print differently each run. Call it before any Lua function is
// made, so that every function's environment is the new table.
func sortGlobals(L *lua.LState) *lua.LTable {
	old := L.G.Global
	for _, lib := range []string{lua.CoroutineLibName, lua.MathLibName, lua.OsLibName, lua.StringLibName, lua.TabLibName} {
		old.RawSetString(lib, sortedCopy(L, old.RawGetString(lib).(*lua.LTable)))
	}
	// The strings' metatable becomes {__index = string} as in reference
	// Lua, instead of the string library itself. It is the state's own,
	// so a script may change it without reaching any other script.
	if mt, ok := L.GetMetatable(lua.LString("")).(*lua.LTable); ok {
		mt.RawSetString("__index", old.RawGetString(lua.StringLibName))
	}
	g := sortedCopy(L, old)
	g.RawSetString("_G", g)
	L.G.Global = g
	L.Env = g
	// gopher-lua's own module table still holds the unsorted originals:
	// point it at the copies, so that the originals are not kept alive
	// beside them in every state.
	if loaded, ok := L.GetField(L.Get(lua.RegistryIndex), "_LOADED").(*lua.LTable); ok {
		for k, _ := loaded.Next(lua.LNil); k != lua.LNil; k, _ = loaded.Next(k) {
			if name, ok := k.(lua.LString); ok {
				loaded.RawSetString(string(name), g.RawGetString(string(name)))
			}
		}
		loaded.RawSetString("_G", g)
	}
	return g
}

// sortedCopy returns a copy of t (string keys only, as library tables
// have) with its keys inserted in sorted order. Metatable fields ("__"
// keys: gopher-lua's string library is also the strings' metatable) stay
// behind.
func sortedCopy(L *lua.LState, t *lua.LTable) *lua.LTable {
	var keys []string
	for k, _ := t.Next(lua.LNil); k != lua.LNil; k, _ = t.Next(k) {
		if s, ok := k.(lua.LString); ok && !strings.HasPrefix(string(s), "__") {
			keys = append(keys, string(s))
		}
	}
	slices.Sort(keys)
	out := L.CreateTable(0, len(keys))
	for _, k := range keys {
		out.RawSetString(k, t.RawGetString(k))
	}
	return out
}

// mustCompile compiles src, the source of one of luahost's own Lua
// helpers, under the chunk name name; it panics on an error.
func mustCompile(name, src string) *lua.FunctionProto {
	chunk, err := parse.Parse(strings.NewReader(src), name)
	if err != nil {
		panic(err)
	}
	proto, err := lua.Compile(chunk, name)
	if err != nil {
		panic(err)
	}
	return proto
}

// guardLevel0 wraps getfenv/setfenv so that level 0 (and below), the
// thread's environment outside any function of the script, is refused.
// Levels are shifted by one for the wrapper's own frame.
func guardLevel0(orig *lua.LFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		top := L.GetTop()
		var first lua.LValue = lua.LNumber(1)
		if top > 0 {
			first = L.Get(1)
		}
		if n, ok := first.(lua.LNumber); ok {
			if n <= 0 {
				L.ArgError(1, "level 0 is not available in the sandbox")
			}
			first = n + 1
		}
		base := L.GetTop()
		L.Push(orig)
		L.Push(first)
		for i := 2; i <= top; i++ {
			L.Push(L.Get(i))
		}
		L.Call(max(top, 1), lua.MultRet)
		return L.GetTop() - base
	}
}

// load(chunk [, chunkname]) compiles source text (or the pieces a reader
// function returns) into a function of the script's environment. Binary
// chunks and sources past maxLoadSize bytes are refused. On failure it
// returns nil and the message, like Lua's load.
func (h *Host) sandboxLoad(L *lua.LState) int {
	var src strings.Builder
	switch chunk := L.Get(1).(type) {
	case lua.LString:
		src.WriteString(string(chunk))
	case *lua.LFunction:
		for {
			L.Push(chunk)
			L.Call(0, 1)
			piece := L.Get(-1)
			L.Pop(1)
			s, ok := piece.(lua.LString)
			if !ok || s == "" {
				break
			}
			if src.Len()+len(s) > maxLoadSize {
				return loadFailed(L, "chunk too large")
			}
			src.WriteString(string(s))
		}
	default:
		L.ArgError(1, "string or function expected")
	}
	return h.loadSource(L, src.String(), L.OptString(2, "=(load)"))
}

// loadstring(s [, chunkname]) is load for a string; its chunk name
// defaults to s itself, as in Lua 5.1.
func (h *Host) sandboxLoadString(L *lua.LState) int {
	s := L.CheckString(1)
	return h.loadSource(L, s, L.OptString(2, s))
}

func (h *Host) loadSource(L *lua.LState, src, name string) int {
	if strings.HasPrefix(src, "\x1bLua") {
		return loadFailed(L, "attempt to load a binary chunk")
	}
	if len(src) > maxLoadSize {
		return loadFailed(L, "chunk too large")
	}
	// The chunk is compiled under the name messages show, as Lua 5.1
	// shows it ("(load)", [string "..."]).
	name = chunkID(name)
	proto, err := compile.Compile(src, name, h.maxString())
	if err != nil {
		return loadFailed(L, compileError("", name, []byte(src), err).Message)
	}
	L.Push(L.NewFunctionFromProto(proto))
	return 1
}

func loadFailed(L *lua.LState, msg string) int {
	L.Push(lua.LNil)
	L.Push(lua.LString(msg))
	return 2
}

var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

// collectgarbage([opt]) answers "count" (the process's live heap in KiB);
// every other option does nothing and returns 0: in gopher-lua a
// collection would stop the whole process.
func collectGarbage(L *lua.LState) int {
	if L.OptString(1, "collect") == "count" {
		metrics.Read(heapSample)
		L.Push(lua.LNumber(float64(heapSample[0].Value.Uint64()) / 1024))
		return 1
	}
	L.Push(lua.LNumber(0))
	return 1
}

// newRand returns the per-state random source: a PCG generator seeded
// from the runtime's seed and the script's name, so every run of a scene
// draws the same numbers and two scripts do not draw the same sequence.
// Its state is what a snapshot saves (MarshalBinary).
func newRand(seed int64, name string) *rand.PCG {
	return rand.NewPCG(uint64(seed), nameHash(name))
}

// nameHash is the FNV-1a hash of a script's name.
func nameHash(name string) uint64 {
	var hash uint64 = 14695981039346656037
	for i := 0; i < len(name); i++ {
		hash ^= uint64(name[i])
		hash *= 1099511628211
	}
	return hash
}

// bindRandom installs math.random and math.randomseed over src.
// math.randomseed(x) seeds it again as newRand would with seed^x.
func bindRandom(L *lua.LState, src *rand.PCG, seed int64, name string) {
	r := rand.New(src)
	m := L.G.Global.RawGetString(lua.MathLibName).(*lua.LTable)
	m.RawSetString("random", L.NewFunction(func(L *lua.LState) int {
		switch L.GetTop() {
		case 0:
			L.Push(lua.LNumber(r.Float64()))
		case 1:
			hi := randomBound(L, 1)
			if hi < 1 {
				L.ArgError(1, "interval is empty")
			}
			L.Push(lua.LNumber(1 + r.Int64N(hi)))
		default:
			lo, hi := randomBound(L, 1), randomBound(L, 2)
			if lo > hi {
				L.ArgError(2, "interval is empty")
			}
			L.Push(lua.LNumber(between(r, lo, hi)))
		}
		return 1
	}))
	m.RawSetString("randomseed", L.NewFunction(func(L *lua.LState) int {
		src.Seed(uint64(seed^L.CheckInt64(1)), nameHash(name))
		return 0
	}))
}

// randomBound returns argument n of math.random as an integer (the
// fraction dropped); a number no int64 holds (NaN, 2^63, 1e300) is
// refused as Lua 5.3 refuses it: Lua 5.1 takes it as garbage, and gopher-
// lua's conversion made 2^63 an empty interval.
func randomBound(L *lua.LState, n int) int64 {
	f := float64(L.CheckNumber(n))
	if math.IsNaN(f) || f < -(1<<63) || f >= 1<<63 {
		L.ArgError(n, "number has no integer representation")
	}
	return int64(f)
}

// between draws an integer in [lo, hi] (lo <= hi) from r. An interval
// wider than int64 holds (math.random(-2^62, 2^62)) is drawn in unsigned
// arithmetic: hi-lo+1 overflowed, and Int64N panicked on it.
func between(r *rand.Rand, lo, hi int64) int64 {
	if width := hi - lo + 1; width > 0 {
		return lo + r.Int64N(width)
	}
	width := uint64(hi) - uint64(lo) + 1
	if width == 0 {
		// The whole of int64.
		return int64(r.Uint64())
	}
	return lo + int64(r.Uint64N(width))
}

var moduleName = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)

var scriptName = regexp.MustCompile(`^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$`)

// print(...) writes its arguments, tostring'd and tab-separated, as one
// line to the host's output (printLine).
func (h *Host) luaPrint(L *lua.LState) int {
	io.WriteString(h.out, h.printLine(L, "print"))
	h.out.WriteByte('\n')
	return 0
}
