package luabind

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// TestExportImport: an entity leaves one world without onDestroy and
// arrives in another without onCreate, with its self (entity values to
// itself mapped), name, tags, transform and timers, through its JSON form.
func TestExportImport(t *testing.T) {
	a, b := newWorld(t), newWorld(t)
	e := a.spawn("hero", "snapshot/carrier")
	require.NoError(t, a.rt.Tag(e, "hero"))
	require.NoError(t, a.rt.Set(e, runtime.Position, runtime.Vec3{X: 4, Y: 5, Z: 6}))
	for range 2 {
		require.NoError(t, a.rt.Step(0.02))
	}
	snap, err := a.h.Export(e)
	require.NoError(t, err)
	assert.False(t, a.rt.Alive(e), "the entity left the first world")
	assert.Zero(t, a.rt.Stats().Instances)
	a.h.Flush()
	assert.Equal(t, "create\thero\nexport\thero\t12\n", a.out.String(), "no onDestroy on the way out")

	data, err := json.Marshal(snap)
	require.NoError(t, err)
	var back snapshot.Entity
	require.NoError(t, json.Unmarshal(data, &back))

	b.spawn("bystander")
	moved, err := b.h.Import(back)
	require.NoError(t, err)
	name, _ := b.rt.Name(moved)
	assert.Equal(t, "hero", name)
	assert.True(t, b.rt.HasTag(moved, "hero"))
	tr, err := b.rt.Transform(moved)
	require.NoError(t, err)
	assert.Equal(t, runtime.Vec3{X: 4, Y: 5, Z: 6}, tr.Position)
	st, _ := b.rt.State(moved)
	assert.Equal(t, runtime.StateActive, st)
	for range 2 {
		require.NoError(t, b.rt.Step(0.02))
	}
	b.h.Flush()
	assert.Equal(t, "import\thero\t12\trope\t5\tvec3(1, 2, 3)\ttrue\tnil\ttrue\nping\thero\t1\t1\n", b.out.String(),
		"no onCreate; state, the self-reference and the timer arrived (due 0.01 s after the export: in the first frame)")
	assert.Empty(t, a.errs)
	assert.Empty(t, b.errs)
}

// TestImportAllMapsReferences: entity values pointing inside the batch
// are mapped to the new handles; those pointing outside become the old
// handle's string id.
func TestImportAllMapsReferences(t *testing.T) {
	a, b := newWorld(t), newWorld(t)
	stay := a.spawn("stay")
	left, right := a.rt.Spawn(), a.rt.Spawn()
	require.NoError(t, a.rt.SetName(left, "left"))
	require.NoError(t, a.rt.SetName(right, "right"))
	_, err := a.h.Attach(left, "snapshot/pair", map[string]any{"partner": "right"})
	require.NoError(t, err)
	_, err = a.h.Attach(right, "snapshot/pair", map[string]any{"partner": "stay"})
	require.NoError(t, err)
	require.NoError(t, a.rt.Activate(left))
	require.NoError(t, a.rt.Activate(right))

	snaps, err := a.h.ExportAll([]runtime.Handle{left, right})
	require.NoError(t, err)
	require.Len(t, snaps, 2)
	b.spawn("someone")
	b.spawn("else")
	hs, err := b.h.ImportAll(snaps)
	require.NoError(t, err)
	require.Len(t, hs, 2)
	b.h.Flush()
	assert.Equal(t, "import\tleft\tpartner\tright\ttrue\nimport\tright\tpartner id\t"+stay.String()+"\n", b.out.String())
	assert.True(t, a.rt.Alive(stay))
}

// TestExportStaleReferences: a reference to an entity that was not in the
// batch, even one that has since died, becomes its string id.
func TestExportStaleReferences(t *testing.T) {
	a, b := newWorld(t), newWorld(t)
	gone := a.spawn("gone")
	e := a.rt.Spawn()
	require.NoError(t, a.rt.SetName(e, "e"))
	_, err := a.h.Attach(e, "snapshot/pair", map[string]any{"partner": "gone"})
	require.NoError(t, err)
	_, err = a.rt.Kill(gone)
	require.NoError(t, err)
	snap, err := a.h.Export(e)
	require.NoError(t, err)
	_, err = b.h.Import(snap)
	require.NoError(t, err)
	b.h.Flush()
	assert.Equal(t, "import\te\tpartner id\t"+gone.String()+"\n", b.out.String())
}

