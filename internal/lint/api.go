package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/yuin/gopher-lua/ast"

	"github.com/luahost/luahost/internal/luaast"
	"github.com/luahost/luahost/luabind"
)

// The API-aware checks: what a script reaches of luahost's Lua API (ctx,
// entity values, vectors, the sandbox's library tables) is checked against
// the registry the runtime binds (luabind.API), and a script's reads of
// self against what its properties and its code write. Only what is known
// is checked: a value whose type the linter cannot tell (a parameter of a
// helper, a field of data) is never reported, so that correct code gets
// no warning.

// valueType is what the linter knows of a value.
type valueType string

const (
	typeUnknown  valueType = ""
	typeCtx      valueType = "ctx"
	typeEntity   valueType = "entity"
	typeVec      valueType = "vec3"
	typeEntities valueType = "entities"
	typeEvent    valueType = "ev"
)

// apiMembers are the member names of each known type, from the registry.
var apiMembers = func() map[valueType][]string {
	out := map[valueType][]string{}
	for owner, t := range map[string]valueType{"Ctx": typeCtx, "Entity": typeEntity, "Vec3": typeVec, "Event": typeEvent} {
		for _, m := range luabind.APIMembers(owner) {
			out[t] = append(out[t], m.Name)
		}
	}
	return out
}()

// apiFinding is a warning of the API-aware checks: line, the text its
// column points at, and the message.
type apiFinding struct {
	line    int
	needle  string
	message string
}

// typer infers the types of a file's locals. A name has a type when every
// binding of it in the file (local declarations, assignments, parameters,
// loop variables) gives that same type; a parameter called ctx is ctx,
// and the fourth parameter of a function(self, ctx, data, ev) is ev.
type typer struct {
	types map[string]valueType
	// memo holds exprType's answers, so that a long chain of operators
	// or calls is typed in linear time.
	memo map[ast.Expr]valueType
}

// newTyper infers the local names' types of stmts.
func newTyper(stmts []ast.Stmt) *typer {
	ty := &typer{types: map[string]valueType{}, memo: map[ast.Expr]valueType{}}
	// Bindings whose type depends on others settle in a few rounds.
	for range 3 {
		seen := map[string]valueType{}
		conflict := map[string]bool{}
		bind := func(name string, t valueType) {
			if prev, ok := seen[name]; ok && prev != t {
				conflict[name] = true
			}
			seen[name] = t
		}
		params := func(f *ast.FunctionExpr, self bool) {
			if self {
				bind("self", typeUnknown)
			}
			if f.ParList == nil {
				return
			}
			names := f.ParList.Names
			handler := len(names) == 4 && names[0] == "self" && names[1] == "ctx"
			for i, n := range names {
				switch {
				case n == "ctx":
					bind(n, typeCtx)
				case handler && i == 3:
					bind(n, typeEvent)
				default:
					bind(n, typeUnknown)
				}
			}
		}
		w := &luaast.Walker{
			Stmt: func(s ast.Stmt, sc *luaast.Scope) {
				switch x := s.(type) {
				case *ast.LocalAssignStmt:
					for i, n := range x.Names {
						bind(n, ty.exprType(exprAt(x.Exprs, i), sc))
					}
				case *ast.AssignStmt:
					for i, l := range x.Lhs {
						if id, ok := l.(*ast.IdentExpr); ok && sc.Has(id.Value) {
							bind(id.Value, ty.exprType(exprAt(x.Rhs, i), sc))
						}
					}
				case *ast.NumberForStmt:
					bind(x.Name, typeUnknown)
				case *ast.GenericForStmt:
					elem := typeUnknown
					if len(x.Exprs) == 1 {
						if c, ok := x.Exprs[0].(*ast.FuncCallExpr); ok && isGlobalCall(c, "ipairs", sc) && len(c.Args) == 1 && ty.exprType(c.Args[0], sc) == typeEntities {
							elem = typeEntity
						}
					}
					for i, n := range x.Names {
						if i == 1 {
							bind(n, elem)
						} else {
							bind(n, typeUnknown)
						}
					}
				case *ast.FuncDefStmt:
					params(x.Func, x.Name.Method != "")
				}
			},
			Expr: func(e ast.Expr, _ *luaast.Scope) {
				if f, ok := e.(*ast.FunctionExpr); ok {
					params(f, false)
				}
			},
		}
		w.Walk(stmts)
		next := map[string]valueType{}
		for n, t := range seen {
			if !conflict[n] && t != typeUnknown {
				next[n] = t
			}
		}
		ty.types = next
		clear(ty.memo)
	}
	return ty
}

// exprType returns what the linter knows of e's value in scope sc.
func (ty *typer) exprType(e ast.Expr, sc *luaast.Scope) valueType {
	if t, ok := ty.memo[e]; ok {
		return t
	}
	t := ty.typeOf(e, sc)
	ty.memo[e] = t
	return t
}

