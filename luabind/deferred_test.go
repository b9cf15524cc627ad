package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// effects loads reload/effects v1 on two entities (ids 1 and 2), each
// spawning its victim, and runs a frame so that the victims are Active.
func effects(w *world) []runtime.Handle {
	w.reload("reload/victim", "victim")
	w.reload("reload/effects", "effects_v1")
	var es []runtime.Handle
	for i := 1; i <= 2; i++ {
		e := w.rt.Spawn()
		w.attach(e, "reload/effects", map[string]any{"id": i})
		require.NoError(w.t, w.rt.Activate(e))
		es = append(es, e)
	}
	w.step(1, 0.1)
	assert.Equal(w.t, []string{"victim created\tvictim1", "victim created\tvictim2"}, w.takeLines())
	return es
}

// TestReloadEffectsRefused: what the onReloads of a refused reload did to
// the world (send, attach, kill, spawn, blackboard) never happens.
func TestReloadEffectsRefused(t *testing.T) {
	w := newWorld(t)
	effects(w)
	err := w.h.Reload("reload/effects", source(t, "effects_bad"))
	require.Error(t, err)
	w.h.Flush()
	assert.Equal(t, []string{"onReload\t1", "kill returned\ttrue", "onReload\t2", "kill returned\ttrue"}, w.takeLines(),
		"nothing but the onReloads' own prints")
	for _, name := range []string{"victim1", "victim2"} {
		e, ok := w.rt.Find(name)
		require.True(t, ok, name)
		st, _ := w.rt.State(e)
		assert.Equal(t, runtime.StateActive, st, "%s lives", name)
		insts, _ := w.rt.Instances(e)
		assert.Len(t, insts, 1, "%s got no second script", name)
	}
	for _, name := range []string{"newborn1", "newborn2"} {
		_, ok := w.rt.Find(name)
		assert.False(t, ok, "%s was never spawned", name)
	}
	assert.Equal(t, 4, len(w.rt.Entities()), "two effects, two victims")
	assert.Empty(t, w.rt.Blackboard().Keys())
	w.step(1, 0.1)
	assert.Empty(t, w.takeLines())
	w.requireNoErrors()
}

// TestReloadEffectsCommitted: what the onReloads did is applied, in
// order, once the reload committed, by the new version.
func TestReloadEffectsCommitted(t *testing.T) {
	w := newWorld(t)
	effects(w)
	w.reload("reload/effects", "effects_v2")
	w.h.Flush()
	assert.Equal(t, []string{
		"onReload\t1", "kill returned\ttrue", "onReload\t2", "kill returned\ttrue",
		"victim pinged\tvictim1\t1", "victim created\tvictim1", "victim destroyed\tvictim1", "victim destroyed\tvictim1",
		"victim created\tnewborn1",
		"victim pinged\tvictim2\t2", "victim created\tvictim2", "victim destroyed\tvictim2", "victim destroyed\tvictim2",
		"victim created\tnewborn2",
	}, w.takeLines())
	assert.Equal(t, []string{"reloaded1", "reloaded2"}, w.rt.Blackboard().Keys())
	w.step(1, 0.1)
	for _, name := range []string{"newborn1", "newborn2"} {
		e, ok := w.rt.Find(name)
		require.True(t, ok, name)
		st, _ := w.rt.State(e)
		assert.Equal(t, runtime.StateActive, st, "%s is Active before the next frame", name)
	}
	w.requireNoErrors()
}

// TestReloadLiveOnly: an instance destroyed during the reload (by a Go
// function another instance's onReload called) gets no onReload.
func TestReloadLiveOnly(t *testing.T) {
	w := newWorld(t)
	es := effects(w)
	require.NoError(t, w.h.Register("doom", func(*runtime.Instance, []any) (any, error) {
		_, err := w.rt.Kill(es[1])
		return nil, err
	}))
	w.reload("reload/effects", "effects_doom")
	w.h.Flush()
	assert.Equal(t, []string{"onReload\t1"}, w.takeLines())
	w.requireNoErrors()
}
