package compile

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"

	"github.com/luahost/luahost/internal/luaast"
)

// The compile step. Every chunk the host runs — scripts,
// modules, load and loadstring — is parsed, rewritten where gopher-lua's
// compiler diverges from reference Lua 5.1, and only then compiled:
//
//   - a multiple assignment evaluates every right-hand side before it
//     assigns anything (gopher-lua writes a local target while later
//     right-hand sides are still to be evaluated, so a, b = b, a gives
//     2 2), and assigns right to left as Lua 5.1 does;
//   - a chain of .. operands becomes one call of a bounded concatenation
//     (concatSite), which formats numbers as Lua 5.1 does, refuses a
//     result past the host's MaxStringSize and names a bad operand;
//   - # becomes a call of lenSite, which finds the end of arrays longer
//     than gopher-lua's array part (arrays.go);
//   - a numeric for's bounds that may be strings go through forNumber,
//     which converts numeric strings as Lua 5.1 does (gopher-lua
//     refuses them);
//   - an and/or assigned to an existing local goes through a fresh local
//     first (gopher-lua left the local unchanged when an operand that is
//     a field or a call was falsy: x = y.a and 1 kept x's old value);
//   - % becomes a call of an arithSite, Lua 5.1's a - floor(a/b)*b, ^ one
//     of C's pow (but x^2, which Go's computes as C's does), a unary
//     minus that is not folded a call of unmSite, which passes __unm its
//     operand twice, and number literals are respelled so that gopher-lua
//     reads them as Lua 5.1 does (arith.go);
//   - a table constructor of positional items that end in a call or ...
//     becomes a call of pack, which sizes the table's array part to its
//     values as Lua 5.1 does, so that # answers as Lua 5.1's does
//     (length.go);
//   - a generic for's expression list is evaluated into locals first
//     (gopher-lua loses a table constructor there: for k, v in next, {..}
//     ran no iteration).
//
// Rewritten nodes carry the line of the source they replace, so errors
// and tracebacks point at the script's own lines.
//
// Go functions reach the compiled code as constants of the function
// prototypes: the rewrite calls a string constant that only it can spell
// (helperMarker, with a per-process random part), and after compiling,
// bindHelpers replaces every such constant with the Go function of its
// call site. Scripts cannot name, replace or reach these functions, and
// calling one costs a constant load, not a global lookup.

// helperMarker starts every placeholder constant of a compiled chunk.
var helperMarker = "\x00luahost:" + newNonce() + ":"

