package laux

import (
	"math"
	"strconv"

	lua "github.com/yuin/gopher-lua"
)

// FormatNumber returns n as reference Lua 5.1 prints it on Linux: C's
// "%.14g" (0.33333333333333, 1e+15, 9.2233720368548e+18), whole numbers
// without a fraction (3, -0), and "inf", "-inf", "nan" or "-nan" (the sign
// of a NaN as the hardware made it: 0/0 is "-nan" on x86). print,
// tostring and the .. operator of scripts all use it; gopher-lua's own
// conversion prints 16 digits and "NaN".
func FormatNumber(n lua.LNumber) string {
	var scratch [32]byte
	return string(AppendNumber(scratch[:0], n))
}

// PrintString returns v as Lua 5.1's print writes it: tostring(v)
// (ToString), which must be a string or a number (a __tostring returning
// anything else is refused: ok is false).
func PrintString(L *lua.LState, v lua.LValue) (s string, ok bool) {
	return Printable(ToString(L, v))
}

// Printable returns what tostring returned, r, as print writes it: a
// string, or a number as Lua 5.1 prints numbers; ok is false for
// anything else.
func Printable(r lua.LValue) (s string, ok bool) {
	switch r := r.(type) {
	case lua.LString:
		return string(r), true
	case lua.LNumber:
		return FormatNumber(r), true
	}
	return "", false
}

// CallOne calls fn with args from a Go function and returns its first
// result. A fn that can be neither called nor its __call fails with Lua
// 5.1's "attempt to call a nil value" (gopher-lua's words are "attempt
// to call a non-function object").
func CallOne(L *lua.LState, fn lua.LValue, args ...lua.LValue) lua.LValue {
	if _, ok := fn.(*lua.LFunction); !ok && L.GetMetaField(fn, "__call") == lua.LNil {
		L.RaiseError("attempt to call a %s value", fn.Type())
	}
	L.Push(fn)
	for _, a := range args {
		L.Push(a)
	}
	L.Call(len(args), 1)
	r := L.Get(-1)
	L.Pop(1)
	return r
}

// ToString is Lua 5.1's tostring(v): the result of v's __tostring when it
// has one, called whatever it is (a string there fails as "attempt to
// call a string value", as luaL_callmeta calls it), and otherwise v's
// text, numbers as Lua 5.1 prints them.
func ToString(L *lua.LState, v lua.LValue) lua.LValue {
	mm := L.GetMetaField(v, "__tostring")
	if mm == lua.LNil {
		switch v := v.(type) {
		case lua.LString:
			return v
		case lua.LNumber:
			return lua.LString(FormatNumber(v))
		}
		return lua.LString(v.String())
	}
	return CallOne(L, mm, v)
}

// AppendNumber appends n formatted as FormatNumber does.
func AppendNumber(dst []byte, n lua.LNumber) []byte {
	f := float64(n)
	if f > -1e14 && f < 1e14 {
		if i := int64(f); float64(i) == f && (i != 0 || !math.Signbit(f)) {
			return strconv.AppendInt(dst, i, 10)
		}
	}
	switch {
	case math.IsNaN(f):
		if math.Signbit(f) {
			return append(dst, "-nan"...)
		}
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	case f == 0:
		return append(dst, "-0"...)
	}
	return strconv.AppendFloat(dst, f, 'g', 14, 64)
}
