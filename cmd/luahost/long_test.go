package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// long turns on the long-run checks: go test ./cmd/luahost -run Long -long.
var long = flag.Bool("long", false, "run the long-run checks: spawn and kill churn, hundreds of saves under watch")

// heapAfterGC returns the live heap after two collections.
func heapAfterGC() int64 {
	var ms goruntime.MemStats
	goruntime.GC()
	goruntime.GC()
	goruntime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// flatHeap is how much the live heap may grow between the two measures of
// a long-run check: far less than the work done in between would leak.
const flatHeap = 4 << 20

// TestLongChurn runs the churn scene (every frame 50 entities killed and
// 50 spawned, with names, tags, props, events and blackboard writes) for
// 20,000 frames: the live heap after 20,000 frames is that after 2,000.
func TestLongChurn(t *testing.T) {
	if !*long {
		t.Skip("a long-run check: run with -long")
	}
	var stderr bytes.Buffer
	// A generous budget: the check is about memory, and a loaded machine
	// may pause a frame.
	w, err := loadScene("testdata/churn/scene.json", loadConfig{budget: 10 * time.Second, stdout: io.Discard, stderr: &stderr})
	require.NoError(t, err)
	defer w.host.Close()
	steps := func(n int) {
		for range n {
			require.NoError(t, w.rt.Step(1.0/60))
		}
	}
	steps(2000)
	before := heapAfterGC()
	steps(18000)
	after := heapAfterGC()
	t.Logf("live heap after 2,000 frames %d KiB, after 20,000 %d KiB", before>>10, after>>10)
	assert.Less(t, after-before, int64(flatHeap), "the live heap stays flat")
	assert.LessOrEqual(t, w.rt.Stats().Entities, 51)
	assert.Empty(t, stderr.String())
}

// TestLongWatchSaves saves a script 300 times under watch, each save
// applied before the next: the live heap after 300 reloads is that after
// 50, and every save was applied.
func TestLongWatchSaves(t *testing.T) {
	if !*long {
		t.Skip("a long-run check: run with -long")
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "scripts", "saved.lua")
	require.NoError(t, os.MkdirAll(filepath.Dir(script), 0o755))
	save := func(version int) {
		src := fmt.Sprintf("-- version %d\nreturn {\n  properties = { pad = %q },\n  onUpdate = function(self, ctx) self.version = %d end,\n}\n", version, bytes.Repeat([]byte("x"), 1000), version)
		require.NoError(t, os.WriteFile(script, []byte(src), 0o644))
	}
	save(0)
	scene := filepath.Join(dir, "scene.json")
	require.NoError(t, os.WriteFile(scene, []byte(`{"entities": [{"name": "a", "scripts": ["saved"]}, {"name": "b", "scripts": ["saved"]}]}`), 0o644))
	var stderr bytes.Buffer
	w, err := loadScene(scene, loadConfig{budget: 10 * time.Second, stdout: io.Discard, stderr: &stderr})
	require.NoError(t, err)
	defer w.host.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop, err := w.host.Watch(ctx)
	require.NoError(t, err)
	defer stop()

	var before int64
	for i := 1; i <= 300; i++ {
		save(i)
		for w.host.Stats().Reloads < i {
			select {
			case <-w.host.WatchReady():
			case <-time.After(10 * time.Second):
				t.Fatalf("save %d not applied; stderr:\n%s", i, stderr.String())
			}
			require.NoError(t, w.rt.Step(1.0/60))
		}
		if i == 50 {
			before = heapAfterGC()
		}
	}
	after := heapAfterGC()
	t.Logf("live heap after 50 reloads %d KiB, after 300 %d KiB", before>>10, after>>10)
	assert.Less(t, after-before, int64(flatHeap), "the live heap stays flat")
	assert.Equal(t, 300, w.host.Stats().Reloads)
}
