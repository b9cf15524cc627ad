package lualib

import (
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/luabind/internal/laux"
	"github.com/luahost/luahost/luabind/internal/luaerr"
)

// The sandbox's debug library: traceback, so that
// xpcall(f, debug.traceback) works, and a read-only getinfo. Nothing
// reads or writes locals or upvalues, sets hooks or reaches the registry.

// Depths of a traceback, as in Lua 5.1: the first tracebackHead levels,
// then "...", then the last tracebackTail.
const (
	tracebackHead = 12
	tracebackTail = 10
)

// installDebug returns the sandbox's debug table.
func installDebug(L *lua.LState) *lua.LTable {
	dbg := L.CreateTable(0, 2)
	dbg.RawSetString("getinfo", L.NewFunction(debugGetinfo))
	dbg.RawSetString("traceback", L.NewFunction(debugTraceback))
	return dbg
}

// threadArg returns the thread that argument 1 names, and the index of
// the next argument: L itself and 1 when argument 1 is not a thread.
func threadArg(L *lua.LState) (*lua.LState, int) {
	if th, ok := L.Get(1).(*lua.LState); ok {
		return th, 2
	}
	return L, 1
}

// levelArg reads a level argument as Lua 5.1 does: a number, or a string
// that reads as one.
func levelArg(v lua.LValue) (int, bool) {
	switch x := v.(type) {
	case lua.LNumber:
		return int(x), true
	case lua.LString:
		if f, ok := laux.ToNumber(string(x)); ok {
			return int(f), true
		}
	}
	return 0, false
}

