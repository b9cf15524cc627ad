package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFrameNumberAndTime(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	s := &testScript{name: "s", log: log, update: func(inst *Instance, dt float64) error {
		log.add("frame %d dt %v time %v stepping %v", rt.Frame(), dt, rt.Time(), rt.Stepping())
		return nil
	}}
	assert.Zero(t, rt.Frame())
	assert.Zero(t, rt.Time())
	assert.Zero(t, rt.DT())
	assert.False(t, rt.Stepping())
	attach(t, rt, spawnActive(t, rt, ""), s, "s")
	log.take()

	step(t, rt, 0.5)
	step(t, rt, 0.25)
	step(t, rt, 0.125)
	assert.Equal(t, []string{
		"update s", "frame 1 dt 0.5 time 0.5 stepping true",
		"update s", "frame 2 dt 0.25 time 0.75 stepping true",
		"update s", "frame 3 dt 0.125 time 0.875 stepping true",
	}, log.take())
	assert.Equal(t, uint64(3), rt.Frame())
	assert.Equal(t, 0.875, rt.Time())
	assert.Equal(t, 0.125, rt.DT())
	assert.False(t, rt.Stepping())
	assert.Equal(t, uint64(3), rt.Stats().Frames)
}

func TestBeforeAndAfterStep(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{Seed: 42})
	assert.Equal(t, int64(42), rt.Seed())
	log := &recorder{}
	rt.BeforeStep(func() { log.add("before, frame %d, stepping %v", rt.Frame(), rt.Stepping()) })
	rt.AfterStep(func() { log.add("after, frame %d, stepping %v", rt.Frame(), rt.Stepping()) })
	h := spawnActive(t, rt, "")
	attach(t, rt, h, &testScript{name: "s", log: log, update: func(*Instance, float64) error {
		_, err := rt.Kill(h)
		return err
	}}, "s")
	log.take()
	step(t, rt, 1)
	step(t, rt, 1)
	assert.Equal(t, []string{
		"before, frame 0, stepping false",
		"update s",
		"destroy s",
		"after, frame 1, stepping false",
		"before, frame 1, stepping false",
		"after, frame 2, stepping false",
	}, log.take(), "before the frame number moves; after the flush")
}

func TestPendingGetsNoUpdate(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	h := rt.Spawn()
	attach(t, rt, h, &testScript{name: "s", log: log}, "s")
	log.take()
	step(t, rt, 1)
	step(t, rt, 1)
	assert.Empty(t, log.take(), "an entity spawned outside a frame stays Pending until Activate")
	require.NoError(t, rt.Activate(h))
	step(t, rt, 1)
	assert.Equal(t, []string{"update s"}, log.take())
}

func TestAttachDuringUpdate(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	h := spawnActive(t, rt, "")
	late := &testScript{name: "late", prio: 5, log: log}
	first := &testScript{name: "first", log: log}
	first.update = func(inst *Instance, _ float64) error {
		if rt.Frame() == 1 {
			attach(t, rt, h, late, "late")
			log.add("attached")
		}
		return nil
	}
	attach(t, rt, h, first, "first")
	attach(t, rt, h, &testScript{name: "last", prio: 10, log: log}, "last")
	log.take()

	step(t, rt, 1)
	assert.Equal(t, []string{"update first", "create late", "attached", "update last"}, log.take(),
		"onCreate runs at once; no update in the frame of the attach, even later in the schedule")
	step(t, rt, 1)
	assert.Equal(t, []string{"update first", "update late", "update last"}, log.take())
}

func TestDetachSelfDuringUpdate(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	h := spawnActive(t, rt, "")
	self := &testScript{name: "self", log: log}
	self.update = func(inst *Instance, _ float64) error {
		log.add("detach %v", rt.Detach(inst))
		log.add("again %v", rt.Detach(inst))
		log.add("detached %v live %v", inst.Detached(), inst.Live())
		insts, err := rt.Instances(h)
		require.NoError(t, err)
		log.add("instances %v", labels(insts))
		return nil
	}
	attach(t, rt, h, self, "self")
	attach(t, rt, h, &testScript{name: "other", log: log}, "other")
	log.take()

	step(t, rt, 1)
	assert.Equal(t, []string{
		"update self",
		"detach true",
		"again false",
		"detached true live true",
		"instances [other]",
		"update other",
		"destroy self",
	}, log.take(), "onDestroy at the frame's end")
	step(t, rt, 1)
	assert.Equal(t, []string{"update other"}, log.take())
}

