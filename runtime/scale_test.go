package runtime

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGoDispatchDefersKills: an event dispatched from Go
// between frames defers the kills and detaches its handlers make until
// the dispatch returns, as a frame does, so no handler runs on an entity
// whose onDestroy already ran, and every onDestroy has run when Notify
// returns.
func TestGoDispatchDefersKills(t *testing.T) {
	tests := []struct {
		name string
		// act runs in the first handler, given the runtime and the
		// handles and instances of the two listeners.
		act  func(rt *Runtime, self, other Handle, otherInst *Instance)
		want []string
	}{
		{
			name: "kill another",
			act: func(rt *Runtime, _, other Handle, _ *Instance) {
				_, err := rt.Kill(other)
				require.NoError(t, err)
			},
			want: []string{"event a ping", "a goes on", "destroy b"},
		},
		{
			name: "kill itself",
			act: func(rt *Runtime, self, _ Handle, _ *Instance) {
				_, err := rt.Kill(self)
				require.NoError(t, err)
			},
			want: []string{"event a ping", "a goes on", "event b ping", "destroy a"},
		},
		{
			name: "detach another",
			act: func(rt *Runtime, _, _ Handle, other *Instance) {
				require.True(t, rt.Detach(other))
			},
			want: []string{"event a ping", "a goes on", "destroy b"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, _ := newTestRuntime(t, Options{})
			log := &recorder{}
			a, b := spawnActive(t, rt, ""), spawnActive(t, rt, "")
			var bInst *Instance
			attach(t, rt, a, &testScript{name: "s", log: log, events: []string{"ping"}, handle: func(*Instance, *Event) (any, error) {
				tt.act(rt, a, b, bInst)
				log.add("a goes on")
				return nil, nil
			}}, "a")
			bInst = attach(t, rt, b, &testScript{name: "s", log: log, events: []string{"ping"}}, "b")
			log.take()

			notify(t, rt.Events(), "ping", nil, -1)
			assert.Equal(t, tt.want, log.take())
		})
	}
}

// TestObserverOrderAcrossGoAndScripts pins down where Go observers fall
// among script observers: a Go observer counts as a priority-0 script
// attached when it was added; First puts one before everything.
func TestObserverOrderAcrossGoAndScripts(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	mk := func(prio int) *testScript {
		return &testScript{name: fmt.Sprintf("p%d", prio), prio: prio, log: log, events: []string{"e"}}
	}
	attach(t, rt, spawnActive(t, rt, ""), mk(0), "zero-early")
	goObserver(es, log, "e", "go", ObserveOptions{})
	attach(t, rt, spawnActive(t, rt, ""), mk(0), "zero-late")
	attach(t, rt, spawnActive(t, rt, ""), mk(-1), "minus")
	attach(t, rt, spawnActive(t, rt, ""), mk(1), "one")
	goObserver(es, log, "e", "front", ObserveOptions{First: true})
	log.take()

	notify(t, es, "e", nil, -1)
	assert.Equal(t, []string{
		"front last=nil mask=-1",
		"event minus e", "event zero-early e",
		"go last=nil mask=-1",
		"event zero-late e", "event one e",
	}, log.take())
}

// TestNestedCreateObserverOrder checks that an instance whose onCreate
// attaches another (which subscribes first) still observes before it:
// schedule order is attach order, not subscription order.
func TestNestedCreateObserverOrder(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	inner := &testScript{name: "inner", log: log, events: []string{"e"}}
	outer := &testScript{name: "outer", log: log, events: []string{"e"}, create: func(*Instance) error {
		attach(t, rt, spawnActive(t, rt, ""), inner, "inner")
		return nil
	}}
	attach(t, rt, spawnActive(t, rt, ""), outer, "outer")
	log.take()
	notify(t, rt.Events(), "e", nil, -1)
	assert.Equal(t, []string{"event outer e", "event inner e"}, log.take())
}

// TestSendRemovalDuringDispatch checks NotifyEntity against removal: an
// instance of the target detached by an earlier handler is skipped at
// once.
func TestSendRemovalDuringDispatch(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	h := spawnActive(t, rt, "")
	var second *Instance
	attach(t, rt, h, &testScript{name: "first", log: log, events: []string{"e"}, handle: func(*Instance, *Event) (any, error) {
		rt.Detach(second)
		return nil, nil
	}}, "first")
	second = attach(t, rt, h, &testScript{name: "second", log: log, events: []string{"e"}}, "second")
	attach(t, rt, h, &testScript{name: "third", log: log, events: []string{"e"}}, "third")
	log.take()
	_, err := rt.Events().NotifyEntity(h, "e", nil, -1)
	require.NoError(t, err)
	assert.Equal(t, []string{"event first e", "event third e", "destroy second"}, log.take())
}

