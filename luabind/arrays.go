package luabind

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
)

// Arrays (SPEC 4.7). gopher-lua keeps a table's integer keys 1 to
// lua.MaxArrayIndex-1 in a Go slice and fills any gap before a write with
// nils, in one VM instruction that no budget interrupts: with its default
// (2^26), t[67108863] = true allocates a gigabyte, and t[2^24] = true
// takes seconds and over a gigabyte. Past lua.MaxArrayIndex, keys are
// hash entries, which t[k] finds but gopher-lua's #, ipairs and table
// functions do not see.
//
// luabind sets lua.MaxArrayIndex to arrayPart+1 (2^18): a sparse write
// fills at most 4 MiB, in a few tens of milliseconds. Longer arrays go on
// in the hash part, and everything that walks an array finds them there:
// # (rewritten at compile time into a call of lenSite), ipairs, unpack,
// table.insert, remove, concat, sort and getn. So arrays of any length
// (2^24 elements and more, within the memory limit) behave as in Lua 5.1,
// and a sparse write anywhere costs at most one 4 MiB fill.

// arrayPart is the longest array gopher-lua keeps in a table's slice.
const arrayPart = 1 << 18

// tableLen returns a border of t (#t in Lua 5.1): an n with t[n] ~= nil
// and t[n+1] == nil, or 0. In the slice it is gopher-lua's; when the
// slice is full, the border is searched for among the hash keys past it,
// by doubling then bisecting, as Lua 5.1 searches its hash part.
func tableLen(t *lua.LTable) int {
	n := t.Len()
	if n < lua.MaxArrayIndex-1 || t.RawGetH(lua.LNumber(n+1)) == lua.LNil {
		return n
	}
	i, j := n+1, 2*(n+1)
	for t.RawGetH(lua.LNumber(j)) != lua.LNil {
		i, j = j, 2*j
		if j > 1<<53 {
			// A table made to defeat the search: walk it.
			for k := i + 1; ; k++ {
				if t.RawGetH(lua.LNumber(k)) == lua.LNil {
					return k - 1
				}
			}
		}
	}
	for j-i > 1 {
		m := (i + j) / 2
		if t.RawGetH(lua.LNumber(m)) == lua.LNil {
			j = m
		} else {
			i = m
		}
	}
	return i
}

// length rewrites #e into a call of a lenSite.
func (rw *rewriter) length(e *ast.UnaryLenOpExpr) ast.Expr {
	site := &lenSite{desc: rw.describe(e.Expr)}
	operand := rw.expr(e.Expr)
	switch x := operand.(type) {
	case *ast.FuncCallExpr:
		x.AdjustRet = true
	case *ast.Comma3Expr:
		x.AdjustRet = true
	}
	return rw.helperCall(site.call, []ast.Expr{operand}, e)
}

// lenSite is one # operator of a script: Lua 5.1's length of a string, a
// table's border (tableLen: __len is not consulted for tables, as in Lua
// 5.1), __len for any other value that has one, or the error "attempt to
// get length of a nil value (local 'x')".
type lenSite struct {
	desc string
}

func (s *lenSite) call(L *lua.LState) int {
	switch v := L.Get(1).(type) {
	case lua.LString:
		L.Push(boxInt(len(v)))
	case *lua.LTable:
		L.Push(boxInt(tableLen(v)))
	default:
		mm := L.GetMetaField(v, "__len")
		if mm == lua.LNil {
			msg := fmt.Sprintf("attempt to get length of a %s value", v.Type())
			if s.desc != "" {
				msg += " (" + s.desc + ")"
			}
			L.RaiseError("%s", msg)
		}
		L.Push(mm)
		L.Push(v)
		L.Call(1, 1)
	}
	return 1
}

// ipairs(t) iterates t[1], t[2], ... up to the first nil, without
// metamethods, wherever the table keeps them.
func luaIpairs(L *lua.LState) int {
	t := L.CheckTable(1)
	L.Push(ipairsNextFn)
	L.Push(t)
	L.Push(lua.LNumber(0))
	return 3
}

var ipairsNextFn = &lua.LFunction{IsG: true, GFunction: ipairsNext}

func ipairsNext(L *lua.LState) int {
	t := L.CheckTable(1)
	i := L.CheckInt(2) + 1
	v := rawGetInt(t, i)
	if v == lua.LNil {
		return 0
	}
	L.Push(lua.LNumber(i))
	L.Push(v)
	return 2
}

// table.getn(t) is #t for a table.
func tableGetn(L *lua.LState) int {
	L.Push(lua.LNumber(tableLen(L.CheckTable(1))))
	return 1
}

// smallInts are the numbers 0 to 1023 as Lua values, boxed once: a
// length pushed from one of them costs no allocation.
var smallInts = func() (box [1024]lua.LValue) {
	for i := range box {
		box[i] = lua.LNumber(i)
	}
	return box
}()

func boxInt(n int) lua.LValue {
	if n >= 0 && n < len(smallInts) {
		return smallInts[n]
	}
	return lua.LNumber(n)
}
