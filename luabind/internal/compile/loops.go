package compile

import (
	"github.com/yuin/gopher-lua/ast"

	"github.com/luahost/luahost/internal/luaast"
)

// The last pass of gopher-lua's compiler threads jumps: a jump to a jump
// goes straight to the end of the chain. It reads the target of each
// jump in a chain as a label, but a jump it already passed holds its
// distance instead, so a chain through a jump that comes before the one
// being threaded lands anywhere. A loop's jump back is such a chain when
// the loop's first instruction is itself a jump, as the code of an and/or
// or a not with a constant operand starts: while (nil and 0 or n) < 3 ran
// its body once, and a loop could jump back into the start of the chunk.
// A loop (and a label, which a goto may jump back to) whose first
// instruction may be a jump gets one of its own there: a hidden local,
// declared without a value.

// whileLoop makes sure the jump back of s (its parts rewritten) lands on
// no jump: a condition that may start with one is moved into the body
// (while true do local (t); if not cond then break end; ... end), and
// the body of a loop whose condition is a constant gets its own first
// instruction when it needs one.
func (rw *rewriter) whileLoop(s *ast.WhileStmt) *ast.WhileStmt {
	if isConst(s.Condition) {
		s.Stmts = rw.landing(s.Stmts, s)
		return s
	}
	if !mayJump(s.Condition) {
		return s
	}
	exit := at(&ast.IfStmt{
		Condition: at(&ast.UnaryNotOpExpr{Expr: s.Condition}, s.Condition),
		Then:      []ast.Stmt{at(&ast.BreakStmt{}, s)},
	}, s)
	body := append([]ast.Stmt{rw.noJump(s), exit}, s.Stmts...)
	return at(&ast.WhileStmt{Condition: at(&ast.TrueExpr{}, s), Stmts: body}, s)
}

// repeatLoop makes sure the jump back of s lands on no jump.
func (rw *rewriter) repeatLoop(s *ast.RepeatStmt) {
	if startsWithJump(s.Stmts) || len(s.Stmts) == 0 && mayJump(s.Condition) {
		s.Stmts = append([]ast.Stmt{rw.noJump(s)}, s.Stmts...)
	}
}

// landing returns the body stmts of a loop whose jump back goes to its
// first statement, with an instruction of its own first when that
// statement's code may start with a jump.
func (rw *rewriter) landing(stmts []ast.Stmt, of ast.PositionHolder) []ast.Stmt {
	if !startsWithJump(stmts) {
		return stmts
	}
	return append([]ast.Stmt{rw.noJump(of)}, stmts...)
}

// labels gives each label of a block followed by code that may start
// with a jump an instruction of its own after it: a goto may jump back
// to it.
func (rw *rewriter) labels(stmts []ast.Stmt) []ast.Stmt {
	for i := 0; i < len(stmts); i++ {
		if _, ok := stmts[i].(*ast.LabelStmt); ok && startsWithJump(stmts[i+1:]) {
			stmts = append(stmts[:i+1], append([]ast.Stmt{rw.noJump(stmts[i])}, stmts[i+1:]...)...)
			i++
		}
	}
	return stmts
}

// noJump returns a statement that compiles to one instruction that is not
// a jump: a hidden local declared without a value.
func (rw *rewriter) noJump(of ast.PositionHolder) ast.Stmt {
	return at(&ast.LocalAssignStmt{Names: []string{rw.temp()}}, of)
}

