package luaast

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/gopher-lua/ast"
	"github.com/yuin/gopher-lua/parse"
)

func parseChunk(t *testing.T, src string) []ast.Stmt {
	t.Helper()
	stmts, err := parse.Parse(strings.NewReader(src), "test")
	require.NoError(t, err)
	return stmts
}

// TestGlobals: reads and writes of undeclared names are reported with
// their lines and whether they are inside a function; locals,
// parameters, loop variables, self, arg and a local function's own name
// are not.
func TestGlobals(t *testing.T) {
	src := `local a = 1
b = a + c
local function f(p, ...)
	local q = p + arg[1] + f
	g = q
	for i = 1, 2 do h(i) end
	for k, v in pairs(t) do print(k, v) end
	repeat local r = 1 until r
end
function obj:m() return self.x end
function top() end
local u = function() return u end`
	var got []string
	w := &Walker{
		Read: func(name string, line int, sc *Scope) {
			got = append(got, fmt.Sprintf("read %s %d %d", name, line, sc.Functions()))
		},
		Write: func(name string, line int, sc *Scope) {
			got = append(got, fmt.Sprintf("write %s %d %d", name, line, sc.Functions()))
		},
	}
	w.Walk(parseChunk(t, src))
	assert.Equal(t, []string{
		"read c 2 0", "write b 2 0",
		"write g 5 1", "read h 6 1", "read pairs 7 1", "read t 7 1", "read print 7 1",
		"read obj 10 0",
		"write top 11 0",
		"read u 12 1",
	}, got, "a local function's own name is declared in its body; local u = function's is not")
}

// TestLocalFunction: "local function f" and "local f = function", which
// gopher-lua's parser makes the same node, are told apart.
func TestLocalFunction(t *testing.T) {
	for src, want := range map[string]bool{
		"local function f() end":      true,
		"local function f()\nend":     true,
		"local f = function() end":    false,
		"local f = function()\nend":   false,
		"local f, g = function() end": false,
		"local f = function() end, 1": false,
		"local f = (function() end)":  false,
		"local f = 1":                 false,
	} {
		s, ok := parseChunk(t, src)[0].(*ast.LocalAssignStmt)
		require.True(t, ok, src)
		assert.Equal(t, want, LocalFunction(s), src)
	}
}

// TestKind: a name is a local of its own function, an upvalue of an
// inner one, and a global where nothing declares it.
func TestKind(t *testing.T) {
	src := `local x = 1
local function f() return x, y end
return x`
	var kinds []string
	w := &Walker{Expr: func(e ast.Expr, sc *Scope) {
		if id, ok := e.(*ast.IdentExpr); ok && (id.Value == "x" || id.Value == "y") {
			kinds = append(kinds, id.Value+" "+sc.Kind(id.Value))
		}
	}}
	w.Walk(parseChunk(t, src))
	assert.Equal(t, []string{"x upvalue", "y global", "x local"}, kinds)
	var none *Scope
	assert.Equal(t, "global", none.Kind("x"))
	sc := none.Block("a").Function("b")
	sc.Declare("c")
	assert.Equal(t, []string{"upvalue", "local", "local", "global"}, []string{sc.Kind("a"), sc.Kind("b"), sc.Kind("c"), sc.Kind("d")})
}

// TestExprOrder: an expression is visited before its operands, and
// function bodies are walked.
func TestExprOrder(t *testing.T) {
	var seen []string
	Exprs(parseChunk(t, "return a + b * c, function() return d end"), func(e ast.Expr) {
		switch x := e.(type) {
		case *ast.IdentExpr:
			seen = append(seen, x.Value)
		case *ast.ArithmeticOpExpr:
			seen = append(seen, x.Operator)
		case *ast.FunctionExpr:
			seen = append(seen, "function")
		}
	})
	assert.Equal(t, []string{"+", "a", "*", "b", "c", "function", "d"}, seen)
	var n int
	Expr(&ast.UnaryMinusOpExpr{Expr: &ast.IdentExpr{Value: "z"}}, func(ast.Expr) { n++ })
	assert.Equal(t, 2, n)
}

// TestFunctions: the function expressions of an expression, outer ones
// only, in order.
func TestFunctions(t *testing.T) {
	stmts := parseChunk(t, "return f(function(a) return function() end end, {k = function(b) end})")
	var params [][]string
	Functions(stmts[0].(*ast.ReturnStmt).Exprs[0], func(f *ast.FunctionExpr) {
		params = append(params, f.ParList.Names)
	})
	assert.Equal(t, [][]string{{"a"}, {"b"}}, params)
}

// TestFileSource: a file's first line that starts with '#' is left out,
// its newline kept.
func TestFileSource(t *testing.T) {
	for src, want := range map[string]string{
		"#!/usr/bin/lua\nreturn 1": "\nreturn 1",
		"# comment":                "",
		"return 1\n#x":             "return 1\n#x",
		" #!x\n":                   " #!x\n",
	} {
		assert.Equal(t, want, FileSource(src), src)
	}
}
