package luabind

import (
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// liveHeap returns the live heap after a full collection.
func liveHeap() int64 {
	goruntime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64())
}

// TestCeiling: growth across frames (8 MiB more every frame, each
// callback well within its limits) is stopped by the host's memory
// ceiling: the instance holding the most is faulted, and only it; the
// neighbour runs every frame and the heap stays near the ceiling.
func TestCeiling(t *testing.T) {
	for _, tt := range []struct {
		script  string
		faulted int
	}{
		{"hostile/hoard", 1},
		{"hostile/hoard_module", 2},
	} {
		t.Run(tt.script, func(t *testing.T) {
			ceiling := liveHeap() + 160<<20
			// A budget that an 8 MiB string.rep meets under -race on a busy
			// machine: the ceiling, not the clock, is under test.
			w := newWorld(t, withBudget(10*time.Second, 0), func(_ *runtime.Options, o *Options) { o.MemoryCeiling = ceiling })
			for range tt.faulted {
				w.spawn("", tt.script)
			}
			w.spawn("", "helper/neighbour")
			const frames = 60
			w.step(frames, 0.1)
			errs := w.scriptErrors()
			require.Len(t, errs, tt.faulted, "the grower alone is faulted")
			for _, se := range errs {
				t.Logf("reported: %s", se.Message)
				assert.Equal(t, tt.script, se.Script)
				assert.Equal(t, "ceiling", se.Callback)
				assert.ErrorIs(t, se, ErrMemory)
				assert.Regexp(t, `^testdata/scripts/`+tt.script+`\.lua: the host's \d+ MiB memory ceiling is near`, se.Message)
			}
			var want []string
			for i := range frames {
				want = append(want, fmt.Sprint("neighbour\t", i+1))
			}
			assert.Equal(t, want, w.lines())
			assert.Less(t, liveHeap(), ceiling+64<<20, "growth stopped near the ceiling")
		})
	}
}

// TestDefaultCeiling: the default ceiling is a quarter of the machine's
// memory, and never above GOMEMLIMIT.
func TestDefaultCeiling(t *testing.T) {
	total := machineMemory()
	if total == 0 {
		t.Skip("the machine's memory is unknown here")
	}
	assert.Equal(t, total/4, DefaultCeiling())
	defer debugSetMemoryLimit(debugSetMemoryLimit(total / 8))
	assert.Equal(t, total/8, DefaultCeiling(), "capped at GOMEMLIMIT")
	w := newWorld(t, func(_ *runtime.Options, o *Options) { o.MemoryCeiling = total })
	assert.Equal(t, total/8, w.h.opts.MemoryCeiling, "a configured ceiling too")
}

var debugSetMemoryLimit = debug.SetMemoryLimit

// TestCeilingBlamesTheSpawner: growth across frames that is entities a
// script spawns (20,000 a frame, without scripts: no Lua data of theirs)
// is laid at the spawner's door: it is faulted, its spawning stops, and
// the neighbour runs every frame.
func TestCeilingBlamesTheSpawner(t *testing.T) {
	ceiling := liveHeap() + 48<<20
	w := newWorld(t, withBudget(10*time.Second, 0), func(_ *runtime.Options, o *Options) { o.MemoryCeiling = ceiling })
	w.spawn("", "hostile/spawn_growth")
	w.spawn("", "helper/neighbour")
	const frames = 40
	w.step(frames, 0.1)
	errs := w.scriptErrors()
	require.Len(t, errs, 1, "the spawner alone is faulted")
	assert.Equal(t, "hostile/spawn_growth", errs[0].Script)
	assert.ErrorIs(t, errs[0], ErrMemory)
	assert.Regexp(t, `its script's state and the \d+ entities it spawned \(256 bytes each\) hold \d+ MiB, the most of any`, errs[0].Message)
	n := len(w.rt.Entities())
	w.step(5, 0.1)
	assert.Equal(t, n, len(w.rt.Entities()), "the spawning stopped")
	assert.Len(t, w.lines(), frames+5, "the neighbour ran every frame")
}

// TestCeilingBlamesNoBystander: growth across frames that no script made
// (entities spawned from Go) is not laid at a script's door: nobody is
// faulted, a warning says why, and the scripts run on.
func TestCeilingBlamesNoBystander(t *testing.T) {
	ceiling := liveHeap() + 48<<20
	w := newWorld(t, withBudget(10*time.Second, 0), func(_ *runtime.Options, o *Options) { o.MemoryCeiling = ceiling })
	w.spawn("", "helper/neighbour")
	const frames = 40
	for range frames {
		for range 20000 {
			w.rt.Spawn()
		}
		w.step(1, 0.1)
	}
	assert.Empty(t, w.scriptErrors(), "nobody is faulted")
	assert.Contains(t, w.log.String(), "memory ceiling is near", "a warning says why")
	assert.Contains(t, w.log.String(), "no instance is faulted")
	assert.Len(t, w.lines(), frames, "the neighbour ran every frame")
}

// TestCeilingCountsPropertiesCopies: copies of a script's properties, made
// by attaches (a scene's setup, Go's or a callback's) and by a reload's
// migration, where no frame's end checks the ceiling, are counted against
// it: the copy that would pass it is refused with ErrCopyCeiling, a
// reload that would is refused whole, and the heap stays near the
// ceiling.
func TestCeilingCountsPropertiesCopies(t *testing.T) {
	const small = `return { onUpdate = function(self, ctx) print("v1") end }`
	tests := []struct {
		name string
		run  func(t *testing.T, w *world) error
	}{
		{"attaches from Go", func(t *testing.T, w *world) error {
			e := w.rt.Spawn()
			for range 1000 {
				if _, err := w.h.Attach(e, "hostile/big_properties", nil); err != nil {
					return err
				}
			}
			return nil
		}},
		{"reload", func(t *testing.T, w *world) error {
			require.NoError(t, w.h.Reload("grows", []byte(small)))
			for range 1000 {
				w.spawn("", "grows")
			}
			big, err := os.ReadFile(filepath.Join(scriptDir, "hostile/big_properties.lua"))
			require.NoError(t, err)
			err = w.h.Reload("grows", big)
			w.step(1, 0.1)
			assert.Len(t, w.takeLines(), 1000, "the old version runs on")
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ceiling := liveHeap() + 64<<20
			w := newWorld(t, func(_ *runtime.Options, o *Options) { o.MemoryCeiling = ceiling })
			err := tt.run(t, w)
			require.ErrorIs(t, err, ErrCopyCeiling)
			t.Logf("refused: %v", err)
			assert.Less(t, liveHeap(), ceiling+16<<20, "the heap stays near the ceiling")
		})
	}
}
