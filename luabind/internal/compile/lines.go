package compile

import (
	"github.com/yuin/gopher-lua/ast"

	"github.com/luahost/luahost/internal/luaast"
)

// fixLines gives the operations of a parsed chunk the lines reference Lua
// reports their errors at. gopher-lua's parser gives a binary operation
// the line its left operand starts on, and a field access the line its
// object starts on; in an expression over several lines an error then
// points above the failing operation. fixLines moves a binary operation to
// the line of its operator (a chain of .. to its last one) and t.k to the
// line of k. src is the chunk's
// source: the parse tree keeps no operator positions, so they are found
// among its tokens.
func fixLines(stmts []ast.Stmt, src string) {
	f := &lineFixer{first: map[int]string{}, last: map[int]string{}}
	lx := lexer{src: src, line: 1}
	for {
		t, err := lx.next()
		if err != nil || t.kind == tEOF {
			break
		}
		if _, ok := f.first[t.line]; !ok {
			f.first[t.line] = t.text
		}
		f.last[t.line] = t.text
	}
	luaast.Exprs(stmts, f.fix)
}

// lineFixer knows the first and last token of each line of the source.
type lineFixer struct {
	first, last map[int]string
}

// operatorLine returns the line of the operator op between an operand
// starting at line lhs and one starting at line rhs: rhs when a line
// starts with it, else the last line before rhs that ends with it, else
// lhs.
func (f *lineFixer) operatorLine(op string, lhs, rhs int) int {
	if rhs <= lhs {
		return lhs
	}
	if f.first[rhs] == op {
		return rhs
	}
	for l := rhs - 1; l > lhs; l-- {
		if f.last[l] == op {
			return l
		}
	}
	return lhs
}

// fix moves e to the line of its operation. luaast.Exprs visits an
// expression before its operands, so the lines it reads from them are
// still the ones they start on.
func (f *lineFixer) fix(e ast.Expr) {
	switch e := e.(type) {
	case *ast.AttrGetExpr:
		if l := e.Key.Line(); l > e.Line() {
			e.SetLine(l)
		}
	case *ast.ArithmeticOpExpr:
		e.SetLine(f.operatorLine(e.Operator, e.Lhs.Line(), e.Rhs.Line()))
	case *ast.RelationalOpExpr:
		e.SetLine(f.operatorLine(e.Operator, e.Lhs.Line(), e.Rhs.Line()))
	case *ast.StringConcatOpExpr:
		// a .. b .. c is one concatenation, which reference Lua reports
		// at its last operator.
		last := e
		for r, ok := last.Rhs.(*ast.StringConcatOpExpr); ok; r, ok = last.Rhs.(*ast.StringConcatOpExpr) {
			last = r
		}
		e.SetLine(f.operatorLine("..", last.Lhs.Line(), last.Rhs.Line()))
	}
}
