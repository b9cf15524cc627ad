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

// PrintString returns v as Lua 5.1's print writes it: tostring(v), which
// must be a string or a number (a __tostring returning anything else is
// refused: ok is false).
func PrintString(L *lua.LState, v lua.LValue) (s string, ok bool) {
	switch v := v.(type) {
	case lua.LString:
		return string(v), true
	case lua.LNumber:
		return FormatNumber(v), true
	}
	switch r := L.ToStringMeta(v).(type) {
	case lua.LString:
		return string(r), true
	case lua.LNumber:
		return FormatNumber(r), true
	}
	return "", false
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
