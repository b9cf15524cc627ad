package runtime

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var allStates = []State{StateNone, StatePending, StateActive, StateDying, StateDead}

// specTransitions is the lifecycle of docs/contract.md, written out
// independently of the runtime's own table.
var specTransitions = map[[2]State]bool{
	{StateNone, StatePending}:   true, // spawn
	{StatePending, StateActive}: true, // activate
	{StatePending, StateDead}:   true, // cancel
	{StateActive, StateDying}:   true, // kill
	{StateDying, StateActive}:   true, // revive
	{StateDying, StateDead}:     true, // reap
	{StateDead, StateNone}:      true, // free
}

func TestStateString(t *testing.T) {
	want := []string{"none", "pending", "active", "dying", "dead"}
	for i, st := range allStates {
		assert.Equal(t, want[i], st.String())
	}
	assert.Equal(t, "invalid", State(99).String())
}

func TestTransitionTable(t *testing.T) {
	for _, from := range allStates {
		for _, to := range allStates {
			legal := specTransitions[[2]State{from, to}]
			t.Run(fmt.Sprintf("%s->%s", from, to), func(t *testing.T) {
				assert.Equal(t, legal, CanTransition(from, to))

				s := &slot{state: from}
				err := s.transition(to)
				if legal {
					require.NoError(t, err)
					assert.Equal(t, to, s.state)
					return
				}
				require.Error(t, err)
				assert.Equal(t, fmt.Sprintf("illegal transition %s -> %s", from, to), err.Error())
				assert.ErrorIs(t, err, ErrIllegalTransition)
				var te *TransitionError
				require.True(t, errors.As(err, &te))
				assert.Equal(t, from, te.From)
				assert.Equal(t, to, te.To)
				assert.Equal(t, from, s.state, "an illegal transition changes nothing")
			})
		}
	}
	assert.False(t, CanTransition(StateActive, StateDead), "nothing skips settlement")
}

// TestLifecyclePath walks an entity along None -> Pending -> Active ->
// Dying -> Dead -> None and checks what its script sees on the way.
func TestLifecyclePath(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	var h Handle
	s := &testScript{name: "s", log: log}
	s.create = func(inst *Instance) error {
		log.add("state at create: %s", stateOf(rt, inst.Entity()))
		return nil
	}
	s.destroy = func(inst *Instance) error {
		log.add("state at destroy: %s", stateOf(rt, inst.Entity()))
		return nil
	}

	h = rt.Spawn()
	assert.Equal(t, StatePending, stateOf(rt, h))
	attach(t, rt, h, s, "s")
	assert.Equal(t, []string{"create s", "state at create: pending"}, log.take(), "onCreate runs at attach, also while Pending")

	step(t, rt, 1)
	assert.Empty(t, log.take(), "a Pending entity gets no update")

	require.NoError(t, rt.Activate(h))
	assert.Equal(t, StateActive, stateOf(rt, h))
	step(t, rt, 1)
	assert.Equal(t, []string{"update s"}, log.take())

	killer := &testScript{name: "killer", prio: 1, log: log, update: func(inst *Instance, _ float64) error {
		ok, err := rt.Kill(h)
		log.add("kill %v %v, now %s", ok, err, stateOf(rt, h))
		return nil
	}}
	attach(t, rt, spawnActive(t, rt, ""), killer, "killer")
	log.take()
	step(t, rt, 1)
	assert.Equal(t, []string{
		"update s",
		"update killer",
		"kill true <nil>, now dying",
		"destroy s",
		"state at destroy: dying",
	}, log.take())
	st, err := rt.State(h)
	assert.ErrorIs(t, err, ErrStaleHandle)
	assert.Equal(t, StateDead, st, "a reaped handle reads as dead")
	assert.Equal(t, StateNone, rt.slots.slots[h.Index].state, "the slot is free again")
}

