package compile

import (
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"

	"github.com/luahost/luahost/internal/luaast"
)

// A local's scope, as error messages and debug.getlocal see it, runs from
// its declaration to the end of its block. gopher-lua records where each
// local's scope ends in the function's list of locals, but by the local's
// register instead of its place in the list: once a block has closed and
// later locals reuse its registers, the ends land on other locals' entries
// and the later ones never end, or end at once. An error message then
// named a dead local for a temporary in its register:
//
//	do local u1, u2, u3 = 1, 2, 3 end
//	local t = {}
//	local z = t.x.y --> attempt to index a nil value (local 'u2')
//
// Where a block ends in the code is not kept in the compiled function.
// fixScopes finds it by compiling the chunk a second time with a marker at
// each block's end: `do local (end N) end`, one instruction (LOADNIL)
// whose local starts right after it; the marker's position, less the
// markers before it, is the place in the real code where the marker
// stood. A marker `(fn K)` opens every function body, to tell which
// function of the chunk a compiled one is. Then every local's entry gets
// the end of the block that declares it, where gopher-lua's compiler
// meant to put it: the last instruction it had emitted when it left the
// block.

// scopes is what fixScopes learns from a chunk's tree.
type scopes struct {
	fns    []*fnScopes
	blocks []blockScope
	// needed is set when a local's register is not its place in its
	// function's list: only then are gopher-lua's ends wrong.
	needed bool
}

// fnScopes holds a function's locals in the order gopher-lua declares
// them.
type fnScopes struct {
	names []string
	// blocks holds the block that declares each local, an index in
	// scopes.blocks.
	blocks []int
	// active counts the locals in scope at this point of the walk.
	active int
}

// blockScope tells how to find where a block ends from its marker.
type blockScope struct {
	// function is set for a function's own block, which ends with the
	// function's last instruction.
	function bool
	// repeat is set for a repeat loop's body, whose scope takes in the
	// loop's condition.
	repeat bool
	// back is how many instructions stand between the block's last one
	// and the marker after it.
	back int
	// at is the marker's place in the real code, and until the place
	// where a repeat loop's condition starts; -1 until found.
	at, until int
}

const (
	markFunction = "(fn "
	markEnd      = "(end "
	markUntil    = "(until "
)

// fixScopes gives every local of proto, compiled by gopher-lua from
// stmts under the chunk name name, the end of its block as its scope's
// end. It changes stmts. Should the second compile fail or disagree
// with the first, proto keeps gopher-lua's ends.
func fixScopes(stmts []ast.Stmt, name string, proto *lua.FunctionProto) {
	s := &scopes{}
	marked := s.function(nil, stmts)
	if !s.needed {
		return
	}
	markedProto, err := lua.Compile(marked, name)
	if err != nil {
		return
	}
	s.fix(proto, markedProto)
}

// function walks a function's body with its parameters declared and
// returns the body with its markers.
func (s *scopes) function(params []string, stmts []ast.Stmt) []ast.Stmt {
	f := &fnScopes{}
	k := len(s.fns)
	s.fns = append(s.fns, f)
	root := s.newBlock(blockScope{function: true})
	for _, p := range params {
		s.declare(f, root, p)
	}
	body := s.stmts(f, root, stmts)
	return append([]ast.Stmt{marker(markFunction, k)}, body...)
}

// functionExpr walks the bodies of the functions e defines.
func (s *scopes) functionExpr(e ast.Expr) {
	luaast.Functions(e, func(fn *ast.FunctionExpr) { fn.Stmts = s.function(params(fn, false), fn.Stmts) })
}

func (s *scopes) functionExprs(es []ast.Expr) {
	for _, e := range es {
		s.functionExpr(e)
	}
}

// params returns the locals gopher-lua declares for fn's parameters:
// self first for a method, arg last for a vararg function.
func params(fn *ast.FunctionExpr, method bool) []string {
	var names []string
	if method {
		names = append(names, "self")
	}
	names = append(names, fn.ParList.Names...)
	if fn.ParList.HasVargs && lua.CompatVarArg {
		names = append(names, "arg")
	}
	return names
}

func (s *scopes) newBlock(b blockScope) int {
	b.at, b.until = -1, -1
	s.blocks = append(s.blocks, b)
	return len(s.blocks) - 1
}

func (s *scopes) declare(f *fnScopes, block int, name string) {
	if f.active != len(f.names) {
		s.needed = true
	}
	f.names = append(f.names, name)
	f.blocks = append(f.blocks, block)
	f.active++
}

// block walks a block's statements, replacing them with the marked ones,
// with decl declared first. It returns the block's index, or -1 when the
// block declares no local of its own (then its end does not matter).
func (s *scopes) block(f *fnScopes, stmts *[]ast.Stmt, decl ...string) int {
	if len(*stmts) == 0 && len(decl) == 0 {
		// gopher-lua opens no block for it.
		return -1
	}
	id := s.newBlock(blockScope{})
	outer, before := f.active, len(f.names)
	for _, d := range decl {
		s.declare(f, id, d)
	}
	*stmts = s.stmts(f, id, *stmts)
	f.active = outer
	for _, b := range f.blocks[before:] {
		if b == id {
			return id
		}
	}
	return -1
}