// TestImportBadSnapshot: a malformed entity snapshot is a clear error and
// nothing arrives.
func TestImportBadSnapshot(t *testing.T) {
	a := newWorld(t)
	e := a.spawn("hero", "snapshot/carrier")
	good, err := a.h.Export(e)
	require.NoError(t, err)
	table := &runtime.Table{}
	cases := []struct {
		name   string
		change func(s *snapshot.Entity)
		want   string
	}{
		{"bad id", func(s *snapshot.Entity) { s.ID = "three" }, `entity id "three"`},
		{"unknown script", func(s *snapshot.Entity) { s.Instances[0].Script = "snapshot/nope" }, `unknown script "snapshot/nope"`},
		{"self not a table", func(s *snapshot.Entity) { s.Instances[0].Self.Value = 5.0 }, "self must be a table, not 5"},
		{"bad state", func(s *snapshot.Entity) { s.State = "dying" }, `state "dying"`},
		{"unsorted tags", func(s *snapshot.Entity) { s.Tags = []string{"b", "a"} }, "tags must be non-empty strings, sorted"},
		{"bad timer", func(s *snapshot.Entity) { s.Instances[0].Timers[0].Fn = "" }, "timers[0]"},
		{"timer id twice", func(s *snapshot.Entity) {
			s.Instances[0].Timers = append(s.Instances[0].Timers, s.Instances[0].Timers[0])
		}, "bad snapshot: timer id 1 is given twice"},
		{"seq order", func(s *snapshot.Entity) {
			s.Instances = append(s.Instances, s.Instances[0])
			s.Instances[1].Self.Value = table
		}, "attach order"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := newWorld(t)
			snap := good
			snap.Instances = append([]snapshot.Instance(nil), good.Instances...)
			snap.Instances[0].Timers = append([]snapshot.Timer(nil), good.Instances[0].Timers...)
			c.change(&snap)
			_, err := b.h.Import(snap)
			require.Error(t, err)
			assert.ErrorIs(t, err, runtime.ErrBadSnapshot)
			assert.Contains(t, err.Error(), c.want)
			assert.True(t, strings.HasPrefix(err.Error(), "import: entity 1 ("), err.Error())
			assert.Zero(t, b.rt.Stats().Entities, "nothing arrived")
			assert.Nil(t, b.h.Script("snapshot/nope"), "a script loaded for it is unloaded")
		})
	}
	t.Run("id twice", func(t *testing.T) {
		b := newWorld(t)
		_, err := b.h.ImportAll([]snapshot.Entity{good, good})
		require.ErrorContains(t, err, "both have the id")
		assert.Zero(t, b.rt.Stats().Entities)
	})
}

// TestExportRefusals: what cannot leave is an error and stays.
func TestExportRefusals(t *testing.T) {
	a := newWorld(t)
	e := a.spawn("hero", "snapshot/carrier")
	_, err := a.h.ExportAll([]runtime.Handle{e, e})
	require.ErrorContains(t, err, "given twice")
	assert.True(t, a.rt.Alive(e))
	_, err = a.h.Export(runtime.Handle{Index: 99, Gen: 1})
	require.ErrorIs(t, err, runtime.ErrStaleHandle)
	require.NoError(t, a.h.Reload("snapshot/fn", []byte(`return { onCreate = function(self) self.co = coroutine.create(function() end) end }`)))
	f := a.spawn("f", "snapshot/fn")
	_, err = a.h.Export(f)
	require.ErrorIs(t, err, runtime.ErrNotPlain)
	assert.Contains(t, err.Error(), "self.co")
	assert.True(t, a.rt.Alive(f), "an entity that cannot be saved stays")
	_, err = a.h.ExportAll([]runtime.Handle{e, f})
	require.ErrorIs(t, err, runtime.ErrNotPlain)
	assert.True(t, a.rt.Alive(e), "no entity of a refused batch leaves")
	assert.Equal(t, 2, a.rt.Stats().Instances)
}