func TestKillPendingCancels(t *testing.T) {
	t.Run("outside a frame", func(t *testing.T) {
		rt, _ := newTestRuntime(t, Options{})
		log := &recorder{}
		h := rt.Spawn()
		attach(t, rt, h, &testScript{name: "s", log: log}, "s")
		ok, err := rt.Kill(h)
		require.NoError(t, err)
		assert.True(t, ok)
		assert.Equal(t, []string{"create s", "destroy s"}, log.take())
		assert.False(t, rt.Alive(h))
	})
	t.Run("inside a frame", func(t *testing.T) {
		rt, _ := newTestRuntime(t, Options{})
		log := &recorder{}
		p := rt.Spawn() // Pending, never activated
		attach(t, rt, p, &testScript{name: "p", log: log}, "p")
		k := &testScript{name: "k", log: log, update: func(*Instance, float64) error {
			ok, err := rt.Kill(p)
			log.add("kill %v %v", ok, err)
			ok, err = rt.Kill(p)
			log.add("kill again %v %v", ok, err)
			ok, err = rt.Revive(p)
			log.add("revive %v %v", ok, err)
			_, err = rt.Attach(p, bareScript{"late"}, nil)
			log.add("attach: %v", errors.Is(err, ErrNotAttachable))
			log.add("activate: %v", errors.Is(rt.Activate(p), ErrIllegalTransition))
			log.add("state %s", stateOf(rt, p))
			return nil
		}}
		attach(t, rt, spawnActive(t, rt, ""), k, "k")
		log.take()
		step(t, rt, 1)
		assert.Equal(t, []string{
			"update k",
			"kill true <nil>",
			"kill again false <nil>",
			"revive false <nil>",
			"attach: true",
			"activate: true",
			"state pending",
			"destroy p",
		}, log.take())
		assert.False(t, rt.Alive(p), "cancelled at the flush")
	})
}

func TestReviveBeforeFlush(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	victim := spawnActive(t, rt, "victim")
	attach(t, rt, victim, &testScript{name: "v", prio: -1, log: log}, "v")
	k := &testScript{name: "k", log: log}
	attach(t, rt, spawnActive(t, rt, ""), k, "k")
	k.update = func(*Instance, float64) error {
		for _, call := range []struct {
			name string
			fn   func(Handle) (bool, error)
		}{{"kill", rt.Kill}, {"kill", rt.Kill}, {"revive", rt.Revive}, {"revive", rt.Revive}} {
			ok, err := call.fn(victim)
			require.NoError(t, err)
			log.add("%s %v -> %s", call.name, ok, stateOf(rt, victim))
		}
		return nil
	}
	log.take()
	step(t, rt, 1)
	assert.Equal(t, []string{
		"update v",
		"update k",
		"kill true -> dying",
		"kill false -> dying",
		"revive true -> active",
		"revive false -> active",
	}, log.take(), "no settlement for a revived entity")
	assert.Equal(t, StateActive, stateOf(rt, victim))

	k.update = nil
	step(t, rt, 1)
	assert.Equal(t, []string{"update v", "update k"}, log.take(), "a revived entity keeps updating")
}

func TestReviveNotDying(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	pending := rt.Spawn()
	active := spawnActive(t, rt, "")
	for _, h := range []Handle{pending, active} {
		ok, err := rt.Revive(h)
		require.NoError(t, err)
		assert.False(t, ok, stateOf(rt, h).String())
	}
	assert.Equal(t, StatePending, stateOf(rt, pending))
	assert.Equal(t, StateActive, stateOf(rt, active))
}

func TestReviveDuringSettlementRefused(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	h := spawnActive(t, rt, "")
	attach(t, rt, h, &testScript{name: "s", log: log, destroy: func(inst *Instance) error {
		ok, err := rt.Revive(inst.Entity())
		log.add("revive %v %v", ok, err)
		return nil
	}}, "s")
	log.take()
	_, err := rt.Kill(h)
	require.NoError(t, err)
	assert.Equal(t, []string{"destroy s", "revive false <nil>"}, log.take())
	assert.False(t, rt.Alive(h), "settlement, once started, runs to the end")
}

func TestActivateErrors(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	h := spawnActive(t, rt, "")
	err := rt.Activate(h)
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrIllegalTransition)
	assert.Contains(t, err.Error(), "illegal transition active -> active")
	assert.Contains(t, err.Error(), h.String())
	assert.Equal(t, StateActive, stateOf(rt, h))
}

// TestPayloadPoolReuse proves that reaping returns the payload to the pool
// and that the next Spawn takes it back, cleared.
func TestPayloadPoolReuse(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	h := spawnActive(t, rt, "first")
	attach(t, rt, h, &testScript{name: "s", log: log}, "s")
	require.NoError(t, rt.Set(h, Scale, Vec3{2, 2, 2}))
	assert.Equal(t, 1, rt.Payloads().Made)
	assert.Zero(t, rt.Payloads().Idle)

	_, err := rt.Kill(h)
	require.NoError(t, err)
	assert.Equal(t, 1, rt.Payloads().Idle, "the reaped payload waits for reuse")

	h2 := rt.Spawn()
	assert.Equal(t, 1, rt.Payloads().Made, "no new payload")
	assert.Equal(t, 2, rt.Payloads().Got)
	assert.Zero(t, rt.Payloads().Idle)
	assert.Equal(t, h.Index, h2.Index, "slot reused")
	assert.Greater(t, h2.Gen, h.Gen, "generation moved on")

	// No ghost data.
	name, err := rt.Name(h2)
	require.NoError(t, err)
	assert.Empty(t, name)
	tr, err := rt.Transform(h2)
	require.NoError(t, err)
	assert.Equal(t, identity, tr)
	insts, err := rt.Instances(h2)
	require.NoError(t, err)
	assert.Empty(t, insts)
	assert.Equal(t, StatePending, stateOf(rt, h2))
	_, err = rt.Kill(h2) // a fresh Pending entity can be cancelled
	require.NoError(t, err)
}

