// Package lint holds the rules of luahost check: it reads scripts and
// scenes for mistakes that loading them does not catch, and reports each
// as a [Problem] at its line and column. A [Checker] takes the paths given
// to check, loads every script in a sandboxed host, and runs the rules.
package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"

	"github.com/luahost/luahost/internal/luaast"
	"github.com/luahost/luahost/luabind"
)

// Problem is one finding of the linter, printed as
// "path:line:col: severity: message".
type Problem struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
}

func (p Problem) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", p.Path, p.Line, p.Col, p.Severity, p.Message)
}

const (
	Error   = "error"
	Warning = "warning"
)

// knownFields are the fields of a script table, from the API registry.
var knownFields = func() []string {
	var names []string
	for _, m := range luabind.APIMembers("Script") {
		names = append(names, m.Name)
	}
	return names
}()

// luaFile is a parsed script or module, for the linter.
type luaFile struct {
	path  string
	lines []string
	stmts []ast.Stmt
}

// parseLua parses src; a chunk the loader refuses (a syntax error, a
// nesting past its limits) is left to the loader, which words it for
// designers, and is not walked: the linter's walk recurses once per node,
// and a 16 MiB chain of calls overflowed the Go stack.
func parseLua(path string, src []byte) (*luaFile, bool) {
	if err := luabind.NewChunks().Precompile("", path, src); err != nil {
		return nil, false
	}
	stmts, err := parse.Parse(strings.NewReader(luaast.FileSource(string(src))), path)
	if err != nil {
		return nil, false
	}
	return &luaFile{path: path, lines: strings.Split(string(src), "\n"), stmts: stmts}, true
}

// at makes a Problem at line, its column that of the first needle on the
// line standing as a word of its own (1 when the needle is not there).
func (f *luaFile) at(line int, needle, sev, format string, args ...any) Problem {
	col := 1
	if line >= 1 && line <= len(f.lines) && needle != "" {
		if i := wordIndex(f.lines[line-1], needle); i >= 0 {
			col = i + 1
		}
	}
	return Problem{Path: f.path, Line: line, Col: col, Severity: sev, Message: fmt.Sprintf(format, args...)}
}

// wordIndex returns the index of the first needle in s not preceded or
// followed by a letter, digit or underscore, or -1.
func wordIndex(s, needle string) int {
	word := func(b byte) bool {
		return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
	}
	for from := 0; ; {
		i := strings.Index(s[from:], needle)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(needle)
		if (i == 0 || !word(s[i-1])) && (end == len(s) || !word(s[end])) {
			return i
		}
		from = i + 1
	}
}

// requires returns the module names the file requires with a literal
// string ("lib.vector").
func (f *luaFile) requires() []string {
	var out []string
	luaast.Exprs(f.stmts, func(e ast.Expr) {
		if c, ok := e.(*ast.FuncCallExpr); ok {
			if id, ok := c.Func.(*ast.IdentExpr); ok && id.Value == "require" && len(c.Args) == 1 {
				if s, ok := c.Args[0].(*ast.StringExpr); ok {
					out = append(out, s.Value)
				}
			}
		}
	})
	return out
}

// scriptField is one string-keyed field of the script table.
type scriptField struct {
	name string
	line int
	fn   bool
}

// scriptFields finds the table the chunk returns, "return { ... }" or
// "local M = { ... } ... return M" with "function M.x()" and "M.x = ..."
// added, and lists its string-keyed fields; ok is false when the file
// does not return a table it builds itself.
func (f *luaFile) scriptFields() (fields []scriptField, ok bool) {
	if len(f.stmts) == 0 {
		return nil, false
	}
	ret, isRet := f.stmts[len(f.stmts)-1].(*ast.ReturnStmt)
	if !isRet || len(ret.Exprs) != 1 {
		return nil, false
	}
	add := func(t *ast.TableExpr) {
		for _, fl := range t.Fields {
			if k, ok := fl.Key.(*ast.StringExpr); ok {
				_, fn := fl.Value.(*ast.FunctionExpr)
				fields = append(fields, scriptField{k.Value, fl.Key.Line(), fn})
			}
		}
	}
	switch x := ret.Exprs[0].(type) {
	case *ast.TableExpr:
		add(x)
		return fields, true
	case *ast.IdentExpr:
		found := false
		for _, s := range f.stmts {
			switch st := s.(type) {
			case *ast.LocalAssignStmt:
				for i, n := range st.Names {
					if t, ok := exprAt(st.Exprs, i).(*ast.TableExpr); ok && n == x.Value {
						add(t)
						found = true
					}
				}
			case *ast.FuncDefStmt:
				if a, ok := st.Name.Func.(*ast.AttrGetExpr); ok && isIdent(a.Object, x.Value) {
					if k, ok := a.Key.(*ast.StringExpr); ok {
						fields = append(fields, scriptField{k.Value, st.Line(), true})
					}
				}
				if st.Name.Method != "" && isIdent(st.Name.Receiver, x.Value) {
					fields = append(fields, scriptField{st.Name.Method, st.Line(), true})
				}
			case *ast.AssignStmt:
				for i, l := range st.Lhs {
					if a, ok := l.(*ast.AttrGetExpr); ok && isIdent(a.Object, x.Value) {
						if k, ok := a.Key.(*ast.StringExpr); ok {
							_, fn := exprAt(st.Rhs, i).(*ast.FunctionExpr)
							fields = append(fields, scriptField{k.Value, st.Line(), fn})
						}
					}
				}
			}
		}
		return fields, found
	}
	return nil, false
}

