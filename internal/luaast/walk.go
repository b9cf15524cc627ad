package luaast

import (
	"strings"

	"github.com/yuin/gopher-lua/ast"
)

// A Walker walks statements. Each of its functions may be nil.
type Walker struct {
	// Expr is called for every expression, outermost first, with the
	// scope it is in; a name assigned to is not an expression here
	// (Write reports a global one).
	Expr func(e ast.Expr, sc *Scope)
	// Stmt is called for every statement, function bodies included,
	// before its parts, with the scope it is in.
	Stmt func(s ast.Stmt, sc *Scope)
	// Read is called for every read of a name no scope declares.
	Read func(name string, line int, sc *Scope)
	// Write is called for every assignment to a name no scope declares
	// (x = 1, function x() end).
	Write func(name string, line int, sc *Scope)
	// Shallow leaves function bodies unwalked.
	Shallow bool
}

// Walk walks a chunk's statements from its top level.
func (w *Walker) Walk(stmts []ast.Stmt) { w.block(stmts, nil) }

// Exprs calls fn for every expression of stmts, function bodies
// included, outermost first.
func Exprs(stmts []ast.Stmt, fn func(ast.Expr)) {
	w := &Walker{Expr: func(e ast.Expr, _ *Scope) { fn(e) }}
	w.Walk(stmts)
}

// Expr calls fn for e and every expression inside it, those of the
// functions it defines included, outermost first.
func Expr(e ast.Expr, fn func(ast.Expr)) {
	w := &Walker{Expr: func(e ast.Expr, _ *Scope) { fn(e) }}
	w.expr(e, nil)
}

// Functions calls fn for every function expression in e that no other
// function expression of e encloses, in the order they appear.
func Functions(e ast.Expr, fn func(*ast.FunctionExpr)) {
	w := &Walker{Shallow: true, Expr: func(e ast.Expr, _ *Scope) {
		if f, ok := e.(*ast.FunctionExpr); ok {
			fn(f)
		}
	}}
	w.expr(e, nil)
}

// FileSource returns the source Lua 5.1 compiles from a file's text src:
// without a first line that starts with '#' ("#!/usr/bin/lua"), whose
// newline is kept so that lines keep their numbers. load and loadstring
// compile their text as it is.
func FileSource(src string) string {
	if !strings.HasPrefix(src, "#") {
		return src
	}
	if i := strings.IndexByte(src, '\n'); i >= 0 {
		return src[i:]
	}
	return ""
}

// LocalFunction reports whether s declares a local function whose name
// is in scope in its own body: "local function f() ... end", not "local
// f = function() ... end", where f in the body is what f was before the
// statement. gopher-lua's parser gives both the same node; only the
// first has a last line.
func LocalFunction(s *ast.LocalAssignStmt) bool {
	if len(s.Names) != 1 || len(s.Exprs) != 1 || s.LastLine() == 0 {
		return false
	}
	_, ok := s.Exprs[0].(*ast.FunctionExpr)
	return ok
}

func (w *Walker) block(stmts []ast.Stmt, parent *Scope) {
	sc := parent.Block()
	for _, s := range stmts {
		w.stmt(s, sc)
	}
}

