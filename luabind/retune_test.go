package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestRetune: a changed prop reaches an instance whose value still is the
// previous one, tables compared by contents, and not one that changed it.
func TestRetune(t *testing.T) {
	w := newWorld(t)
	e := w.rt.Spawn()
	kept := w.attach(e, "spinner", map[string]any{"speed": 90, "route": []any{1, 2}})
	require.NoError(t, w.rt.Activate(e))
	other := w.rt.Spawn()
	changed := w.attach(other, "spinner", map[string]any{"speed": 90})
	require.NoError(t, w.rt.Activate(other))
	require.NoError(t, w.h.SetSelf(changed, "speed", 45))

	for _, c := range []struct {
		inst       *runtime.Instance
		key        string
		prev, next any
		want       bool
	}{
		{kept, "speed", 90, 120, true},
		{changed, "speed", 90, 120, false},
		{kept, "route", []any{1, 2}, []any{3}, true},
		{kept, "missing", nil, "new", true},
		{kept, "route", []any{1, 2}, []any{4}, false},
	} {
		got, err := w.h.Retune(c.inst, c.key, c.prev, c.next)
		require.NoError(t, err)
		assert.Equal(t, c.want, got, "%s %v -> %v", c.key, c.prev, c.next)
	}
	self, err := w.h.Self(kept)
	require.NoError(t, err)
	assert.Equal(t, 120.0, self.Get("speed"))
	assert.Equal(t, "new", self.Get("missing"))
	self, err = w.h.Self(changed)
	require.NoError(t, err)
	assert.Equal(t, 45.0, self.Get("speed"), "a value the instance changed is kept")
}
