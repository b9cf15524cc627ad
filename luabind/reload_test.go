package luabind

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// source reads a version of a script from testdata/reload.
func source(t testing.TB, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "reload", name+".lua"))
	require.NoError(t, err)
	return src
}

// reload applies a version through the Go API and fails the test on error.
func (w *world) reload(script, version string) {
	w.t.Helper()
	require.NoError(w.t, w.h.Reload(script, source(w.t, version)))
}

// counters loads reload/counter v1 and attaches it to three entities with
// ids 1, 2, 3.
func counters(w *world) []runtime.Handle {
	w.reload("reload/counter", "counter_v1")
	var es []runtime.Handle
	for i := 1; i <= 3; i++ {
		e := w.rt.Spawn()
		w.attach(e, "reload/counter", map[string]any{"id": i})
		require.NoError(w.t, w.rt.Activate(e))
		es = append(es, e)
	}
	return es
}

// TestReloadCarriesState: three successive reloads through the Go API
// keep every instance's state; new properties appear, a default the
// instances never changed takes the new value (tuned), a value set by the
// attach's props is kept; onReload(self, old) renames a field; onCreate
// never runs again.
func TestReloadCarriesState(t *testing.T) {
	w := newWorld(t)
	counters(w)
	w.step(2, 0.1)
	assert.Equal(t, []string{
		"create\t1", "create\t2", "create\t3",
		"v1\t1\t1", "v1\t2\t1", "v1\t3\t1",
		"v1\t1\t2", "v1\t2\t2", "v1\t3\t2",
	}, w.takeLines())

	w.reload("reload/counter", "counter_v2")
	w.step(1, 0.1)
	assert.Equal(t, []string{"v2\t1\t7\t100", "v2\t2\t7\t100", "v2\t3\t7\t100"}, w.takeLines(),
		"state kept; the new property appears; the untouched step takes the new default (5); the ids set by props stay")

	w.reload("reload/counter", "counter_v3")
	w.h.Flush()
	assert.Equal(t, []string{"migrated\t1\t7", "migrated\t2\t7", "migrated\t3\t7"}, w.takeLines(), "onReload in schedule order")
	w.step(1, 0.1)
	assert.Equal(t, []string{"v3\t1\t8", "v3\t2\t8", "v3\t3\t8"}, w.takeLines())

	w.reload("reload/counter", "counter_v4")
	w.step(1, 0.1)
	assert.Equal(t, []string{"v4\t1\t9\t100\tv1,v3", "v4\t2\t9\t100\tv1,v3", "v4\t3\t9\t100\tv1,v3"}, w.takeLines())

	w.requireNoErrors()
	assert.Equal(t, 3, w.h.Stats().Reloads)
	assert.Equal(t, 3, strings.Count(w.log.String(), "reloaded testdata/scripts/reload/counter.lua: 3 instances migrated"))
}

// TestReloadRefused: a new version that does not compile, whose chunk
// fails, that does not return a table, or whose onReload fails for one of
// several instances is refused with a *ReloadError; the old version keeps
// running with every instance's state untouched.
func TestReloadRefused(t *testing.T) {
	tests := []struct {
		version string
		want    string // regexp of the cause's message
	}{
		{"bad_syntax", `^testdata/scripts/reload/counter\.lua:3: .*near '='$`},
		{"bad_chunk", `^testdata/scripts/reload/counter\.lua:3: attempt to index`},
		{"bad_value", `^testdata/scripts/reload/counter\.lua: the script must return a table, not number$`},
		{"bad_empty", `^testdata/scripts/reload/counter\.lua: the script must return a table, not nil$`},
		{"bad_onreload", `^testdata/scripts/reload/counter\.lua:8: cannot migrate instance 2\n\tin script reload/counter, entity\(2:1\), onReload, frame 1\n`},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			w := newWorld(t)
			counters(w)
			w.step(1, 0.1)
			w.takeLines()
			old := w.h.Script("reload/counter").st

			err := w.h.Reload("reload/counter", source(t, tt.version))
			var re *ReloadError
			require.True(t, errors.As(err, &re), "want a *ReloadError, got %T %v", err, err)
			assert.Equal(t, "reload/counter", re.Script)
			assert.Regexp(t, tt.want, re.Err.Error())
			assert.True(t, strings.HasSuffix(err.Error(), "(reload refused: the previous version of reload/counter keeps running)"))
			assert.Same(t, old, w.h.Script("reload/counter").st, "the old version stays")
			assert.Equal(t, 0, w.h.Stats().Reloads)

			w.step(1, 0.1)
			assert.Equal(t, []string{"v1\t1\t2", "v1\t2\t2", "v1\t3\t2"}, w.takeLines(), "state untouched")
			w.requireNoErrors()
		})
	}
}