func exprAt(es []ast.Expr, i int) ast.Expr {
	if i < len(es) {
		return es[i]
	}
	return nil
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.IdentExpr)
	return ok && id.Value == name
}

// lintScript checks a script's table fields, its globals and its
// timers. globals are the names every script starts with.
func (f *luaFile) lintScript(globals []string) []Problem {
	var out []Problem
	fields, ok := f.scriptFields()
	if ok {
		for _, fl := range fields {
			if slices.Contains(knownFields, fl.name) || fl.fn && !looksLikeCallback(fl.name) {
				continue
			}
			if s := suggest(fl.name, knownFields); s != "" {
				out = append(out, f.at(fl.line, fl.name, Warning, "%s: unknown field; did you mean %s?", fl.name, s))
			}
		}
	}
	out = append(out, f.lintGlobals(globals)...)
	out = append(out, f.lintModuleState()...)
	if ok {
		out = append(out, f.lintTimers(fields)...)
	}
	return out
}

// looksLikeCallback reports whether a function field's name reads as a
// callback's (onUpdte, onupdate): any other function of the script table
// is the script's own method (a timer target such as reload or report),
// however close its name is to a callback's.
func looksLikeCallback(name string) bool {
	return len(name) > 2 && strings.EqualFold(name[:2], "on")
}

// lintTimers reports ctx.after and ctx.every calls whose literal
// function name is not a field of the script table.
func (f *luaFile) lintTimers(fields []scriptField) []Problem {
	var names, fns []string
	for _, fl := range fields {
		names = append(names, fl.name)
		if fl.fn {
			fns = append(fns, fl.name)
		}
	}
	var out []Problem
	luaast.Exprs(f.stmts, func(e ast.Expr) {
		c, ok := e.(*ast.FuncCallExpr)
		if !ok || len(c.Args) < 2 {
			return
		}
		a, ok := c.Func.(*ast.AttrGetExpr)
		if !ok {
			return
		}
		k, ok := a.Key.(*ast.StringExpr)
		if !ok || (k.Value != "after" && k.Value != "every") {
			return
		}
		if _, ok := a.Object.(*ast.IdentExpr); !ok {
			return
		}
		fn, ok := c.Args[1].(*ast.StringExpr)
		if !ok || slices.Contains(names, fn.Value) {
			return
		}
		msg := fmt.Sprintf("timer names %q, which is not a function of the script table", fn.Value)
		if s := suggest(fn.Value, fns); s != "" {
			msg += "; did you mean " + s + "?"
		}
		out = append(out, f.at(c.Line(), `"`+fn.Value+`"`, Error, "%s", msg))
	})
	return out
}

// suggest returns the candidate that name is most likely a misspelling
// of (a small edit distance, or a difference of case only), or "".
func suggest(name string, candidates []string) string {
	return suggestWithin(name, candidates, 3)
}

// suggestWithin is suggest with at most most edits (fewer for short
// names: 1 below 5 letters, 2 below 8).
func suggestWithin(name string, candidates []string, most int) string {
	best, bestD := "", 0
	for _, c := range candidates {
		if c == name {
			return ""
		}
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		limit := 1
		if len(c) >= 5 {
			limit = 2
		}
		if len(c) >= 8 {
			limit = 3
		}
		if d <= min(limit, most) && (best == "" || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