func TestPayloadPoolOff(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{PoolLimit: -1})
	for i := 1; i <= 3; i++ {
		h := rt.Spawn()
		_, err := rt.Kill(h)
		require.NoError(t, err)
		assert.Equal(t, i, rt.Payloads().Made)
		assert.Zero(t, rt.Payloads().Idle)
	}
}

// TestInstanceStateMachine drives an instance out of order through the
// unexported calls the runtime uses: each misuse is a hard error.
func TestInstanceStateMachine(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	s := &testScript{name: "s", log: log}
	h := spawnActive(t, rt, "")
	inst := &Instance{rt: rt, script: s, entity: h, updater: s}

	misuse := func(t *testing.T, err error, call, state string) {
		t.Helper()
		require.Error(t, err)
		assert.ErrorIs(t, err, ErrInstanceState)
		assert.Contains(t, err.Error(), call+" of s@"+h.String()+" in state "+state)
	}

	misuse(t, inst.update(1), "update", "pending")
	misuse(t, inst.destroy(), "destroy", "pending")
	assert.Empty(t, log.take(), "a refused call runs no callback")

	require.NoError(t, inst.create())
	misuse(t, inst.create(), "create", "created")
	require.NoError(t, inst.update(1))
	require.NoError(t, inst.destroy())
	assert.Equal(t, []string{"create s", "update s", "destroy s"}, log.take())

	misuse(t, inst.destroy(), "destroy", "destroyed")
	misuse(t, inst.update(1), "update", "destroyed")
	misuse(t, inst.create(), "create", "destroyed")
	assert.Empty(t, log.take())
}

func TestInstanceAccessors(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	h := spawnActive(t, rt, "")
	s := &testScript{name: "s", log: &recorder{}}
	a := attach(t, rt, h, s, "payload")
	b := attach(t, rt, h, s, nil)
	assert.Same(t, rt, a.Runtime())
	assert.Equal(t, s, a.Script())
	assert.Equal(t, h, a.Entity())
	assert.Equal(t, "payload", a.Data)
	assert.Less(t, a.Seq(), b.Seq())
	assert.Equal(t, "s@"+h.String(), a.String())
	assert.True(t, a.Live())
	assert.False(t, a.Detached())
	assert.False(t, a.Faulted())
	assert.False(t, a.CreateFailed())

	assert.True(t, rt.Detach(a))
	assert.False(t, a.Live())
	assert.True(t, a.Detached())
	assert.False(t, rt.Detach(a), "detaching twice does nothing")
}

func TestAttachBareScript(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	h := spawnActive(t, rt, "")
	inst := attach(t, rt, h, bareScript{"bare"}, nil)
	step(t, rt, 1)
	assert.True(t, inst.Live(), "a script without callbacks is a valid script")
	_, err := rt.Kill(h)
	require.NoError(t, err)
	assert.False(t, inst.Live())
}

// TestCountEntity: a tally counts the entities given to it until they are
// reaped; an entity given to another tally moves; a stale handle is an
// error.
func TestCountEntity(t *testing.T) {
	rt := New(Options{OnError: Discard})
	var a, b Tally
	e1, e2 := rt.Spawn(), rt.Spawn()
	require.NoError(t, rt.CountEntity(e1, &a))
	require.NoError(t, rt.CountEntity(e2, &a))
	require.NoError(t, rt.CountEntity(e2, &a))
	assert.Equal(t, 2, a.Live(), "counting twice counts once")
	require.NoError(t, rt.CountEntity(e2, &b))
	assert.Equal(t, 1, a.Live())
	assert.Equal(t, 1, b.Live(), "the entity moved")

	_, err := rt.Kill(e1)
	require.NoError(t, err)
	assert.Equal(t, 0, a.Live(), "a cancelled spawn is reaped at once")
	require.NoError(t, rt.Activate(e2))
	_, err = rt.Kill(e2)
	require.NoError(t, err)
	require.NoError(t, rt.Step(1.0/60))
	assert.Equal(t, 0, b.Live(), "reaped at the end of the frame")
	assert.Error(t, rt.CountEntity(e1, &a), "a stale handle")
	assert.Equal(t, 0, a.Live())
}