func (w *Walker) stmt(s ast.Stmt, sc *Scope) {
	if w.Stmt != nil {
		w.Stmt(s, sc)
	}
	switch x := s.(type) {
	case *ast.AssignStmt:
		w.exprs(x.Rhs, sc)
		for _, l := range x.Lhs {
			if id, ok := l.(*ast.IdentExpr); ok {
				if !sc.Has(id.Value) && w.Write != nil {
					w.Write(id.Value, x.Line(), sc)
				}
				continue
			}
			w.expr(l, sc)
		}
	case *ast.LocalAssignStmt:
		if LocalFunction(x) {
			// Declared first, so that the body may call itself.
			sc.Declare(x.Names...)
			w.exprs(x.Exprs, sc)
			break
		}
		w.exprs(x.Exprs, sc)
		sc.Declare(x.Names...)
	case *ast.FuncCallStmt:
		w.expr(x.Expr, sc)
	case *ast.DoBlockStmt:
		w.block(x.Stmts, sc)
	case *ast.WhileStmt:
		w.expr(x.Condition, sc)
		w.block(x.Stmts, sc)
	case *ast.RepeatStmt:
		// The condition sees the body's locals.
		inner := sc.Block()
		for _, s := range x.Stmts {
			w.stmt(s, inner)
		}
		w.expr(x.Condition, inner)
	case *ast.IfStmt:
		w.expr(x.Condition, sc)
		w.block(x.Then, sc)
		w.block(x.Else, sc)
	case *ast.NumberForStmt:
		w.expr(x.Init, sc)
		w.expr(x.Limit, sc)
		w.expr(x.Step, sc)
		w.block(x.Stmts, sc.Block(x.Name))
	case *ast.GenericForStmt:
		w.exprs(x.Exprs, sc)
		w.block(x.Stmts, sc.Block(x.Names...))
	case *ast.FuncDefStmt:
		w.funcDef(x, sc)
	case *ast.ReturnStmt:
		w.exprs(x.Exprs, sc)
	}
}

func (w *Walker) funcDef(x *ast.FuncDefStmt, sc *Scope) {
	var self []string
	if x.Name.Method != "" {
		w.expr(x.Name.Receiver, sc)
		self = []string{"self"}
	} else if id, ok := x.Name.Func.(*ast.IdentExpr); ok {
		if !sc.Has(id.Value) && w.Write != nil {
			w.Write(id.Value, x.Line(), sc)
		}
	} else {
		w.expr(x.Name.Func, sc)
	}
	w.function(x.Func, sc, self)
}

// function walks a function's body in a scope of its parameters (self
// first for a method, arg for a vararg function, as Lua 5.1 declares).
func (w *Walker) function(f *ast.FunctionExpr, sc *Scope, self []string) {
	if w.Shallow {
		return
	}
	params := append([]string(nil), self...)
	if f.ParList != nil {
		params = append(params, f.ParList.Names...)
		if f.ParList.HasVargs {
			params = append(params, "arg")
		}
	}
	body := sc.Function(params...)
	for _, s := range f.Stmts {
		w.stmt(s, body)
	}
}

func (w *Walker) exprs(es []ast.Expr, sc *Scope) {
	for _, e := range es {
		w.expr(e, sc)
	}
}

func (w *Walker) expr(e ast.Expr, sc *Scope) {
	if e == nil {
		return
	}
	if w.Expr != nil {
		w.Expr(e, sc)
	}
	switch x := e.(type) {
	case *ast.IdentExpr:
		if !sc.Has(x.Value) && w.Read != nil {
			w.Read(x.Value, x.Line(), sc)
		}
	case *ast.AttrGetExpr:
		w.expr(x.Object, sc)
		w.expr(x.Key, sc)
	case *ast.TableExpr:
		for _, f := range x.Fields {
			w.expr(f.Key, sc)
			w.expr(f.Value, sc)
		}
	case *ast.FuncCallExpr:
		w.expr(x.Func, sc)
		w.expr(x.Receiver, sc)
		w.exprs(x.Args, sc)
	case *ast.LogicalOpExpr:
		w.expr(x.Lhs, sc)
		w.expr(x.Rhs, sc)
	case *ast.RelationalOpExpr:
		w.expr(x.Lhs, sc)
		w.expr(x.Rhs, sc)
	case *ast.StringConcatOpExpr:
		w.expr(x.Lhs, sc)
		w.expr(x.Rhs, sc)
	case *ast.ArithmeticOpExpr:
		w.expr(x.Lhs, sc)
		w.expr(x.Rhs, sc)
	case *ast.UnaryMinusOpExpr:
		w.expr(x.Expr, sc)
	case *ast.UnaryNotOpExpr:
		w.expr(x.Expr, sc)
	case *ast.UnaryLenOpExpr:
		w.expr(x.Expr, sc)
	case *ast.FunctionExpr:
		w.function(x, sc, nil)
	}
}
