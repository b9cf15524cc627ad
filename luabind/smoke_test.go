package luabind

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

func TestSmokeLua(t *testing.T) {
	var out, errs bytes.Buffer
	rt := runtime.New(runtime.Options{Seed: 1, OnError: runtime.Writer(&errs)})
	h, err := New(rt, Options{Dir: "testdata/scripts", Stdout: &out})
	require.NoError(t, err)
	e := rt.Spawn()
	_, err = h.Attach(e, "spinner", map[string]any{"speed": 45})
	require.NoError(t, err)
	require.NoError(t, rt.Activate(e))
	for range 4 {
		require.NoError(t, rt.Step(0.5))
	}
	require.NoError(t, h.Close())
	assert.Equal(t, "bye\tentity(1:1)\t90\t4\n", out.String())
	assert.Empty(t, errs.String())
}
