package compile

import (
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"

	"github.com/luahost/luahost/internal/luaast"
	"github.com/luahost/luahost/luabind/internal/laux"
)

// multipleAssign rewrites a, b, t[k] = e1, e2, e3 (already rewritten
// inside) into
//
//	do
//	  local (1), (2), (3) = e1, e2, e3   -- every right-hand side first
//	  t[k] = (3); b = (2); a = (1)       -- then right to left, as Lua 5.1
//	end
//
// A local assignment adjusts the values as the multiple assignment
// would: a call or ... last expands, missing values are nil, extra
// expressions are evaluated and dropped.
//
// Lua 5.1 evaluates a target's table and key before the right-hand
// sides. The rewrite keeps a target's table and key expressions in place
// when they are constants or names no target to their right assigns (so
// an error names the script's own variable); any other is evaluated
// first, into a temporary, when a target is assigned before it — one to
// its right: i, t[i] = i+1, 20 and t[i], i = 20, i+1 both write t at the
// old i, and t[t.n], t.n = "a", 2 writes t[1] (a field or a call there
// may read what a later target writes). Only a right-hand side that
// changes a name a target's table or key reads, by a side effect (a call
// that reassigns t in t.x, y = 1, f()), sees a difference.
func (rw *rewriter) multipleAssign(s *ast.AssignStmt) ast.Stmt {
	n := len(s.Lhs)
	// later[i] are the names assigned by the targets right of i.
	later := make([]map[string]bool, n)
	names := map[string]bool{}
	for i := n - 1; i >= 0; i-- {
		later[i] = names
		if id, ok := s.Lhs[i].(*ast.IdentExpr); ok {
			names = copyAdd(names, id.Value)
		}
	}
	var stmts []ast.Stmt
	var preNames []string
	var preExprs []ast.Expr
	hoist := func(e ast.Expr, i int) ast.Expr {
		_, isName := e.(*ast.IdentExpr)
		if isConst(e) || i == n-1 || isName && !reads(e, later[i]) {
			return e
		}
		name := rw.temp()
		preNames = append(preNames, name)
		preExprs = append(preExprs, e)
		return at(&ast.IdentExpr{Value: name}, e)
	}
	targets := make([]ast.Expr, n)
	for i, lhs := range s.Lhs {
		if t, ok := lhs.(*ast.AttrGetExpr); ok {
			get := at(&ast.AttrGetExpr{Object: hoist(t.Object, i)}, t)
			get.Key = hoist(t.Key, i)
			targets[i] = get
		} else {
			targets[i] = lhs
		}
	}
	if len(preNames) > 0 {
		stmts = append(stmts, at(&ast.LocalAssignStmt{Names: preNames, Exprs: preExprs}, s))
	}
	values := make([]string, n)
	for i := range values {
		values[i] = rw.temp()
	}
	stmts = append(stmts, at(&ast.LocalAssignStmt{Names: values, Exprs: s.Rhs}, s))
	for i := n - 1; i >= 0; i-- {
		v := at(&ast.IdentExpr{Value: values[i]}, targets[i])
		stmts = append(stmts, rw.guardEntity(at(&ast.AssignStmt{Lhs: []ast.Expr{targets[i]}, Rhs: []ast.Expr{v}}, targets[i])))
	}
	return at(&ast.DoBlockStmt{Stmts: stmts}, s)
}

