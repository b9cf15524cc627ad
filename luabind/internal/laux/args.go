package laux

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
)

// Where returns "file:line: " of the function level levels up the call
// stack (1 is the caller of the running Go function) when it is Lua code
// with a known line, and "" otherwise, as Lua 5.1's luaL_where does.
func Where(L *lua.LState, level int) string {
	if level <= 0 {
		return ""
	}
	dbg, ok := L.GetStack(level)
	if !ok {
		return ""
	}
	if _, err := L.GetInfo("Sl", dbg, lua.LNil); err != nil || dbg.CurrentLine <= 0 {
		return ""
	}
	return fmt.Sprintf("%s:%d: ", dbg.Source, dbg.CurrentLine)
}

// Raise raises msg from a Go function as Lua 5.1's luaL_error does: with
// the position of the calling function when that is Lua code, and none
// when it is Go (as in pcall(string.rep)).
func Raise(L *lua.LState, msg string) {
	L.Error(lua.LString(Where(L, 1)+msg), 0)
}

// CheckInt returns argument n as an integer; a string that reads as a
// number is converted, as Lua 5.1 does.
func CheckInt(L *lua.LState, n int) int {
	if v, ok := L.Get(n).(lua.LString); ok {
		if f, ok := ToNumber(string(v)); ok {
			return int(f)
		}
	}
	return L.CheckInt(n)
}

// OptInt returns argument n as an integer, def when it is nil or absent;
// a string that reads as a number is converted, as Lua 5.1 does.
func OptInt(L *lua.LState, n, def int) int {
	if L.Get(n) == lua.LNil {
		return def
	}
	return CheckInt(L, n)
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
	L.TypeError(n, lua.LTNumber)
	return 0
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
