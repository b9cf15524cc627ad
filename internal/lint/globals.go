package lint

import (
	"slices"

	"github.com/yuin/gopher-lua/ast"
)

// walkExprs calls fn for every expression in stmts, function bodies
// included, outermost first.
func walkExprs(stmts []ast.Stmt, fn func(ast.Expr)) {
	v := &scoper{onExpr: fn}
	v.block(stmts, nil)
}

// scoper walks a chunk with Lua's scoping rules and reports every
// global read and write.
type scoper struct {
	onExpr  func(ast.Expr)
	onRead  func(name string, line int)
	onWrite func(name string, line int, inFunction bool)
	depth   int
}

type scope struct {
	names  []string
	parent *scope
}

func (s *scope) has(name string) bool {
	for ; s != nil; s = s.parent {
		if slices.Contains(s.names, name) {
			return true
		}
	}
	return false
}

func (v *scoper) block(stmts []ast.Stmt, parent *scope) {
	sc := &scope{parent: parent}
	for _, s := range stmts {
		v.stmt(s, sc)
	}
}

func (v *scoper) stmt(s ast.Stmt, sc *scope) {
	switch x := s.(type) {
	case *ast.AssignStmt:
		v.exprs(x.Rhs, sc)
		for _, l := range x.Lhs {
			if id, ok := l.(*ast.IdentExpr); ok {
				if !sc.has(id.Value) && v.onWrite != nil {
					v.onWrite(id.Value, x.Line(), v.depth > 0)
				}
				continue
			}
			v.expr(l, sc)
		}
	case *ast.LocalAssignStmt:
		// "local function f" parses as "local f = function": the name is
		// declared first so that the body may call itself.
		for i, n := range x.Names {
			if _, ok := exprAt(x.Exprs, i).(*ast.FunctionExpr); ok {
				sc.names = append(sc.names, n)
			}
		}
		v.exprs(x.Exprs, sc)
		sc.names = append(sc.names, x.Names...)
	case *ast.FuncCallStmt:
		v.expr(x.Expr, sc)
	case *ast.DoBlockStmt:
		v.block(x.Stmts, sc)
	case *ast.WhileStmt:
		v.expr(x.Condition, sc)
		v.block(x.Stmts, sc)
	case *ast.RepeatStmt:
		inner := &scope{parent: sc}
		for _, s := range x.Stmts {
			v.stmt(s, inner)
		}
		v.expr(x.Condition, inner)
	case *ast.IfStmt:
		v.expr(x.Condition, sc)
		v.block(x.Then, sc)
		v.block(x.Else, sc)
	case *ast.NumberForStmt:
		v.expr(x.Init, sc)
		v.expr(x.Limit, sc)
		if x.Step != nil {
			v.expr(x.Step, sc)
		}
		v.block(x.Stmts, &scope{names: []string{x.Name}, parent: sc})
	case *ast.GenericForStmt:
		v.exprs(x.Exprs, sc)
		v.block(x.Stmts, &scope{names: x.Names, parent: sc})
	case *ast.FuncDefStmt:
		switch {
		case x.Name.Method != "":
			v.expr(x.Name.Receiver, sc)
		default:
			if id, ok := x.Name.Func.(*ast.IdentExpr); ok {
				if !sc.has(id.Value) && v.onWrite != nil {
					v.onWrite(id.Value, x.Line(), v.depth > 0)
				}
			} else {
				v.expr(x.Name.Func, sc)
			}
		}
		var self []string
		if x.Name.Method != "" {
			self = []string{"self"}
		}
		v.function(x.Func, sc, self)
	case *ast.ReturnStmt:
		v.exprs(x.Exprs, sc)
	}
}

func (v *scoper) function(f *ast.FunctionExpr, sc *scope, extra []string) {
	names := slices.Clone(extra)
	if f.ParList != nil {
		names = append(names, f.ParList.Names...)
		if f.ParList.HasVargs {
			names = append(names, "arg")
		}
	}
	v.depth++
	v.block(f.Stmts, &scope{names: names, parent: sc})
	v.depth--
}

func (v *scoper) exprs(es []ast.Expr, sc *scope) {
	for _, e := range es {
		v.expr(e, sc)
	}
}

func (v *scoper) expr(e ast.Expr, sc *scope) {
	if e == nil {
		return
	}
	if v.onExpr != nil {
		v.onExpr(e)
	}
	switch x := e.(type) {
	case *ast.IdentExpr:
		if !sc.has(x.Value) && v.onRead != nil {
			v.onRead(x.Value, x.Line())
		}
	case *ast.AttrGetExpr:
		v.expr(x.Object, sc)
		v.expr(x.Key, sc)
	case *ast.TableExpr:
		for _, f := range x.Fields {
			v.expr(f.Key, sc)
			v.expr(f.Value, sc)
		}
	case *ast.FuncCallExpr:
		v.expr(x.Func, sc)
		v.expr(x.Receiver, sc)
		v.exprs(x.Args, sc)
	case *ast.LogicalOpExpr:
		v.expr(x.Lhs, sc)
		v.expr(x.Rhs, sc)
	case *ast.RelationalOpExpr:
		v.expr(x.Lhs, sc)
		v.expr(x.Rhs, sc)
	case *ast.StringConcatOpExpr:
		v.expr(x.Lhs, sc)
		v.expr(x.Rhs, sc)
	case *ast.ArithmeticOpExpr:
		v.expr(x.Lhs, sc)
		v.expr(x.Rhs, sc)
	case *ast.UnaryMinusOpExpr:
		v.expr(x.Expr, sc)
	case *ast.UnaryNotOpExpr:
		v.expr(x.Expr, sc)
	case *ast.UnaryLenOpExpr:
		v.expr(x.Expr, sc)
	case *ast.FunctionExpr:
		v.function(x, sc, nil)
	}
}

// lintGlobals reports globals read but assigned nowhere in the file and
// not among globals (undefined), and globals assigned inside a function
// but never at the chunk's top level (accidental: a missing local).
// Each name is reported once, where it first appears.
func (f *luaFile) lintGlobals(globals []string) []Problem {
	type use struct {
		name string
		line int
	}
	var reads, inner []use
	top := map[string]bool{}
	written := map[string]bool{}
	v := &scoper{
		onRead: func(name string, line int) { reads = append(reads, use{name, line}) },
		onWrite: func(name string, line int, inFunction bool) {
			written[name] = true
			if inFunction {
				inner = append(inner, use{name, line})
			} else {
				top[name] = true
			}
		},
	}
	v.block(f.stmts, nil)
	var out []Problem
	seen := map[string]bool{}
	for _, u := range reads {
		if written[u.name] || seen[u.name] {
			continue
		}
		if _, found := slices.BinarySearch(globals, u.name); found {
			continue
		}
		seen[u.name] = true
		msg := "undefined global '" + u.name + "'"
		if s := suggestWithin(u.name, globals, 1); s != "" {
			msg += "; did you mean " + s + "?"
		}
		out = append(out, f.at(u.line, u.name, Warning, "%s", msg))
	}
	seen = map[string]bool{}
	for _, u := range inner {
		if top[u.name] || seen[u.name] {
			continue
		}
		if _, found := slices.BinarySearch(globals, u.name); found {
			continue
		}
		seen[u.name] = true
		out = append(out, f.at(u.line, u.name, Warning,
			"global '%s' assigned inside a function (a missing 'local'? keep instance state in self)", u.name))
	}
	slices.SortStableFunc(out, func(a, b Problem) int { return a.Line - b.Line })
	return out
}
