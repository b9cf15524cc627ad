package compile

import (
	"fmt"
	"github.com/luahost/luahost/internal/luaast"

	"github.com/yuin/gopher-lua/ast"
)

// Limits of one function, checked on the syntax tree before gopher-lua's
// compiler sees it.
//
// MaxLocals and MaxUpvalues are reference Lua 5.1's: gopher-lua's
// compiler has larger or no limits and then fails at run time with a Go
// message (an index out of range) or at line 0; the check refuses such a
// function as Lua 5.1 does, with Lua 5.1's message, at the line where the
// limit is passed.
//
// MaxConstantWork bounds the compiler's time. gopher-lua finds each
// constant of a function (a number, a string, a global's or a field's
// name) by a linear search of the constants the function already has, so
// compiling a function costs about its constant uses times its distinct
// constants: 80,000 distinct numbers in one chunk took more than half a
// minute. The check counts that search as the compiler will run it — a
// use of a constant already seen costs its place among the function's
// distinct constants, a new one costs them all — summed over the chunk,
// and refuses a chunk whose count passes MaxConstantWork. That allows,
// for example, one function of 5,000 distinct constants each used once, or
// 2,000 used eight times each; a larger table of data is split over
// several functions (or kept in a data file). A chunk within the limit
// compiles in well under the default callback budget.
const (
	MaxLocals       = 200
	MaxUpvalues     = 60
	MaxConstantWork = 1 << 24
	// MaxPositional is the most positional items a table constructor may
	// have: 511 blocks of 50, all gopher-lua's compiler can store.
	MaxPositional = 511 * 50
	// MaxRegisters is the most registers a function may use, gopher-lua's
	// limit (Lua 5.1's is 250): its locals and an expression's values.
	MaxRegisters = 200
)

// checkLimits returns the first limit stmts, a whole chunk, passes, or
// nil. With constants it checks MaxConstantWork (of the tree as it will
// be compiled), without it MaxLocals and MaxUpvalues (of the tree as
// written: the rewrite's temporaries are not the script's locals). O(the
// tree).
func checkLimits(stmts []ast.Stmt, constants bool) (err *SyntaxError) {
	lw := &limitWalk{constants: constants, bound: make(map[string][]*limitVar)}
	defer func() {
		if r := recover(); r != nil {
			se, ok := r.(*SyntaxError)
			if !ok {
				panic(r)
			}
			err = se
		}
	}()
	lw.fn = &limitFunc{}
	lw.block(stmts, 0)
	return nil
}

// limitFunc is one function of the chunk being checked.
type limitFunc struct {
	parent *limitFunc
	// line is where the function is defined, 0 for the chunk.
	line int
	// active is the number of locals in scope at this point.
	active int
	// consts gives each distinct constant its place in the function's
	// list, as gopher-lua's compiler numbers them.
	consts map[limitConst]int
	upvals map[*limitVar]bool
}

// limitConst is a constant of a function: a string or a number's text.
type limitConst struct {
	number bool
	text   string
}

// limitVar is one local variable, of the function that declares it.
type limitVar struct{ fn *limitFunc }

type limitWalk struct {
	constants bool
	fn        *limitFunc
	// bound maps a name to its declarations in scope, innermost last, so
	// that resolving a name is O(1).
	bound map[string][]*limitVar
	// work is the constant searches counted so far.
	work int
}

// fail stops the walk with a SyntaxError at line, naming the function as
// Lua 5.1's limit errors do.
func (lw *limitWalk) fail(line, most int, what string) {
	where := "main function"
	if lw.fn.line > 0 {
		where = fmt.Sprintf("function at line %d", lw.fn.line)
	}
	panic(&SyntaxError{Line: line, Msg: fmt.Sprintf("%s has more than %d %s", where, most, what)})
}

// block walks stmts in a block of their own, whose first locals are
// declared at line: its locals go out of scope at its end.
func (lw *limitWalk) block(stmts []ast.Stmt, line int, declared ...string) {
	names := append([]string(nil), lw.declare(line, declared...)...)
	for _, s := range stmts {
		names = append(names, lw.stmt(s)...)
	}
	lw.release(names)
}