func newNonce() string {
	var b [12]byte
	if _, err := io.ReadFull(rand.Reader, b[:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b[:])
}

// Compile checks src's syntax (an error is a *SyntaxError), parses
// it as the chunk name, gives its operations the lines reference Lua
// reports (fixLines), rewrites it and compiles it. maxString is the
// largest string its concatenations may build.
func Compile(src, name string, maxString int) (*lua.FunctionProto, error) {
	// The syntax check first: it bounds the nesting that gopher-lua's
	// parser and compiler would follow without end (syntax.go), and it
	// refuses what reference Lua refuses.
	if se := CheckSyntax(src); se != nil {
		return nil, se
	}
	stmts, err := parse.Parse(strings.NewReader(respellHexExponents(src)), name)
	if err != nil {
		return nil, err
	}
	fixLines(stmts, src)
	if se := checkLimits(stmts, false); se != nil {
		return nil, se
	}
	rw := &rewriter{maxString: maxString}
	stmts = rw.chunk(stmts)
	if se := checkLimits(stmts, true); se != nil {
		return nil, se
	}
	proto, err := lua.Compile(stmts, name)
	if err != nil {
		return nil, err
	}
	fixScopes(stmts, name, proto)
	rw.bindHelpers(proto)
	return proto, nil
}

// rewriter rewrites one chunk. It tracks the scopes of the code it walks,
// to tell a local from an upvalue or a global.
type rewriter struct {
	maxString int
	sc        *luaast.Scope
	helpers   []lua.LValue
	temps     int
}

func (rw *rewriter) chunk(stmts []ast.Stmt) []ast.Stmt {
	rw.sc = nil
	return rw.block(stmts)
}

// kind tells what the name refers to at this point: "local", "upvalue"
// or "global".
func (rw *rewriter) kind(name string) string { return rw.sc.Kind(name) }

// block rewrites a block in a scope of its own.
func (rw *rewriter) block(stmts []ast.Stmt) (out []ast.Stmt) {
	rw.in(rw.sc.Block(), func() { out = rw.stmts(stmts) })
	return out
}

// in runs fn with sc as the current scope.
func (rw *rewriter) in(sc *luaast.Scope, fn func()) {
	outer := rw.sc
	rw.sc = sc
	fn()
	rw.sc = outer
}

func (rw *rewriter) stmts(stmts []ast.Stmt) []ast.Stmt {
	for i, s := range stmts {
		stmts[i] = rw.stmt(s)
	}
	return rw.labels(stmts)
}

func (rw *rewriter) stmt(s ast.Stmt) ast.Stmt {
	switch s := s.(type) {
	case *ast.AssignStmt:
		rw.exprs(s.Lhs)
		rw.exprs(s.Rhs)
		if len(s.Lhs) > 1 {
			return rw.multipleAssign(s)
		}
		if g := rw.guardEntity(s); g != ast.Stmt(s) {
			return g
		}
		return rw.viaLocal(s)
	case *ast.LocalAssignStmt:
		if luaast.LocalFunction(s) {
			// local function f: f is in scope in its own body.
			rw.sc.Declare(s.Names...)
			rw.exprs(s.Exprs)
			return s
		}
		rw.localFunctionValue(s)
		rw.exprs(s.Exprs)
		rw.sc.Declare(s.Names...)
	case *ast.FuncCallStmt:
		s.Expr = rw.expr(s.Expr)
	case *ast.DoBlockStmt:
		s.Stmts = rw.block(s.Stmts)
	case *ast.WhileStmt:
		s.Condition = rw.expr(s.Condition)
		s.Stmts = rw.block(s.Stmts)
		w := rw.whileLoop(s)
		w.Stmts = rw.closeOnBreak(w.Stmts, s)
		return w
	case *ast.RepeatStmt:
		// The condition sees the body's locals.
		rw.in(rw.sc.Block(), func() {
			s.Stmts = rw.stmts(s.Stmts)
			s.Condition = rw.expr(s.Condition)
		})
		rw.repeatLoop(s)
		s.Stmts = rw.closeOnBreak(s.Stmts, s)
	case *ast.IfStmt:
		s.Condition = rw.expr(s.Condition)
		s.Then = rw.block(s.Then)
		s.Else = rw.block(s.Else)
	case *ast.NumberForStmt:
		s.Init = rw.forBound(rw.expr(s.Init))
		s.Limit = rw.forBound(rw.expr(s.Limit))
		if s.Step != nil {
			s.Step = rw.forBound(rw.expr(s.Step))
		}
		rw.in(rw.sc.Block(s.Name), func() { s.Stmts = rw.block(s.Stmts) })
		s.Stmts = rw.closeOnBreak(s.Stmts, s)
	case *ast.GenericForStmt:
		rw.exprs(s.Exprs)
		rw.in(rw.sc.Block(s.Names...), func() { s.Stmts = rw.block(s.Stmts) })
		s.Stmts = rw.closeOnBreak(rw.landing(s.Stmts, s), s)
		return rw.genericFor(s)
	case *ast.FuncDefStmt:
		if s.Name.Func != nil {
			s.Name.Func = rw.expr(s.Name.Func)
			rw.function(s.Func, nil)
		} else {
			s.Name.Receiver = rw.expr(s.Name.Receiver)
			rw.function(s.Func, []string{"self"})
		}
	case *ast.ReturnStmt:
		rw.exprs(s.Exprs)
	}
	return s
}

func (rw *rewriter) exprs(es []ast.Expr) {
	for i, e := range es {
		es[i] = rw.expr(e)
	}
}

func (rw *rewriter) function(f *ast.FunctionExpr, implicit []string) {
	rw.in(rw.sc.Function(append(implicit, f.ParList.Names...)...), func() { f.Stmts = rw.block(f.Stmts) })
}

func (rw *rewriter) expr(e ast.Expr) ast.Expr {
	switch e := e.(type) {
	case *ast.StringConcatOpExpr:
		return rw.concat(e)
	case *ast.AttrGetExpr:
		e.Object = rw.expr(e.Object)
		e.Key = rw.expr(e.Key)
	case *ast.TableExpr:
		for _, f := range e.Fields {
			if f.Key != nil {
				f.Key = rw.expr(f.Key)
			}
			f.Value = rw.expr(f.Value)
		}
		return rw.constructor(e)
	case *ast.FuncCallExpr:
		if e.Func != nil {
			e.Func = rw.expr(e.Func)
		}
		if e.Receiver != nil {
			e.Receiver = rw.expr(e.Receiver)
		}
		rw.exprs(e.Args)
	case *ast.LogicalOpExpr:
		e.Lhs, e.Rhs = rw.expr(e.Lhs), rw.expr(e.Rhs)
	case *ast.RelationalOpExpr:
		e.Lhs, e.Rhs = rw.expr(e.Lhs), rw.expr(e.Rhs)
	case *ast.ArithmeticOpExpr:
		switch e.Operator {
		case "%":
			return rw.modulo(e)
		case "^":
			return rw.power(e)
		}
		e.Lhs, e.Rhs = rw.expr(e.Lhs), rw.expr(e.Rhs)
		rw.foldAsLua51(e)
	case *ast.NumberExpr:
		number(e)
	case *ast.UnaryMinusOpExpr:
		return rw.negate(e)
	case *ast.UnaryNotOpExpr:
		e.Expr = rw.expr(e.Expr)
	case *ast.UnaryLenOpExpr:
		return rw.length(e)
	case *ast.FunctionExpr:
		rw.function(e, nil)
	}
	return e
}

// oneValue makes e, a call or ..., stand for its first value only, as an
// operand or a keyed field's value does, and returns it.
func oneValue(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.FuncCallExpr:
		x.AdjustRet = true
	case *ast.Comma3Expr:
		x.AdjustRet = true
	}
	return e
}

