package lualib

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestOpen: a state opened with Open has the sandbox's libraries and
// none of what reaches outside it.
func TestOpen(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	Open(L, Limits{})
	for _, name := range []string{"dofile", "loadfile", "module", "newproxy", "require", "io"} {
		assert.Equal(t, lua.LNil, L.GetGlobal(name), name)
	}
	require.NoError(t, L.DoString(`
assert(os.execute == nil and os.getenv == nil and os.remove == nil, "os is the clock and the calendar")
assert(type(os.time()) == "number")
assert(tostring(1/3) == "0.33333333333333", tostring(1/3))
assert(table.concat({1, 2, 3}, ",") == "1,2,3")
assert(select("#", unpack({1, 2, 3})) == 3)
assert(collectgarbage("collect") == 0)
assert(not pcall(getfenv, 0), "level 0 is refused")
`))
}

// BenchmarkTracebackDeep measures debug.traceback 5,000 levels deep: one
// walk of the stack, so its cost grows with the depth about as
// gopher-lua's GetStack makes it, not with the depth cubed.
func BenchmarkTracebackDeep(b *testing.B) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true, CallStackSize: 6000, RegistrySize: 1 << 16})
	defer L.Close()
	Open(L, Limits{})
	require.NoError(b, L.DoString(`
		function deep(n) if n == 0 then return debug.traceback("x") end local r = deep(n - 1) return r end
	`))
	b.ReportAllocs()
	for b.Loop() {
		require.NoError(b, L.DoString(`assert(#deep(5000) > 0)`))
	}
}
