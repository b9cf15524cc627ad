package laux

import (
	"fmt"
	"math"
	"reflect"

	"github.com/luahost/luahost/luabind/internal/gopherx"

	lua "github.com/yuin/gopher-lua"
)

// Where returns "file:line: " of the function level levels up the call
// stack (1 is the caller of the running Go function) when it is Lua code
// with a known line, and "" otherwise, as Lua 5.1's luaL_where does.
// Levels are counted as Lua 5.1 counts them (Level).
func Where(L *lua.LState, level int) string {
	if level <= 0 {
		return ""
	}
	dbg, _ := Level(L, level)
	if dbg == nil {
		return ""
	}
	if _, err := L.GetInfo("Sl", dbg, lua.LNil); err != nil || dbg.CurrentLine <= 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d: ", dbg.Source, dbg.CurrentLine)
}

// transparentKey is the registry field holding the set of functions
// that Level does not count (MarkTransparent).
const transparentKey = "luahost.transparent"

// MarkTransparent makes Level skip the frames of fn: a function of the
// sandbox's own that Lua 5.1's stack does not have, such as the one the
// host calls every protected function through (pcall(error, "x", 2)
// blames the code calling pcall).
func MarkTransparent(L *lua.LState, fn *lua.LFunction) {
	set, ok := L.G.Registry.RawGetString(transparentKey).(*lua.LTable)
	if !ok {
		set = L.CreateTable(0, 2)
		L.G.Registry.RawSetString(transparentKey, set)
	}
	set.RawSet(fn, lua.LTrue)
}

// Transparent reports whether dbg's frame runs a function MarkTransparent
// names: Level gives one only as the top of a suspended coroutine, where
// the sandbox's coroutine.yield waits, and Lua 5.1 has its Go yield.
func Transparent(L *lua.LState, dbg *lua.Debug) bool {
	skip, _ := L.G.Registry.RawGetString(transparentKey).(*lua.LTable)
	fn := gopherx.FrameFunction(dbg)
	return skip != nil && fn != nil && skip.RawGet(fn) != lua.LNil
}

// Level returns the frame level levels up the call stack as Lua 5.1's
// lua_getstack finds it: each frame passed counts one level plus the tail
// calls it replaced, frames of the functions MarkTransparent names count
// none, and a level that falls on a tail call is no frame at all
// (gopher-lua's GetStack returned the bottom of the stack for it, so an
// error(msg, 2) in a tail-called function blamed the main chunk): dbg is
// nil and found true, where a level past the stack is not found.
func Level(L *lua.LState, level int) (dbg *lua.Debug, found bool) {
	if level < 0 {
		// Lua 5.1's lua_getstack reads it as a tail call.
		return nil, true
	}
	eachLevel(L, func(d *lua.Debug) bool {
		if level == 0 {
			dbg, found = d, true
			return false
		}
		level--
		return true
	})
	return dbg, found
}

// Levels returns every level of L's stack as Level finds them, in one
// walk of the stack (Level costs a walk to its level).
func Levels(L *lua.LState) []*lua.Debug {
	var all []*lua.Debug
	eachLevel(L, func(d *lua.Debug) bool {
		all = append(all, d)
		return true
	})
	return all
}

// eachLevel calls fn with each level of L's stack from the top, as Level
// counts them (nil for a level a tail call replaced), until fn returns
// false.
func eachLevel(L *lua.LState, fn func(*lua.Debug) bool) {
	for at := 0; ; {
		dbg, ok := L.GetStack(at)
		if !ok {
			return
		}
		tail, _ := gopherx.FrameTailCalls(dbg)
		// The next frame is as many GetStack levels further as this one
		// counts for GetStack.
		next := at + 1 + tail
		if tail > 0 && L != L.G.MainThread {
			if _, more := L.GetStack(next); !more {
				// The bottom frame of a coroutine replaced the function
				// the sandbox starts every coroutine with, which
				// tail-calls the coroutine's own: Lua 5.1 has no such
				// call.
				tail--
			}
		}
		if at == 0 || !Transparent(L, dbg) {
			if !fn(dbg) {
				return
			}
			for range tail {
				if !fn(nil) {
					return
				}
			}
		}
		at = next
	}
}

// ownPosition holds the code of the Go functions whose errors carry the
// position Lua 5.1 gives them already, which the error mapper leaves as
// they are. It is written only by package initialisation (OwnPosition).
var ownPosition = map[uintptr]bool{}

// OwnPosition registers fn, from a package's initialisation, as a Go
// function whose errors carry their position already (they are raised
// with Raise): the error mapper does not take off the position of the
// Lua code below it, which gopher-lua adds to the errors of the others.
func OwnPosition(fn lua.LGFunction) { ownPosition[reflect.ValueOf(fn).Pointer()] = true }

// HasOwnPosition reports whether fn is a function OwnPosition registered.
func HasOwnPosition(fn *lua.LFunction) bool {
	return fn.IsG && ownPosition[reflect.ValueOf(fn.GFunction).Pointer()]
}

// stringArithKey names the registry's set of the strings' own
// arithmetic metamethods (MarkStringArith).
const stringArithKey = "luahost.stringArith"

// MarkStringArith records fn as one of the arithmetic metamethods
// luahost gives strings in L, which only convert numeric strings
// (IsStringArith).
func MarkStringArith(L *lua.LState, fn *lua.LFunction) {
	set, ok := L.G.Registry.RawGetString(stringArithKey).(*lua.LTable)
	if !ok {
		set = L.CreateTable(0, 8)
		L.G.Registry.RawSetString(stringArithKey, set)
	}
	set.RawSet(fn, lua.LTrue)
}

