package runtime

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goObserver adds a Go observer that logs "NAME last=LAST mask=MASK" and
// returns its own name, so that the next observer's Last shows who ran
// before it.
func goObserver(es *Events, log *recorder, event, name string, opts ObserveOptions) *Observer {
	return es.Observe(event, func(ev *Event) any {
		log.add("%s last=%v mask=%d", name, FormatPlain(ev.Last), ev.Mask)
		return name
	}, opts)
}

func notify(t *testing.T, es *Events, name string, data any, mask int) bool {
	t.Helper()
	ok, err := es.Notify(name, data, mask)
	require.NoError(t, err)
	return ok
}

func TestObserverOrder(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	goObserver(es, log, "e", "b", ObserveOptions{})
	goObserver(es, log, "e", "a", ObserveOptions{First: true})
	goObserver(es, log, "e", "c", ObserveOptions{})
	goObserver(es, log, "e", "first", ObserveOptions{First: true})
	assert.True(t, notify(t, es, "e", "data", -1))
	assert.Equal(t, []string{
		`first last="data" mask=-1`,
		`a last="first" mask=-1`,
		`b last="a" mask=-1`,
		`c last="b" mask=-1`,
	}, log.take(), "the first observer sees the data, each next one its predecessor's result")
	assert.Equal(t, 4, es.Observers("e"))
	assert.Zero(t, es.Observers("other"))
}

func TestNotifyNoListeners(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	assert.True(t, notify(t, es, "never-observed", nil, -1))
	o := es.Observe("gone", func(*Event) any { return nil }, ObserveOptions{})
	o.Remove()
	assert.True(t, notify(t, es, "gone", nil, -1))
	assert.True(t, notify(t, es, "masked", nil, 0), "a zero mask reaches nobody and ends normally")
}

func TestObserverMasks(t *testing.T) {
	tests := []struct {
		name       string
		observer   int // 0 is the default: -1
		notify     int
		wantCalled bool
	}{
		{"default observer, default notify", 0, -1, true},
		{"default observer, one bit", 0, 0b100, true},
		{"same bit", 0b01, 0b01, true},
		{"overlapping bits", 0b011, 0b110, true},
		{"disjoint bits", 0b01, 0b10, false},
		{"observer all bits", -1, 0b1000, true},
		{"zero notify mask", -1, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, _ := newTestRuntime(t, Options{})
			log := &recorder{}
			goObserver(rt.Events(), log, "e", "o", ObserveOptions{Mask: tt.observer})
			assert.True(t, notify(t, rt.Events(), "e", nil, tt.notify))
			if tt.wantCalled {
				assert.Equal(t, []string{fmt.Sprintf("o last=nil mask=%d", tt.notify)}, log.take())
			} else {
				assert.Empty(t, log.take())
			}
		})
	}
}

func TestObserverOnce(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	goObserver(es, log, "e", "once", ObserveOptions{Once: true, Mask: 0b10})
	goObserver(es, log, "e", "always", ObserveOptions{})
	notify(t, es, "e", nil, 0b01)
	assert.Equal(t, []string{"always last=nil mask=1"}, log.take())
	assert.Equal(t, 2, es.Observers("e"), "a once observer that was not called stays")
	notify(t, es, "e", nil, -1)
	notify(t, es, "e", nil, -1)
	assert.Equal(t, []string{
		"once last=nil mask=-1",
		`always last="once" mask=-1`,
		"always last=nil mask=-1",
	}, log.take())
	assert.Equal(t, 1, es.Observers("e"))
	assert.Equal(t, 1, physical(rt, "e"))
}

func TestObserverStop(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	stop := true
	goObserver(es, log, "e", "a", ObserveOptions{})
	es.Observe("e", func(ev *Event) any {
		log.add("stopper")
		if stop {
			ev.Stop()
			assert.True(t, ev.Stopped())
		}
		return nil
	}, ObserveOptions{})
	goObserver(es, log, "e", "c", ObserveOptions{})

	assert.False(t, notify(t, es, "e", nil, -1), "a stopped dispatch returns false")
	assert.Equal(t, []string{"a last=nil mask=-1", "stopper"}, log.take())
	assert.False(t, notify(t, es, "e", nil, -1), "a stop lasts one dispatch only")
	log.take()
	stop = false
	assert.True(t, notify(t, es, "e", nil, -1))
	assert.Equal(t, []string{"a last=nil mask=-1", "stopper", "c last=nil mask=-1"}, log.take())
}

