package luabind

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestWatch drives hot reload from disk through Host.Watch: a saved
// script is reloaded at the next Step, keeping its state; a save that
// does not compile is reported and the last good version runs on; a
// changed module reloads the scripts that required it; a deleted script
// keeps running with a warning.
func TestWatch(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string, src []byte) {
		path := filepath.Join(dir, filepath.FromSlash(rel))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, src, 0o644))
	}
	read := func(rel string) []byte {
		src, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(rel)))
		require.NoError(t, err)
		return src
	}
	write("counter.lua", read("reload/counter_v1.lua"))
	write("user.lua", read("watch/user_v1.lua"))
	write("lib/step.lua", read("watch/step_v1.lua"))

	w := newWorld(t, func(_ *runtime.Options, o *Options) { o.Dir = dir })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop, err := w.h.Watch(ctx)
	require.NoError(t, err)
	defer stop()
	_, err = w.h.Watch(ctx)
	assert.Error(t, err, "one watcher per host")

	e := w.rt.Spawn()
	w.attach(e, "counter", map[string]any{"id": 1})
	w.attach(e, "user", nil)
	require.NoError(t, w.rt.Activate(e))
	w.step(1, 0.1)
	assert.Equal(t, []string{"create\t1", "v1\t1\t1", "user step\t1"}, w.takeLines())

	// changed waits until the watcher has changes ready, then runs a frame.
	changed := func() []string {
		t.Helper()
		select {
		case <-w.h.WatchReady():
		case <-time.After(10 * time.Second):
			t.Fatal("the watcher saw no change")
		}
		w.step(1, 0.1)
		return w.takeLines()
	}

	write("counter.lua", read("reload/counter_v2.lua"))
	// counter v2 tunes step from 1 to 5: the count goes 1, 6, 11, ...
	assert.Equal(t, []string{"v2\t1\t6\t100", "user step\t1"}, changed())
	assert.Equal(t, 1, w.h.Stats().Reloads)

	write("counter.lua", read("reload/bad_syntax.lua"))
	assert.Equal(t, []string{"v2\t1\t11\t100", "user step\t1"}, changed(), "the last good version runs on")
	require.Len(t, w.errs, 1)
	var re *ReloadError
	require.True(t, errors.As(w.errs[0], &re), "%T %v", w.errs[0], w.errs[0])
	assert.Regexp(t, `counter\.lua:3: .*near '='`, re.Error())

	write("lib/step.lua", read("watch/step_v2.lua"))
	assert.Equal(t, []string{"v2\t1\t16\t100", "user step\t2"}, changed(), "a changed module reloads its users")

	require.NoError(t, os.Remove(filepath.Join(dir, "counter.lua")))
	assert.Equal(t, []string{"v2\t1\t21\t100", "user step\t2"}, changed(), "a deleted script keeps running")
	assert.Contains(t, w.log.String(), "counter.lua was deleted; its last good version keeps running")
	assert.Len(t, w.errs, 1)
}
