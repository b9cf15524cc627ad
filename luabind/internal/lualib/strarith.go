package lualib

import (
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/laux"
	"github.com/luahost/luahost/luabind/internal/libm"
)

// Arithmetic on strings. gopher-lua converts a string operand of +, -,
// *, /, ^ and unary minus itself, with Go's integer parser: "010" + 0 is
// 8 (octal) and "1e400" + 0 an error, where Lua 5.1's strtod reads 10
// and inf. But it looks for a metamethod first, and strings have a
// metatable: its __add and the others do the conversion as Lua 5.1 does.
// Arithmetic on two numbers never gets here, so it costs nothing; an
// operation with a string operand costs a Go call.

// installStringArith adds the arithmetic metamethods to mt, the strings'
// metatable.
func installStringArith(L *lua.LState, mt *lua.LTable) {
	for _, op := range []stringOp{
		{"__add", "add", func(a, b float64) float64 { return a + b }},
		{"__sub", "sub", func(a, b float64) float64 { return a - b }},
		{"__mul", "mul", func(a, b float64) float64 { return a * b }},
		{"__div", "div", func(a, b float64) float64 { return a / b }},
		{"__mod", "mod", func(a, b float64) float64 { return a - float64(math.Floor(a/b)*b) }},
		{"__pow", "pow", libm.Pow},
		{"__unm", "unm", func(a, _ float64) float64 { return -a }},
	} {
		fn := L.NewFunction(stringArith(op))
		laux.MarkStringArith(L, fn)
		mt.RawSetString(op.event, fn)
	}
}

// stringOp is an arithmetic metamethod of the strings: its event, the
// operation's name and the arithmetic.
type stringOp struct {
	event, name string
	fn          func(a, b float64) float64
}

// stringArith returns the strings' metamethod of op.
func stringArith(op stringOp) lua.LGFunction {
	return func(L *lua.LState) int {
		x, y := L.Get(1), L.Get(2)
		if op.event == "__unm" {
			y = x
		}
		a, aok := laux.ArithOperand(x)
		b, bok := laux.ArithOperand(y)
		if aok && bok {
			L.Push(lua.LNumber(op.fn(a, b)))
			return 1
		}
		// The other operand's own metamethod, which Lua 5.1 would
		// have found: gopher-lua asked the string's first.
		for _, v := range []lua.LValue{x, y} {
			if _, isString := v.(lua.LString); isString {
				continue
			}
			if mm := L.GetMetaField(v, op.event); mm != lua.LNil {
				L.Push(mm)
				L.Push(x)
				L.Push(y)
				L.Call(2, 1)
				return 1
			}
		}
		// gopher-lua's own words, which the error mapper turns into
		// reference Lua's with the culprit named.
		if op.event == "__unm" {
			L.RaiseError("__unm undefined")
		}
		L.RaiseError("cannot perform %s operation between %s and %s", op.name, x.Type(), y.Type())
		return 0
	}
}
