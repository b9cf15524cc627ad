package gopherx

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestAssumptions: every assumption about gopher-lua's internals holds
// for the version this module is built with. A failure here is the
// first step of the upgrade checklist in docs/architecture.md.
func TestAssumptions(t *testing.T) {
	for _, a := range assumptions {
		t.Run(a.name, func(t *testing.T) {
			assert.NoError(t, a.holds(), "needed for %s", a.feature)
		})
	}
	assert.NoError(t, Check())
}

// TestCallStackCut: Cut unwinds the call stack and leaves the state
// usable, as PCall leaves it after an error.
func TestCallStackCut(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	cs := NewCallStack(L)
	require.NotNil(t, cs)
	sp := cs.Depth()
	func() {
		defer func() {
			require.NotNil(t, recover())
			cs.Cut(sp)
		}()
		L.Push(L.NewFunction(func(L *lua.LState) int {
			L.RaiseError("boom")
			return 0
		}))
		L.Call(0, 0)
	}()
	assert.Equal(t, sp, cs.Depth())
	assert.NoError(t, L.DoString("x = 1 + 1"))
}

// TestCallStackCapacity: the capacity is the size rounded up to whole
// segments.
func TestCallStackCapacity(t *testing.T) {
	assert.Equal(t, lua.FramesPerSegment, CallStackCapacity(1))
	assert.Equal(t, lua.FramesPerSegment, CallStackCapacity(lua.FramesPerSegment))
	assert.Equal(t, 2*lua.FramesPerSegment, CallStackCapacity(lua.FramesPerSegment+1))
}

// TestLimitArrayPart: the limit is what the array code of luahost
// expects, and a write past it goes to the hash part.
func TestLimitArrayPart(t *testing.T) {
	LimitArrayPart()
	require.Equal(t, ArrayPart+1, lua.MaxArrayIndex)
	tb := &lua.LTable{}
	tb.RawSetInt(ArrayPart+1, lua.LTrue)
	assert.Equal(t, 0, tb.Len(), "a key past the array part stays out of the slice")
	assert.Equal(t, lua.LTrue, tb.RawGet(lua.LNumber(ArrayPart+1)))
}

// TestNewRecord: a record reads, iterates, changes and grows like the
// table RawSetString builds, and shares nothing with the keys given.
func TestNewRecord(t *testing.T) {
	names := []string{"x", "y", "z"}
	keys := []lua.LValue{lua.LString("x"), lua.LString("y"), lua.LString("z")}
	values := []lua.LValue{lua.LNumber(1), lua.LNumber(2), lua.LNumber(3)}
	mt := &lua.LTable{}
	rec := NewRecord(names, keys, values, mt)
	want := &lua.LTable{Metatable: mt}
	for i, name := range names {
		want.RawSetString(name, values[i])
	}
	pairs := func(tb *lua.LTable) []string {
		var out []string
		for k, v := tb.Next(lua.LNil); k != lua.LNil; k, v = tb.Next(k) {
			out = append(out, k.String()+"="+v.String())
		}
		return out
	}
	assert.Equal(t, pairs(want), pairs(rec))
	assert.Equal(t, TableKeys(want), TableKeys(rec))
	assert.Same(t, mt, rec.Metatable)

	for _, tb := range []*lua.LTable{want, rec} {
		tb.RawSetString("y", lua.LNil)
		tb.RawSetString("w", lua.LNumber(4))
		tb.RawSetString("x", lua.LNumber(9))
	}
	assert.Equal(t, pairs(want), pairs(rec))
	assert.Equal(t, []string{"x=9", "z=3", "w=4"}, pairs(rec))
	assert.Len(t, keys, 3, "the caller's keys are not grown")
	other := NewRecord(names, keys, values, mt)
	assert.Equal(t, []string{"x=1", "y=2", "z=3"}, pairs(other), "records share nothing")
}
