package luabind

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// counter is a Go-native script that saves: each update adds one to its
// instance's count.
type counter struct{ name string }

type counted struct{ N float64 }

func (c *counter) Name() string  { return c.name }
func (c *counter) Priority() int { return 0 }
func (c *counter) Update(inst *runtime.Instance, _ float64) error {
	inst.Data.(*counted).N++
	return nil
}

func (c *counter) SaveData(data any) (any, error) {
	return map[string]any{"n": data.(*counted).N}, nil
}

func (c *counter) LoadData(saved any) (any, error) {
	t, ok := saved.(*runtime.Table)
	if !ok {
		return nil, errors.New("want a table")
	}
	n, ok := t.Get("n").(float64)
	if !ok {
		return nil, errors.New("want a count n")
	}
	return &counted{N: n}, nil
}

// nativeWorld is a world with a Lua instance and a counter on one entity.
func nativeWorld(t *testing.T, configure ...func(*runtime.Options, *Options)) (*world, *counter, runtime.Handle) {
	w := newWorld(t, configure...)
	c := &counter{name: "go/counter"}
	require.NoError(t, w.h.RegisterScript(c))
	e := w.spawn("hero", "snapshot/carrier")
	_, err := w.rt.Attach(e, c, &counted{})
	require.NoError(t, err)
	return w, c, e
}

func count(t *testing.T, w *world, e runtime.Handle) float64 {
	t.Helper()
	insts, err := w.rt.Instances(e)
	require.NoError(t, err)
	for _, inst := range insts {
		if d, ok := inst.Data.(*counted); ok {
			return d.N
		}
	}
	t.Fatalf("%s has no counter", e)
	return 0
}

// TestNativeSnapshot: a Go-native Saver's instance is saved in the
// document (marked native, with its data) and restored through
// LoadData, and the world continues as the one that never stopped.
func TestNativeSnapshot(t *testing.T) {
	ref, _, re := nativeWorld(t)
	w, _, e := nativeWorld(t)
	w.step(3, 0.02)
	ref.step(6, 0.02)

	snap, err := w.h.Snapshot()
	require.NoError(t, err)
	data, err := snap.Marshal()
	require.NoError(t, err)
	assert.Contains(t, string(data), `{"seq":2,"script":"go/counter","native":true,"data":{"n":3}}`)
	back, err := snapshot.Parse(data)
	require.NoError(t, err)

	fresh := newWorld(t)
	require.NoError(t, fresh.h.RegisterScript(&counter{name: "go/counter"}))
	require.NoError(t, fresh.h.Restore(back))
	fresh.step(3, 0.02)
	assert.Equal(t, count(t, ref, re), count(t, fresh, e))
	assert.Equal(t, 6.0, count(t, fresh, e))

	unknown := newWorld(t)
	err = unknown.h.Restore(back)
	require.ErrorIs(t, err, runtime.ErrBadSnapshot)
	assert.Contains(t, err.Error(), "RegisterScript")
	assert.True(t, unknown.rt.Fresh(), "a refused restore changes nothing")
}

// TestNotSaveableUpFront: an instance of a Go-native script that is not
// a Saver refuses Snapshot and Export before any state is copied or any
// onExport runs, with an error wrapping runtime.ErrNotSaveable; with
// Options.SkipNotSaveable it is left out instead.
func TestNotSaveableUpFront(t *testing.T) {
	setup := func(w *world) (runtime.Handle, runtime.Handle) {
		require.NoError(t, w.h.Reload("snapshot/fn", []byte(`return { onCreate = function(self) self.co = coroutine.create(function() end) end }`)))
		bad := w.spawn("bad", "snapshot/fn")
		e := w.spawn("hero", "snapshot/carrier")
		_, err := w.rt.Attach(e, &goScript{name: "native", trace: new([]string)}, nil)
		require.NoError(t, err)
		return bad, e
	}
	w := newWorld(t)
	bad, e := setup(w)
	_, err := w.h.Snapshot()
	require.ErrorIs(t, err, runtime.ErrNotSaveable, "refused before the first entity's self (not plain data) is copied")
	assert.Contains(t, err.Error(), "native")
	_, err = w.h.ExportAll([]runtime.Handle{bad, e})
	require.ErrorIs(t, err, runtime.ErrNotSaveable)
	w.h.Flush()
	assert.NotContains(t, w.out.String(), "export", "no onExport ran")
	assert.True(t, w.rt.Alive(e))

	s := newWorld(t, func(_ *runtime.Options, o *Options) { o.SkipNotSaveable = true })
	bad, e = setup(s)
	_, err = s.rt.Kill(bad)
	require.NoError(t, err)
	s.step(1, 0.02)
	snap, err := s.h.Snapshot()
	require.NoError(t, err)
	require.Len(t, snap.Entities, 1)
	require.Len(t, snap.Entities[0].Instances, 1, "the Go-native instance is left out")
	assert.Equal(t, "snapshot/carrier", snap.Entities[0].Instances[0].Script)
	moved, err := s.h.Export(e)
	require.NoError(t, err)
	assert.Len(t, moved.Instances, 1)
	assert.False(t, s.rt.Alive(e))
}