// debug.traceback([thread,] [message [, level]]) returns message followed
// by a traceback of the call stack from level (default 1, the function
// that called traceback), as Lua 5.1 words it:
//
//	msg
//	stack traceback:
//		scripts/x.lua:3: in function 'f'
//		scripts/x.lua:9: in function <scripts/x.lua:8>
//
// A message that is neither a string nor a number nor absent is returned
// as it is.
func debugTraceback(L *lua.LState) int {
	th, arg := threadArg(L)
	level := 1
	if th != L {
		level = 0
	}
	if n, ok := levelArg(L.Get(arg + 1)); ok {
		// gopher-lua reads a negative level as the bottom of the stack;
		// counting up from -1e9 would not end.
		level = max(n, 0)
	}
	var b strings.Builder
	switch msg := L.Get(arg).(type) {
	case *lua.LNilType:
		if L.GetTop() >= arg {
			L.Push(msg)
			return 1
		}
	case lua.LString:
		b.WriteString(string(msg))
		b.WriteByte('\n')
	case lua.LNumber:
		b.WriteString(laux.FormatNumber(msg))
		b.WriteByte('\n')
	default:
		L.Push(msg)
		return 1
	}
	b.WriteString("stack traceback:")
	// One walk of the stack: Level walks it to the level it is asked.
	levels := laux.Levels(th)
	depth := len(levels)
	for l := level; l < depth; l++ {
		if l-level == tracebackHead && depth-l > tracebackTail {
			b.WriteString("\n\t...")
			l = depth - tracebackTail - 1
			continue
		}
		var caller *lua.Debug
		if l+1 < depth {
			caller = levels[l+1]
		}
		b.WriteString("\n\t")
		b.WriteString(frameLine(th, levels[l], caller))
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// frameLine is the line of a traceback for the level dbg of th's stack
// (nil for a tail call), whose caller is caller, as Lua 5.1 writes it.
func frameLine(th *lua.LState, dbg, caller *lua.Debug) string {
	if dbg == nil {
		return "(tail call): ?"
	}
	if _, err := th.GetInfo("Sl", dbg, lua.LNil); err != nil {
		return "?"
	}
	src, line, isGo := shortSrc(dbg), dbg.CurrentLine, dbg.What == "G"
	if laux.Transparent(th, dbg) {
		// The sandbox's Lua function around a Go one: the Go one.
		src, line, isGo = "[C]", -1, true
	}
	var b strings.Builder
	b.WriteString(src)
	b.WriteByte(':')
	if line > 0 {
		fmt.Fprintf(&b, "%d:", line)
	}
	switch name, namewhat := callName(dbg, caller); {
	case namewhat != "":
		fmt.Fprintf(&b, " in function '%s'", name)
	case isGo:
		b.WriteString(" ?")
	case dbg.LineDefined == 0:
		b.WriteString(" in main chunk")
	default:
		fmt.Fprintf(&b, " in function <%s:%d>", src, dbg.LineDefined)
	}
	return b.String()
}

// callName returns the name and namewhat of the function running in the
// frame dbg, called from the level caller (nil for none): how caller's
// call instruction names it, as Lua 5.1 tells them. A function a tail
// call reached, or one a Go function called (pcall, a metamethod), has
// none.
func callName(dbg, caller *lua.Debug) (name, namewhat string) {
	if tail, _ := gopherx.FrameTailCalls(dbg); tail > 0 || caller == nil {
		return "", ""
	}
	fn := gopherx.FrameFunction(caller)
	pc, ok := gopherx.FramePC(caller)
	if fn == nil || fn.IsG || !ok {
		return "", ""
	}
	return luaerr.CallName(fn.Proto, pc)
}

// shortSrc is the short_src of dbg (filled with "S"): the name messages
// show for its chunk, "[C]" for a Go function.
func shortSrc(dbg *lua.Debug) string {
	if dbg.What == "G" {
		return "[C]"
	}
	return dbg.Source
}

// sourceOf returns the source field of debug.getinfo for a chunk compiled
// under the shown name src: "@file" for a script or module file,
// the source text for a loadstring chunk ([string "..."], cut as shown),
// "=name" for any other name.
func sourceOf(src string) string {
	switch {
	case strings.HasPrefix(src, `[string "`) && strings.HasSuffix(src, `"]`):
		return strings.TrimSuffix(strings.TrimPrefix(src, `[string "`), `"]`)
	case strings.HasSuffix(src, ".lua"):
		return "@" + src
	}
	return "=" + src
}

// debug.getinfo([thread,] f [, what]) returns a table describing the
// function f (a function, or a level of the call stack: 1 is the function
// that called getinfo), or nil for a level past the stack. The fields
// are those of Lua 5.1 that reveal no value: source, short_src, what
// ("Lua", "C" or "main"), linedefined, lastlinedefined (letter S),
// currentline (l), name (n), nups (u) and func (f). what selects them
// (default "flnSu"); an unknown letter is an error.
func debugGetinfo(L *lua.LState) int {
	th, arg := threadArg(L)
	opts := L.OptString(arg+1, "flnSu")
	if strings.Trim(opts, "flnSu") != "" {
		L.ArgError(arg+1, "invalid option")
	}
	var dbg *lua.Debug
	var fn lua.LValue
	level, isLevel := levelArg(L.Get(arg))
	switch f := L.Get(arg).(type) {
	case lua.LNumber, lua.LString:
		if !isLevel {
			L.ArgError(arg, "function or level expected")
		}
		d, found := laux.Level(th, level)
		switch {
		case !found:
			L.Push(lua.LNil)
			return 1
		case d == nil:
			// The level falls on a tail call, which Lua 5.1 describes
			// without a function.
			dbg, fn = &lua.Debug{What: "tail", Source: "(tail call)", CurrentLine: -1, LineDefined: -1, LastLineDefined: -1}, lua.LNil
		default:
			dbg = d
			fn, _ = th.GetInfo("f", dbg, lua.LNil)
			_, _ = th.GetInfo("Slnu", dbg, lua.LNil)
		}
	case *lua.LFunction:
		dbg, fn = &lua.Debug{}, f
		_, _ = th.GetInfo(">Su", dbg, f)
		dbg.CurrentLine = -1
	default:
		L.ArgError(arg, "function or level expected")
	}
	t := L.CreateTable(0, 9)
	if strings.Contains(opts, "S") {
		what := "Lua"
		switch {
		case dbg.What == "G":
			what = "C"
		case dbg.What == "tail":
			what = "tail"
		case dbg.LineDefined == 0:
			what = "main"
		}
		src := "=[C]"
		if what != "C" {
			src = sourceOf(dbg.Source)
		}
		t.RawSetString("source", lua.LString(src))
		t.RawSetString("short_src", lua.LString(shortSrc(dbg)))
		t.RawSetString("what", lua.LString(what))
		line, last := dbg.LineDefined, dbg.LastLineDefined
		if what == "C" {
			line, last = -1, -1
		}
		t.RawSetString("linedefined", lua.LNumber(line))
		t.RawSetString("lastlinedefined", lua.LNumber(last))
	}
	if strings.Contains(opts, "l") {
		t.RawSetString("currentline", lua.LNumber(dbg.CurrentLine))
	}
	if strings.Contains(opts, "n") {
		name, namewhat := "", ""
		if isLevel && fn != lua.LNil {
			caller, _ := laux.Level(th, level+1)
			name, namewhat = callName(dbg, caller)
		}
		if name != "" {
			t.RawSetString("name", lua.LString(name))
		}
		t.RawSetString("namewhat", lua.LString(namewhat))
	}
	if strings.Contains(opts, "u") {
		t.RawSetString("nups", lua.LNumber(dbg.NUpvalues))
	}
	if strings.Contains(opts, "f") {
		t.RawSetString("func", fn)
	}
	L.Push(t)
	return 1
}
