package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/gopherx"
)

// TestKeyList: the key list read from gopher-lua's table keeps removed
// keys in their places (what snapshots save as holes). It fails when a
// gopher-lua release lays its tables out differently.
func TestKeyList(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	tb := L.NewTable()
	tb.RawSetString("a", lua.LNumber(1))
	tb.RawSetString("b", lua.LNumber(2))
	tb.RawSet(lua.LTrue, lua.LNumber(3))
	tb.RawSetInt(1, lua.LNumber(4))
	tb.RawSetString("a", lua.LNil)
	assert.Equal(t, []lua.LValue{lua.LString("a"), lua.LString("b"), lua.LTrue}, gopherx.TableKeys(tb), "array-part keys are not in the list; removed ones stay")
}

// TestHole: a hole is a place in the key list without a value; a key of
// the array part gets none (it would grow the array).
func TestHole(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	tb := L.NewTable()
	hole(tb, lua.LString("x"))
	hole(tb, lua.LNumber(3))
	tb.RawSetString("y", lua.LNumber(1))
	assert.Equal(t, lua.LNil, tb.RawGetString("x"))
	assert.Equal(t, 0, tb.Len(), "no array grew")
	tb.RawSetString("x", lua.LNumber(2))
	var order []string
	for k, _ := tb.Next(lua.LNil); k != lua.LNil; k, _ = tb.Next(k) {
		order = append(order, k.String())
	}
	assert.Equal(t, []string{"x", "y"}, order, "x set again takes its place")
}
