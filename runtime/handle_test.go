package runtime

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHandleString(t *testing.T) {
	tests := []struct {
		h    Handle
		want string
	}{
		{Handle{}, "entity(0:0)"},
		{Handle{Index: 3, Gen: 1}, "entity(3:1)"},
		{Handle{Index: 12, Gen: 7}, "entity(12:7)"},
		{Handle{Index: math.MaxUint32, Gen: math.MaxUint32}, "entity(4294967295:4294967295)"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.h.String())
		})
	}
}

func TestZeroHandleNeverValid(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	assert.True(t, Handle{}.IsZero())

	check := func(t *testing.T) {
		t.Helper()
		assert.False(t, rt.Alive(Handle{}))
		st, err := rt.State(Handle{})
		assert.ErrorIs(t, err, ErrStaleHandle)
		assert.Equal(t, StateDead, st)
		assert.ErrorIs(t, rt.Activate(Handle{}), ErrStaleHandle)
		_, err = rt.Attach(Handle{}, bareScript{"s"}, nil)
		assert.ErrorIs(t, err, ErrStaleHandle)
		// Slot 0 is reserved: no generation makes it valid.
		_, err = rt.State(Handle{Index: 0, Gen: 1})
		assert.ErrorIs(t, err, ErrStaleHandle)
	}
	check(t)

	// Still invalid once entities exist and slots were recycled.
	for range 3 {
		h := spawnActive(t, rt, "")
		assert.False(t, h.IsZero())
		assert.NotZero(t, h.Index)
		assert.NotZero(t, h.Gen)
	}
	_, err := rt.Kill(rt.Entities()[0])
	require.NoError(t, err)
	check(t)
}

func TestHandleNeverAllocated(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	h := rt.Spawn()
	for _, bad := range []Handle{
		{Index: h.Index + 1, Gen: 1}, // past the slots
		{Index: h.Index, Gen: h.Gen + 1},
		{Index: h.Index, Gen: 0},
	} {
		_, err := rt.State(bad)
		assert.ErrorIs(t, err, ErrStaleHandle, bad.String())
	}
}

// TestStaleHandle reaps an entity, lets its slot be reused, and checks that
// every lookup with the old handle fails and leaves the new occupant alone.
func TestStaleHandle(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	s := &testScript{name: "s", log: log}

	old := spawnActive(t, rt, "old")
	attach(t, rt, old, s, "old")
	ok, err := rt.Kill(old)
	require.NoError(t, err)
	require.True(t, ok)
	require.False(t, rt.Alive(old))

	cur := spawnActive(t, rt, "cur")
	require.Equal(t, old.Index, cur.Index, "the freed slot is reused")
	require.Equal(t, old.Gen+1, cur.Gen, "with its generation bumped")
	attach(t, rt, cur, s, "cur")
	require.NoError(t, rt.Set(cur, Position, Vec3{1, 2, 3}))
	log.take()

	lookups := []struct {
		name string
		call func() error
	}{
		{"State", func() error { _, err := rt.State(old); return err }},
		{"Activate", func() error { return rt.Activate(old) }},
		{"Kill", func() error { _, err := rt.Kill(old); return err }},
		{"Revive", func() error { _, err := rt.Revive(old); return err }},
		{"Attach", func() error { _, err := rt.Attach(old, s, "intruder"); return err }},
		{"Transform", func() error { _, err := rt.Transform(old); return err }},
		{"Get", func() error { _, err := rt.Get(old, Position); return err }},
		{"Set", func() error { return rt.Set(old, Position, Vec3{9, 9, 9}) }},
		{"Name", func() error { _, err := rt.Name(old); return err }},
		{"SetName", func() error { return rt.SetName(old, "intruder") }},
		{"Instances", func() error { _, err := rt.Instances(old); return err }},
		{"DetachScript", func() error { _, err := rt.DetachScript(old, "s"); return err }},
	}
	for _, l := range lookups {
		t.Run(l.name, func(t *testing.T) {
			err := l.call()
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrStaleHandle)
			assert.Contains(t, err.Error(), old.String(), "the error names the handle")
		})
	}

	// A dispatch aimed at the old handle reaches nobody.
	ok, err = rt.Events().NotifyEntity(old, "ping", nil, -1)
	require.NoError(t, err)
	assert.True(t, ok)

	// The new occupant is untouched.
	assert.Empty(t, log.take(), "no callback of the new occupant ran")
	assert.False(t, rt.Alive(old))
	assert.True(t, rt.Alive(cur))
	st, err := rt.State(cur)
	require.NoError(t, err)
	assert.Equal(t, StateActive, st)
	name, err := rt.Name(cur)
	require.NoError(t, err)
	assert.Equal(t, "cur", name)
	found, ok := rt.Find("intruder")
	assert.False(t, ok, "SetName with a stale handle named nobody: %v", found)
	pos, err := rt.Get(cur, Position)
	require.NoError(t, err)
	assert.Equal(t, Vec3{1, 2, 3}, pos)
	insts, err := rt.Instances(cur)
	require.NoError(t, err)
	require.Len(t, insts, 1)
	assert.Equal(t, "cur", insts[0].Data)
	assert.Equal(t, 1, rt.Stats().Instances)
}

func TestSlotReuseBumpsGeneration(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	first := rt.Spawn()
	assert.Equal(t, Handle{Index: 1, Gen: 1}, first)
	second := rt.Spawn()
	assert.Equal(t, Handle{Index: 2, Gen: 1}, second)

	h := first
	for gen := uint32(2); gen <= 5; gen++ {
		ok, err := rt.Kill(h)
		require.NoError(t, err)
		require.True(t, ok)
		next := rt.Spawn()
		assert.Equal(t, Handle{Index: first.Index, Gen: gen}, next)
		assert.NotEqual(t, h, next)
		h = next
	}
	assert.True(t, rt.Alive(second), "other slots are not disturbed")
	assert.Equal(t, Handle{Index: 3, Gen: 1}, rt.Spawn(), "a new slot when none is free")
}

