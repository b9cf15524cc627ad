package luabind

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestStatePoolKeptReady: fresh sandboxed states wait in the pool for
// loads and reloads; a load takes one, and the end of the next frame
// builds a replacement. A state that ran a script never goes back.
func TestStatePoolKeptReady(t *testing.T) {
	rt := runtime.New(runtime.Options{})
	h, err := New(rt, Options{Dir: "testdata/scripts", Stdout: io.Discard, StatePool: 2})
	require.NoError(t, err)
	defer h.Close()
	assert.Equal(t, 2, h.states.Idle(), "filled at New")

	_, err = h.Load("spinner")
	require.NoError(t, err)
	assert.Equal(t, 1, h.states.Idle(), "a load takes a ready state")
	assert.Equal(t, 1, h.states.Got())
	assert.Equal(t, 0, h.states.Made(), "it did not have to build one on demand")

	require.NoError(t, rt.Step(1.0/60))
	assert.Equal(t, 2, h.states.Idle(), "refilled at the end of the frame")
	assert.Equal(t, 0, h.states.Made())
}
