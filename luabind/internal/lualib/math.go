package lualib

import (
	"github.com/luahost/luahost/luabind/internal/laux"

	"math"
	"math/rand/v2"

	lua "github.com/yuin/gopher-lua"
)

// NewRand returns the per-state random source: a PCG generator seeded
// from the runtime's seed and the script's name, so every run of a scene
// draws the same numbers and two scripts do not draw the same sequence.
// Its state is what a snapshot saves (MarshalBinary).
func NewRand(seed int64, name string) *rand.PCG {
	return rand.NewPCG(uint64(seed), NameHash(name))
}

// NameHash is the FNV-1a hash of a script's name.
func NameHash(name string) uint64 {
	var hash uint64 = 14695981039346656037
	for i := 0; i < len(name); i++ {
		hash ^= uint64(name[i])
		hash *= 1099511628211
	}
	return hash
}

// BindRandomFrom installs math.random and math.randomseed over the
// generator pick returns at each call: math.random draws from it,
// math.randomseed(x) calls reseed with x.
func BindRandomFrom(L *lua.LState, pick func() *rand.Rand, reseed func(x int64)) {
	m := L.G.Global.RawGetString(lua.MathLibName).(*lua.LTable)
	m.RawSetString("random", L.NewFunction(func(L *lua.LState) int {
		r := pick()
		switch L.GetTop() {
		case 0:
			L.Push(lua.LNumber(r.Float64()))
		case 1:
			hi := randomBound(L, 1)
			if hi < 1 {
				L.ArgError(1, "interval is empty")
			}
			L.Push(lua.LNumber(1 + r.Int64N(hi)))
		case 2:
			lo, hi := randomBound(L, 1), randomBound(L, 2)
			if lo > hi {
				L.ArgError(2, "interval is empty")
			}
			L.Push(lua.LNumber(between(r, lo, hi)))
		default:
			laux.Raise(L, "wrong number of arguments")
		}
		return 1
	}))
	m.RawSetString("randomseed", L.NewFunction(func(L *lua.LState) int {
		reseed(int64(laux.CheckNumber(L, 1)))
		return 0
	}))
}

// randomBound returns argument n of math.random as an integer (the
// fraction dropped); a number no int64 holds (NaN, 2^63, 1e300) is
// refused as Lua 5.3 refuses it: Lua 5.1 takes it as garbage, and gopher-
// lua's conversion made 2^63 an empty interval.
func randomBound(L *lua.LState, n int) int64 {
	f := laux.CheckNumber(L, n)
	if math.IsNaN(f) || f < -(1<<63) || f >= 1<<63 {
		L.ArgError(n, "number has no integer representation")
	}
	return int64(f)
}

// between draws an integer in [lo, hi] (lo <= hi) from r. An interval
// wider than int64 holds (math.random(-2^62, 2^62)) is drawn in unsigned
// arithmetic: hi-lo+1 overflowed, and Int64N panicked on it.
func between(r *rand.Rand, lo, hi int64) int64 {
	if width := hi - lo + 1; width > 0 {
		return lo + r.Int64N(width)
	}
	width := uint64(hi) - uint64(lo) + 1
	if width == 0 {
		// The whole of int64.
		return int64(r.Uint64())
	}
	return lo + int64(r.Uint64N(width))
}
