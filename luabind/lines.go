package luabind

import (
	"github.com/yuin/gopher-lua/ast"
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
	f.block(stmts)
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

func (f *lineFixer) block(stmts []ast.Stmt) {
	for _, s := range stmts {
		f.stmt(s)
	}
}

func (f *lineFixer) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.AssignStmt:
		f.exprs(s.Lhs)
		f.exprs(s.Rhs)
	case *ast.LocalAssignStmt:
		f.exprs(s.Exprs)
	case *ast.FuncCallStmt:
		f.expr(s.Expr)
	case *ast.DoBlockStmt:
		f.block(s.Stmts)
	case *ast.WhileStmt:
		f.expr(s.Condition)
		f.block(s.Stmts)
	case *ast.RepeatStmt:
		f.block(s.Stmts)
		f.expr(s.Condition)
	case *ast.IfStmt:
		f.expr(s.Condition)
		f.block(s.Then)
		f.block(s.Else)
	case *ast.NumberForStmt:
		f.expr(s.Init)
		f.expr(s.Limit)
		f.expr(s.Step)
		f.block(s.Stmts)
	case *ast.GenericForStmt:
		f.exprs(s.Exprs)
		f.block(s.Stmts)
	case *ast.FuncDefStmt:
		f.expr(s.Name.Func)
		f.expr(s.Name.Receiver)
		f.expr(s.Func)
	case *ast.ReturnStmt:
		f.exprs(s.Exprs)
	}
}

func (f *lineFixer) exprs(es []ast.Expr) {
	for _, e := range es {
		f.expr(e)
	}
}

// expr fixes e, then its operands: an operator's line is found from the
// lines its operands start on, before they are fixed themselves.
func (f *lineFixer) expr(e ast.Expr) {
	switch e := e.(type) {
	case *ast.AttrGetExpr:
		if l := e.Key.Line(); l > e.Line() {
			e.SetLine(l)
		}
		f.expr(e.Object)
		f.expr(e.Key)
	case *ast.ArithmeticOpExpr:
		e.SetLine(f.operatorLine(e.Operator, e.Lhs.Line(), e.Rhs.Line()))
		f.expr(e.Lhs)
		f.expr(e.Rhs)
	case *ast.RelationalOpExpr:
		e.SetLine(f.operatorLine(e.Operator, e.Lhs.Line(), e.Rhs.Line()))
		f.expr(e.Lhs)
		f.expr(e.Rhs)
	case *ast.StringConcatOpExpr:
		// a .. b .. c is one concatenation, which reference Lua reports
		// at its last operator.
		last := e
		for r, ok := last.Rhs.(*ast.StringConcatOpExpr); ok; r, ok = last.Rhs.(*ast.StringConcatOpExpr) {
			last = r
		}
		e.SetLine(f.operatorLine("..", last.Lhs.Line(), last.Rhs.Line()))
		f.expr(e.Lhs)
		f.expr(e.Rhs)
	case *ast.LogicalOpExpr:
		f.expr(e.Lhs)
		f.expr(e.Rhs)
	case *ast.UnaryMinusOpExpr:
		f.expr(e.Expr)
	case *ast.UnaryNotOpExpr:
		f.expr(e.Expr)
	case *ast.UnaryLenOpExpr:
		f.expr(e.Expr)
	case *ast.FuncCallExpr:
		f.expr(e.Func)
		f.expr(e.Receiver)
		f.exprs(e.Args)
	case *ast.TableExpr:
		for _, fl := range e.Fields {
			f.expr(fl.Key)
			f.expr(fl.Value)
		}
	case *ast.FunctionExpr:
		f.block(e.Stmts)
	}
}