// startsWithJump reports whether the code of stmts may start with a jump
// (it errs on the side of yes): a break or a goto, or a first statement
// whose expressions hold an and/or or a not of a constant, or a
// condition that is a constant.
func startsWithJump(stmts []ast.Stmt) bool {
	if len(stmts) == 0 {
		return false
	}
	switch s := stmts[0].(type) {
	case *ast.BreakStmt, *ast.GotoStmt:
		return true
	case *ast.LabelStmt:
		return startsWithJump(stmts[1:])
	case *ast.DoBlockStmt:
		return startsWithJump(s.Stmts) || len(s.Stmts) == 0 && startsWithJump(stmts[1:])
	case *ast.IfStmt:
		return isConst(s.Condition) || mayJump(s.Condition)
	case *ast.WhileStmt:
		return isConst(s.Condition) || mayJump(s.Condition)
	case *ast.RepeatStmt:
		return startsWithJump(s.Stmts) || len(s.Stmts) == 0 && mayJump(s.Condition)
	}
	jumps := false
	w := &luaast.Walker{Expr: func(e ast.Expr, _ *luaast.Scope) { jumps = jumps || constantLogic(e) }}
	w.Walk(stmts[:1])
	return jumps
}

// mayJump reports whether the code of e may start with a jump: e holds
// an and/or or a not of a constant.
func mayJump(e ast.Expr) bool {
	jumps := false
	luaast.Expr(e, func(e ast.Expr) { jumps = jumps || constantLogic(e) })
	return jumps
}

// constantLogic reports whether e is an and/or or a not with an operand
// that is a constant.
func constantLogic(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.LogicalOpExpr:
		return isConst(x.Lhs) || isConst(x.Rhs)
	case *ast.UnaryNotOpExpr:
		return isConst(x.Expr)
	}
	return false
}

// closeOnBreak gives the body of a loop whose break leaves a block that
// may hold a local a closure captured an instruction to close it.
// gopher-lua's break closes the captured locals of the loop's body only
// when a local of the body itself is captured, and the blocks inside it
// close theirs only when they end: a break from inside an if or a do
// left a captured local open, and the closure then shared the register
// of a later local (`while true do if c then local y = 10; f = function()
// return y end; break end end; local a, b = 1, 2` made f return 2).
// The body gets a hidden local that a closure, never made, captures:
// gopher-lua then closes everything from the body's first local up at
// every break and at every iteration's end.
func (rw *rewriter) closeOnBreak(body []ast.Stmt, of ast.PositionHolder) []ast.Stmt {
	if !nestedBreak(body, 0) || !hasFunction(body) {
		return body
	}
	held, never := rw.temp(), rw.temp()
	ref := func() ast.Expr { return at(&ast.IdentExpr{Value: held}, of) }
	closure := at(&ast.FunctionExpr{ParList: &ast.ParList{}, Stmts: []ast.Stmt{at(&ast.ReturnStmt{Exprs: []ast.Expr{ref()}}, of)}}, of)
	capture := at(&ast.IfStmt{
		Condition: ref(),
		Then:      []ast.Stmt{at(&ast.LocalAssignStmt{Names: []string{never}, Exprs: []ast.Expr{closure}}, of)},
	}, of)
	return append([]ast.Stmt{at(&ast.LocalAssignStmt{Names: []string{held}}, of), capture}, body...)
}

// nestedBreak reports whether stmts, at depth blocks inside a loop's
// body, hold a break of that loop inside a block (an if's or a do's).
func nestedBreak(stmts []ast.Stmt, depth int) bool {
	for _, s := range stmts {
		switch s := s.(type) {
		case *ast.BreakStmt:
			if depth > 0 {
				return true
			}
		case *ast.DoBlockStmt:
			if nestedBreak(s.Stmts, depth+1) {
				return true
			}
		case *ast.IfStmt:
			if nestedBreak(s.Then, depth+1) || nestedBreak(s.Else, depth+1) {
				return true
			}
		}
	}
	return false
}

// hasFunction reports whether stmts define a function anywhere.
func hasFunction(stmts []ast.Stmt) bool {
	found := false
	w := &luaast.Walker{
		Expr: func(e ast.Expr, _ *luaast.Scope) {
			_, ok := e.(*ast.FunctionExpr)
			found = found || ok
		},
		Stmt: func(s ast.Stmt, _ *luaast.Scope) {
			_, ok := s.(*ast.FuncDefStmt)
			found = found || ok
		},
	}
	w.Walk(stmts)
	return found
}
