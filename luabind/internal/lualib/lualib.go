package lualib

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/laux"
	"github.com/luahost/luahost/luabind/internal/lstring"
)

// Limits bound what the libraries build for a script.
type Limits struct {
	// MaxString is the longest string a library function may build, in
	// bytes. The default (zero) value means lstring.DefaultMaxSize.
	MaxString int
}

// Open installs, in a state made with SkipOpenLibs, the libraries every
// sandboxed state gets and that depend on nothing of the host: base
// functions (without dofile, loadfile, module, newproxy, _printregs and
// require; getfenv and setfenv refusing level 0; tostring, ipairs,
// unpack and collectgarbage replaced), string, table, math, coroutine,
// debug (traceback and getinfo only) and os (clock and calendar only).
// The host adds what depends on it afterwards: load, loadstring, pcall,
// xpcall, print, require, the coroutine functions that run under its
// budget, and each script's random numbers (BindRandomFrom).
func Open(L *lua.LState, lim Limits) {
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
	g.RawSetString(lua.OsLibName, installOS(L, osLib, MaxStringSize(lim.MaxString)))

	str := g.RawGetString(lua.StringLibName).(*lua.LTable)
	lstring.Register(L, str, lstring.Limits{MaxSize: lim.MaxString, NumberString: laux.FormatNumber})
	installBase(L, g)
	g.RawSetString("debug", installDebug(L))
	installTable(L, g.RawGetString(lua.TabLibName).(*lua.LTable), MaxStringSize(lim.MaxString))
	installMath(L, g.RawGetString(lua.MathLibName).(*lua.LTable))

	g.RawSetString("getfenv", L.NewFunction(luaGetfenv))
	g.RawSetString("setfenv", L.NewFunction(luaSetfenv))
	g.RawSetString("tostring", L.NewFunction(luaToString))
	g.RawSetString("ipairs", L.NewFunction(luaIpairs))
	g.RawSetString("collectgarbage", L.NewFunction(collectGarbage))
	g.RawSetString("unpack", L.NewFunction(boundedUnpack))
}