// declare makes names locals of the current function from here on and
// returns them, for release at the end of their block.
func (lw *limitWalk) declare(line int, names ...string) []string {
	fn := lw.fn
	if !lw.constants && fn.active+len(names) > MaxLocals {
		lw.fail(line, MaxLocals, "local variables")
	}
	fn.active += len(names)
	for _, n := range names {
		lw.bound[n] = append(lw.bound[n], &limitVar{fn: fn})
	}
	return names
}

func (lw *limitWalk) release(names []string) {
	for _, n := range names {
		vs := lw.bound[n]
		if len(vs) == 1 {
			delete(lw.bound, n)
		} else {
			lw.bound[n] = vs[:len(vs)-1]
		}
	}
	lw.fn.active -= len(names)
}

// constant counts one use of a constant by the current function.
func (lw *limitWalk) constant(line int, c limitConst) {
	if !lw.constants {
		return
	}
	fn := lw.fn
	if fn.consts == nil {
		fn.consts = make(map[limitConst]int)
	}
	i, ok := fn.consts[c]
	if !ok {
		i = len(fn.consts)
		fn.consts[c] = i
	}
	if lw.work += i + 1; lw.work > MaxConstantWork {
		panic(&SyntaxError{Line: line, Msg: fmt.Sprintf(
			"too many constants to compile (their searches pass %d; a function here has %d distinct numbers and strings): split the function or its tables",
			MaxConstantWork, len(fn.consts))})
	}
}

// name resolves a name used at line: a local, an upvalue of every
// function between its declaration and here, or a global (a constant).
func (lw *limitWalk) name(line int, n string) {
	vs := lw.bound[n]
	if len(vs) == 0 {
		lw.constant(line, limitConst{text: n})
		return
	}
	v := vs[len(vs)-1]
	if lw.constants {
		return
	}
	// Outermost first, as Lua 5.1 resolves it: the first function to
	// pass the limit is the one named.
	if lw.fn.upvals[v] {
		return // and so every function out to v's
	}
	var chain []*limitFunc
	for f := lw.fn; f != v.fn; f = f.parent {
		chain = append(chain, f)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		f := chain[i]
		if f.upvals[v] {
			continue
		}
		if f.upvals == nil {
			f.upvals = make(map[*limitVar]bool)
		}
		f.upvals[v] = true
		if len(f.upvals) > MaxUpvalues {
			lw.fn = f
			lw.fail(line, MaxUpvalues, "upvalues")
		}
	}
}

// stmt walks s and returns the locals it declares in its block.
func (lw *limitWalk) stmt(s ast.Stmt) []string {
	switch x := s.(type) {
	case *ast.AssignStmt:
		lw.exprs(x.Rhs)
		lw.exprs(x.Lhs)
	case *ast.LocalAssignStmt:
		// A local function is in scope in its own body.
		if luaast.LocalFunction(x) {
			early := lw.declare(x.Line(), x.Names...)
			lw.exprs(x.Exprs)
			return early
		}
		lw.exprs(x.Exprs)
		return lw.declare(x.Line(), x.Names...)
	case *ast.FuncCallStmt:
		lw.expr(x.Expr)
	case *ast.DoBlockStmt:
		lw.block(x.Stmts, 0)
	case *ast.WhileStmt:
		lw.expr(x.Condition)
		lw.block(x.Stmts, 0)
	case *ast.RepeatStmt:
		// The condition sees the body's locals.
		var names []string
		for _, s := range x.Stmts {
			names = append(names, lw.stmt(s)...)
		}
		lw.expr(x.Condition)
		lw.release(names)
	case *ast.IfStmt:
		lw.expr(x.Condition)
		lw.block(x.Then, 0)
		lw.block(x.Else, 0)
	case *ast.NumberForStmt:
		lw.expr(x.Init)
		lw.expr(x.Limit)
		lw.expr(x.Step)
		// Lua 5.1 keeps three hidden locals for the loop's state.
		hidden := lw.declare(x.Line(), "(for index)", "(for limit)", "(for step)")
		lw.block(x.Stmts, x.Line(), x.Name)
		lw.release(hidden)
	case *ast.GenericForStmt:
		lw.exprs(x.Exprs)
		hidden := lw.declare(x.Line(), "(for generator)", "(for state)", "(for control)")
		lw.block(x.Stmts, x.Line(), x.Names...)
		lw.release(hidden)
	case *ast.FuncDefStmt:
		if x.Name.Method != "" {
			lw.expr(x.Name.Receiver)
			lw.constant(x.Line(), limitConst{text: x.Name.Method})
			lw.function(x.Func, "self")
		} else {
			lw.expr(x.Name.Func)
			lw.function(x.Func)
		}
	case *ast.ReturnStmt:
		lw.exprs(x.Exprs)
	}
	return nil
}

