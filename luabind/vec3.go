package luabind

import (
	"fmt"
	"math"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/luabind/internal/laux"
	"github.com/luahost/luahost/runtime"
)

// Vectors. A vector is a Lua table with the fields x, y and z
// and the state's vector metatable, which gives it operators and methods.
// Its fields are plain numbers, so reading v.x costs a table read; the
// metatable's __metatable is vecTypeName, which is how every copy
// (blackboard, events, self across a reload) recognises a vector and keeps
// it one: its plain form is runtime.Vec3.

// vecTypeName names vectors in errors and marks their metatable.
const vecTypeName = "vec3"

// isVec reports whether t is a vector of any state.
func isVec(t *lua.LTable) bool {
	mt, ok := t.Metatable.(*lua.LTable)
	return ok && mt.RawGetString("__metatable") == lua.LString(vecTypeName)
}

// vecNames and vecKeys are a vector's field names, and the same boxed as
// Lua keys once, for gopherx.NewRecord.
var (
	vecNames = []string{"x", "y", "z"}
	vecKeys  = []lua.LValue{lua.LString("x"), lua.LString("y"), lua.LString("z")}
)

// newVec returns a new vector of st. Every operator makes one, so it is
// built in one go (gopherx.NewRecord): a third of the allocations of
// setting its three fields one by one.
func (st *state) newVec(v runtime.Vec3) *lua.LTable {
	return gopherx.NewRecord(vecNames, vecKeys, []lua.LValue{lua.LNumber(v.X), lua.LNumber(v.Y), lua.LNumber(v.Z)}, st.vecMT)
}

// vecOf reads a vector's fields; false when one is not a number (a
// script wrote v.x = "a").
func vecOf(t *lua.LTable) (runtime.Vec3, bool) {
	x, ok1 := t.RawGetString("x").(lua.LNumber)
	y, ok2 := t.RawGetString("y").(lua.LNumber)
	z, ok3 := t.RawGetString("z").(lua.LNumber)
	return runtime.Vec3{X: float64(x), Y: float64(y), Z: float64(z)}, ok1 && ok2 && ok3
}

// readVec reads a vector, {x, y, z} or {x=, y=, z=}; a missing component
// is 0.
func readVec(v lua.LValue) (runtime.Vec3, error) {
	t, ok := v.(*lua.LTable)
	if !ok {
		return runtime.Vec3{}, fmt.Errorf("want a vec3 or {x, y, z}, not %s", v.Type())
	}
	var out [3]float64
	for i, key := range []string{"x", "y", "z"} {
		c := t.RawGetString(key)
		if c == lua.LNil {
			c = t.RawGetInt(i + 1)
		}
		switch n := c.(type) {
		case lua.LNumber:
			out[i] = float64(n)
		case *lua.LNilType:
		default:
			return runtime.Vec3{}, fmt.Errorf("component %d must be a number, not %s", i+1, c.Type())
		}
	}
	return runtime.Vec3{X: out[0], Y: out[1], Z: out[2]}, nil
}

// checkVec returns argument n as a vector: a vec3, {x, y, z} or
// {x=, y=, z=}.
func checkVec(L *lua.LState, n int) runtime.Vec3 {
	v, err := readVec(L.Get(n))
	if err != nil {
		L.ArgError(n, err.Error())
	}
	return v
}

// checkXYZ reads a position-like argument list from index n: three
// numbers, or one vector or table.
func checkXYZ(L *lua.LState, n int) runtime.Vec3 {
	if _, ok := L.Get(n).(*lua.LTable); ok && L.GetTop() == n {
		return checkVec(L, n)
	}
	return runtime.Vec3{X: float64(L.CheckNumber(n)), Y: float64(L.CheckNumber(n + 1)), Z: float64(L.CheckNumber(n + 2))}
}

// vecString is tostring of a vector: "vec3(1, 2, 3)".
func vecString(v runtime.Vec3) string {
	return "vec3(" + laux.FormatNumber(lua.LNumber(v.X)) + ", " + laux.FormatNumber(lua.LNumber(v.Y)) + ", " + laux.FormatNumber(lua.LNumber(v.Z)) + ")"
}

func add(a, b runtime.Vec3) runtime.Vec3 {
	return runtime.Vec3{X: a.X + b.X, Y: a.Y + b.Y, Z: a.Z + b.Z}
}
func sub(a, b runtime.Vec3) runtime.Vec3 {
	return runtime.Vec3{X: a.X - b.X, Y: a.Y - b.Y, Z: a.Z - b.Z}
}
func mul(a, b runtime.Vec3) runtime.Vec3 {
	return runtime.Vec3{X: a.X * b.X, Y: a.Y * b.Y, Z: a.Z * b.Z}
}
func div(a, b runtime.Vec3) runtime.Vec3 {
	return runtime.Vec3{X: a.X / b.X, Y: a.Y / b.Y, Z: a.Z / b.Z}
}
func scale(a runtime.Vec3, k float64) runtime.Vec3 {
	return runtime.Vec3{X: a.X * k, Y: a.Y * k, Z: a.Z * k}
}
func dot(a, b runtime.Vec3) float64 { return a.X*b.X + a.Y*b.Y + a.Z*b.Z }
func length(a runtime.Vec3) float64 { return math.Sqrt(dot(a, a)) }
func splat(k float64) runtime.Vec3  { return runtime.Vec3{X: k, Y: k, Z: k} }
func vecArg(v lua.LValue) (runtime.Vec3, bool) {
	switch x := v.(type) {
	case lua.LNumber:
		return splat(float64(x)), true
	case *lua.LTable:
		if isVec(x) {
			return vecOf(x)
		}
	}
	return runtime.Vec3{}, false
}

