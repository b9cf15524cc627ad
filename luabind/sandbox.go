package luabind

import (
	"github.com/luahost/luahost/luabind/internal/laux"
	"io"
	"regexp"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/compile"
	"github.com/luahost/luahost/luabind/internal/lualib"
)

// The sandbox. Every state is built with no library, then
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

// Sizes of a state. The call stack grows on demand up to
// callStackSize frames: Lua-to-Lua recursion 12,000 deep (Lua
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
	lualib.Open(L, lualib.Limits{MaxString: h.opts.MaxStringSize})
	g := L.G.Global
	protect, unwound := newProtect(L, h.debugError), L.NewFunction(h.closeUnwound)
	g.RawSetString("load", L.NewFunction(h.sandboxLoad(protect, unwound)))
	g.RawSetString("loadstring", L.NewFunction(h.sandboxLoadString))
	laux.MarkTransparent(L, protect)
	g.RawSetString("pcall", L.NewFunction(newPCall(h, protect, unwound)))
	g.RawSetString("xpcall", L.NewFunction(newXPCall(h, protect, unwound)))

	co := g.RawGetString(lua.CoroutineLibName).(*lua.LTable)
	create := co.RawGetString("create").(*lua.LFunction)
	hook := L.NewFunction(hookThread)
	budgeted := L.NewFunction(func(L *lua.LState) int {
		fn := lualib.CheckLuaFunction(L, 1)
		L.Push(create)
		L.Push(L.NewFunctionFromProto(threadProto))
		L.Push(hook)
		L.Push(fn)
		L.Call(2, 1)
		L.Call(1, 1)
		if th, ok := L.Get(-1).(*lua.LState); ok {
			if ctx := h.threadContext(L); ctx != nil {
				th.SetContext(ctx)
			}
			// A coroutine's stacks are tens of kilobytes: its creation
			// is charged as the work of building them.
			h.charge(L, coroutineWork)
			if h.debug != nil {
				h.debug.watch(th)
			}
		}
		return 1
	})
	co.RawSetString("create", budgeted)

	g = lualib.SortGlobals(L)
	co = g.RawGetString(lua.CoroutineLibName).(*lua.LTable)
	resume := L.NewFunction(wordResume(h, co.RawGetString("resume").(*lua.LFunction)))
	co.RawSetString("resume", resume)
	co.RawSetString("wrap", L.NewFunction(lualib.WrapCoroutine(budgeted, resume)))
	installYield(L, co)
	if h.budget != nil {
		L.SetContext(h.budget)
	}
	if h.debug != nil {
		h.debug.watch(L)
	}
	return L
}

// threadProto returns the function every coroutine runs: it installs the
// error mapper's hook in the coroutine (hookThread), then tail-calls the
// coroutine's function, so that its frames are the coroutine's own.
var threadProto = compile.Must("=coroutine", `
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

// load(chunk [, chunkname]) compiles source text (or the pieces a reader
// function returns) into a function of the script's environment. Binary
// chunks and sources past maxLoadSize bytes are refused. On failure it
// returns nil and the message, like Lua's load. As in Lua 5.1, the
// reader's pieces end at nil or an empty string, a number is its text,
// anything else fails with "reader function must return a string", and
// an error the reader raises is load's failure, not raised: the reader
// runs protected as by pcall (protect and unwound), whose errors pass on
// when they must (a budget's stop).
func (h *Host) sandboxLoad(protect, unwound *lua.LFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		name := L.OptString(2, "=(load)")
		var src strings.Builder
		switch chunk := L.Get(1).(type) {
		case lua.LString:
			src.WriteString(string(chunk))
		case *lua.LFunction:
			for {
				L.SetTop(0)
				L.Push(protect)
				L.Push(chunk)
				protectedCall(L, h, 1, unwound)
				if L.Get(1) == lua.LFalse {
					// nil and the reader's error value.
					L.Replace(1, lua.LNil)
					return 2
				}
				s, ok := "", true
				switch piece := L.Get(2).(type) {
				case lua.LString:
					s = string(piece)
				case lua.LNumber:
					s = laux.FormatNumber(piece)
				default:
					ok = piece == lua.LNil
				}
				if !ok {
					// luaL_error's words, with its position.
					return loadFailed(L, laux.Where(L, 1)+"reader function must return a string")
				}
				if s == "" {
					break
				}
				if src.Len()+len(s) > maxLoadSize {
					return loadFailed(L, "chunk too large")
				}
				src.WriteString(s)
			}
			L.SetTop(0)
		default:
			L.ArgError(1, "string or function expected")
		}
		return h.loadSource(L, src.String(), name)
	}
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
	// Compiling is charged to the callback before it starts, by the
	// source's size: a source too large for what is left of the budget
	// stops the callback instead of compiling out of its reach.
	h.charge(L, int64(len(src))*compileWork)
	// The chunk is compiled under the name messages show, as Lua 5.1
	// shows it ("(load)", [string "..."]).
	id := lualib.ChunkID(name)
	proto, err := compile.Compile(src, id, h.maxString())
	if err != nil {
		return loadFailed(L, loadMessage(lualib.SyntaxChunkID(name), []byte(src), err))
	}
	L.Push(L.NewFunctionFromProto(proto))
	return 1
}

func loadFailed(L *lua.LState, msg string) int {
	L.Push(lua.LNil)
	L.Push(lua.LString(msg))
	return 2
}

var moduleName = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)

var scriptName = regexp.MustCompile(`^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$`)

// print(...) writes its arguments, tostring'd and tab-separated, as one
// line to the host's output (printLine): unescaped, as Lua 5.1 does, for
// that output is the scripts' own stream, never the host's (whose lines
// go to the log, where a script's text is made safe).
func (h *Host) luaPrint(L *lua.LState) int {
	io.WriteString(h.out, h.printLine(L, "print"))
	h.out.WriteByte('\n')
	return 0
}