func (ty *typer) typeOf(e ast.Expr, sc *luaast.Scope) valueType {
	switch x := e.(type) {
	case *ast.IdentExpr:
		if sc.Has(x.Value) {
			return ty.types[x.Value]
		}
	case *ast.AttrGetExpr:
		if k, ok := x.Key.(*ast.StringExpr); ok {
			switch ty.exprType(x.Object, sc) {
			case typeCtx:
				if k.Value == "entity" {
					return typeEntity
				}
			}
		}
	case *ast.FuncCallExpr:
		if x.Receiver != nil {
			if ty.exprType(x.Receiver, sc) == typeVec && slices.Contains([]string{"normalized", "cross", "lerp"}, x.Method) {
				return typeVec
			}
			return typeUnknown
		}
		if isGlobalCall(x, "vec3", sc) {
			return typeVec
		}
		if a, ok := x.Func.(*ast.AttrGetExpr); ok && ty.exprType(a.Object, sc) == typeCtx {
			if k, ok := a.Key.(*ast.StringExpr); ok {
				switch k.Value {
				case "find", "spawn":
					return typeEntity
				case "query", "findAll":
					return typeEntities
				}
			}
		}
	case *ast.ArithmeticOpExpr:
		if ty.exprType(x.Lhs, sc) == typeVec || ty.exprType(x.Rhs, sc) == typeVec {
			return typeVec
		}
	case *ast.UnaryMinusOpExpr:
		return ty.exprType(x.Expr, sc)
	}
	return typeUnknown
}

// isGlobalCall reports whether c calls the global name (not a local of
// that name).
func isGlobalCall(c *ast.FuncCallExpr, name string, sc *luaast.Scope) bool {
	id, ok := c.Func.(*ast.IdentExpr)
	return ok && c.Receiver == nil && id.Value == name && !sc.Has(name)
}

// checkMembers reports members of ctx, entity values, vectors and the
// sandbox's library tables (libs: table name to members) that do not
// exist.
func checkMembers(stmts []ast.Stmt, libs map[string][]string) []apiFinding {
	ty := newTyper(stmts)
	extended := libraryWrites(stmts)
	var out []apiFinding
	unknown := func(line int, kind, name string, candidates []string) {
		msg := fmt.Sprintf("unknown %s member '%s'", kind, name)
		if s := memberSuggestion(name, candidates); s != "" {
			msg += fmt.Sprintf("; did you mean '%s'?", s)
		}
		out = append(out, apiFinding{line: line, needle: name, message: msg})
	}
	w := &luaast.Walker{Expr: func(e ast.Expr, sc *luaast.Scope) {
		switch x := e.(type) {
		case *ast.AttrGetExpr:
			k, ok := x.Key.(*ast.StringExpr)
			if !ok {
				return
			}
			if t := ty.exprType(x.Object, sc); t != typeUnknown && t != typeEntities {
				if !slices.Contains(apiMembers[t], k.Value) {
					unknown(x.Line(), string(t), k.Value, apiMembers[t])
				}
				return
			}
			if id, ok := x.Object.(*ast.IdentExpr); ok && !sc.Has(id.Value) {
				members, isLib := libs[id.Value]
				if isLib && !slices.Contains(members, k.Value) && !extended[id.Value+"."+k.Value] {
					unknown(x.Line(), id.Value, k.Value, members)
				}
			}
		case *ast.FuncCallExpr:
			if x.Receiver == nil {
				return
			}
			if t := ty.exprType(x.Receiver, sc); t != typeUnknown && t != typeEntities && !slices.Contains(apiMembers[t], x.Method) {
				unknown(x.Line(), string(t), x.Method, apiMembers[t])
			}
		}
	}}
	w.Walk(stmts)
	return out
}

// memberSuggestion returns the name that name likely stands for: the one
// it is with two neighbouring letters swapped (naem for name), the one it
// begins or that shares all but its last letter with it (setPos for
// setPosition, enemies for enemy), or else a close one; none for a name
// of one or two letters, which anything is close to.
func memberSuggestion(name string, candidates []string) string {
	if len(name) < 3 {
		return ""
	}
	for i := 0; i+1 < len(name); i++ {
		swapped := name[:i] + name[i+1:i+2] + name[i:i+1] + name[i+2:]
		if slices.Contains(candidates, swapped) {
			return swapped
		}
	}
	prefixed := ""
	for _, c := range candidates {
		lc, ln := strings.ToLower(c), strings.ToLower(name)
		short, common := min(len(lc), len(ln)), 0
		for common < short && lc[common] == ln[common] {
			common++
		}
		if strings.HasPrefix(lc, ln) || short >= 4 && common >= short-1 {
			if prefixed != "" {
				prefixed = ""
				break
			}
			prefixed = c
		}
	}
	if prefixed != "" {
		return prefixed
	}
	return suggest(name, candidates)
}

// libraryWrites returns the library members a file sets itself
// ("string.trim" for string.trim = function ... end).
func libraryWrites(stmts []ast.Stmt) map[string]bool {
	out := map[string]bool{}
	add := func(e ast.Expr) {
		if a, ok := e.(*ast.AttrGetExpr); ok {
			if id, ok := a.Object.(*ast.IdentExpr); ok {
				if k, ok := a.Key.(*ast.StringExpr); ok {
					out[id.Value+"."+k.Value] = true
				}
			}
		}
	}
	w := &luaast.Walker{Stmt: func(s ast.Stmt, _ *luaast.Scope) {
		switch x := s.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				add(l)
			}
		case *ast.FuncDefStmt:
			add(x.Name.Func)
		}
	}}
	w.Walk(stmts)
	return out
}

// lintAPI runs the API-aware checks of a file: members of ctx, entity
// values, vectors, ev and the library tables (libs), and in a script
// reads of self fields that nothing sets: not its properties, not its
// code, not props (the keys of the props it is attached with). closed
// says props are all the attaches there are (see checkSelf).
func (f *luaFile) lintAPI(libs map[string][]string, script bool, props []string, closed bool) []Problem {
	found := checkMembers(f.stmts, libs)
	if script {
		found = append(found, checkSelf(f.stmts, props, closed)...)
	}
	out := make([]Problem, 0, len(found))
	for _, a := range found {
		out = append(out, f.at(a.line, a.needle, Warning, "%s", a.message))
	}
	return out
}
