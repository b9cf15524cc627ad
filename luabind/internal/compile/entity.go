package compile

import (
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"

	"github.com/luahost/luahost/luabind/internal/laux"
)

// The host keeps ctx.entity as a plain field of ctx once a script reads
// it, so that reading it costs what reading any field does; ctx stays
// read-only, but a field a table holds is written without its
// __newindex. So every assignment to a field named entity (t.entity = v,
// t["entity"] = v) becomes a call of setEntity, which refuses it on a
// ctx and assigns it, metamethods included, on any other table (the
// sandbox's rawset refuses ctx too). An assignment through a key
// computed at run time is not seen.

// entityTarget returns the table expression of a target that assigns the
// field entity, or nil.
func entityTarget(lhs ast.Expr) ast.Expr {
	get, ok := lhs.(*ast.AttrGetExpr)
	if !ok {
		return nil
	}
	if k, ok := get.Key.(*ast.StringExpr); ok && k.Value == "entity" {
		return get.Object
	}
	return nil
}

// guardEntity returns t.entity = v, an assignment of one target, as a
// call of setEntity, or s itself when its target is another.
func (rw *rewriter) guardEntity(s *ast.AssignStmt) ast.Stmt {
	obj := entityTarget(s.Lhs[0])
	if obj == nil {
		return s
	}
	return at(&ast.FuncCallStmt{Expr: rw.helperCall(setEntity, []ast.Expr{obj, s.Rhs[0]}, s.Lhs[0])}, s)
}

// setEntity(t, v) is t.entity = v, refused on ctx with the message its
// __newindex gives every other field.
func setEntity(L *lua.LState) int {
	t := L.Get(1)
	if laux.IsCtx(t) {
		L.RaiseError("ctx.entity is read-only")
	}
	L.SetField(t, "entity", L.Get(2))
	return 0
}