// TestNativeHandoff: a Saver's instance moves to another world with its
// entity; a world that does not know its script refuses the import and
// nothing arrives.
func TestNativeHandoff(t *testing.T) {
	a, _, e := nativeWorld(t)
	a.step(2, 0.02)
	snap, err := a.h.Export(e)
	require.NoError(t, err)

	stranger := newWorld(t)
	_, err = stranger.h.Import(snap)
	require.ErrorIs(t, err, runtime.ErrBadSnapshot)
	assert.Zero(t, stranger.rt.Stats().Entities)

	b := newWorld(t)
	require.NoError(t, b.h.RegisterScript(&counter{name: "go/counter"}))
	moved, err := b.h.Import(snap)
	require.NoError(t, err)
	b.step(1, 0.02)
	assert.Equal(t, 3.0, count(t, b, moved))

	assert.Error(t, b.h.RegisterScript(&counter{name: "go/counter"}), "a name is registered once")
	assert.Error(t, b.h.RegisterScript(nil))
}

// TestImportVersions: an entity exported under one version of a script
// is refused by a host running another, with an error wrapping
// ErrScriptVersion, and nothing arrives; with Options.MigrateImports it
// arrives and goes through the script's onReload(self, old, ctx).
func TestImportVersions(t *testing.T) {
	v1 := []byte(`return { onCreate = function(self) self.hp = 5 end }`)
	v2 := []byte(`return {
  onCreate = function(self) self.health = 5 end,
  onReload = function(self, old, ctx)
    self.health, self.hp = old.hp, nil
    print("migrated", ctx.entity:name(), self.health)
  end,
}`)
	a := newWorld(t)
	require.NoError(t, a.h.Reload("mover", v1))
	e := a.spawn("hero", "mover")
	require.NoError(t, a.h.Reload("mover", v2), "a hot-reloads mover")
	snap, err := a.h.Export(e)
	require.NoError(t, err)
	require.Equal(t, map[string]string{"mover": snapshot.Version(v2)}, snap.Versions)

	b := newWorld(t)
	require.NoError(t, b.h.Reload("mover", v1))
	_, err = b.h.Import(snap)
	require.ErrorIs(t, err, ErrScriptVersion)
	assert.Contains(t, err.Error(), snapshot.Version(v1))
	assert.Zero(t, b.rt.Stats().Entities, "nothing arrives")

	same := newWorld(t)
	require.NoError(t, same.h.Reload("mover", v2))
	_, err = same.h.Import(snap)
	require.NoError(t, err, "the same version imports")

	back := newWorld(t, func(_ *runtime.Options, o *Options) { o.MigrateImports = true })
	require.NoError(t, back.h.Reload("mover", v2))
	old := newWorld(t)
	require.NoError(t, old.h.Reload("mover", v1))
	oe := old.spawn("veteran", "mover")
	snap, err = old.h.Export(oe)
	require.NoError(t, err)
	moved, err := back.h.Import(snap)
	require.NoError(t, err)
	back.h.Flush()
	assert.Equal(t, "migrated\tveteran\t5\n", back.out.String())
	self, err := back.h.Self(firstInstance(t, back, moved))
	require.NoError(t, err)
	assert.Equal(t, "{health=5}", runtime.FormatPlain(sortPlain(self)))
	assert.Empty(t, back.errs)
}

func firstInstance(t *testing.T, w *world, e runtime.Handle) *runtime.Instance {
	t.Helper()
	insts, err := w.rt.Instances(e)
	require.NoError(t, err)
	require.NotEmpty(t, insts)
	return insts[0]
}

// TestNativeRefusals: a native instance with a Lua instance's fields, a
// Lua instance with a native one's data, and data its LoadData refuses
// each refuse the restore, which changes nothing.
func TestNativeRefusals(t *testing.T) {
	w, _, _ := nativeWorld(t)
	snap, err := w.h.Snapshot()
	require.NoError(t, err)
	data, err := snap.Marshal()
	require.NoError(t, err)
	tests := []struct{ name, from, to, want string }{
		{"native with self", `"native":true,"data":{"n":0}`, `"native":true,"self":{}`, "data, not self"},
		{"lua with data", `"script":"snapshot/carrier",`, `"script":"snapshot/carrier","data":1,`, "self, not data"},
		{"data refused", `"data":{"n":0}`, `"data":{"m":0}`, "want a count n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := strings.Replace(string(data), tt.from, tt.to, 1)
			require.NotEqual(t, string(data), doc, "the case changes the document")
			back, err := snapshot.Parse([]byte(doc))
			require.NoError(t, err)
			fresh := newWorld(t)
			require.NoError(t, fresh.h.RegisterScript(&counter{name: "go/counter"}))
			err = fresh.h.Restore(back)
			require.ErrorContains(t, err, tt.want)
			assert.True(t, fresh.rt.Fresh())
		})
	}
}
