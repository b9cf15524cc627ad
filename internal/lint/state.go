package lint

import (
	"github.com/yuin/gopher-lua/ast"

	"github.com/luahost/luahost/internal/luaast"
)

// lintModuleState reports module-level tables ("local cache = {}" at the
// top of the file) that a function changes: state kept there is not world
// state, so a snapshot does not save it and a restored world starts it
// empty. A table is reported once, at the first change found.
func (f *luaFile) lintModuleState() []Problem {
	tables := map[string]bool{}
	for _, s := range f.stmts {
		if l, ok := s.(*ast.LocalAssignStmt); ok {
			for i, n := range l.Names {
				_, isTable := exprAt(l.Exprs, i).(*ast.TableExpr)
				tables[n] = isTable
			}
		}
	}
	var out []Problem
	reported := map[string]bool{}
	report := func(name string, line int) {
		if tables[name] && !reported[name] {
			reported[name] = true
			out = append(out, f.at(line, name, Warning, "module-level table '%s' is changed inside a function: snapshots do not save it (keep state in self or the blackboard)", name))
		}
	}
	eachFunctionStmt(f.stmts, func(s ast.Stmt) {
		switch x := s.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if a, ok := l.(*ast.AttrGetExpr); ok {
					report(rootName(a), x.Line())
				}
			}
		case *ast.FuncCallStmt:
			if c, ok := x.Expr.(*ast.FuncCallExpr); ok && len(c.Args) > 0 && changesTable(c.Func) {
				report(rootName(c.Args[0]), x.Line())
			}
		}
	})
	return out
}

// eachFunctionStmt calls fn for every statement inside the functions of
// a chunk's statements (function statements and function expressions),
// blocks included, but not for the chunk's own top-level statements.
func eachFunctionStmt(stmts []ast.Stmt, fn func(ast.Stmt)) {
	w := &luaast.Walker{Stmt: func(s ast.Stmt, sc *luaast.Scope) {
		if sc.Functions() > 0 {
			fn(s)
		}
	}}
	w.Walk(stmts)
}

// rootName returns the variable at the root of t.a.b[c] ("t"), or "".
func rootName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.AttrGetExpr:
			e = x.Object
		case *ast.IdentExpr:
			return x.Value
		default:
			return ""
		}
	}
}

// changesTable reports whether fn is table.insert, table.remove,
// table.sort or rawset, which change their first argument.
func changesTable(fn ast.Expr) bool {
	if isIdent(fn, "rawset") {
		return true
	}
	a, ok := fn.(*ast.AttrGetExpr)
	if !ok || !isIdent(a.Object, "table") {
		return false
	}
	k, ok := a.Key.(*ast.StringExpr)
	return ok && (k.Value == "insert" || k.Value == "remove" || k.Value == "sort")
}