func TestEventFields(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	var seen []string
	data := map[string]any{"hp": 3, "tags": []any{"a"}}
	es.Observe("hit", func(ev *Event) any {
		seen = append(seen, fmt.Sprintf("%s %s %s %d", ev.Name, FormatPlain(ev.Data), FormatPlain(ev.Last), ev.Mask))
		tbl := ev.Data.(*Table)
		tbl.Fields[0].Value = 0.0 // changes only this dispatch's copy
		return nil
	}, ObserveOptions{})
	notify(t, es, "hit", data, 0b11)
	notify(t, es, "hit", data, -1)
	assert.Equal(t, []string{
		`hit {hp=3, tags={"a"}} {hp=3, tags={"a"}} 3`,
		`hit {hp=3, tags={"a"}} {hp=3, tags={"a"}} -1`,
	}, seen)
	assert.Equal(t, 3, data["hp"], "the caller's data is copied")
}

func TestNotifyRefusesNonPlain(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	goObserver(es, log, "e", "o", ObserveOptions{})
	h := spawnActive(t, rt, "")
	for _, call := range []func() (bool, error){
		func() (bool, error) { return es.Notify("e", map[string]any{"f": func() {}}, -1) },
		func() (bool, error) { return es.NotifyEntity(h, "e", make(chan int), -1) },
	} {
		ok, err := call()
		assert.False(t, ok)
		assert.ErrorIs(t, err, ErrNotPlain)
		assert.Contains(t, err.Error(), `event "e"`)
	}
	assert.Empty(t, log.take(), "nobody is called")
}

func TestRemoveDuringDispatchOutsideFrame(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	var early, self, later *Observer
	early = goObserver(es, log, "e", "early", ObserveOptions{})
	self = es.Observe("e", func(*Event) any {
		log.add("remover")
		self.Remove()
		early.Remove()
		later.Remove()
		self.Remove() // twice does nothing
		log.add("counted %d, stored %d", es.Observers("e"), physical(rt, "e"))
		return "remover"
	}, ObserveOptions{})
	later = goObserver(es, log, "e", "later", ObserveOptions{})
	goObserver(es, log, "e", "last", ObserveOptions{})

	assert.True(t, notify(t, es, "e", nil, -1))
	assert.Equal(t, []string{
		"early last=nil mask=-1",
		"remover",
		"counted 1, stored 4", // marked at once, still in the list
		`last last="remover" mask=-1`,
	}, log.take(), "a removed observer is skipped at once")
	assert.Equal(t, 1, es.Observers("e"))
	assert.Equal(t, 1, physical(rt, "e"), "removed physically after the dispatch")
}

func TestRemoveDuringDispatchInsideFrame(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	var self *Observer
	self = es.Observe("e", func(*Event) any {
		log.add("self")
		self.Remove()
		return nil
	}, ObserveOptions{})
	goObserver(es, log, "e", "stay", ObserveOptions{})
	counts := func(who string) {
		log.add("%s: counted %d, stored %d", who, es.Observers("e"), physical(rt, "e"))
	}
	attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "emitter", log: &recorder{}, update: func(*Instance, float64) error {
		notify(t, es, "e", nil, -1)
		counts("after dispatch")
		notify(t, es, "e", nil, -1)
		return nil
	}}, "emitter")
	attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "later", prio: 1, log: &recorder{}, update: func(*Instance, float64) error {
		counts("later update")
		return nil
	}}, "later")
	step(t, rt, 1)
	assert.Equal(t, []string{
		"self",
		"stay last=nil mask=-1",
		"after dispatch: counted 1, stored 2",
		"stay last=nil mask=-1",
		"later update: counted 1, stored 2",
	}, log.take(), "inside a frame the list keeps the removed observer until the flush")
	assert.Equal(t, 1, physical(rt, "e"), "removed at flush step 5")

	// Outside a dispatch, outside a frame: removed at once.
	o := goObserver(es, log, "e", "brief", ObserveOptions{})
	assert.Equal(t, 2, physical(rt, "e"))
	o.Remove()
	assert.Equal(t, 1, physical(rt, "e"))
}

func TestObserveDuringDispatch(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	added := false
	es.Observe("e", func(*Event) any {
		log.add("adder")
		if !added {
			added = true
			goObserver(es, log, "e", "new-last", ObserveOptions{})
			goObserver(es, log, "e", "new-first", ObserveOptions{First: true})
		}
		return "adder"
	}, ObserveOptions{})
	goObserver(es, log, "e", "old", ObserveOptions{})

	notify(t, es, "e", nil, -1)
	assert.Equal(t, []string{"adder", `old last="adder" mask=-1`}, log.take(), "observers added during a dispatch wait for the next one")
	notify(t, es, "e", nil, -1)
	assert.Equal(t, []string{
		"new-first last=nil mask=-1",
		"adder",
		`old last="adder" mask=-1`,
		`new-last last="old" mask=-1`,
	}, log.take())
}

