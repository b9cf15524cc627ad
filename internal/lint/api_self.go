package lint

import (
	"fmt"
	"slices"

	"github.com/yuin/gopher-lua/ast"

	"github.com/luahost/luahost/internal/luaast"
)

// scriptFunctions returns the functions of the table a chunk returns,
// "return { ... }" or "local M = { ... } ... return M" with
// "function M.x()", "function M:x()" and "M.x = function" added, the
// handlers of its events table included, and the table constructors that
// build it (for its properties).
func scriptFunctions(stmts []ast.Stmt) (fns []*ast.FunctionExpr, tables []*ast.TableExpr) {
	if len(stmts) == 0 {
		return nil, nil
	}
	ret, ok := stmts[len(stmts)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Exprs) != 1 {
		return nil, nil
	}
	add := func(t *ast.TableExpr) {
		tables = append(tables, t)
		for _, f := range t.Fields {
			switch v := f.Value.(type) {
			case *ast.FunctionExpr:
				fns = append(fns, v)
			case *ast.TableExpr:
				if k, ok := f.Key.(*ast.StringExpr); ok && k.Value == "events" {
					for _, h := range v.Fields {
						if fn, ok := h.Value.(*ast.FunctionExpr); ok {
							fns = append(fns, fn)
						}
					}
				}
			}
		}
	}
	switch x := ret.Exprs[0].(type) {
	case *ast.TableExpr:
		add(x)
	case *ast.IdentExpr:
		for _, s := range stmts {
			switch st := s.(type) {
			case *ast.LocalAssignStmt:
				for i, n := range st.Names {
					if t, ok := exprAt(st.Exprs, i).(*ast.TableExpr); ok && n == x.Value {
						add(t)
					}
				}
			case *ast.FuncDefStmt:
				if a, ok := st.Name.Func.(*ast.AttrGetExpr); ok && isIdent(a.Object, x.Value) {
					fns = append(fns, st.Func)
				}
				if st.Name.Method != "" && isIdent(st.Name.Receiver, x.Value) {
					// function M:x() has self first, as its hidden
					// parameter.
					withSelf := *st.Func
					params := &ast.ParList{Names: []string{"self"}}
					if pl := st.Func.ParList; pl != nil {
						params.Names, params.HasVargs = append(params.Names, pl.Names...), pl.HasVargs
					}
					withSelf.ParList = params
					fns = append(fns, &withSelf)
				}
			case *ast.AssignStmt:
				for i, l := range st.Lhs {
					if a, ok := l.(*ast.AttrGetExpr); ok && isIdent(a.Object, x.Value) {
						if fn, ok := exprAt(st.Rhs, i).(*ast.FunctionExpr); ok {
							fns = append(fns, fn)
						}
					}
				}
			}
		}
	}
	return fns, tables
}

// selfKey returns the field name of self.NAME, self["NAME"] or "" when e
// is not one.
func selfKey(e ast.Expr) (name string, dynamic bool, ok bool) {
	a, isAttr := e.(*ast.AttrGetExpr)
	if !isAttr || !isIdent(a.Object, "self") {
		return "", false, false
	}
	if k, isStr := a.Key.(*ast.StringExpr); isStr {
		return k.Value, false, true
	}
	return "", true, true
}

// selfWrites returns the fields any code of the file writes to a self
// (self.x = ..., properties keys), and false when self's fields cannot be
// known: a write with a computed key, or self itself passed on or stored
// (a helper or rawset may set anything).
func selfWrites(stmts []ast.Stmt, tables []*ast.TableExpr) (map[string]bool, bool) {
	written := map[string]bool{}
	for _, t := range tables {
		for _, f := range t.Fields {
			k, ok := f.Key.(*ast.StringExpr)
			if !ok || k.Value != "properties" {
				continue
			}
			props, isTable := f.Value.(*ast.TableExpr)
			if !isTable {
				// Properties built elsewhere: their keys are not known.
				return nil, false
			}
			for _, p := range props.Fields {
				if pk, ok := p.Key.(*ast.StringExpr); ok {
					written[pk.Value] = true
				}
			}
		}
	}
	known := true
	// uses are the expressions where a bare self is fine: the object of a
	// field access, the receiver of a method call.
	uses := map[ast.Expr]bool{}
	w := &luaast.Walker{
		Stmt: func(s ast.Stmt, _ *luaast.Scope) {
			if x, ok := s.(*ast.AssignStmt); ok {
				for _, l := range x.Lhs {
					if name, dynamic, ok := selfKey(l); ok {
						if dynamic {
							known = false
						} else {
							written[name] = true
						}
					}
				}
			}
		},
		Expr: func(e ast.Expr, _ *luaast.Scope) {
			switch x := e.(type) {
			case *ast.AttrGetExpr:
				uses[x.Object] = true
			case *ast.FuncCallExpr:
				if x.Receiver != nil {
					uses[x.Receiver] = true
				}
			case *ast.IdentExpr:
				if x.Value == "self" && !uses[x] {
					known = false
				}
			}
		},
	}
	w.Walk(stmts)
	return written, known
}

// checkSelf reports reads of self fields, in the script table's
// functions, that nothing writes: not properties, not the script's code,
// not extra (props that scenes and attaches give the script). Unless
// closed says extra are all the props any attach gives (a project whose
// every attach the linter reads), a field nothing sets may come from
// props it does not see, and only a read whose name is close to a field
// that is set is reported.
func checkSelf(stmts []ast.Stmt, extra []string, closed bool) []apiFinding {
	fns, tables := scriptFunctions(stmts)
	written, known := selfWrites(stmts, tables)
	if !known {
		return nil
	}
	for _, k := range extra {
		written[k] = true
	}
	var candidates []string
	for k := range written {
		candidates = append(candidates, k)
	}
	slices.Sort(candidates)
	var out []apiFinding
	reported := map[string]bool{}
	for _, fn := range fns {
		if fn.ParList == nil || len(fn.ParList.Names) == 0 || fn.ParList.Names[0] != "self" {
			continue
		}
		lhs := map[ast.Expr]bool{}
		w := &luaast.Walker{
			Stmt: func(s ast.Stmt, _ *luaast.Scope) {
				if x, ok := s.(*ast.AssignStmt); ok {
					for _, l := range x.Lhs {
						lhs[l] = true
					}
				}
			},
			Expr: func(e ast.Expr, _ *luaast.Scope) {
				name := ""
				switch x := e.(type) {
				case *ast.AttrGetExpr:
					if n, dynamic, ok := selfKey(x); ok && !dynamic && !lhs[x] {
						name = n
					}
				case *ast.FuncCallExpr:
					if x.Receiver != nil && isIdent(x.Receiver, "self") {
						name = x.Method
					}
				}
				if name == "" || written[name] || reported[name] {
					return
				}
				s := suggest(name, candidates)
				if s == "" && !closed {
					return
				}
				reported[name] = true
				msg := fmt.Sprintf("self.%s is never set (not in properties, and no code of the script writes it)", name)
				if closed {
					msg = fmt.Sprintf("self.%s is never set (not in properties, not in any attach's props, and no code of the script writes it)", name)
				}
				if s != "" {
					msg += fmt.Sprintf("; did you mean self.%s?", s)
				}
				out = append(out, apiFinding{line: e.Line(), needle: name, message: msg})
			},
		}
		w.Walk(fn.Stmts)
	}
	return out
}
