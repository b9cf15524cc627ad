package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewEntityTransform(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	h := rt.Spawn()
	tr, err := rt.Transform(h)
	require.NoError(t, err)
	assert.Equal(t, Transform{Scale: Vec3{1, 1, 1}}, tr)
	for _, tt := range []struct {
		part Part
		want Vec3
	}{{Position, Vec3{}}, {Rotation, Vec3{}}, {Scale, Vec3{1, 1, 1}}} {
		got, err := rt.Get(h, tt.part)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got)
	}

	// Also for an entity whose payload comes back from the pool.
	require.NoError(t, rt.Set(h, Scale, Vec3{3, 3, 3}))
	require.NoError(t, rt.Set(h, Position, Vec3{3, 3, 3}))
	_, err = rt.Kill(h)
	require.NoError(t, err)
	h2 := rt.Spawn()
	require.Equal(t, 1, rt.Payloads().Made)
	tr, err = rt.Transform(h2)
	require.NoError(t, err)
	assert.Equal(t, Transform{Scale: Vec3{1, 1, 1}}, tr)
}

func TestTransformOutsideFrameCommitsAtOnce(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	h := spawnActive(t, rt, "")
	require.NoError(t, rt.Set(h, Position, Vec3{1, 2, 3}))
	require.NoError(t, rt.Set(h, Rotation, Vec3{0, 90, 0}))
	require.NoError(t, rt.Set(h, Scale, Vec3{2, 2, 2}))
	tr, err := rt.Transform(h)
	require.NoError(t, err)
	assert.Equal(t, Transform{Position: Vec3{1, 2, 3}, Rotation: Vec3{0, 90, 0}, Scale: Vec3{2, 2, 2}}, tr)
	assert.Empty(t, rt.writes, "nothing waits in the write cache")
}

// TestTransformFrameReads checks that within a frame every reader sees the
// committed values, before and after the writer in schedule order, and
// that the last write of the frame wins.
func TestTransformFrameReads(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	target := spawnActive(t, rt, "target")
	require.NoError(t, rt.Set(target, Position, Vec3{1, 1, 1}))
	require.NoError(t, rt.Set(target, Rotation, Vec3{5, 5, 5}))

	read := func(inst *Instance, _ float64) error {
		tr, err := rt.Transform(target)
		require.NoError(t, err)
		log.add("%s sees %v %v", label(inst), tr.Position, tr.Rotation)
		return nil
	}
	write := func(v float64) func(*Instance, float64) error {
		return func(inst *Instance, _ float64) error {
			require.NoError(t, rt.Set(target, Position, Vec3{v, v, v}))
			pos, err := rt.Get(target, Position)
			require.NoError(t, err)
			log.add("%s wrote %v, reads %v", label(inst), v, pos)
			return nil
		}
	}
	for _, s := range []*testScript{
		{name: "before", prio: -1, update: read},
		{name: "w1", update: write(2)},
		{name: "middle", prio: 1, update: read},
		{name: "w2", prio: 2, update: write(3)},
		{name: "after", prio: 3, update: read},
	} {
		s.log = &recorder{}
		attach(t, rt, spawnActive(t, rt, ""), s, s.name)
	}

	step(t, rt, 1)
	assert.Equal(t, []string{
		"before sees {1 1 1} {5 5 5}",
		"w1 wrote 2, reads {1 1 1}",
		"middle sees {1 1 1} {5 5 5}",
		"w2 wrote 3, reads {1 1 1}",
		"after sees {1 1 1} {5 5 5}",
	}, log.take())
	tr, err := rt.Transform(target)
	require.NoError(t, err)
	assert.Equal(t, Vec3{3, 3, 3}, tr.Position, "the last write wins")
	assert.Equal(t, Vec3{5, 5, 5}, tr.Rotation, "parts not written keep their value")
	assert.Equal(t, Vec3{1, 1, 1}, tr.Scale)

	step(t, rt, 1)
	assert.Equal(t, "before sees {3 3 3} {5 5 5}", log.take()[0], "the next frame sees the commit")
	assert.Equal(t, Vec3{3, 3, 3}, must(rt.Get(target, Position)))
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestTransformWriteToReapedEntity writes to an entity that is reaped in
// the same frame, and lets a new entity take its slot and payload before
// the commit: the write must reach nobody.
func TestTransformWriteToReapedEntity(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	doomed := spawnActive(t, rt, "doomed")
	var heir Handle
	attach(t, rt, doomed, &testScript{name: "doomed", log: log, destroy: func(inst *Instance) error {
		require.NoError(t, rt.Set(inst.Entity(), Rotation, Vec3{7, 7, 7}), "writes during settlement are fine too")
		return nil
	}}, "doomed")
	attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "w", log: log, update: func(*Instance, float64) error {
		require.NoError(t, rt.Set(doomed, Position, Vec3{9, 9, 9}))
		_, err := rt.Kill(doomed)
		require.NoError(t, err)
		return nil
	}}, "w")
	// A later settlement spawns an entity, which reuses the reaped slot.
	other := spawnActive(t, rt, "")
	attach(t, rt, other, &testScript{name: "spawner", log: log, destroy: func(*Instance) error {
		heir = rt.Spawn()
		return nil
	}}, "spawner")
	attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "k2", prio: 1, log: log, update: func(*Instance, float64) error {
		_, err := rt.Kill(other)
		require.NoError(t, err)
		return nil
	}}, "k2")

	require.NotPanics(t, func() { step(t, rt, 1) })
	assert.False(t, rt.Alive(doomed))
	require.True(t, rt.Alive(heir))
	require.Equal(t, doomed.Index, heir.Index, "the heir took the reaped slot")
	tr, err := rt.Transform(heir)
	require.NoError(t, err)
	assert.Equal(t, identity, tr, "no write of the dead entity reaches the heir")
	assert.Empty(t, rt.writes)
	assert.Zero(t, rt.slots.slots[heir.Index].ent.writeAt)
}

func TestTransformWriteDuringFlushCommits(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	survivor := spawnActive(t, rt, "")
	doomed := spawnActive(t, rt, "")
	attach(t, rt, doomed, &testScript{name: "d", log: log, destroy: func(*Instance) error {
		return rt.Set(survivor, Scale, Vec3{4, 4, 4})
	}}, "d")
	attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "k", log: log, update: func(*Instance, float64) error {
		_, err := rt.Kill(doomed)
		return err
	}}, "k")
	step(t, rt, 1)
	assert.Equal(t, Vec3{4, 4, 4}, must(rt.Get(survivor, Scale)), "settlement writes are committed in the same flush")
}

func TestSpawnAtPlacesAtOnce(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	placed := Transform{Position: Vec3{1, 2, 3}, Rotation: Vec3{0, 90, 0}, Scale: Vec3{2, 2, 2}}
	var seen Transform
	attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "spawner", log: &recorder{}, update: func(*Instance, float64) error {
		if rt.Frame() == 1 {
			e := rt.SpawnAt(placed)
			var err error
			seen, err = rt.Transform(e)
			require.NoError(t, err)
		}
		return nil
	}}, "spawner")
	step(t, rt, 1)
	assert.Equal(t, placed, seen, "a placement during a frame is readable at once, unlike a write")
	assert.Equal(t, Identity(), Transform{Scale: Vec3{1, 1, 1}})
}
