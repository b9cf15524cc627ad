package laux

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestLevels: Levels gives, in one walk, the levels Level finds one at
// a time: tail calls as nil levels, the frames of a transparent function
// left out.
func TestLevels(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	lua.OpenBase(L)
	var levels, each []*lua.Debug
	var transparent *lua.LFunction
	probe := func(L *lua.LState) int {
		levels = Levels(L)
		each = nil
		for l := 0; ; l++ {
			dbg, found := Level(L, l)
			if !found {
				break
			}
			each = append(each, dbg)
		}
		return 0
	}
	L.SetGlobal("probe", L.NewFunction(probe))
	transparent = L.NewFunction(func(L *lua.LState) int {
		L.Call(L.GetTop()-1, 0)
		return 0
	})
	MarkTransparent(L, transparent)
	L.SetGlobal("through", transparent)
	require.NoError(t, L.DoString(`
		local function inner() probe() end
		local function tail() return inner() end
		local function outer() through(tail) end
		outer()
	`))
	// probe, inner, the tail call, outer, the chunk; through is left out.
	require.Len(t, levels, 5)
	assert.Nil(t, levels[2])
	require.Len(t, each, len(levels))
	for i := range levels {
		if levels[i] == nil {
			assert.Nil(t, each[i], "level %d", i)
			continue
		}
		require.NotNil(t, each[i], "level %d", i)
		assert.Equal(t, levels[i].CurrentLine, each[i].CurrentLine, "level %d", i)
	}
	dbg, found := Level(L, -1)
	assert.True(t, found && dbg == nil, "a negative level is a tail call, as Lua 5.1 reads it")
}