// TestObserveDuringDispatchSpareCapacity repeats the check on a list with
// room to grow in place and a tombstone, where an insertion would shift
// the observers under a running dispatch.
func TestObserveDuringDispatchSpareCapacity(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	calls := 0
	es.Observe("e", func(*Event) any {
		calls++
		log.add("adder")
		if calls == 1 {
			goObserver(es, log, "e", "new-first", ObserveOptions{First: true})
			goObserver(es, log, "e", "new-last", ObserveOptions{})
		}
		return nil
	}, ObserveOptions{})
	goObserver(es, log, "e", "old", ObserveOptions{})
	goObserver(es, log, "e", "spare", ObserveOptions{}).Remove()
	require.Equal(t, 3, physical(rt, "e"), "one removed observer of three leaves a tombstone")
	items := rt.events.byName["e"].order.lanes[0].chunks[0].items
	require.Greater(t, cap(items), len(items), "the test needs spare capacity")

	notify(t, es, "e", nil, -1)
	assert.Equal(t, []string{"adder", "old last=nil mask=-1"}, log.take())
}

func TestNestedDispatch(t *testing.T) {
	tests := []struct {
		name     string
		maxDepth int
		want     int
	}{
		{"default limit", 0, DefaultMaxEventDepth},
		{"custom limit", 3, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, _ := newTestRuntime(t, Options{MaxEventDepth: tt.maxDepth})
			es := rt.Events()
			depth := 0
			var innermost error
			es.Observe("echo", func(ev *Event) any {
				depth++
				_, err := es.Notify("echo", nil, -1)
				if err != nil && innermost == nil {
					innermost = err
				}
				return nil
			}, ObserveOptions{})
			// A second, unrelated event also nests under the same limit.
			ok, err := es.Notify("echo", nil, -1)
			require.NoError(t, err, "the outer dispatch itself succeeds")
			assert.True(t, ok)
			assert.Equal(t, tt.want, depth, "dispatches nest up to the limit")
			require.Error(t, innermost)
			assert.ErrorIs(t, innermost, ErrEventDepth)
			assert.Contains(t, innermost.Error(), fmt.Sprintf("limit %d", tt.want))

			// The depth is unwound: a new dispatch works again.
			depth = 0
			innermost = nil
			_, err = es.Notify("echo", nil, -1)
			require.NoError(t, err)
			assert.Equal(t, tt.want, depth)
		})
	}
}

func TestNestedDispatchOtherEvent(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	es.Observe("outer", func(ev *Event) any {
		log.add("outer before")
		ok, err := es.Notify("inner", "x", 0b1)
		log.add("inner returned %v %v", ok, err)
		log.add("outer after, last=%v", FormatPlain(ev.Last))
		return nil
	}, ObserveOptions{})
	goObserver(es, log, "inner", "in", ObserveOptions{})
	notify(t, es, "outer", "o", -1)
	assert.Equal(t, []string{
		"outer before",
		`in last="x" mask=1`,
		"inner returned true <nil>",
		`outer after, last="o"`,
	}, log.take(), "a nested dispatch has its own Event")
}

func TestScriptObservers(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	mk := func(prio int) *testScript {
		return &testScript{name: fmt.Sprintf("p%d", prio), prio: prio, log: log, events: []string{"damage"},
			handle: func(inst *Instance, ev *Event) (any, error) {
				log.add("%s sees last=%s", label(inst), FormatPlain(ev.Last))
				return label(inst), nil
			}}
	}
	e1, e2, e3 := spawnActive(t, rt, ""), spawnActive(t, rt, ""), spawnActive(t, rt, "")
	attach(t, rt, e1, mk(10), "ten")
	minus := attach(t, rt, e2, mk(-5), "minus")
	attach(t, rt, e3, mk(0), "zero-a")
	attach(t, rt, e1, mk(0), "zero-b")
	assert.Equal(t, 4, es.Observers("damage"), "subscribed at create")
	log.take()

	notify(t, es, "damage", 5, -1)
	assert.Equal(t, []string{
		"event minus damage", "minus sees last=5",
		"event zero-a damage", `zero-a sees last="minus"`,
		"event zero-b damage", `zero-b sees last="zero-a"`,
		"event ten damage", `ten sees last="zero-b"`,
	}, log.take(), "in schedule order; results chain through Last")

	t.Run("NotifyEntity", func(t *testing.T) {
		goObserver(es, log, "damage", "go", ObserveOptions{})
		ok, err := es.NotifyEntity(e1, "damage", 1, -1)
		require.NoError(t, err)
		assert.True(t, ok)
		assert.Equal(t, []string{
			"event zero-b damage", "zero-b sees last=1",
			"event ten damage", `ten sees last="zero-b"`,
		}, log.take(), "only e1's instances; no Go observer")
	})
	t.Run("unsubscribed at destroy", func(t *testing.T) {
		require.True(t, rt.Detach(minus))
		log.take()
		assert.Equal(t, 4, es.Observers("damage"), "three scripts and the Go observer")
		notify(t, es, "damage", nil, -1)
		assert.NotContains(t, log.take(), "event minus damage")
		_, err := rt.Kill(e1)
		require.NoError(t, err)
		assert.Equal(t, 2, es.Observers("damage"))
		assert.LessOrEqual(t, physical(rt, "damage"), 2*es.Observers("damage"),
			"slots of removed observers are reclaimed once they are half a lane")
	})
}

