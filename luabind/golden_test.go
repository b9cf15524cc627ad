package luabind

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

var update = flag.Bool("update", false, "rewrite golden files")

// golden compares got with testdata/golden/name, or rewrites the file
// with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -run %s -update to create it", t.Name())
	assert.Equal(t, string(want), got, "golden file %s differs (go test -run %s -update rewrites it)", path, t.Name())
}

// TestGoldenScene runs a whole scene through the Go API (a director that
// spawns a turret during setup, a turret that spawns bullets, bullets that
// move, emit "hit" and "died" and kill themselves, a shield that stops
// every other hit, a scoreboard on the blackboard that faults in frame 3)
// and compares everything it wrote, frame by frame, with
// testdata/golden/scene.txt.
func TestGoldenScene(t *testing.T) {
	w := newWorld(t, withSeed(42))
	var b strings.Builder
	section := func(title string) {
		fmt.Fprintf(&b, "== %s\n", title)
		for _, l := range w.takeLines() {
			fmt.Fprintf(&b, "out: %s\n", l)
		}
		for l := range strings.SplitSeq(strings.TrimSuffix(w.log.String(), "\n"), "\n") {
			if l != "" {
				fmt.Fprintf(&b, "log: %s\n", l)
			}
		}
		w.log.Reset()
		for _, err := range w.errs {
			for l := range strings.SplitSeq(err.Error(), "\n") {
				fmt.Fprintf(&b, "err: %s\n", l)
			}
		}
		w.errs = nil
	}

	w.spawn("arena", "scene/director")
	w.spawn("board", "scene/shield", "scene/scoreboard")
	w.h.Flush()
	section("setup")
	for frame := 1; frame <= 8; frame++ {
		w.step(1, 0.25)
		section(fmt.Sprintf("frame %d", frame))
	}
	bb := w.rt.Blackboard()
	for _, k := range bb.Keys() {
		v, _ := bb.Get(k)
		fmt.Fprintf(&b, "blackboard: %s = %s\n", k, runtime.FormatPlain(sortPlain(v)))
	}
	w.close()
	section("close")
	st := w.rt.Stats()
	fmt.Fprintf(&b, "stats: frames %d, entities %d, instances %d, errors %d\n", st.Frames, st.Entities, st.Instances, st.Errors)
	golden(t, "scene.txt", b.String())
}
