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
