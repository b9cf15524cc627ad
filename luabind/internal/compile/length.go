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