// TestReloadUncopyable: a self holding what cannot be copied (a function
// inside a table) refuses the reload.
func TestReloadUncopyable(t *testing.T) {
	w := newWorld(t)
	w.reload("reload/holder", "holder")
	w.spawn("", "reload/holder")
	err := w.h.Reload("reload/holder", source(t, "holder"))
	var re *ReloadError
	require.True(t, errors.As(err, &re), "%T %v", err, err)
	assert.Contains(t, err.Error(), "hooks.onHit")
	assert.Contains(t, err.Error(), "function")
	w.step(1, 0.1)
	assert.Equal(t, []string{"holder"}, w.lines())
}

// TestReloadFaulted: a reload gives a faulted instance a fresh chance, and
// an instance whose onCreate failed runs the new onCreate (not onReload).
func TestReloadFaulted(t *testing.T) {
	w := newWorld(t)
	w.reload("reload/faulty", "faulty_v1")
	w.reload("reload/createfail", "createfail_v1")
	faulty := w.spawn("", "reload/faulty")
	failed := w.spawn("", "reload/createfail")
	w.step(3, 0.1)
	assert.Equal(t, []string{"faulty\t1", "faulty\t2"}, w.takeLines())
	require.Len(t, w.errs, 2)

	w.reload("reload/faulty", "faulty_v2")
	w.reload("reload/createfail", "createfail_v2")
	w.h.Flush()
	assert.Equal(t, []string{"created by v2\t3"}, w.takeLines(), "the new onCreate runs at the reload")
	for _, e := range []runtime.Handle{faulty, failed} {
		insts, err := w.rt.Instances(e)
		require.NoError(t, err)
		require.Len(t, insts, 1)
		assert.False(t, insts[0].Faulted(), "%s is cleared", insts[0])
		assert.False(t, insts[0].CreateFailed())
	}
	w.step(1, 0.1)
	assert.Equal(t, []string{"fixed\t3", "v2 update\ttrue"}, w.takeLines())
	assert.Len(t, w.errs, 2, "no new error")
}

// TestReloadPriority: a new priority re-sorts the schedule; ties keep
// attach order.
func TestReloadPriority(t *testing.T) {
	w := newWorld(t)
	w.reload("reload/a", "order_p0")
	w.reload("reload/b", "order_p0")
	for _, a := range []struct{ script, tag string }{{"reload/a", "a1"}, {"reload/b", "b2"}, {"reload/a", "a3"}} {
		e := w.rt.Spawn()
		w.attach(e, a.script, map[string]any{"tag": a.tag})
		require.NoError(t, w.rt.Activate(e))
	}
	order := func() []string {
		w.takeLines()
		w.step(1, 0.1)
		return w.takeLines()
	}
	assert.Equal(t, []string{"a1", "b2", "a3"}, order(), "equal priorities: attach order")
	w.reload("reload/a", "order_p5")
	assert.Equal(t, []string{"b2", "a1", "a3"}, order(), "a after b; a1 before a3")
	w.reload("reload/a", "order_pm1")
	assert.Equal(t, []string{"a1", "a3", "b2"}, order())
	assert.Equal(t, -1, w.h.Script("reload/a").Priority())
	w.reload("reload/a", "order_p0")
	assert.Equal(t, []string{"a1", "b2", "a3"}, order(), "back to attach order")
	w.requireNoErrors()
}

// TestReloadEvents: after a reload, events reach the new handlers; an
// event the new version handles is subscribed, one it dropped is not.
func TestReloadEvents(t *testing.T) {
	w := newWorld(t)
	w.reload("reload/events", "events_v1")
	w.spawn("", "reload/events")
	notify := func(name string) {
		_, err := w.rt.Events().Notify(name, name, -1)
		require.NoError(t, err)
	}
	notify("ping")
	notify("gone")
	notify("pong")
	w.reload("reload/events", "events_v2")
	notify("ping")
	notify("gone")
	notify("pong")
	w.h.Flush()
	assert.Equal(t, []string{"v1 ping\tping", "v1 gone", "v2 ping\tping", "v2 pong\tpong"}, w.lines())
	assert.Equal(t, 0, w.rt.Events().Observers("gone"))
	assert.Equal(t, 1, w.rt.Events().Observers("pong"))
	w.requireNoErrors()
}

