package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestDeliveryAllocatesPerDispatch checks SPEC 10's delivery claim: a
// dispatch of number data allocates the same for 10 Lua handlers as for
// 200 (nothing per delivery), and every handler saw every number.
func TestDeliveryAllocatesPerDispatch(t *testing.T) {
	allocs := func(n int) float64 {
		w := newWorld(t)
		var selves []*lua.LTable
		for range n {
			got, err := w.rt.Instances(w.spawn("", "deliver/keep"))
			require.NoError(t, err)
			selves = append(selves, got[0].Data.(*instance).self)
		}
		data := 0.0
		a := testing.AllocsPerRun(20, func() {
			data++
			_, err := w.rt.Events().Notify("hit", data, -1)
			require.NoError(t, err)
		})
		for _, self := range selves {
			require.Equal(t, lua.LNumber(data), self.RawGetString("seen"))
		}
		return a
	}
	few, many := allocs(10), allocs(200)
	assert.Equal(t, few, many, "allocations do not grow with the handlers")
	assert.LessOrEqual(t, many, 3.0, "a few a dispatch: the boxed data and its Lua value")
}

// TestDeliveryNestedKeepsEv checks that a nested delivery to the same
// state leaves the outer handler's ev intact: after its ctx.emit the outer
// handler still reads its own name and its stop ends its own dispatch.
func TestDeliveryNestedKeepsEv(t *testing.T) {
	w := newWorld(t)
	var selves []*lua.LTable
	for range 2 {
		got, err := w.rt.Instances(w.spawn("", "deliver/nested"))
		require.NoError(t, err)
		selves = append(selves, got[0].Data.(*instance).self)
	}
	ok, err := w.rt.Events().Notify("outer", 1, -1)
	require.NoError(t, err)
	assert.False(t, ok, "the outer handler's stop ended the outer dispatch")
	assert.Equal(t, lua.LString("outer"), selves[0].RawGetString("outerName"))
	assert.Equal(t, lua.LNil, selves[1].RawGetString("outerName"), "stopped before the second")
	for _, self := range selves {
		assert.Equal(t, lua.LString("inner"), self.RawGetString("innerName"))
	}
	assert.Empty(t, w.errs)
}