func TestGenerationSkipsZeroOnWrap(t *testing.T) {
	m := newSlotMap()
	h := m.alloc(&entity{})
	m.slots[h.Index].gen = math.MaxUint32
	m.slots[h.Index].state = StateDead
	m.release(Handle{Index: h.Index, Gen: math.MaxUint32})
	assert.Equal(t, uint32(1), m.slots[h.Index].gen, "generation 0 is never handed out")
	h2 := m.alloc(&entity{})
	assert.Equal(t, Handle{Index: h.Index, Gen: 1}, h2)
}

// TestDenseAfterRemoval removes entities from the middle, the front and the
// back of the packed handle list and checks that it stays exact and that
// every remaining handle still resolves to its own entity.
func TestDenseAfterRemoval(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	names := []string{"e0", "e1", "e2", "e3", "e4", "e5"}
	byName := map[string]Handle{}
	for _, n := range names {
		byName[n] = spawnActive(t, rt, n)
	}

	live := func() []Handle {
		var hs []Handle
		for _, n := range names {
			if h, ok := byName[n]; ok {
				hs = append(hs, h)
			}
		}
		return hs
	}
	check := func(t *testing.T) {
		t.Helper()
		assert.ElementsMatch(t, live(), rt.Entities())
		assert.Equal(t, len(live()), rt.Stats().Entities)
		for n, h := range byName {
			got, err := rt.Name(h)
			require.NoError(t, err, n)
			assert.Equal(t, n, got)
			found, ok := rt.Find(n)
			assert.True(t, ok, n)
			assert.Equal(t, h, found)
			st, err := rt.State(h)
			require.NoError(t, err, n)
			assert.Equal(t, StateActive, st)
		}
		// The slot map's own bookkeeping: every dense entry points back.
		for i, h := range rt.slots.dense {
			assert.Equal(t, i, rt.slots.slots[h.Index].dense, h.String())
		}
	}

	for _, victim := range []string{"e2", "e0", "e5", "e3"} {
		t.Run("kill "+victim, func(t *testing.T) {
			h := byName[victim]
			delete(byName, victim)
			ok, err := rt.Kill(h)
			require.NoError(t, err)
			require.True(t, ok)
			assert.False(t, rt.Alive(h))
			_, found := rt.Find(victim)
			assert.False(t, found, "a reaped entity's name is forgotten")
			check(t)
		})
	}
	t.Run("spawn again", func(t *testing.T) {
		names = append(names, "e6")
		byName["e6"] = spawnActive(t, rt, "e6")
		check(t)
	})
}

func TestNames(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	a := spawnActive(t, rt, "twin")
	b := spawnActive(t, rt, "twin")
	found, ok := rt.Find("twin")
	require.True(t, ok)
	assert.Equal(t, a, found, "Find returns the earliest named")

	require.NoError(t, rt.SetName(a, "solo"))
	found, _ = rt.Find("twin")
	assert.Equal(t, b, found, "renaming drops the old name")
	found, _ = rt.Find("solo")
	assert.Equal(t, a, found)

	require.NoError(t, rt.SetName(a, ""))
	_, ok = rt.Find("solo")
	assert.False(t, ok)
	name, err := rt.Name(a)
	require.NoError(t, err)
	assert.Empty(t, name)

	_, ok = rt.Find("nobody")
	assert.False(t, ok)
}

// TestReserve: Reserve changes nothing a script sees, however often and
// whenever it is called, and with room made, spawning grows no slot table.
func TestReserve(t *testing.T) {
	rt := New(Options{OnError: Discard})
	first := rt.Spawn()
	require.NoError(t, rt.SetName(first, "first"))
	rt.Reserve(1000, 1000)
	rt.Reserve(0, -1)
	found, ok := rt.Find("first")
	require.True(t, ok, "a name given before Reserve is kept")
	assert.Equal(t, first, found)
	slots := cap(rt.slots.slots)
	for i := range 999 {
		h := rt.Spawn()
		require.NoError(t, rt.SetName(h, fmt.Sprint("e", i)))
	}
	assert.Equal(t, slots, cap(rt.slots.slots), "the slot table did not grow")
	assert.Equal(t, 1000, rt.Stats().Entities)
	found, ok = rt.Find("e998")
	require.True(t, ok)
	name, err := rt.Name(found)
	require.NoError(t, err)
	assert.Equal(t, "e998", name)
}

func TestStaleErrorIsSentinel(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	_, err := rt.State(Handle{Index: 9, Gen: 9})
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrStaleHandle))
	assert.Equal(t, "stale entity handle entity(9:9)", err.Error())
}

// TestAppendEntities: AppendEntities appends what Entities returns, and
// allocates nothing when the buffer has room.
func TestAppendEntities(t *testing.T) {
	rt := New(Options{OnError: Discard})
	for range 100 {
		rt.Spawn()
	}
	mark := Handle{Index: 999}
	buf := rt.AppendEntities([]Handle{mark})
	require.Len(t, buf, 101)
	assert.Equal(t, mark, buf[0], "dst is kept")
	assert.ElementsMatch(t, rt.Entities(), buf[1:])
	allocs := testing.AllocsPerRun(10, func() { buf = rt.AppendEntities(buf[:0]) })
	assert.Zero(t, allocs)
}
