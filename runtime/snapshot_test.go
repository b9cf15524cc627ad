package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSaveRestoreKeepsHandles: a restored runtime keeps the slot map (so
// old handles stay valid or stale as they were, and the next spawn takes
// the same slot and generation), names, tags, transforms, states, the
// schedule's order and event subscriptions, without any onCreate.
func TestSaveRestoreKeepsHandles(t *testing.T) {
	log := &recorder{}
	lo := &testScript{name: "lo", prio: -1, log: log, events: []string{"ping"}}
	hi := &testScript{name: "hi", prio: 5, log: log, events: []string{"ping"}}
	rt := New(Options{Seed: 3})
	a, b, c := rt.Spawn(), rt.Spawn(), rt.Spawn()
	require.NoError(t, rt.SetName(a, "twin"))
	require.NoError(t, rt.SetName(c, "twin"))
	require.NoError(t, rt.Tag(c, "x"))
	require.NoError(t, rt.Set(c, Position, Vec3{1, 2, 3}))
	_, err := rt.Attach(a, hi, "a-hi")
	require.NoError(t, err)
	_, err = rt.Attach(c, lo, "c-lo")
	require.NoError(t, err)
	_, err = rt.Attach(a, lo, "a-lo")
	require.NoError(t, err)
	require.NoError(t, rt.Activate(a))
	_, err = rt.Kill(b)
	require.NoError(t, err)
	require.NoError(t, rt.Blackboard().Set("k", 1))
	require.NoError(t, rt.Step(0.5))
	ws, err := rt.Save()
	require.NoError(t, err)
	require.NoError(t, ws.Check())

	r := New(Options{})
	for i := range ws.Entities {
		for j := range ws.Entities[i].Instances {
			is := &ws.Entities[i].Instances[j]
			is.Data = is.Data.(string) + "'"
		}
	}
	log.take()
	require.NoError(t, r.Restore(ws))
	assert.Empty(t, log.take(), "no callback on restore")
	assert.Equal(t, int64(3), r.Seed())
	assert.Equal(t, uint64(1), r.Frame())
	assert.False(t, r.Alive(b), "a stale handle stays stale")
	first, _ := r.Find("twin")
	assert.Equal(t, a, first)
	assert.True(t, r.HasTag(c, "x"))
	tr, _ := r.Transform(c)
	assert.Equal(t, Vec3{1, 2, 3}, tr.Position)
	st, _ := r.State(c)
	assert.Equal(t, StatePending, st)
	v, _ := r.Blackboard().Get("k")
	assert.Equal(t, 1.0, v)
	assert.Equal(t, rt.Spawn(), r.Spawn(), "the next spawn takes the same slot and generation")

	_, err = r.Events().Notify("ping", nil, -1)
	require.NoError(t, err)
	assert.Equal(t, []string{"event a-lo' ping", "event a-hi' ping"}, log.take(), "schedule order; the pending entity gets none")
	require.NoError(t, r.Step(0.5))
	assert.Equal(t, []string{"update a-lo'", "update a-hi'"}, log.take())
	require.NoError(t, r.Close())
	assert.Equal(t, []string{"destroy c-lo'", "destroy a-lo'", "destroy a-hi'"}, log.take())
}

// TestEvictAdopt: an entity leaves without onDestroy and arrives in
// another runtime without onCreate, last in its attach order.
func TestEvictAdopt(t *testing.T) {
	log := &recorder{}
	s := &testScript{name: "s", log: log}
	src, dst := New(Options{}), New(Options{})
	e := src.Spawn()
	_, err := src.Attach(e, s, "one")
	require.NoError(t, err)
	_, err = src.Attach(e, s, "two")
	require.NoError(t, err)
	require.NoError(t, src.Activate(e))
	require.NoError(t, src.Tag(e, "t"))
	es, err := src.SaveEntity(e)
	require.NoError(t, err)
	log.take()
	require.NoError(t, src.Evict(e))
	assert.False(t, src.Alive(e))
	assert.Zero(t, src.Stats().Instances)
	assert.Empty(t, log.take(), "no onDestroy")

	early := dst.Spawn()
	_, err = dst.Attach(early, s, "early")
	require.NoError(t, err)
	require.NoError(t, dst.Activate(early))
	log.take()
	h, err := dst.Adopt(es)
	require.NoError(t, err)
	assert.Empty(t, log.take(), "no onCreate")
	assert.True(t, dst.HasTag(h, "t"))
	require.NoError(t, dst.Step(0.1))
	assert.Equal(t, []string{"update early", "update one", "update two"}, log.take())
}

// TestWorldStateCheck: a bad world state is refused with a precise error,
// and the runtime stays fresh.
func TestWorldStateCheck(t *testing.T) {
	s := &testScript{name: "s", log: &recorder{}}
	good := func() *WorldState {
		return &WorldState{Slots: 3, Seq: 1, Free: []Handle{{2, 4}},
			Entities: []EntityState{{Handle: Handle{1, 1}, State: StateActive, Instances: []InstanceState{{Seq: 1, Script: s}}}}}
	}
	cases := []struct {
		name   string
		change func(ws *WorldState)
		want   string
	}{
		{"slot missing", func(ws *WorldState) { ws.Free = nil }, "slots is 3, but the snapshot lists 0 free slots and 1 entities"},
		{"huge slots", func(ws *WorldState) { ws.Slots = 1 << 31 }, "slots is 2147483648"},
		{"slot twice", func(ws *WorldState) { ws.Slots, ws.Free = 4, []Handle{{1, 2}, {2, 4}} }, "slot 1 is listed twice"},
		{"out of range", func(ws *WorldState) { ws.Free = []Handle{{7, 1}} }, "index out of range"},
		{"generation 0", func(ws *WorldState) { ws.Free = []Handle{{2, 0}} }, "generation 0"},
		{"dying", func(ws *WorldState) { ws.Entities[0].State = StateDying }, "state dying"},
		{"seq above", func(ws *WorldState) { ws.Seq = 0 }, "seq 1"},
		{"no script", func(ws *WorldState) { ws.Entities[0].Instances[0].Script = nil }, "without a script"},
		{"name order", func(ws *WorldState) { ws.NameOrder = [][]Handle{{{1, 1}}} }, "name order"},
	}
	require.NoError(t, New(Options{}).Restore(good()))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := good()
			c.change(ws)
			rt := New(Options{})
			err := rt.Restore(ws)
			require.ErrorIs(t, err, ErrBadSnapshot)
			assert.Contains(t, err.Error(), c.want)
			assert.True(t, rt.Fresh())
		})
	}
	ws := good()
	assert.NoError(t, ws.Valid(Handle{2, 3}), "an older generation of a free slot is a stale handle")
	assert.ErrorContains(t, ws.Valid(Handle{2, 4}), "has not reached")
	assert.ErrorContains(t, ws.Valid(Handle{1, 2}), "has not reached")
	assert.ErrorContains(t, ws.Valid(Handle{3, 1}), "out of range")
}
