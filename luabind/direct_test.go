package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDirectCall checks that callbacks are called directly on this
// gopher-lua (newCallStack found the state's call stack, so protect is
// not in the way), and that failed callbacks — a Lua error, a call-stack
// overflow, a nested callback's error — leave both stacks of every state
// empty between frames.
func TestDirectCall(t *testing.T) {
	w := newWorld(t, withBudget(-1, 0))
	require.NotNil(t, newCallStack(w.h.newSandbox()), "gopher-lua's state layout changed: callbacks go through protect")
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
		assert.Zero(t, st.stack.frames.Sp(), "%s: call stack", s.Name())
		assert.Zero(t, st.L.GetTop(), "%s: value stack", s.Name())
	}
}