func TestDetachOther(t *testing.T) {
	tests := []struct {
		name       string
		targetPrio int // the detacher has priority 0
		want       []string
	}{
		{
			name:       "target earlier in the schedule",
			targetPrio: -1,
			want: []string{
				"update b", "update c",
				"update a",
				"update after",
				"destroy c", "destroy b",
			},
		},
		{
			name:       "target later in the schedule",
			targetPrio: 1,
			want: []string{
				"update a",
				"update after",
				"destroy c", "destroy b",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, _ := newTestRuntime(t, Options{})
			log := &recorder{}
			target := &testScript{name: "target", prio: tt.targetPrio, log: log}
			e := spawnActive(t, rt, "")
			b := attach(t, rt, e, target, "b")
			c := attach(t, rt, spawnActive(t, rt, ""), target, "c")
			a := &testScript{name: "a", log: log, update: func(*Instance, float64) error {
				// Detach order (c, b) differs from schedule order (b, c).
				assert.True(t, rt.Detach(c))
				assert.True(t, rt.Detach(b))
				return nil
			}}
			attach(t, rt, spawnActive(t, rt, ""), a, "a")
			attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "after", prio: 2, log: log}, "after")
			log.take()

			step(t, rt, 1)
			assert.Equal(t, tt.want, log.take())
			a.update = nil
			step(t, rt, 1)
			assert.Equal(t, []string{"update a", "update after"}, log.take())
			assert.Equal(t, 2, rt.Stats().Instances)
		})
	}
}

func TestDetachScript(t *testing.T) {
	setup := func(t *testing.T) (*Runtime, *recorder, Handle) {
		rt, _ := newTestRuntime(t, Options{})
		log := &recorder{}
		h := spawnActive(t, rt, "")
		s := &testScript{name: "s", log: log}
		attach(t, rt, h, s, "s1")
		attach(t, rt, h, &testScript{name: "t", log: log}, "t")
		attach(t, rt, h, s, "s2")
		attach(t, rt, spawnActive(t, rt, ""), s, "elsewhere")
		log.take()
		return rt, log, h
	}
	t.Run("outside a frame", func(t *testing.T) {
		rt, log, h := setup(t)
		n, err := rt.DetachScript(h, "s")
		require.NoError(t, err)
		assert.Equal(t, 2, n)
		assert.Equal(t, []string{"destroy s1", "destroy s2"}, log.take(), "at once")
		n, err = rt.DetachScript(h, "s")
		require.NoError(t, err)
		assert.Zero(t, n)
		n, err = rt.DetachScript(h, "unknown")
		require.NoError(t, err)
		assert.Zero(t, n)
		step(t, rt, 1)
		assert.Equal(t, []string{"update t", "update elsewhere"}, log.take())
	})
	t.Run("during a frame", func(t *testing.T) {
		rt, log, h := setup(t)
		d := &testScript{name: "d", prio: -1, log: log, update: func(*Instance, float64) error {
			n, err := rt.DetachScript(h, "s")
			log.add("detached %d %v", n, err)
			return nil
		}}
		attach(t, rt, spawnActive(t, rt, ""), d, "d")
		log.take()
		step(t, rt, 1)
		assert.Equal(t, []string{"update d", "detached 2 <nil>", "update t", "update elsewhere", "destroy s1", "destroy s2"}, log.take())
	})
}

