package luabind_test

import (
	"context"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// TestReadmeProgram runs the README's "embedder's first program" (with the
// test scripts' directory), so that the README cannot drift from the API.
func TestReadmeProgram(t *testing.T) {
	rt := runtime.New(runtime.Options{Seed: 1})
	host, err := luabind.New(rt, luabind.Options{Dir: "testdata/scripts", Budget: 100 * time.Millisecond, Stdout: io.Discard})
	require.NoError(t, err)
	defer host.Close()

	e := rt.Spawn()
	_, err = host.Attach(e, "spinner", map[string]any{"speed": 45})
	require.NoError(t, err)
	require.NoError(t, rt.Activate(e))
	var damage []string
	rt.Events().Observe("damage", func(ev *runtime.Event) any {
		damage = append(damage, fmt.Sprint("damage: ", runtime.FormatPlain(ev.Data)))
		return ev.Last
	}, runtime.ObserveOptions{})
	require.NoError(t, host.Register("giveXP", func(inst *runtime.Instance, args []any) (any, error) {
		return nil, nil
	}))
	stop, err := host.Watch(context.Background())
	require.NoError(t, err)
	defer stop()
	for range 60 {
		require.NoError(t, rt.Step(1.0/60))
	}
	_, err = rt.Events().Notify("damage", map[string]any{"amount": 3}, -1)
	require.NoError(t, err)
	assert.Equal(t, []string{"damage: {amount=3}"}, damage)
	assert.Equal(t, uint64(60), rt.Frame())
}
