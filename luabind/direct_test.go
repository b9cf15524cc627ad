package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/runtime"
)

// TestDirectCall checks that callbacks are called directly on this
// gopher-lua (gopherx.NewCallStack found the state's call stack, so protect is
// not in the way), and that failed callbacks — a Lua error, a call-stack
// overflow, a nested callback's error — leave both stacks of every state
// empty between frames.
func TestDirectCall(t *testing.T) {
	w := newWorld(t, withBudget(-1, 0))
	require.NotNil(t, gopherx.NewCallStack(w.h.newSandbox()), "gopher-lua's state layout changed: callbacks go through protect")
	for range 3 {
		w.spawn("", "stats/fails")
	}
	w.spawn("", "stats/outer")
	require.NoError(t, w.h.Register("wait", waitMillis))
	w.step(2, 1)
	_, err := w.h.Attach(w.rt.Spawn(), "messages/overflow", nil)
	require.NoError(t, err, "a failed onCreate is reported, not returned")
	require.Len(t, w.errs, 4)
	assert.Contains(t, w.errs[3].Error(), "messages/overflow.lua:6: stack overflow")
	for _, s := range w.h.Scripts() {
		st := s.st
		require.NotNil(t, st.stack, s.Name())
		assert.Zero(t, st.stack.Depth(), "%s: call stack", s.Name())
		assert.Zero(t, st.L.GetTop(), "%s: value stack", s.Name())
	}
}

// TestDirectDepth: the depth a direct call starts from, read from the
// call stack it cuts back on error, is the one stackFull checks, at
// every depth.
func TestDirectDepth(t *testing.T) {
	w := newWorld(t, withBudget(-1, 0))
	var seen int
	require.NoError(t, w.h.Register("probe", func(*runtime.Instance, []any) (any, error) {
		st := w.h.Script("direct/depth").st
		require.NotNil(t, st.stack)
		assert.Equal(t, gopherx.CallDepth(st.L), st.depth())
		assert.Positive(t, st.depth())
		seen++
		return nil, nil
	}))
	_, err := w.h.Attach(w.rt.Spawn(), "direct/depth", nil)
	require.NoError(t, err)
	w.requireNoErrors()
	assert.Equal(t, 4, seen)
}