func TestKillDuringUpdate(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	s := &testScript{name: "s", log: log}
	early := &testScript{name: "early", prio: -1, log: log}
	late := &testScript{name: "late", prio: 1, log: log}

	e1 := spawnActive(t, rt, "e1")
	e2 := spawnActive(t, rt, "e2")
	attach(t, rt, e1, late, "e1-late-a")
	attach(t, rt, e1, early, "e1-early")
	attach(t, rt, e2, late, "e2-late")
	attach(t, rt, e2, s, "e2-zero")
	attach(t, rt, e1, late, "e1-late-b")
	killer := &testScript{name: "killer", log: log, update: func(*Instance, float64) error {
		// Kill order e2, e1: settlement runs in that order.
		for _, h := range []Handle{e2, e1} {
			ok, err := rt.Kill(h)
			require.NoError(t, err)
			require.True(t, ok)
		}
		return nil
	}}
	attach(t, rt, spawnActive(t, rt, ""), killer, "killer")
	log.take()

	step(t, rt, 1)
	assert.Equal(t, []string{
		"update e1-early",
		"update e2-zero",
		"update killer",
		// no update for the rest of e1 and e2 this frame
		"destroy e2-zero", "destroy e2-late",
		"destroy e1-early", "destroy e1-late-a", "destroy e1-late-b",
	}, log.take())
	assert.False(t, rt.Alive(e1))
	assert.False(t, rt.Alive(e2))
	assert.Equal(t, 1, rt.Stats().Entities)
	assert.Equal(t, 1, rt.Stats().Instances)
}

func TestKillPendingSpawnedThisFrame(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	var spawned Handle
	k := &testScript{name: "k", log: log}
	k.update = func(*Instance, float64) error {
		spawned = rt.Spawn()
		attach(t, rt, spawned, &testScript{name: "child", log: log}, "child")
		log.add("spawned %s", stateOf(rt, spawned))
		ok, err := rt.Kill(spawned)
		log.add("kill %v %v", ok, err)
		return nil
	}
	attach(t, rt, spawnActive(t, rt, ""), k, "k")
	log.take()
	step(t, rt, 1)
	assert.Equal(t, []string{"update k", "create child", "spawned pending", "kill true <nil>", "destroy child"}, log.take())
	assert.False(t, rt.Alive(spawned), "cancelled, never activated")
	k.update = nil
	step(t, rt, 1)
	assert.Equal(t, []string{"update k"}, log.take())
}

func TestSpawnDuringUpdate(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	var spawned Handle
	child := &testScript{name: "child", prio: 10, log: log}
	k := &testScript{name: "k", log: log}
	k.update = func(*Instance, float64) error {
		if rt.Frame() == 1 {
			spawned = rt.Spawn()
			attach(t, rt, spawned, child, "child")
		}
		return nil
	}
	attach(t, rt, spawnActive(t, rt, ""), k, "k")
	log.take()

	step(t, rt, 1)
	assert.Equal(t, []string{"update k", "create child"}, log.take())
	assert.Equal(t, StateActive, stateOf(rt, spawned), "Active from the frame's flush")
	step(t, rt, 1)
	assert.Equal(t, []string{"update k", "update child"}, log.take())
}

// TestFlushOrder proves the order of the frame's flush: detach destroys,
// settlement, transform commit, activation, observer removal.
func TestFlushOrder(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	mover := spawnActive(t, rt, "mover")
	doomed := spawnActive(t, rt, "doomed")
	holder := spawnActive(t, rt, "holder")
	var newborn Handle

	obs := rt.Events().Observe("tick", func(*Event) any { return nil }, ObserveOptions{})
	report := func(who string) {
		pos, err := rt.Get(mover, Position)
		require.NoError(t, err)
		log.add("%s: mover at %v, newborn %s, tick observers %d of %d",
			who, pos, stateOf(rt, newborn), rt.Events().Observers("tick"), physical(rt, "tick"))
	}
	detachedInst := attach(t, rt, holder, &testScript{name: "held", log: log, destroy: func(*Instance) error {
		report("detach destroy")
		return nil
	}}, "held")
	attach(t, rt, doomed, &testScript{name: "victim", log: log, destroy: func(*Instance) error {
		report("settlement")
		return nil
	}}, "victim")
	driver := &testScript{name: "driver", log: log}
	driver.update = func(*Instance, float64) error {
		// Kill before detach: the flush still destroys the detached
		// instance first.
		_, err := rt.Kill(doomed)
		require.NoError(t, err)
		require.True(t, rt.Detach(detachedInst))
		require.NoError(t, rt.Set(mover, Position, Vec3{1, 2, 3}))
		newborn = rt.Spawn()
		obs.Remove()
		report("update")
		return nil
	}
	attach(t, rt, spawnActive(t, rt, ""), driver, "driver")
	log.take()

	step(t, rt, 1)
	assert.Equal(t, []string{
		"update held",
		"update victim",
		"update driver",
		"update: mover at {0 0 0}, newborn pending, tick observers 0 of 1",
		"destroy held",
		"detach destroy: mover at {0 0 0}, newborn pending, tick observers 0 of 1",
		"destroy victim",
		"settlement: mover at {0 0 0}, newborn pending, tick observers 0 of 1",
	}, log.take())
	pos, err := rt.Get(mover, Position)
	require.NoError(t, err)
	assert.Equal(t, Vec3{1, 2, 3}, pos, "committed at the flush")
	assert.Equal(t, StateActive, stateOf(rt, newborn), "activated at the flush")
	assert.Zero(t, physical(rt, "tick"), "removed physically at the flush")
}