// newVecType builds the vector metatable and the global vec3.
func (st *state) newVecType() {
	L := st.L
	self := func(L *lua.LState) runtime.Vec3 {
		if t, ok := L.Get(1).(*lua.LTable); ok && isVec(t) {
			if v, ok := vecOf(t); ok {
				return v
			}
		}
		L.ArgError(1, vecTypeName+" expected")
		return runtime.Vec3{}
	}
	ret := func(L *lua.LState, v runtime.Vec3) int {
		L.Push(st.newVec(v))
		return 1
	}
	num := func(L *lua.LState, f float64) int {
		L.Push(lua.LNumber(f))
		return 1
	}
	methods := map[string]lua.LGFunction{
		// v:length() is the vector's length.
		"length": func(L *lua.LState) int { return num(L, length(self(L))) },
		// v:normalized() is v scaled to length 1; the zero vector stays zero.
		"normalized": func(L *lua.LState) int {
			v := self(L)
			if n := length(v); n > 0 {
				v = scale(v, 1/n)
			}
			return ret(L, v)
		},
		// v:dot(w) is the dot product.
		"dot": func(L *lua.LState) int { return num(L, dot(self(L), checkVec(L, 2))) },
		// v:cross(w) is the cross product.
		"cross": func(L *lua.LState) int {
			a, b := self(L), checkVec(L, 2)
			return ret(L, runtime.Vec3{X: a.Y*b.Z - a.Z*b.Y, Y: a.Z*b.X - a.X*b.Z, Z: a.X*b.Y - a.Y*b.X})
		},
		// v:distance(w) is the length of w - v.
		"distance": func(L *lua.LState) int { return num(L, length(sub(checkVec(L, 2), self(L)))) },
		// v:lerp(w, t) is v + (w - v) * t.
		"lerp": func(L *lua.LState) int {
			a, b := self(L), checkVec(L, 2)
			return ret(L, add(a, scale(sub(b, a), float64(L.CheckNumber(3)))))
		},
		// v:unpack() returns x, y, z.
		"unpack": func(L *lua.LState) int {
			v := self(L)
			L.Push(lua.LNumber(v.X))
			L.Push(lua.LNumber(v.Y))
			L.Push(lua.LNumber(v.Z))
			return 3
		},
	}
	index := L.CreateTable(0, len(methods))
	for name, fn := range methods {
		index.RawSetString(name, L.NewFunction(fn))
	}
	// arith builds a binary operator: vector op vector, or a number on
	// either side, which stands for the vector (n, n, n).
	arith := func(op string, f func(a, b runtime.Vec3) runtime.Vec3) *lua.LFunction {
		return L.NewFunction(func(L *lua.LState) int {
			a, ok1 := vecArg(L.Get(1))
			b, ok2 := vecArg(L.Get(2))
			if !ok1 || !ok2 {
				L.RaiseError("attempt to %s a %s and a %s (a vec3 takes a vec3 or a number)", op, L.Get(1).Type(), L.Get(2).Type())
			}
			return ret(L, f(a, b))
		})
	}
	mt := L.CreateTable(0, 12)
	mt.RawSetString("__index", index)
	mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("cannot set field %s of a vec3: it has only x, y and z", L.ToStringMeta(L.Get(2)).String())
		return 0
	}))
	mt.RawSetString("__add", arith("add", add))
	mt.RawSetString("__sub", arith("subtract", sub))
	mt.RawSetString("__mul", arith("multiply", mul))
	mt.RawSetString("__div", arith("divide", div))
	mt.RawSetString("__unm", L.NewFunction(func(L *lua.LState) int { return ret(L, scale(self(L), -1)) }))
	mt.RawSetString("__eq", L.NewFunction(func(L *lua.LState) int {
		a, ok1 := vecArg(L.Get(1))
		b, ok2 := vecArg(L.Get(2))
		L.Push(lua.LBool(ok1 && ok2 && a == b))
		return 1
	}))
	mt.RawSetString("__tostring", L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LString(vecString(self(L))))
		return 1
	}))
	mt.RawSetString("__concat", L.NewFunction(func(L *lua.LState) int {
		str := func(v lua.LValue) string {
			if t, ok := v.(*lua.LTable); ok && isVec(t) {
				if w, ok := vecOf(t); ok {
					return vecString(w)
				}
			}
			switch v.(type) {
			case lua.LString, lua.LNumber:
				return L.ToStringMeta(v).String()
			}
			L.RaiseError("attempt to concatenate a %s value", v.Type())
			return ""
		}
		L.Push(lua.LString(str(L.Get(1)) + str(L.Get(2))))
		return 1
	}))
	mt.RawSetString("__metatable", lua.LString(vecTypeName))
	st.vecMT = mt
	// vec3(x, y, z) makes a vector (missing numbers are 0); vec3(t) makes
	// one of a vector or a table {x, y, z} / {x=, y=, z=}.
	L.G.Global.RawSetString("vec3", L.NewFunction(func(L *lua.LState) int {
		if _, ok := L.Get(1).(*lua.LTable); ok {
			return ret(L, checkVec(L, 1))
		}
		return ret(L, runtime.Vec3{X: float64(L.OptNumber(1, 0)), Y: float64(L.OptNumber(2, 0)), Z: float64(L.OptNumber(3, 0))})
	}))
}
