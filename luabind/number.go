package luabind

import (
	lua "github.com/yuin/gopher-lua"
)

// formatNumber returns n as reference Lua 5.1 prints it on Linux: C's
// "%.14g" (0.33333333333333, 1e+15, 9.2233720368548e+18), whole numbers
// without a fraction (3, -0), and "inf", "-inf", "nan" or "-nan" (the sign
// of a NaN as the hardware made it: 0/0 is "-nan" on x86). print,
// tostring and the .. operator of scripts all use it; gopher-lua's own
// conversion prints 16 digits and "NaN".
func formatNumber(n lua.LNumber) string {
	var scratch [32]byte
	return string(appendNumber(scratch[:0], n))
}

// toString returns v as tostring(v) does in reference Lua 5.1: numbers
// through formatNumber, everything else as gopher-lua converts it
// (honouring __tostring).
func toString(L *lua.LState, v lua.LValue) string {
	switch v := v.(type) {
	case lua.LString:
		return string(v)
	case lua.LNumber:
		return formatNumber(v)
	}
	return L.ToStringMeta(v).String()
}

// luaToString is the sandbox's tostring(v).
func luaToString(L *lua.LState) int {
	v := L.CheckAny(1)
	if n, ok := v.(lua.LNumber); ok {
		L.Push(lua.LString(formatNumber(n)))
		return 1
	}
	L.Push(L.ToStringMeta(v))
	return 1
}
