package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// labels returns the labels of insts, in order.
func labels(insts []*Instance) []string {
	out := make([]string, len(insts))
	for i, inst := range insts {
		out[i] = label(inst)
	}
	return out
}

func TestScheduleOrder(t *testing.T) {
	type att struct {
		entity int // index into the test's entities
		prio   int
		label  string
	}
	tests := []struct {
		name    string
		attach  []att
		updates []string
	}{
		{
			name: "priority ascending, ties in attach order",
			attach: []att{
				{0, 0, "zero-a"},
				{1, 10, "ten"},
				{0, -5, "minus-five"},
				{2, 0, "zero-b"},
			},
			updates: []string{"minus-five", "zero-a", "zero-b", "ten"},
		},
		{
			name: "attach order is global across entities",
			attach: []att{
				{0, 0, "e0-first"},
				{1, 0, "e1-first"},
				{0, 0, "e0-second"},
				{2, 0, "e2-first"},
				{1, 0, "e1-second"},
			},
			updates: []string{"e0-first", "e1-first", "e0-second", "e2-first", "e1-second"},
		},
		{
			name: "stable among many ties",
			attach: []att{
				{2, 1, "p1-a"}, {1, 0, "p0-a"}, {0, 1, "p1-b"}, {0, 0, "p0-b"},
				{1, 1, "p1-c"}, {2, 0, "p0-c"}, {0, -1, "m1"}, {1, 0, "p0-d"},
			},
			updates: []string{"m1", "p0-a", "p0-b", "p0-c", "p0-d", "p1-a", "p1-b", "p1-c"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, _ := newTestRuntime(t, Options{})
			log := &recorder{}
			ents := []Handle{spawnActive(t, rt, ""), spawnActive(t, rt, ""), spawnActive(t, rt, "")}
			scripts := map[int]*testScript{}
			for _, a := range tt.attach {
				s := scripts[a.prio]
				if s == nil {
					s = &testScript{name: "s", prio: a.prio, log: log}
					scripts[a.prio] = s
				}
				attach(t, rt, ents[a.entity], s, a.label)
			}
			assert.Equal(t, tt.updates, labels(rt.Schedule()))
			log.take()
			want := make([]string, len(tt.updates))
			for i, l := range tt.updates {
				want[i] = "update " + l
			}
			for range 2 { // the same order every frame
				step(t, rt, 1)
				assert.Equal(t, want, log.take())
			}
		})
	}
}

// TestScheduleTiesWithLateAttach checks that instances attached during a
// frame join their priority group behind everything attached before them.
func TestScheduleTiesWithLateAttach(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	h := spawnActive(t, rt, "")
	zero := &testScript{name: "zero", log: log}
	minus := &testScript{name: "minus", prio: -1, log: log}
	attach(t, rt, h, zero, "z1")
	spawner := &testScript{name: "spawner", log: log}
	spawner.update = func(inst *Instance, _ float64) error {
		if rt.Frame() == 1 {
			attach(t, rt, h, zero, "z-late")
			attach(t, rt, h, minus, "m-late")
		}
		return nil
	}
	attach(t, rt, h, spawner, "spawner")
	attach(t, rt, h, zero, "z2")
	step(t, rt, 1)
	assert.Equal(t, []string{"m-late", "z1", "spawner", "z2", "z-late"}, labels(rt.Schedule()))
}

// prioScript is a script whose priority and events can change, as a hot
// reload changes them.
type prioScript struct {
	testScript
}

