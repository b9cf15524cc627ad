package luabind

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestWatchFolderGoneAndBack: under Watch, a script folder moved away and
// back, or deleted and recreated, gets one warning while it is gone, and
// the next save after its return is applied; the scripts run on
// meanwhile.
func TestWatchFolderGoneAndBack(t *testing.T) {
	v1, err := os.ReadFile("testdata/reload/counter_v1.lua")
	require.NoError(t, err)
	v2, err := os.ReadFile("testdata/reload/counter_v2.lua")
	require.NoError(t, err)
	tests := []struct {
		name string
		away func(t *testing.T, dir string) (back func())
	}{
		{"moved away and back", func(t *testing.T, dir string) func() {
			require.NoError(t, os.Rename(dir, dir+".aside"))
			return func() { require.NoError(t, os.Rename(dir+".aside", dir)) }
		}},
		{"deleted and recreated", func(t *testing.T, dir string) func() {
			require.NoError(t, os.RemoveAll(dir))
			return func() {
				require.NoError(t, os.Mkdir(dir, 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "counter.lua"), v1, 0o644))
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "scripts")
			require.NoError(t, os.Mkdir(dir, 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, "counter.lua"), v1, 0o644))
			w := newWorld(t, func(_ *runtime.Options, o *Options) { o.Dir = dir })
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stop, err := w.h.Watch(ctx)
			require.NoError(t, err)
			defer stop()
			e := w.rt.Spawn()
			w.attach(e, "counter", map[string]any{"id": 1})
			require.NoError(t, w.rt.Activate(e))
			w.step(1, 0.1)

			back := tc.away(t, dir)
			// The warning reaches the log at a Step; frames run meanwhile.
			deadline := time.Now().Add(10 * time.Second)
			for !strings.Contains(w.log.String(), "is gone") {
				require.True(t, time.Now().Before(deadline), "no warning; log:\n%s", w.log.String())
				w.step(1, 0.1)
				time.Sleep(10 * time.Millisecond)
			}
			back()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "counter.lua"), v2, 0o644))
			for w.h.Stats().Reloads == 0 {
				select {
				case <-w.h.WatchReady():
				case <-time.After(10 * time.Second):
					t.Fatalf("the save after the folder's return was not applied; log:\n%s", w.log.String())
				}
				w.step(1, 0.1)
			}
			w.takeLines()
			w.step(1, 0.1)
			lines := w.takeLines()
			require.Len(t, lines, 1)
			assert.True(t, strings.HasPrefix(lines[0], "v2\t1\t"), "the new version runs: %q", lines[0])
			assert.Equal(t, 1, strings.Count(w.log.String(), "is gone"), "one warning while gone:\n%s", w.log.String())
			assert.NotContains(t, w.log.String(), "was deleted", "a folder gone for a while deletes no script")
			w.requireNoErrors()
		})
	}
}