// function walks a function's body as a function of its own.
func (lw *limitWalk) function(f *ast.FunctionExpr, self ...string) {
	params := self
	if f.ParList != nil {
		params = append(params, f.ParList.Names...)
		if f.ParList.HasVargs {
			params = append(params, "arg")
		}
	}
	outer := lw.fn
	lw.fn = &limitFunc{parent: outer, line: f.Line()}
	lw.block(f.Stmts, f.Line(), params...)
	lw.fn = outer
}

func (lw *limitWalk) exprs(es []ast.Expr) {
	for _, e := range es {
		lw.expr(e)
	}
}

func (lw *limitWalk) expr(e ast.Expr) {
	switch x := e.(type) {
	case *ast.NumberExpr:
		lw.constant(x.Line(), limitConst{number: true, text: x.Value})
	case *ast.StringExpr:
		lw.constant(x.Line(), limitConst{text: x.Value})
	case *ast.IdentExpr:
		lw.name(x.Line(), x.Value)
	case *ast.AttrGetExpr:
		lw.expr(x.Object)
		lw.expr(x.Key)
	case *ast.TableExpr:
		positional := 0
		for _, f := range x.Fields {
			if f.Key == nil {
				positional++
			}
			lw.expr(f.Key)
			lw.expr(f.Value)
		}
		if se := flushRefusal(x); !lw.constants && se != nil {
			panic(se)
		}
		if !lw.constants && positional > MaxPositional {
			// gopher-lua's instruction that stores them counts blocks of
			// 50 in 9 bits, and silently dropped the items past that.
			panic(&SyntaxError{Line: x.Line(), Msg: fmt.Sprintf("table constructor has more than %d positional items: split it, or fill the table in a loop", MaxPositional)})
		}
	case *ast.FuncCallExpr:
		lw.expr(x.Func)
		lw.expr(x.Receiver)
		if x.Method != "" {
			lw.constant(x.Line(), limitConst{text: x.Method})
		}
		lw.exprs(x.Args)
		// The function, self and the arguments sit in registers above
		// the locals: past gopher-lua's limit, its compiler would refuse
		// the chunk at line 0, in its own words.
		if used := lw.fn.active + 1 + len(x.Args); !lw.constants && x.Method != "" && used+1 > MaxRegisters || !lw.constants && used > MaxRegisters {
			panic(&SyntaxError{Line: x.Line(), Msg: fmt.Sprintf("function or expression too complex (a call of %d arguments beside %d locals needs more than %d registers)", len(x.Args), lw.fn.active, MaxRegisters)})
		}
	case *ast.LogicalOpExpr:
		lw.expr(x.Lhs)
		lw.expr(x.Rhs)
	case *ast.RelationalOpExpr:
		lw.expr(x.Lhs)
		lw.expr(x.Rhs)
	case *ast.StringConcatOpExpr:
		lw.expr(x.Lhs)
		lw.expr(x.Rhs)
	case *ast.ArithmeticOpExpr:
		lw.expr(x.Lhs)
		lw.expr(x.Rhs)
	case *ast.UnaryMinusOpExpr:
		lw.expr(x.Expr)
	case *ast.UnaryNotOpExpr:
		lw.expr(x.Expr)
	case *ast.UnaryLenOpExpr:
		lw.expr(x.Expr)
	case *ast.FunctionExpr:
		lw.function(x)
	}
}
