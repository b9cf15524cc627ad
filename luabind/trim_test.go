package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/lstring"
	"github.com/luahost/luahost/runtime"
)

// TestCompiledChunksAreTrimmed checks that a compiled chunk's functions
// keep no compiler buffers: every slice of the proto tree is about its own
// size (give or take the allocator's rounding), so a loaded script
// holds only what it needs.
func TestCompiledChunksAreTrimmed(t *testing.T) {
	c := NewChunks()
	proto, err := c.compile("spinner", "testdata/scripts/spinner.lua", []byte("return { onUpdate = function(self) self.a = 1 end }"), lstring.DefaultMaxSize)
	require.NoError(t, err)
	var check func(p *lua.FunctionProto)
	n := 0
	check = func(p *lua.FunctionProto) {
		n++
		// Clone rounds up to the allocator's size class, not to the
		// compiler's 1,024-entry buffers.
		assert.Less(t, cap(p.Code), 2*len(p.Code)+8)
		assert.Less(t, cap(p.DbgSourcePositions), 2*len(p.DbgSourcePositions)+8)
		assert.Less(t, cap(p.Constants), 2*len(p.Constants)+8)
		assert.Less(t, cap(p.DbgCalls), 2*len(p.DbgCalls)+8)
		for _, child := range p.FunctionPrototypes {
			check(child)
		}
	}
	check(proto)
	assert.Equal(t, 2, n, "the chunk and its onUpdate")
}

// TestSandboxKeepsNoUnsortedLibraries checks that a sandboxed state holds
// one copy of each library: gopher-lua's own module table names the
// sorted copies the globals hold, so the unsorted originals are garbage
// instead of a second set of tables in every state.
func TestSandboxKeepsNoUnsortedLibraries(t *testing.T) {
	rt := runtime.New(runtime.Options{})
	h, err := New(rt, Options{Dir: scriptDir})
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() })
	L := h.newSandbox()
	defer L.Close()
	loaded, ok := L.GetField(L.Get(lua.RegistryIndex), "_LOADED").(*lua.LTable)
	require.True(t, ok)
	n := 0
	loaded.ForEach(func(k, v lua.LValue) {
		n++
		assert.Same(t, L.G.Global.RawGet(k), v, "module %v", k)
	})
	assert.Positive(t, n)
	assert.Same(t, L.G.Global, loaded.RawGetString("_G"))
}