func TestScriptObserversOnlyWhenRunnable(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	s := &testScript{name: "s", log: log, events: []string{"ping"}}

	pending := rt.Spawn()
	attach(t, rt, pending, s, "pending")
	active := spawnActive(t, rt, "")
	attach(t, rt, active, s, "active")
	dying := spawnActive(t, rt, "")
	attach(t, rt, dying, s, "dying")
	faulty := attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "f", log: log, events: []string{"ping"},
		update: func(*Instance, float64) error { return errBoom }}, "faulty")
	detached := attach(t, rt, spawnActive(t, rt, ""), s, "detached")
	step(t, rt, 1)
	require.True(t, faulty.Faulted())
	log.take()

	attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "driver", prio: 10, log: &recorder{}, update: func(*Instance, float64) error {
		_, err := rt.Kill(dying)
		require.NoError(t, err)
		require.True(t, rt.Detach(detached))
		notify(t, es, "ping", nil, -1)
		return nil
	}}, "driver")
	step(t, rt, 1)
	assert.Equal(t, []string{
		"update active", "update dying", "update detached",
		"event active ping",
		"destroy detached", "destroy dying",
	}, log.take(), "no events for Pending, Dying, faulted or detached instances")

	require.NoError(t, rt.Activate(pending))
	notify(t, es, "ping", nil, -1)
	assert.Equal(t, []string{"event pending ping", "event active ping"}, log.take())
}

func TestSubscribedAfterOnCreate(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	s := &testScript{name: "s", log: log, events: []string{"ping"}, create: func(*Instance) error {
		notify(t, es, "ping", nil, -1)
		return nil
	}}
	attach(t, rt, spawnActive(t, rt, ""), s, "first")
	attach(t, rt, spawnActive(t, rt, ""), s, "second")
	assert.Equal(t, []string{"create first", "create second", "event first ping"}, log.take(),
		"an event sent from onCreate reaches instances already created, not the one being created")
}

func TestHandlerStopsDispatch(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	s := &testScript{name: "s", log: log, events: []string{"e"}, handle: func(inst *Instance, ev *Event) (any, error) {
		if label(inst) == "stopper" {
			ev.Stop()
		}
		return nil, nil
	}}
	attach(t, rt, spawnActive(t, rt, ""), s, "stopper")
	attach(t, rt, spawnActive(t, rt, ""), s, "never")
	goObserver(es, log, "e", "go", ObserveOptions{})
	log.take()
	assert.False(t, notify(t, es, "e", nil, -1))
	assert.Equal(t, []string{"event stopper e"}, log.take())
}

func TestEmitFromUpdate(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	log := &recorder{}
	listener := &testScript{name: "listener", prio: 5, log: log, events: []string{"hello"}}
	attach(t, rt, spawnActive(t, rt, ""), listener, "listener")
	attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "emitter", log: log, update: func(*Instance, float64) error {
		notify(t, es, "hello", nil, -1)
		return nil
	}}, "emitter")
	log.take()
	step(t, rt, 1)
	assert.Equal(t, []string{"update emitter", "event listener hello", "update listener"}, log.take(), "dispatch is synchronous")
}

func TestEventObjectsReused(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	es.Observe("e", func(*Event) any { return nil }, ObserveOptions{})
	notify(t, es, "e", nil, -1)
	allocs := testing.AllocsPerRun(100, func() {
		_, _ = es.Notify("e", nil, -1)
	})
	assert.Zero(t, allocs, "a dispatch of scalar data allocates nothing")
}

func TestNotifyPlainDoesNotCopy(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	es := rt.Events()
	data := &Table{Fields: []Field{{Key: "hp", Value: 7.0}}}
	var got, gotCopy any
	es.Observe("plain", func(ev *Event) any { got = ev.Data; return nil }, ObserveOptions{})
	es.Observe("copied", func(ev *Event) any { gotCopy = ev.Data; return nil }, ObserveOptions{})
	ok, err := es.NotifyPlain(Handle{}, "plain", data, -1)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Same(t, data, got, "owned plain data is handed on as it is")
	_, err = es.Notify("copied", data, -1)
	require.NoError(t, err)
	assert.NotSame(t, data, gotCopy, "Notify copies")
	assert.Equal(t, data, gotCopy)
}
