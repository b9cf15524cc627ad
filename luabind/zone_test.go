package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

func TestZoneEntityValues(t *testing.T) {
	w := newWorld(t)
	moved := runtime.Handle{Index: 90, Gen: 3}
	gone := runtime.Handle{Index: 91, Gen: 1}
	w.h.SetZone(2, func(h runtime.Handle) (int, bool) { return 5, h == moved })
	e := w.rt.Spawn()
	w.attach(e, "zone/values", map[string]any{"other": moved, "gone": gone})
	require.NoError(t, w.rt.Activate(e))
	w.step(1, 0.1)
	w.requireNoErrors()
	assert.Equal(t, []string{
		"mine\t2\tother\ttrue\t5\tactive",
		"name\tfalse\ttestdata/scripts/zone/values.lua:9: entity(90:3) is in another zone now (zone 5): a zone's scripts reach only the entities of their own zone",
		"kill\tfalse\ttestdata/scripts/zone/values.lua:10: entity(90:3) is in another zone now (zone 5): a zone's scripts reach only the entities of their own zone",
		"gone\tfalse\tnil",
	}, w.lines())
}

func TestBroadcast(t *testing.T) {
	t.Run("one zone: the next frame", func(t *testing.T) {
		w := newWorld(t)
		w.spawn("", "zone/broadcast")
		var got []any
		w.rt.Events().Observe("news", func(ev *runtime.Event) any { got = append(got, w.rt.Frame()); return nil }, runtime.ObserveOptions{})
		w.step(3, 0.1)
		w.requireNoErrors()
		assert.Equal(t, []string{"sent in\t1", "heard\t1\tin\t2"}, w.lines())
		assert.Equal(t, []any{uint64(2)}, got, "Go observers get broadcasts too")
	})
	t.Run("routed by OnBroadcast", func(t *testing.T) {
		w := newWorld(t)
		w.spawn("", "zone/broadcast")
		var events []string
		var data []any
		w.h.OnBroadcast(func(event string, d any) { events = append(events, event); data = append(data, d) })
		w.step(3, 0.1)
		w.requireNoErrors()
		assert.Equal(t, []string{"sent in\t1"}, w.lines(), "nothing is delivered locally")
		assert.Equal(t, []string{"news"}, events)
		require.Len(t, data, 1)
		assert.Equal(t, "{from=1}", runtime.FormatPlain(data[0]))
	})
}