// TestReloadDuringFrame: Reload is refused while a frame runs (here from
// a Go function a script calls); the swap happens between frames.
func TestReloadDuringFrame(t *testing.T) {
	w := newWorld(t)
	require.NoError(t, w.h.Register("reloadNow", func(*runtime.Instance, []any) (any, error) {
		return nil, w.h.Reload("reload/counter", source(t, "counter_v2"))
	}))
	w.reload("reload/caller", "caller")
	w.spawn("", "reload/caller")
	w.step(1, 0.1)
	got, _ := w.rt.Blackboard().Get("reloadError")
	assert.Contains(t, got, "not allowed while a frame runs")
}

// TestReloadNewScript: Reload of a script that is not loaded yet loads
// it from the source, without the file system.
func TestReloadNewScript(t *testing.T) {
	w := newWorld(t)
	require.NoError(t, w.h.Reload("reload/virtual", source(t, "order_p5")))
	s := w.h.Script("reload/virtual")
	require.NotNil(t, s)
	assert.Equal(t, 5, s.Priority())
	assert.Equal(t, "testdata/scripts/reload/virtual.lua", s.File())
	err := w.h.Reload("reload/other", source(t, "bad_syntax"))
	var le *LoadError
	require.True(t, errors.As(err, &le), "%T", err)
	assert.Nil(t, w.h.Script("reload/other"))
	assert.Error(t, w.h.Reload("../x", source(t, "order_p5")))
}

// TestReloadTunedProperties: a default changed in the file reaches the
// instances that never changed it; a value an instance changed, or that
// the attach's props set (even to the old default), is kept; table
// defaults compare by contents. onReload gets (self, old, ctx).
func TestReloadTunedProperties(t *testing.T) {
	w := newWorld(t)
	w.reload("reload/tuned", "tuned_v1")
	for _, c := range []struct {
		id    string
		props map[string]any
	}{{"plain", nil}, {"changed", nil}, {"props", map[string]any{"damage": 7}}} {
		e := w.rt.Spawn()
		props := map[string]any{"id": c.id}
		for k, v := range c.props {
			props[k] = v
		}
		w.attach(e, "reload/tuned", props)
		require.NoError(t, w.rt.Activate(e))
	}
	w.step(1, 0.1)
	assert.Equal(t, []string{"v1\tplain\t7\t1,0,0\t5", "v1\tchanged\t9\t1,0,0\t5", "v1\tprops\t7\t1,0,0\t5"}, w.takeLines())

	w.reload("reload/tuned", "tuned_v2")
	w.h.Flush()
	assert.Equal(t, []string{
		"reload\tplain\told\t7\tnew\t50\tentity(1:1)\t1",
		"reload\tchanged\told\t9\tnew\t9\tentity(2:1)\t1",
		"reload\tprops\told\t7\tnew\t7\tentity(3:1)\t1",
	}, w.takeLines(), "onReload sees the old value in old and the tuned one in self; ctx is passed")
	w.step(1, 0.1)
	assert.Equal(t, []string{"v2\tplain\t50\t0,1,0\t5", "v2\tchanged\t9\t0,1,0\t5", "v2\tprops\t7\t0,1,0\t5"}, w.takeLines())
	w.requireNoErrors()
}

// TestReloadRenameTwoSaves: the rename pattern of docs/lua-api.md
// survives the same version saved twice in a row.
func TestReloadRenameTwoSaves(t *testing.T) {
	w := newWorld(t)
	w.reload("reload/rename", "rename_v1")
	e := w.rt.Spawn()
	w.attach(e, "reload/rename", nil)
	require.NoError(t, w.rt.Activate(e))
	w.step(2, 0.1)
	assert.Equal(t, []string{"count\t1", "count\t2"}, w.takeLines())
	for _, want := range []string{"total\t3\tnil", "total\t4\tnil"} {
		w.reload("reload/rename", "rename_v2")
		w.step(1, 0.1)
		assert.Equal(t, []string{want}, w.takeLines())
	}
	w.requireNoErrors()
}

// TestReloadKeepsConstructorArrays: a hot reload's copy of self keeps a
// constructor's table with nils among its values as a constructor's, so
// that # answers as before the reload (Lua 5.1 answers it otherwise for a
// table built by writes with the same keys).
func TestReloadKeepsConstructorArrays(t *testing.T) {
	w := newWorld(t)
	src, err := os.ReadFile(filepath.Join(scriptDir, "snapshot", "lengths.lua"))
	require.NoError(t, err)
	w.spawn("holder", "snapshot/lengths")
	w.step(1, 0.1)
	require.NoError(t, w.h.Reload("snapshot/lengths", append(src, "\n-- reloaded\n"...)))
	w.step(1, 0.1)
	assert.Equal(t, []string{"1\t3\t3\t1\tnil", "2\t3\t3\t1\tnil"}, w.takeLines())
	w.requireNoErrors()
}