// IsStringArith reports whether v is one of the strings' own arithmetic
// metamethods in L, not one a script installed.
func IsStringArith(L *lua.LState, v lua.LValue) bool {
	set, ok := L.G.Registry.RawGetString(stringArithKey).(*lua.LTable)
	return ok && v != lua.LNil && set.RawGet(v) == lua.LTrue
}

// Raise raises msg from a Go function as Lua 5.1's luaL_error does: with
// the position of the calling function when that is Lua code, and none
// when it is Go (as in pcall(string.rep)).
func Raise(L *lua.LState, msg string) {
	L.Error(lua.LString(Where(L, 1)+msg), 0)
}

// CheckInt returns argument n as luaL_checkint does: a number (a string
// that reads as one is converted) as a C int, Int of it. The library
// functions that take a count or a position in a table (string.rep,
// string.char, select, unpack, table.insert...) read it so.
func CheckInt(L *lua.LState, n int) int {
	return Int(CheckNumber(L, n))
}

// OptInt is CheckInt, def when argument n is nil or absent.
func OptInt(L *lua.LState, n, def int) int {
	if L.Get(n) == lua.LNil {
		return def
	}
	return CheckInt(L, n)
}

// CheckInteger returns argument n as luaL_checkinteger does: a number as
// a 64-bit integer, Long of it. The string functions that take a
// position in a string (sub, byte, find, match) read it so.
func CheckInteger(L *lua.LState, n int) int {
	return int(Long(CheckNumber(L, n)))
}

// OptInteger is CheckInteger, def when argument n is nil or absent.
func OptInteger(L *lua.LState, n, def int) int {
	if L.Get(n) == lua.LNil {
		return def
	}
	return CheckInteger(L, n)
}

// Long returns d converted to a 64-bit integer as C does on x86-64:
// truncated toward zero, and the smallest int64 for a NaN, an infinity
// or a value out of range (Go leaves these to the implementation).
func Long(d float64) int64 {
	if d != d || d >= 0x1p63 || d < -0x1p63 {
		return math.MinInt64
	}
	return int64(d)
}

// ULong returns d converted to a 64-bit unsigned integer as C compiled
// for x86-64 does: below 2^63 (a NaN too) as Long, from 2^63 on as Long
// of d - 2^63 with its top bit flipped (2^64 and infinity give 0).
func ULong(d float64) uint64 {
	if !(d >= 0x1p63) {
		return uint64(Long(d))
	}
	return uint64(Long(d-0x1p63)) ^ 1<<63
}

// Int returns d as Lua 5.1's luaL_checkint makes a C int of it: Long of
// it cut to its low 32 bits (2^32 + 65 is 65, an infinity 0).
func Int(d float64) int {
	return int(int32(Long(d)))
}

// CInt returns d converted straight to a 32-bit C int, as (int)d does on
// x86-64: the smallest int32 for a NaN, an infinity or a value out of
// range.
func CInt(d float64) int32 {
	if d != d || d >= 0x1p31 || d <= -0x1p31-1 {
		return math.MinInt32
	}
	return int32(d)
}

// CheckNumber returns argument n as a number; a string that reads as a
// number (as Lua 5.1 reads it: "010" is ten, "1e400" infinity) is
// converted, as luaL_checknumber does.
func CheckNumber(L *lua.LState, n int) float64 {
	switch v := L.Get(n).(type) {
	case lua.LNumber:
		return float64(v)
	case lua.LString:
		if f, ok := ToNumber(string(v)); ok {
			return f
		}
	}
	TypeError(L, n, lua.LTNumber)
	return 0
}

// CheckString returns argument n as a string; a number is converted as
// Lua 5.1 prints it (%.14g), as luaL_checkstring does (gopher-lua's
// conversion wrote all 17 digits: string.len(1/3) was 18, Lua: 16).
func CheckString(L *lua.LState, n int) string {
	switch v := L.Get(n).(type) {
	case lua.LString:
		return string(v)
	case lua.LNumber:
		return FormatNumber(v)
	}
	TypeError(L, n, lua.LTString)
	return ""
}

// TypeError raises "bad argument #n to 'f' (number expected, got
// string)"; an argument past the last is "got no value", as in Lua 5.1.
func TypeError(L *lua.LState, n int, want lua.LValueType) {
	if n > L.GetTop() {
		L.ArgError(n, want.String()+" expected, got no value")
	}
	L.TypeError(n, want)
}

// OptString returns argument n as a string, def when it is nil or
// absent; a number is converted as Lua 5.1 prints it (luaL_optstring).
func OptString(L *lua.LState, n int, def string) string {
	switch v := L.Get(n).(type) {
	case *lua.LNilType:
		return def
	case lua.LNumber:
		return FormatNumber(v)
	case lua.LString:
		return string(v)
	}
	L.TypeError(n, lua.LTString)
	return ""
}

// OptNumber returns argument n as a number, def when it is nil or
// absent (CheckNumber).
func OptNumber(L *lua.LState, n int, def float64) float64 {
	if L.Get(n) == lua.LNil {
		return def
	}
	return CheckNumber(L, n)
}

// CheckTable returns argument n as a table, or raises Lua 5.1's "table
// expected, got no value" (or "got string").
func CheckTable(L *lua.LState, n int) *lua.LTable {
	if t, ok := L.Get(n).(*lua.LTable); ok {
		return t
	}
	TypeError(L, n, lua.LTTable)
	return nil
}
