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

// TestLenientAttach: with Options.Lenient, attaching a script that does
// not load reports the load error once and waits, the rest of the world
// runs, and saving a fixed file attaches the waiting instances (their
// onCreate runs then), skipping an entity killed meanwhile. Without it,
// Attach refuses.
func TestLenientAttach(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "broken.lua")
	require.NoError(t, os.WriteFile(file, []byte("return {\n  onUpdate = function(self)\n    self.x = \nend }\n"), 0o644))
	spinner, err := os.ReadFile("testdata/scripts/spinner.lua")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "spinner.lua"), spinner, 0o644))

	strict := newWorld(t, func(_ *runtime.Options, o *Options) { o.Dir = dir })
	_, err = strict.h.Attach(strict.rt.Spawn(), "broken", nil)
	var le *LoadError
	require.ErrorAs(t, err, &le)
	assert.NotErrorIs(t, err, ErrWaiting)

	w := newWorld(t, func(_ *runtime.Options, o *Options) { o.Dir = dir; o.Lenient = true })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop, err := w.h.Watch(ctx)
	require.NoError(t, err)
	defer stop()

	var ents []runtime.Handle
	for _, name := range []string{"a", "b", "c"} {
		e := w.rt.Spawn()
		require.NoError(t, w.rt.SetName(e, name))
		_, err := w.h.Attach(e, "broken", map[string]any{"hp": name})
		require.ErrorIs(t, err, ErrWaiting)
		require.ErrorAs(t, err, &le)
		assert.Contains(t, err.Error(), "broken.lua:4:")
		_, err = w.h.Attach(e, "spinner", nil)
		require.NoError(t, err)
		require.NoError(t, w.rt.Activate(e))
		ents = append(ents, e)
	}
	require.Len(t, w.errs, 1, "reported once")
	assert.Contains(t, w.errs[0].Error(), "broken.lua:4:")
	assert.Equal(t, 3, w.h.Waiting("broken"))
	w.step(1, 0.1)
	running := 0
	for range w.h.Instances("spinner") {
		running++
	}
	assert.Equal(t, 3, running, "the rest of the world runs")
	_, err = w.rt.Kill(ents[1])
	require.NoError(t, err)
	w.step(1, 0.1)
	w.takeLines()

	fixed, err := os.ReadFile("testdata/scripts/waiting/fixed.lua")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, fixed, 0o644))
	select {
	case <-w.h.WatchReady():
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher saw no change")
	}
	w.step(1, 0.1)
	assert.Equal(t, []string{"created\ta\ta", "created\tc\tc", "update\ta", "update\tc"}, w.takeLines())
	assert.Zero(t, w.h.Waiting("broken"))
	assert.Contains(t, w.log.String(), "broken loads now: 2 waiting instances attached")
	assert.Len(t, w.errs, 1, "no further errors: %v", errors.Join(w.errs...))
}