// TestFlushCascade checks that destroys and settlements started by the flush
// itself run in the same flush.
func TestFlushCascade(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	a, b, c := spawnActive(t, rt, "a"), spawnActive(t, rt, "b"), spawnActive(t, rt, "c")
	var cInst *Instance
	attach(t, rt, a, &testScript{name: "a", log: log, destroy: func(*Instance) error {
		_, err := rt.Kill(b) // settlement kills another entity
		require.NoError(t, err)
		return nil
	}}, "a")
	attach(t, rt, b, &testScript{name: "b", log: log, destroy: func(*Instance) error {
		assert.True(t, rt.Detach(cInst)) // settlement detaches elsewhere
		return nil
	}}, "b")
	cInst = attach(t, rt, c, &testScript{name: "c", log: log}, "c")
	attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "k", prio: -1, log: log, update: func(*Instance, float64) error {
		_, err := rt.Kill(a)
		require.NoError(t, err)
		return nil
	}}, "k")
	log.take()
	step(t, rt, 1)
	assert.Equal(t, []string{"update k", "update b", "update c", "destroy a", "destroy b", "destroy c"}, log.take())
	assert.False(t, rt.Alive(a))
	assert.False(t, rt.Alive(b))
	assert.True(t, rt.Alive(c))
	insts, err := rt.Instances(c)
	require.NoError(t, err)
	assert.Empty(t, insts)
}

// TestSettlementDetachesSibling has an onDestroy, run by settlement, detach
// another instance of the same dying entity: that instance is destroyed
// once, not twice.
func TestSettlementDetachesSibling(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	h := spawnActive(t, rt, "")
	var second *Instance
	attach(t, rt, h, &testScript{name: "first", log: log, destroy: func(*Instance) error {
		log.add("detach %v", rt.Detach(second))
		return nil
	}}, "first")
	second = attach(t, rt, h, &testScript{name: "second", log: log}, "second")
	attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "k", log: log, update: func(*Instance, float64) error {
		_, err := rt.Kill(h)
		require.NoError(t, err)
		return nil
	}}, "k")
	log.take()
	require.NotPanics(t, func() { step(t, rt, 1) })
	assert.Equal(t, []string{"update first", "update second", "update k", "destroy first", "detach true", "destroy second"}, log.take())
	assert.False(t, rt.Alive(h))
	assert.Equal(t, 1, rt.Stats().Instances)
}

func TestOutsideStepImmediate(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	h := spawnActive(t, rt, "")
	s := &testScript{name: "s", log: log}
	a := attach(t, rt, h, s, "a")
	attach(t, rt, h, s, "b")
	log.take()

	require.True(t, rt.Detach(a))
	assert.Equal(t, []string{"destroy a"}, log.take(), "detach: onDestroy at once")
	assert.False(t, a.Live())

	ok, err := rt.Kill(h)
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, []string{"destroy b"}, log.take(), "kill: settlement at once")
	assert.False(t, rt.Alive(h), "and reaped at once")
	assert.Zero(t, rt.Stats().Instances)
}

