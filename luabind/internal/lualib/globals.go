package lualib

import (
	"fmt"

	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/luabind/internal/laux"

	"runtime/metrics"
	"slices"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// SortGlobals rebuilds the global table and the library tables with their
// keys inserted in sorted order, and makes the new global table the
// state's environment. gopher-lua registers libraries from Go maps, whose
// order changes from run to run, and a Lua table's pairs order is its
// insertion order: without this, a script listing a library with pairs
// would print differently each run. Call it before any Lua function is
// made, so that every function's environment is the new table.
func SortGlobals(L *lua.LState) *lua.LTable {
	old := L.G.Global
	for _, lib := range []string{lua.CoroutineLibName, lua.MathLibName, lua.OsLibName, lua.StringLibName, lua.TabLibName} {
		old.RawSetString(lib, sortedCopy(L, old.RawGetString(lib).(*lua.LTable)))
	}
	// The strings' metatable becomes {__index = string} as in reference
	// Lua, instead of the string library itself. It is the state's own,
	// so a script may change it without reaching any other script.
	if mt, ok := L.GetMetatable(lua.LString("")).(*lua.LTable); ok {
		mt.RawSetString("__index", old.RawGetString(lua.StringLibName))
		installStringArith(L, mt)
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

// getfenv([f]) and setfenv(f, table), as Lua 5.1 has them, for the
// script's own functions and levels 1 and up: level 0, the thread's
// environment outside any function of the script, is refused. Levels are
// counted as Lua 5.1 counts them (laux.Level), and the errors are Lua
// 5.1's ("'setfenv' cannot change environment of given object", "invalid
// level", "no function environment for tail call at level 2").
func luaGetfenv(L *lua.LState) int {
	fn := fenvFunction(L, true)
	if fn.IsG {
		L.Push(L.G.Global)
	} else {
		L.Push(fn.Env)
	}
	return 1
}

func luaSetfenv(L *lua.LState) int {
	env := laux.CheckTable(L, 2)
	fn := fenvFunction(L, false)
	if fn.IsG {
		laux.Raise(L, "'setfenv' cannot change environment of given object")
	}
	fn.Env = env
	L.Push(fn)
	return 1
}

// fenvFunction returns the function argument 1 names: itself, or the
// function running at that level (1 by default when optional).
func fenvFunction(L *lua.LState, optional bool) *lua.LFunction {
	if fn, ok := L.Get(1).(*lua.LFunction); ok {
		return fn
	}
	level := 1
	if !optional || L.Get(1) != lua.LNil {
		level = laux.CheckInt(L, 1)
	}
	switch {
	case level < 0:
		L.ArgError(1, "level must be non-negative")
	case level == 0:
		L.ArgError(1, "level 0 is not available in the sandbox")
	}
	dbg, found := laux.Level(L, level)
	if !found {
		L.ArgError(1, "invalid level")
	}
	if dbg == nil {
		laux.Raise(L, fmt.Sprintf("no function environment for tail call at level %d", level))
	}
	fn := gopherx.FrameFunction(dbg)
	if fn == nil {
		L.ArgError(1, "invalid level")
	}
	return fn
}

var heapSample = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}

// collectgarbage([opt [, arg]]) answers "count" (the process's live heap
// in KiB); the other options collect nothing (in gopher-lua a collection
// would stop the whole process) and return what Lua 5.1's do: 0, true
// for "step" (a cycle finished), the previous value for "setpause" and
// "setstepmul" (200 at first); any other option is an argument error.
func collectGarbage(L *lua.LState) int {
	switch opt := L.OptString(1, "collect"); opt {
	case "count":
		metrics.Read(heapSample)
		L.Push(lua.LNumber(float64(heapSample[0].Value.Uint64()) / 1024))
	case "collect", "stop", "restart":
		L.Push(lua.LNumber(0))
	case "step":
		L.Push(lua.LTrue)
	case "setpause", "setstepmul":
		key := gcSettingKey + opt
		prev, ok := L.G.Registry.RawGetString(key).(lua.LNumber)
		if !ok {
			prev = 200
		}
		L.G.Registry.RawSetString(key, lua.LNumber(laux.Int(laux.OptNumber(L, 2, 0))))
		L.Push(prev)
	default:
		L.ArgError(1, "invalid option '"+opt+"'")
	}
	return 1
}

// gcSettingKey prefixes the registry's keys of the collector settings a
// script set (collectgarbage "setpause" and "setstepmul").
const gcSettingKey = "luahost.gc."