// TestListsStayBounded checks that churn leaves no growing garbage: the
// schedule, an event's observer list, a shared name's list and a script's
// group stay within twice their live size, and Find keeps answering the
// earliest-named entity still alive.
func TestListsStayBounded(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	s := &testScript{name: "minion", log: &recorder{}, events: []string{"hit"}}
	var keep []Handle
	for range 60 {
		h := spawnActive(t, rt, "minion")
		attach(t, rt, h, s, nil)
		keep = append(keep, h)
	}
	for i := range 5000 {
		h := spawnActive(t, rt, "minion")
		attach(t, rt, h, s, nil)
		if i%2 == 0 {
			step(t, rt, 0.1)
		}
		_, err := rt.Kill(h)
		require.NoError(t, err)
		if i%100 == 0 {
			// Kill the earliest named: Find moves on to the next one.
			_, err := rt.Kill(keep[0])
			require.NoError(t, err)
			keep = keep[1:]
			if i%200 == 0 {
				step(t, rt, 0.1)
			}
			found, ok := rt.Find("minion")
			require.True(t, ok, "at %d", i)
			require.Equal(t, keep[0], found)
		}
	}
	live := len(keep)
	assert.Equal(t, live, rt.Stats().Instances)
	assert.LessOrEqual(t, rt.sched.len(), 2*live)
	assert.LessOrEqual(t, physical(rt, "hit"), 2*live)
	assert.LessOrEqual(t, len(rt.names["minion"].hs), 2*live)
	assert.LessOrEqual(t, len(rt.byScript[s].insts), 2*live)
	assert.Equal(t, live, rt.Events().Observers("hit"))
	assert.Len(t, rt.ScriptInstances(s), live)
}

// TestScriptChangedMovesOnlyItsInstances checks a reload's priority
// change against instances of other scripts and a Go observer: the moved
// instances keep attach order among themselves and take their place in
// the new priority.
func TestScriptChangedMovesOnlyItsInstances(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	hot := &testScript{name: "hot", prio: 0, log: log, events: []string{"e"}}
	cold := &testScript{name: "cold", prio: 5, log: log, events: []string{"e"}}
	attach(t, rt, spawnActive(t, rt, ""), cold, "cold1")
	attach(t, rt, spawnActive(t, rt, ""), hot, "hot1")
	attach(t, rt, spawnActive(t, rt, ""), cold, "cold2")
	attach(t, rt, spawnActive(t, rt, ""), hot, "hot2")
	hot.prio = 5
	require.NoError(t, rt.ScriptChanged(hot))
	assert.Equal(t, []string{"cold1", "hot1", "cold2", "hot2"}, labels(rt.Schedule()))
	log.take()
	notify(t, rt.Events(), "e", nil, -1)
	assert.Equal(t, []string{"event cold1 e", "event hot1 e", "event cold2 e", "event hot2 e"}, log.take())
	hot.events = nil
	require.NoError(t, rt.ScriptChanged(hot))
	assert.Equal(t, 2, rt.Events().Observers("e"), "a handler dropped by the reload unsubscribes")
}

// TestCloseWithDispatchingDestroys checks shutdown against an onDestroy
// that dispatches an event whose handler kills other entities: every
// instance is destroyed exactly once, in schedule order for those Close
// reaches itself.
func TestCloseWithDispatchingDestroys(t *testing.T) {
	rt := New(Options{OnError: Discard})
	log := &recorder{}
	var victims []Handle
	killer := &testScript{name: "killer", log: log, events: []string{"doom"}, handle: func(*Instance, *Event) (any, error) {
		for _, v := range victims {
			_, _ = rt.Kill(v)
		}
		return nil, nil
	}}
	herald := &testScript{name: "herald", log: log, destroy: func(*Instance) error {
		_, err := rt.Events().Notify("doom", nil, -1)
		return err
	}}
	// Instances destroyed before the herald leave tombstones behind
	// Close's walk; the victims' settlement adds more after it.
	for i := range 4 {
		attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "early", log: log}, fmt.Sprintf("e%d", i))
	}
	attach(t, rt, spawnActive(t, rt, ""), herald, "herald")
	for i := range 6 {
		h := spawnActive(t, rt, "")
		attach(t, rt, h, &testScript{name: "victim", log: log}, fmt.Sprintf("v%d", i))
		victims = append(victims, h)
	}
	attach(t, rt, spawnActive(t, rt, ""), killer, "killer")
	log.take()
	require.NoError(t, rt.Close())
	assert.Equal(t, []string{"destroy e0", "destroy e1", "destroy e2", "destroy e3",
		"destroy herald", "event killer doom",
		"destroy v0", "destroy v1", "destroy v2", "destroy v3", "destroy v4", "destroy v5",
		"destroy killer"}, log.take())
	assert.Zero(t, rt.Stats().Instances)
}