func TestStepInsideCallback(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	s := &testScript{name: "s", log: log, update: func(*Instance, float64) error {
		err := rt.Step(1)
		log.add("step: %v", err)
		assert.ErrorIs(t, err, ErrStepping)
		err = rt.Close()
		log.add("close: %v", err)
		assert.ErrorIs(t, err, ErrStepping)
		return nil
	}}
	attach(t, rt, spawnActive(t, rt, ""), s, "s")
	attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "t", log: log}, "t")
	log.take()
	step(t, rt, 1)
	assert.Equal(t, []string{
		"update s",
		"step: step: not allowed while a frame runs",
		"close: close: not allowed while a frame runs",
		"update t",
	}, log.take(), "the frame runs on")
	assert.Equal(t, uint64(1), rt.Frame())
	assert.False(t, rt.Closed())
}

func TestClose(t *testing.T) {
	el := &errorLog{}
	rt := New(Options{OnError: el.onError})
	log := &recorder{}
	report := func(inst *Instance) error {
		log.add("frame %d, entity %s", rt.Frame(), stateOf(rt, inst.Entity()))
		return nil
	}
	a, b := spawnActive(t, rt, "a"), spawnActive(t, rt, "b")
	pending := rt.Spawn()
	attach(t, rt, a, &testScript{name: "late", prio: 5, log: log, destroy: report}, "a-late")
	attach(t, rt, b, &testScript{name: "zero", log: log, destroy: report}, "b-zero")
	attach(t, rt, pending, &testScript{name: "zero", log: log, destroy: report}, "p-zero")
	attach(t, rt, a, &testScript{name: "early", prio: -5, log: log, destroy: report}, "a-early")
	attach(t, rt, b, &testScript{name: "faulty", log: log, update: func(*Instance, float64) error {
		return assert.AnError
	}}, "b-faulty")
	attach(t, rt, b, &testScript{name: "broken", log: log, create: func(*Instance) error {
		return assert.AnError
	}}, "b-broken")
	closes := 0
	rt.OnClose(func() {
		closes++
		log.add("on close, %d instances", rt.Stats().Instances)
	})
	step(t, rt, 1)
	step(t, rt, 1)
	log.take()

	require.NoError(t, rt.Close())
	assert.Equal(t, []string{
		"destroy a-early", "frame 2, entity active",
		"destroy b-zero", "frame 2, entity active",
		"destroy p-zero", "frame 2, entity pending",
		"destroy b-faulty",
		// b-broken failed its onCreate: no destroy
		"destroy a-late", "frame 2, entity active",
		"on close, 0 instances",
	}, log.take())
	assert.True(t, rt.Closed())
	assert.Equal(t, uint64(2), rt.Frame(), "Frame stays the last frame's number")
	assert.Equal(t, Stats{Frames: 2, Entities: 0, Instances: 0, Errors: 2, Spawns: 3}, rt.Stats(), "Close reaps without killing")
	for _, h := range []Handle{a, b, pending} {
		assert.False(t, rt.Alive(h), h.String())
	}
	assert.Empty(t, rt.Entities())
	assert.Empty(t, rt.Schedule())
	assert.Equal(t, 3, rt.Payloads().Idle, "every payload went back to the pool")

	t.Run("idempotent", func(t *testing.T) {
		require.NoError(t, rt.Close())
		assert.Empty(t, log.take())
		assert.Equal(t, 1, closes)
	})
	t.Run("refuses new work", func(t *testing.T) {
		assert.True(t, rt.Spawn().IsZero())
		assert.Zero(t, rt.Stats().Entities)
		_, err := rt.Attach(a, bareScript{"s"}, nil)
		assert.ErrorIs(t, err, ErrClosed)
		assert.ErrorIs(t, rt.Step(1), ErrClosed)
		assert.Equal(t, uint64(2), rt.Frame())
	})
}

func TestCloseBeforeFirstFrame(t *testing.T) {
	rt := New(Options{OnError: Discard})
	log := &recorder{}
	attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "s", log: log, destroy: func(*Instance) error {
		log.add("frame %d", rt.Frame())
		return nil
	}}, "s")
	require.NoError(t, rt.Close())
	assert.Equal(t, []string{"create s", "destroy s", "frame 0"}, log.take())
}