// viaLocal rewrites x = e, where x is a local of the running function
// that gopher-lua would compile e straight into and get wrong, into
//
//	do local (1) = e; x = (1) end
//
// A local declaration compiles e into the new local's own register, the
// highest, which is right. gopher-lua gets three shapes wrong:
//
//   - e an and/or: an operand that is neither a local nor a constant (a
//     field, an index, a call, ...) is tested in a scratch register, and
//     when it decides the result (falsy before and, truthy before or) its
//     value is left there: the local kept its old value (x = y.a and 1);
//   - e a call and x the function's last parameter: the function to call
//     is loaded into x's register before the arguments are read, so that
//     name = "hi " .. name (a call once the compile step has rewritten
//     ..) concatenated the function;
//   - e a parenthesised ...: the instruction that reads it cuts the
//     stack at x, and the locals declared after x became Go nils.
func (rw *rewriter) viaLocal(s *ast.AssignStmt) ast.Stmt {
	id, ok := s.Lhs[0].(*ast.IdentExpr)
	if !ok || len(s.Rhs) != 1 || rw.kind(id.Value) != "local" {
		return s
	}
	switch s.Rhs[0].(type) {
	case *ast.LogicalOpExpr, *ast.Comma3Expr:
	case *ast.FuncCallExpr:
		if !rw.sc.LastParam(id.Value) {
			return s
		}
	default:
		return s
	}
	name := rw.temp()
	decl := at(&ast.LocalAssignStmt{Names: []string{name}, Exprs: s.Rhs}, s)
	s.Rhs = []ast.Expr{at(&ast.IdentExpr{Value: name}, s)}
	return at(&ast.DoBlockStmt{Stmts: []ast.Stmt{decl, s}}, s)
}

// genericFor rewrites for names in e1, e2, e3 do ... end, when the
// expressions are more than names and calls, into
//
//	do local (1), (2), (3) = e1, e2, e3; for names in (1), (2), (3) do ... end end
//
// which gopher-lua compiles right; the local assignment adjusts the list
// to three values as the for would.
func (rw *rewriter) genericFor(s *ast.GenericForStmt) ast.Stmt {
	simple := true
	for _, e := range s.Exprs {
		switch e.(type) {
		case *ast.IdentExpr, *ast.FuncCallExpr:
		default:
			simple = false
		}
	}
	if simple {
		return s
	}
	names := []string{rw.temp(), rw.temp(), rw.temp()}
	hoisted := at(&ast.LocalAssignStmt{Names: names, Exprs: s.Exprs}, s)
	s.Exprs = make([]ast.Expr, len(names))
	for i, n := range names {
		s.Exprs[i] = at(&ast.IdentExpr{Value: n}, s)
	}
	return at(&ast.DoBlockStmt{Stmts: []ast.Stmt{hoisted, s}}, s)
}

// forBound returns a numeric for's bound e, through forNumber when it
// may be a string: a variable, a field or a call (a number, arithmetic
// and # never are).
func (rw *rewriter) forBound(e ast.Expr) ast.Expr {
	switch e.(type) {
	case *ast.IdentExpr, *ast.AttrGetExpr, *ast.FuncCallExpr, *ast.StringExpr:
		if call, ok := e.(*ast.FuncCallExpr); ok {
			call.AdjustRet = true
		}
		return rw.helperCall(forNumber, []ast.Expr{e}, e)
	}
	return e
}

// forNumber returns its argument, converted to a number when it is a
// string that reads as one (as Lua 5.1's for does); anything else is
// left for the for loop to refuse.
func forNumber(L *lua.LState) int {
	v := L.Get(1)
	if s, ok := v.(lua.LString); ok {
		if n, ok := laux.ToNumber(string(s)); ok {
			v = lua.LNumber(n)
		}
	}
	L.Push(v)
	return 1
}

func copyAdd(m map[string]bool, name string) map[string]bool {
	out := make(map[string]bool, len(m)+1)
	for k := range m {
		out[k] = true
	}
	out[name] = true
	return out
}

// isConst reports whether e is a literal nil, boolean, number or string.
func isConst(e ast.Expr) bool {
	switch e.(type) {
	case *ast.StringExpr, *ast.NumberExpr, *ast.TrueExpr, *ast.FalseExpr, *ast.NilExpr:
		return true
	}
	return false
}

// reads reports whether e reads any of names (as a variable, anywhere in
// it, also inside functions it defines).
func reads(e ast.Expr, names map[string]bool) bool {
	if len(names) == 0 {
		return false
	}
	found := false
	luaast.Expr(e, func(x ast.Expr) {
		if id, ok := x.(*ast.IdentExpr); ok && names[id.Value] {
			found = true
		}
	})
	return found
}