// stmts walks the statements of block, declaring their locals, and
// returns them with the markers of the blocks they hold.
func (s *scopes) stmts(f *fnScopes, block int, stmts []ast.Stmt) []ast.Stmt {
	out := make([]ast.Stmt, 0, len(stmts)+1)
	// after marks the end of the block id (when it declares locals) with
	// back instructions between the block's last and the marker.
	after := func(id, back int) {
		if id >= 0 {
			s.blocks[id].back = back
			out = append(out, marker(markEnd, id))
		}
	}
	for _, st := range stmts {
		out = append(out, st)
		switch x := st.(type) {
		case *ast.LocalAssignStmt:
			s.functionExprs(x.Exprs)
			for _, name := range x.Names {
				s.declare(f, block, name)
			}
		case *ast.AssignStmt:
			s.functionExprs(x.Lhs)
			s.functionExprs(x.Rhs)
		case *ast.FuncCallStmt:
			s.functionExpr(x.Expr)
		case *ast.ReturnStmt:
			s.functionExprs(x.Exprs)
		case *ast.FuncDefStmt:
			if x.Name.Func == nil {
				s.functionExpr(x.Name.Receiver)
				x.Func.Stmts = s.function(params(x.Func, true), x.Func.Stmts)
			} else {
				s.functionExpr(x.Name.Func)
				s.functionExpr(x.Func)
			}
		case *ast.DoBlockStmt:
			after(s.block(f, &x.Stmts), 0)
		case *ast.WhileStmt:
			s.functionExpr(x.Condition)
			// The loop's jump back is the block's last instruction.
			after(s.block(f, &x.Stmts), 0)
		case *ast.RepeatStmt:
			id := s.block(f, &x.Stmts)
			s.functionExpr(x.Condition)
			if id >= 0 {
				s.blocks[id].repeat = true
				x.Stmts = append(x.Stmts, marker(markUntil, id))
				after(id, 0)
			}
		case *ast.IfStmt:
			s.functionExpr(x.Condition)
			then := s.block(f, &x.Then)
			if len(x.Else) > 0 {
				els := s.block(f, &x.Else)
				if then >= 0 {
					// A jump to the statement's end follows the block.
					s.blocks[then].back = 1
					x.Else = append([]ast.Stmt{marker(markEnd, then)}, x.Else...)
				}
				after(els, 0)
			} else {
				after(then, 0)
			}
		case *ast.NumberForStmt:
			s.functionExpr(x.Init)
			s.functionExpr(x.Limit)
			s.functionExpr(x.Step)
			// FORLOOP follows the block.
			after(s.block(f, &x.Stmts, "(for index)", "(for limit)", "(for step)", x.Name), 1)
		case *ast.GenericForStmt:
			s.functionExprs(x.Exprs)
			// TFORLOOP and a jump follow the block.
			decl := append([]string{"(for generator)", "(for state)", "(for control)"}, x.Names...)
			after(s.block(f, &x.Stmts, decl...), 2)
		}
	}
	return out
}

// marker returns `do local (kind n) end`.
func marker(kind string, n int) ast.Stmt {
	return &ast.DoBlockStmt{Stmts: []ast.Stmt{
		&ast.LocalAssignStmt{Names: []string{kind + strconv.Itoa(n) + ")"}},
	}}
}

// readMarker returns the kind and number of a marker's local, or false
// for any other local.
func readMarker(name string) (kind string, n int, ok bool) {
	for _, k := range []string{markFunction, markEnd, markUntil} {
		if rest, found := strings.CutPrefix(name, k); found {
			n, err := strconv.Atoi(strings.TrimSuffix(rest, ")"))
			return k, n, err == nil && strings.HasSuffix(rest, ")")
		}
	}
	return "", 0, false
}

// fix sets the scope ends of real's locals, and its functions', from the
// markers of marked, the same function compiled with them.
func (s *scopes) fix(real, marked *lua.FunctionProto) {
	if len(real.FunctionPrototypes) != len(marked.FunctionPrototypes) {
		return
	}
	for i, child := range real.FunctionPrototypes {
		s.fix(child, marked.FunctionPrototypes[i])
	}
	f, seen := -1, 0
	for _, l := range marked.DbgLocals {
		kind, n, ok := readMarker(l.Name)
		if !ok {
			continue
		}
		// The marker's LOADNIL stands just before its local's start;
		// the markers before it moved it by one each.
		at := l.StartPc - 1 - seen
		seen++
		switch {
		case kind == markFunction:
			f = n
		case n >= len(s.blocks):
			return
		case kind == markEnd:
			s.blocks[n].at = at
		default:
			s.blocks[n].until = at
		}
	}
	if f < 0 || f >= len(s.fns) || !sameLocals(s.fns[f].names, real.DbgLocals) {
		return
	}
	ends := make([]int, len(real.DbgLocals))
	for i, b := range s.fns[f].blocks {
		end, ok := s.end(real, s.blocks[b])
		if !ok {
			return
		}
		ends[i] = end
	}
	for i, l := range real.DbgLocals {
		l.EndPc = ends[i]
	}
}

// end returns the place of block b's last instruction in real.
func (s *scopes) end(real *lua.FunctionProto, b blockScope) (int, bool) {
	switch {
	case b.function:
		return len(real.Code) - 1, true
	case b.at < 0:
		return 0, false
	case b.repeat:
		// A repeat loop whose body's locals are captured by closures
		// closes them after its condition, then jumps past a second
		// CLOSE and jump back, which its condition's false branch
		// takes: the block ends at the first CLOSE.
		if c := b.at - 2; b.until >= 0 && c >= b.until && lua.OP_CLOSE == int(real.Code[c]>>26) {
			return b.at - 4, true
		}
		return b.at - 1, true
	}
	return b.at - 1 - b.back, true
}

func sameLocals(names []string, locals []*lua.DbgLocalInfo) bool {
	if len(names) != len(locals) {
		return false
	}
	for i, l := range locals {
		if l.Name != names[i] {
			return false
		}
	}
	return true
}
