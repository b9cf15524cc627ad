package lint

import (
	"slices"

	"github.com/yuin/gopher-lua/ast"
)

// entityFinders are the ctx functions that return entity values of
// other entities.
var entityFinders = []string{"find", "findAll", "query", "spawn"}

// lintZoneValues reports, for a script of a zoned world (its scene has a
// zones field), the fields of self that keep entity values found with
// ctx.find, ctx.findAll, ctx.query or made by ctx.spawn: such a value is
// kept across frames, and its entity may move to another zone, where the
// value's methods fail. A field is reported once, at the first
// such assignment.
func (f *luaFile) lintZoneValues() []Problem {
	var out []Problem
	reported := map[string]bool{}
	eachFunctionStmt(f.stmts, func(s ast.Stmt) {
		x, ok := s.(*ast.AssignStmt)
		if !ok {
			return
		}
		for i, l := range x.Lhs {
			a, ok := l.(*ast.AttrGetExpr)
			if !ok || rootName(a) != "self" || !findsEntities(exprAt(x.Rhs, i)) {
				continue
			}
			field := "self"
			if k, ok := a.Key.(*ast.StringExpr); ok {
				field = "self." + k.Value
			}
			if !reported[field] {
				reported[field] = true
				out = append(out, f.at(x.Line(), "self", Warning, "%s keeps an entity value across frames in a zoned world: its entity may move to another zone, where the value's methods fail (check e:zone() == ctx.entity:zone(), or find it again when needed)", field))
			}
		}
	})
	return out
}

// findsEntities reports whether e is a call of ctx.find, ctx.findAll,
// ctx.query or ctx.spawn, or an element of its result
// (ctx.query{...}[1]).
func findsEntities(e ast.Expr) bool {
	if a, ok := e.(*ast.AttrGetExpr); ok {
		e = a.Object
	}
	c, ok := e.(*ast.FuncCallExpr)
	if !ok {
		return false
	}
	a, ok := c.Func.(*ast.AttrGetExpr)
	if !ok || !isIdent(a.Object, "ctx") {
		return false
	}
	k, ok := a.Key.(*ast.StringExpr)
	return ok && slices.Contains(entityFinders, k.Value)
}
