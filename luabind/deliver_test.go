package luabind

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestDeliveryAllocatesPerDispatch checks the delivery claim: a
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

// TestDeliveryHandlersAsLoaded: a script that assigns a new function to
// its events table after load keeps the handler it loaded with.
func TestDeliveryHandlersAsLoaded(t *testing.T) {
	w := newWorld(t)
	got, err := w.rt.Instances(w.spawn("", "deliver/rebind"))
	require.NoError(t, err)
	_, err = w.rt.Events().Notify("hit", 1, -1)
	require.NoError(t, err)
	assert.Equal(t, lua.LString("original"), got[0].Data.(*instance).self.RawGetString("by"))
	w.requireNoErrors()
}

// TestDeliveryData checks that the Lua value of scalar data, reused
// between deliveries, is always the data delivered: 0 and -0 differ, a
// NaN stays a NaN, a string after a number is the string.
func TestDeliveryData(t *testing.T) {
	w := newWorld(t)
	got, err := w.rt.Instances(w.spawn("", "deliver/keep"))
	require.NoError(t, err)
	self := got[0].Data.(*instance).self
	for i, data := range []any{0.0, math.Copysign(0, -1), math.NaN(), math.NaN(), 1.0, "1", "1", 1.0, "b", true, 0.0} {
		_, err := w.rt.Events().Notify("hit", data, -1)
		require.NoError(t, err)
		seen := self.RawGetString("seen")
		switch want := data.(type) {
		case float64:
			n, ok := seen.(lua.LNumber)
			require.True(t, ok, "delivery %d: %v", i, seen)
			assert.Equal(t, math.Float64bits(want), math.Float64bits(float64(n)), "delivery %d: %v", i, data)
		case string:
			assert.Equal(t, lua.LString(want), seen, "delivery %d", i)
		case bool:
			assert.Equal(t, lua.LBool(want), seen, "delivery %d", i)
		}
	}
	w.requireNoErrors()
}
