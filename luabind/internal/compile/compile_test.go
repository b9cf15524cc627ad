package compile

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// TestHelperConstantsUnreachable: the placeholder constants of the
// rewrite are bound to Go functions, not left as strings a script could
// see, and a script cannot forge one.
func TestHelperConstantsUnreachable(t *testing.T) {
	proto, err := Compile("local a = 'x' .. 1\nlocal b = function() return a .. a end", "p", 100)
	require.NoError(t, err)
	var check func(p *lua.FunctionProto)
	calls := 0
	check = func(p *lua.FunctionProto) {
		for _, c := range p.Constants {
			if s, ok := c.(lua.LString); ok {
				assert.NotContains(t, string(s), helperMarker)
			}
			if _, ok := c.(*lua.LFunction); ok {
				calls++
			}
		}
		for _, sub := range p.FunctionPrototypes {
			check(sub)
		}
	}
	check(proto)
	assert.Equal(t, 2, calls)
}

// TestRewriteKeepsPlainCode: code without .., # or multiple assignment
// compiles to the very instructions gopher-lua makes, so the rewrite costs
// such code nothing at run time (the 10,000-spinner frame).
func TestRewriteKeepsPlainCode(t *testing.T) {
	src, err := os.ReadFile("../../../testdata/bench/scripts/spinner.lua")
	require.NoError(t, err)
	rewritten, err := Compile(string(src), "spinner.lua", 1<<20)
	require.NoError(t, err)
	stmts, err := parse.Parse(strings.NewReader(string(src)), "spinner.lua")
	require.NoError(t, err)
	plain, err := lua.Compile(stmts, "spinner.lua")
	require.NoError(t, err)
	var same func(a, b *lua.FunctionProto)
	same = func(a, b *lua.FunctionProto) {
		assert.Equal(t, b.Code, a.Code)
		require.Len(t, a.FunctionPrototypes, len(b.FunctionPrototypes))
		for i := range a.FunctionPrototypes {
			same(a.FunctionPrototypes[i], b.FunctionPrototypes[i])
		}
	}
	same(rewritten, plain)
}