// multiValued reports whether e gives all its values in a last position.
func multiValued(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.FuncCallExpr:
		return !x.AdjustRet
	case *ast.Comma3Expr:
		return !x.AdjustRet
	}
	return false
}

// at gives n the lines of the node it stands for.
func at[N ast.PositionHolder](n N, of ast.PositionHolder) N {
	n.SetLine(of.Line())
	n.SetLastLine(of.LastLine())
	return n
}

// helperCall returns a call of the Go function fn, placed at the line of
// of: a call of a placeholder constant that bindHelpers resolves.
func (rw *rewriter) helperCall(fn lua.LGFunction, args []ast.Expr, of ast.PositionHolder) *ast.FuncCallExpr {
	marker := rw.placeholder(&lua.LFunction{IsG: true, GFunction: fn}, of)
	// AdjustRet: the call stands for one value, as the expression it
	// replaces did.
	return at(&ast.FuncCallExpr{Func: marker, Args: args, AdjustRet: true}, of)
}

// placeholder returns a string constant, placed at the line of of, that
// bindHelpers replaces with v.
func (rw *rewriter) placeholder(v lua.LValue, of ast.PositionHolder) *ast.StringExpr {
	marker := at(&ast.StringExpr{Value: helperMarker + strconv.Itoa(len(rw.helpers))}, of)
	rw.helpers = append(rw.helpers, v)
	return marker
}

// bindHelpers replaces the placeholder constants of proto and of every
// function inside it with their values: Go functions, and the numerals
// kept from folding (arith.go).
func (rw *rewriter) bindHelpers(proto *lua.FunctionProto) {
	for i, c := range proto.Constants {
		s, ok := c.(lua.LString)
		if !ok || !strings.HasPrefix(string(s), helperMarker) {
			continue
		}
		n, err := strconv.Atoi(string(s[len(helperMarker):]))
		if err != nil || n >= len(rw.helpers) {
			panic(fmt.Sprintf("luabind: bad helper constant %q", s))
		}
		proto.Constants[i] = rw.helpers[n]
	}
	for _, p := range proto.FunctionPrototypes {
		rw.bindHelpers(p)
	}
}

// localFunctionValue makes "local f = function() ... f ... end" compile
// as Lua 5.1 does, f in the body being what f was before the statement:
// gopher-lua's compiler declares the name of every statement of one name
// and one function first, as for "local function f", which made the body
// call itself where it meant a global or an outer local. A second name,
// which no script can spell, takes the statement down the path of every
// other local statement. Only a function whose body names f needs it.
func (rw *rewriter) localFunctionValue(s *ast.LocalAssignStmt) {
	if len(s.Names) != 1 || len(s.Exprs) != 1 {
		return
	}
	fn, ok := s.Exprs[0].(*ast.FunctionExpr)
	if !ok {
		return
	}
	name, named := s.Names[0], false
	is := func(e ast.Expr) bool {
		id, ok := e.(*ast.IdentExpr)
		return ok && id.Value == name
	}
	w := &luaast.Walker{
		Expr: func(e ast.Expr, _ *luaast.Scope) { named = named || is(e) },
		Stmt: func(st ast.Stmt, _ *luaast.Scope) {
			switch st := st.(type) {
			case *ast.AssignStmt:
				named = named || slices.ContainsFunc(st.Lhs, is)
			case *ast.FuncDefStmt:
				named = named || is(st.Name.Func)
			}
		},
	}
	w.Walk(fn.Stmts)
	if named {
		s.Names = append(s.Names, rw.temp())
	}
}

// temp returns a fresh local name that no script can spell.
func (rw *rewriter) temp() string {
	rw.temps++
	return "(" + strconv.Itoa(rw.temps) + ")"
}