func TestScriptChanged(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	hot := &prioScript{testScript{name: "hot", log: log, events: []string{"ping"}}}
	cold := &testScript{name: "cold", log: log, events: []string{"ping", "pong"}}
	e1, e2 := spawnActive(t, rt, ""), spawnActive(t, rt, "")
	attach(t, rt, e1, hot, "hot1")
	attach(t, rt, e2, cold, "cold1")
	attach(t, rt, e2, hot, "hot2")
	attach(t, rt, e1, cold, "cold2")
	log.take()

	notify := func(name string) []string {
		ok, err := rt.Events().Notify(name, nil, -1)
		require.NoError(t, err)
		require.True(t, ok)
		return log.take()
	}

	assert.Equal(t, []string{"hot1", "cold1", "hot2", "cold2"}, labels(rt.Schedule()))
	assert.Equal(t, []string{"event hot1 ping", "event cold1 ping", "event hot2 ping", "event cold2 ping"}, notify("ping"))

	t.Run("priority up", func(t *testing.T) {
		hot.prio = 5
		hot.events = []string{"pong"}
		require.NoError(t, rt.ScriptChanged(hot))
		assert.Equal(t, []string{"cold1", "cold2", "hot1", "hot2"}, labels(rt.Schedule()))
		step(t, rt, 1)
		assert.Equal(t, []string{"update cold1", "update cold2", "update hot1", "update hot2"}, log.take())
		assert.Equal(t, []string{"event cold1 ping", "event cold2 ping"}, notify("ping"), "unsubscribed from ping")
		assert.Equal(t, []string{"event cold1 pong", "event cold2 pong", "event hot1 pong", "event hot2 pong"}, notify("pong"), "subscribed to pong, in the new order")
		assert.Equal(t, 2, rt.Events().Observers("ping"))
		assert.Equal(t, 2, physical(rt, "ping"), "old subscriptions are gone, not just marked")
		assert.Equal(t, 4, rt.Events().Observers("pong"))
	})
	t.Run("priority back: ties keep attach order", func(t *testing.T) {
		hot.prio = 0
		hot.events = []string{"ping", "pong"}
		require.NoError(t, rt.ScriptChanged(hot))
		assert.Equal(t, []string{"hot1", "cold1", "hot2", "cold2"}, labels(rt.Schedule()))
		step(t, rt, 1)
		assert.Equal(t, []string{"update hot1", "update cold1", "update hot2", "update cold2"}, log.take())
		assert.Equal(t, []string{"event hot1 ping", "event cold1 ping", "event hot2 ping", "event cold2 ping"}, notify("ping"))
		assert.Equal(t, []string{"event hot1 pong", "event cold1 pong", "event hot2 pong", "event cold2 pong"}, notify("pong"))
	})
	t.Run("priority down", func(t *testing.T) {
		hot.prio = -3
		require.NoError(t, rt.ScriptChanged(hot))
		assert.Equal(t, []string{"hot1", "hot2", "cold1", "cold2"}, labels(rt.Schedule()))
		assert.Equal(t, []string{"event hot1 pong", "event hot2 pong", "event cold1 pong", "event cold2 pong"}, notify("pong"))
	})
	t.Run("with a Go observer", func(t *testing.T) {
		// The contract orders script observers among themselves only;
		// where a Go observer falls among them after a change is not part
		// of it.
		rt.Events().Observe("pong", func(*Event) any { log.add("go observer"); return nil }, ObserveOptions{})
		hot.prio = 3
		require.NoError(t, rt.ScriptChanged(hot))
		got := notify("pong")
		assert.Contains(t, got, "go observer")
		var scripts []string
		for _, l := range got {
			if l != "go observer" {
				scripts = append(scripts, l)
			}
		}
		assert.Equal(t, []string{"event cold1 pong", "event cold2 pong", "event hot1 pong", "event hot2 pong"}, scripts)
	})
	t.Run("refused during a frame", func(t *testing.T) {
		var got error
		cold.update = func(*Instance, float64) error {
			got = rt.ScriptChanged(hot)
			return nil
		}
		step(t, rt, 1)
		cold.update = nil
		assert.ErrorIs(t, got, ErrStepping)
	})
}

func TestScheduleExcludesDetached(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	h := spawnActive(t, rt, "")
	s := &testScript{name: "s", log: log}
	a := attach(t, rt, h, s, "a")
	attach(t, rt, h, s, "b")
	require.True(t, rt.Detach(a))
	assert.Equal(t, []string{"b"}, labels(rt.Schedule()))
	insts, err := rt.Instances(h)
	require.NoError(t, err)
	assert.Equal(t, []string{"b"}, labels(insts))
}
