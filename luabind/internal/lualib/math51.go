package lualib

import (
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/laux"
	"github.com/luahost/luahost/luabind/internal/libm"
)

// The math library's functions, as Lua 5.1 computes them. gopher-lua's
// differ: math.mod is its floored %, not C's fmod (math.mod(-7, 3) gave
// 2, Lua: -1); math.modf(±inf) gave a NaN fraction (C's modf gives ±0);
// math.ldexp refused a numeric string exponent, and every argument read
// "010" as octal. deg and rad divide and multiply by pi/180 as Lua 5.1
// does, so their last bit matches. exp, log, log10, pow and the
// hyperbolic functions are libm's, which C's library computes them as.

// radiansPerDegree is Lua 5.1's RADIANS_PER_DEGREE.
const radiansPerDegree = math.Pi / 180.0

// installMath replaces the functions of the math library tbl; random and
// randomseed are bound per script (BindRandomFrom).
func installMath(L *lua.LState, tbl *lua.LTable) {
	unary := map[string]func(float64) float64{
		"abs": math.Abs, "acos": math.Acos, "asin": math.Asin, "atan": math.Atan,
		"ceil": math.Ceil, "cos": math.Cos, "cosh": libm.Cosh, "exp": libm.Exp,
		"floor": math.Floor, "log": libm.Log, "log10": libm.Log10, "sin": math.Sin,
		"sinh": libm.Sinh, "sqrt": math.Sqrt, "tan": math.Tan, "tanh": libm.Tanh,
		"deg": func(x float64) float64 { return x / radiansPerDegree },
		"rad": func(x float64) float64 { return x * radiansPerDegree },
	}
	for name, f := range unary {
		domain := domainNaN(name)
		// fabs clears the sign of a NaN as of any number.
		propagate := name != "abs"
		tbl.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			x := laux.CheckNumber(L, 1)
			r := f(x)
			if r != r && propagate {
				r = cNaN(domain, x, x)
			}
			L.Push(lua.LNumber(r))
			return 1
		}))
	}
	binary := map[string]func(float64, float64) float64{
		"atan2": math.Atan2, "fmod": math.Mod, "mod": math.Mod,
	}
	for name, f := range binary {
		domain := domainNaN(name)
		tbl.RawSetString(name, L.NewFunction(func(L *lua.LState) int {
			x, y := laux.CheckNumber(L, 1), laux.CheckNumber(L, 2)
			r := f(x, y)
			if r != r {
				r = cNaN(domain, x, y)
			}
			L.Push(lua.LNumber(r))
			return 1
		}))
	}
	// libm's Pow gives its NaNs the signs C's pow does.
	tbl.RawSetString("pow", L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LNumber(libm.Pow(laux.CheckNumber(L, 1), laux.CheckNumber(L, 2))))
		return 1
	}))
	tbl.RawSetString("modf", L.NewFunction(mathModf))
	tbl.RawSetString("frexp", L.NewFunction(mathFrexp))
	tbl.RawSetString("ldexp", L.NewFunction(mathLdexp))
	tbl.RawSetString("max", L.NewFunction(func(L *lua.LState) int { return mathPick(L, func(d, best float64) bool { return d > best }) }))
	tbl.RawSetString("min", L.NewFunction(func(L *lua.LState) int { return mathPick(L, func(d, best float64) bool { return d < best }) }))
}

// The sign of a NaN shows in print ("nan", "-nan"), and Lua 5.1 returns
// the one C's library makes, where Go's returns a positive NaN: an
// argument that is NaN comes back as it is, sign kept; a domain error
// (math.log(-1), math.fmod(1, 0), math.cos(math.huge)) gives the x86
// default NaN, whose sign is set, but for acos, asin and log10, whose
// C functions return a positive one.

// cNaN returns the NaN C's function of x (and y) returns, domain being
// its NaN for a domain error.
func cNaN(domain, x, y float64) float64 {
	switch {
	case x != x:
		return x
	case y != y:
		return y
	}
	return domain
}

// domainNaN returns the NaN the C function name returns for a domain
// error.
func domainNaN(name string) float64 {
	switch name {
	case "acos", "asin", "log10":
		return math.NaN()
	}
	return math.Copysign(math.NaN(), -1)
}

// math.modf(x) returns x's integral and fractional parts, as C's modf:
// the fraction of ±inf is ±0.
func mathModf(L *lua.LState) int {
	x := laux.CheckNumber(L, 1)
	ip, fp := math.Modf(x)
	if math.IsInf(x, 0) {
		fp = math.Copysign(0, x)
	}
	L.Push(lua.LNumber(ip))
	L.Push(lua.LNumber(fp))
	return 2
}

func mathFrexp(L *lua.LState) int {
	frac, exp := math.Frexp(laux.CheckNumber(L, 1))
	L.Push(lua.LNumber(frac))
	L.Push(lua.LNumber(exp))
	return 2
}

func mathLdexp(L *lua.LState) int {
	L.Push(lua.LNumber(math.Ldexp(laux.CheckNumber(L, 1), laux.CheckInt(L, 2))))
	return 1
}

// mathPick is math.max and math.min: the first argument, replaced by each
// later one that better says is better (so a NaN first stays).
func mathPick(L *lua.LState, better func(d, best float64) bool) int {
	best := laux.CheckNumber(L, 1)
	for i := 2; i <= L.GetTop(); i++ {
		if d := laux.CheckNumber(L, i); better(d, best) {
			best = d
		}
	}
	L.Push(lua.LNumber(best))
	return 1
}
