package compile

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"

	"github.com/luahost/luahost/luabind/internal/laux"
)

// length rewrites #e into a call of a lenSite.
func (rw *rewriter) length(e *ast.UnaryLenOpExpr) ast.Expr {
	site := &lenSite{desc: rw.describe(e.Expr)}
	operand := oneValue(rw.expr(e.Expr))
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
		L.Push(laux.BoxInt(len(v)))
	case *lua.LTable:
		L.Push(laux.BoxInt(laux.TableLen(v)))
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

// constructor rewrites a table constructor whose items are all positional
// and end in a call or ... (all its values: {...}, {f()}, {a, ...}) into
// a call of pack. gopher-lua sizes such a table's array part for the
// items before the last only, and grows it as the values come; Lua 5.1
// sizes it to all the values, which decides what # answers when some are
// nil (#{nil, nil, 3} is 3). Any other constructor is sized by gopher-lua
// as Lua 5.1 sizes it.
func (rw *rewriter) constructor(e *ast.TableExpr) ast.Expr {
	if len(e.Fields) == 0 {
		return e
	}
	if fixed := rw.fixFlush(e); fixed != ast.Expr(e) {
		return fixed
	}
	if last := e.Fields[len(e.Fields)-1]; last.Key != nil {
		// A keyed field's value is one value: gopher-lua spread a call
		// or ... in the last field over the positional items, keyed or
		// not ({"x", a = f()} had f's first result at [2]).
		oneValue(last.Value)
	}
	values := make([]ast.Expr, len(e.Fields))
	for i, f := range e.Fields {
		if f.Key != nil {
			return e
		}
		values[i] = f.Value
	}
	if !multiValued(values[len(values)-1]) {
		return e
	}
	return rw.helperCall(pack, values, e)
}

// pack returns a table of its arguments, nil ones included, with an array
// part of exactly their number.
func pack(L *lua.LState) int {
	n := L.GetTop()
	t := L.CreateTable(n, 0)
	for i := 1; i <= n; i++ {
		t.RawSetInt(i, L.Get(i))
	}
	L.Push(t)
	return 1
}
