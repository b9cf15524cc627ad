package luabind

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind/internal/watch"
	"github.com/luahost/luahost/runtime"
)

// These tests drive hot reload end to end: real script files in a
// temporary directory, the real watcher, and frames stepped by the test.
// A test never sleeps to wait for a reload: it waits on Host.WatchReady
// (with hrTimeout as the deadline) and then steps, which applies what the
// watcher settled.

const (
	// hrTimeout bounds every wait for the watcher, also under -race on a
	// loaded machine; a healthy save settles in about 50ms.
	hrTimeout = 5 * time.Second
	// hrDT is the frame time of every Step.
	hrDT = 1.0 / 60
	// hrFixtures holds the scripts these tests copy and save.
	hrFixtures = "testdata/hotreload"
)

// hrWorld is a runtime and a watching Lua host on a fresh script
// directory, with what scripts print, the host log and every reported
// error captured.
type hrWorld struct {
	t      testing.TB
	dir    string
	rt     *runtime.Runtime
	h      *Host
	out    bytes.Buffer
	log    bytes.Buffer
	errs   []error
	frames int
}

// hrFrame is what one Step printed.
type hrFrame struct {
	n     int // the frame's number, counted by the test
	lines []string
}

// hrStart copies fixtures into a new script directory (files maps a path
// in the directory to a fixture name), makes the host and starts
// watching. Everything is closed when the test ends.
func hrStart(t testing.TB, files map[string]string) *hrWorld {
	t.Helper()
	w := &hrWorld{t: t, dir: t.TempDir()}
	for rel, fixture := range files {
		w.write(rel, hrFixture(t, fixture))
	}
	w.rt = runtime.New(runtime.Options{Seed: 1, OnError: func(err error) { w.errs = append(w.errs, err) }})
	h, err := New(w.rt, Options{Dir: w.dir, Stdout: &w.out, Log: &w.log, Budget: time.Second})
	require.NoError(t, err)
	w.h = h
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	t.Cleanup(func() { assert.NoError(t, h.Close()) })
	stop, err := h.Watch(ctx)
	require.NoError(t, err)
	t.Cleanup(func() { _ = stop() })
	return w
}

// hrFixture returns the content of a fixture script.
func hrFixture(t testing.TB, name string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(hrFixtures, filepath.FromSlash(name)))
	require.NoError(t, err)
	return src
}

// path is the OS path of rel in the script directory.
func (w *hrWorld) path(rel string) string {
	return filepath.Join(w.dir, filepath.FromSlash(rel))
}

// file is rel as the host names it in notices and errors.
func (w *hrWorld) file(rel string) string {
	return filepath.ToSlash(w.path(rel))
}

// write writes src to rel in place, making directories as needed.
func (w *hrWorld) write(rel string, src []byte) {
	w.t.Helper()
	require.NoError(w.t, os.MkdirAll(filepath.Dir(w.path(rel)), 0o755))
	require.NoError(w.t, os.WriteFile(w.path(rel), src, 0o644))
}

// spawn makes an Active entity with one instance of script.
func (w *hrWorld) spawn(script string, props map[string]any) runtime.Handle {
	w.t.Helper()
	e := w.rt.Spawn()
	_, err := w.h.Attach(e, script, props)
	require.NoError(w.t, err)
	require.NoError(w.t, w.rt.Activate(e))
	return e
}

// step runs one frame and returns what it printed.
func (w *hrWorld) step() hrFrame {
	w.t.Helper()
	require.NoError(w.t, w.rt.Step(hrDT))
	w.frames++
	s := strings.TrimSuffix(w.out.String(), "\n")
	w.out.Reset()
	f := hrFrame{n: w.frames}
	if s != "" {
		f.lines = strings.Split(s, "\n")
	}
	return f
}

// await waits for the watcher and steps, again and again, until done
// holds after a Step or hrTimeout has passed (which fails the test). It
// returns every frame it stepped. Stepping after each signal, not only the
// last, lets intermediate states of a save (an empty file, a moment
// without the file) be applied, or refused, as they come.
func (w *hrWorld) await(what string, done func() bool) []hrFrame {
	w.t.Helper()
	deadline := time.NewTimer(hrTimeout)
	defer deadline.Stop()
	var frames []hrFrame
	for {
		select {
		case <-w.h.WatchReady():
		case <-deadline.C:
			w.t.Fatalf("no %s within %s\nlog:\n%s\nerrors: %v", what, hrTimeout, w.log.String(), w.errs)
		}
		frames = append(frames, w.step())
		if done() {
			return frames
		}
	}
}

// reloads counts the reload notices of rel in the log.
func (w *hrWorld) reloads(rel string) int {
	return strings.Count(w.log.String(), "reloaded "+w.file(rel)+": ")
}

// awaitReload waits until the log has one more reload notice of rel.
func (w *hrWorld) awaitReload(rel string) []hrFrame {
	w.t.Helper()
	n := w.reloads(rel)
	return w.await("reload of "+rel, func() bool { return w.reloads(rel) > n })
}

// awaitRefused waits until one more error is reported and returns it.
func (w *hrWorld) awaitRefused(rel string) ([]hrFrame, error) {
	w.t.Helper()
	n := len(w.errs)
	frames := w.await("refused reload of "+rel, func() bool { return len(w.errs) > n })
	require.Len(w.t, w.errs, n+1, "one save, one report")
	return frames, w.errs[n]
}

// awaitLog waits until the log contains s.
func (w *hrWorld) awaitLog(s string) []hrFrame {
	w.t.Helper()
	return w.await(fmt.Sprintf("log line %q", s), func() bool { return strings.Contains(w.log.String(), s) })
}

// drain takes the watcher's settled changes itself, instead of the next
// Step, until every one of paths was settled, and returns them all in
// the order settled. Tests use it to see exactly what the watcher
// settled, or to apply several changes as one batch.
func (w *hrWorld) drain(paths ...string) []watch.Change {
	w.t.Helper()
	deadline := time.NewTimer(hrTimeout)
	defer deadline.Stop()
	var changes []watch.Change
	for _, p := range paths {
		for !slices.ContainsFunc(changes, func(c watch.Change) bool { return c.Path == p }) {
			select {
			case <-w.h.WatchReady():
			case <-deadline.C:
				w.t.Fatalf("%s was not settled within %s; settled: %v", p, hrTimeout, changes)
			}
			changes = append(changes, w.h.watch.w.Drain()...)
		}
	}
	return changes
}

// apply applies changes taken with drain as one batch, as the next Step
// would have.
func (w *hrWorld) apply(changes []watch.Change) {
	changes = slices.Clone(changes)
	slices.SortStableFunc(changes, func(a, b watch.Change) int { return strings.Compare(a.Path, b.Path) })
	w.h.applyChanges(changes)
}

// hrCounterWorld starts a world whose script name runs counter_v1.lua on
// one instance tagged A, runs its first frame, and returns the check of a
// frame's lines for that instance.
func hrCounterWorld(t *testing.T, name string) (*hrWorld, func(hrFrame, string)) {
	t.Helper()
	w := hrStart(t, map[string]string{name + ".lua": "counter_v1.lua"})
	w.spawn(name, map[string]any{"tag": "A"})
	counter := func(f hrFrame, version string) { hrCounter(t, f, version, "A") }
	counter(w.step(), "v1")
	return w, counter
}

// onlyRefusedEmpty checks that every refused reload was an intermediate
// state of a save (an empty file, a moment without the file), never
// anything else.
func (w *hrWorld) onlyRefusedEmpty(t testing.TB) {
	t.Helper()
	for _, err := range w.errs {
		hrRefused(t, err, "must return a table")
	}
}

// hrCounter checks the lines of a frame of counter instances: one line
// per tag, in order, from version, each instance's count equal to the
// frame's number (no reset, no lost frame) and to ctx.frame.
func hrCounter(t testing.TB, f hrFrame, version string, tags ...string) {
	t.Helper()
	want := make([]string, len(tags))
	for i, tag := range tags {
		want[i] = strings.Join([]string{version, tag, strconv.Itoa(f.n), strconv.Itoa(f.n)}, "\t")
	}
	assert.Equal(t, want, f.lines, "frame %d", f.n)
}

// hrSwitched checks the frames stepped while a save was awaited: the old
// version ran until the last frame, and the new version in the last one.
func hrSwitched(t testing.TB, frames []hrFrame, check func(f hrFrame, version string), before, after string) {
	t.Helper()
	require.NotEmpty(t, frames)
	for _, f := range frames[:len(frames)-1] {
		check(f, before)
	}
	check(frames[len(frames)-1], after)
}

// hrRefused checks that err is a refused reload whose message holds each
// of parts.
func hrRefused(t testing.TB, err error, parts ...string) {
	t.Helper()
	var re *ReloadError
	require.True(t, errors.As(err, &re), "%T is not a *ReloadError: %v", err, err)
	msg := err.Error()
	assert.Contains(t, msg, "reload refused")
	for _, p := range parts {
		assert.Contains(t, msg, p)
	}
}

// hrSave is one way an editor saves a file.
type hrSave struct {
	name string
	save func(t testing.TB, path string, src []byte)
}

// hrSaves are the save patterns of common editors.
var hrSaves = []hrSave{
	{"in-place write", func(t testing.TB, path string, src []byte) {
		require.NoError(t, os.WriteFile(path, src, 0o644))
	}},
	{"truncate then write", func(t testing.TB, path string, src []byte) {
		require.NoError(t, os.Truncate(path, 0))
		time.Sleep(3 * time.Millisecond) // the editor between its two writes
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		require.NoError(t, err)
		_, err = f.Write(src)
		require.NoError(t, err)
		require.NoError(t, f.Close())
	}},
	{"temp file renamed over", func(t testing.TB, path string, src []byte) {
		tmp := path + ".tmp1234"
		require.NoError(t, os.WriteFile(tmp, src, 0o644))
		require.NoError(t, os.Rename(tmp, path))
	}},
	{"vim backup", func(t testing.TB, path string, src []byte) {
		probe := filepath.Join(filepath.Dir(path), "4913")
		require.NoError(t, os.WriteFile(probe, nil, 0o644))
		require.NoError(t, os.Remove(probe))
		require.NoError(t, os.Rename(path, path+"~"))
		require.NoError(t, os.WriteFile(path, src, 0o644))
		require.NoError(t, os.Remove(path+"~"))
	}},
	{"jetbrains safe write", func(t testing.TB, path string, src []byte) {
		require.NoError(t, os.WriteFile(path+"___jb_tmp___", src, 0o644))
		require.NoError(t, os.Rename(path, path+"___jb_old___"))
		require.NoError(t, os.Rename(path+"___jb_tmp___", path))
		require.NoError(t, os.Remove(path+"___jb_old___"))
	}},
	{"delete and recreate", func(t testing.TB, path string, src []byte) {
		require.NoError(t, os.Remove(path))
		require.NoError(t, os.WriteFile(path, src, 0o644))
	}},
}

// TestHotReloadSavePatterns saves a script twice in a row with each
// editor's save pattern: after each save the new code runs, every
// instance keeps counting where it was (no reset, no lost frame), and
// one save is one reload.
func TestHotReloadSavePatterns(t *testing.T) {
	for _, p := range hrSaves {
		t.Run(p.name, func(t *testing.T) {
			w := hrStart(t, map[string]string{"counter.lua": "counter_v1.lua"})
			w.spawn("counter", map[string]any{"tag": "A"})
			w.spawn("counter", map[string]any{"tag": "B"})
			counter := func(f hrFrame, version string) { hrCounter(t, f, version, "A", "B") }
			counter(w.step(), "v1")
			counter(w.step(), "v1")

			prev := "v1"
			for i, next := range []string{"v2", "v3"} {
				p.save(t, w.path("counter.lua"), hrFixture(t, "counter_"+next+".lua"))
				frames := w.awaitReload("counter.lua")
				hrSwitched(t, frames, counter, prev, next)
				assert.Equal(t, i+1, w.reloads("counter.lua"), "one save, one reload")
				counter(w.step(), next)
				prev = next
			}
			assert.Contains(t, w.log.String(), "reloaded "+w.file("counter.lua")+": 2 instances migrated in ")
			assert.Equal(t, 2, w.h.Stats().Reloads)
			// A save may show an intermediate state (an empty file, a
			// moment without the file) if the editor pauses longer than
			// the quiet period; that one is refused, never applied.
			w.onlyRefusedEmpty(t)
		})
	}
}

// TestHotReloadBrokenThenFixed saves a syntax error, then the fix: the
// broken save is reported with file:line and refused, the old code keeps
// running with its state, and the fixed save applies.
func TestHotReloadBrokenThenFixed(t *testing.T) {
	w, counter := hrCounterWorld(t, "counter")

	w.write("counter.lua", hrFixture(t, "counter_broken.lua"))
	frames, err := w.awaitRefused("counter.lua")
	hrRefused(t, err, w.file("counter.lua")+":8:", "near '='")
	for _, f := range frames {
		counter(f, "v1")
	}
	counter(w.step(), "v1")
	assert.Zero(t, w.reloads("counter.lua"))

	w.write("counter.lua", hrFixture(t, "counter_v2.lua"))
	hrSwitched(t, w.awaitReload("counter.lua"), counter, "v1", "v2")
	counter(w.step(), "v2")
	assert.Len(t, w.errs, 1)
}

// TestHotReloadNotATable empties a script and leaves it empty: an empty
// file compiles, but it does not return a table, so the reload is refused
// after the quiet period and the old code keeps running. A file that
// returns something else is refused the same way.
func TestHotReloadNotATable(t *testing.T) {
	w, counter := hrCounterWorld(t, "counter")

	for _, src := range []string{"", "return 42\n"} {
		w.write("counter.lua", []byte(src))
		frames, err := w.awaitRefused("counter.lua")
		hrRefused(t, err, w.file("counter.lua")+": ", "must return a table")
		for _, f := range frames {
			counter(f, "v1")
		}
		counter(w.step(), "v1")
	}
	assert.Zero(t, w.reloads("counter.lua"))

	w.write("counter.lua", hrFixture(t, "counter_v2.lua"))
	hrSwitched(t, w.awaitReload("counter.lua"), counter, "v1", "v2")
	assert.Len(t, w.errs, 2)
}

// BenchmarkSaveToRunning measures a save with the real watcher running:
// from the write of a changed script until its new code has run one
// frame. The watcher's 50ms quiet period dominates. The two variants of
// the script alternate, so that every save is a change.
func BenchmarkSaveToRunning(b *testing.B) {
	w := hrStart(b, map[string]string{"spinner.lua": "spinner_a.lua"})
	w.spawn("spinner", nil)
	w.step()
	variants := [][]byte{hrFixture(b, "spinner_b.lua"), hrFixture(b, "spinner_a.lua")}
	marks := []string{"b", "a"}
	frames, i := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		require.NoError(b, os.WriteFile(w.path("spinner.lua"), variants[i%2], 0o644))
		mark := marks[i%2]
		deadline := time.NewTimer(hrTimeout)
		for {
			select {
			case <-w.h.WatchReady():
			case <-deadline.C:
				b.Fatalf("the save did not run within %s\nlog:\n%s", hrTimeout, w.log.String())
			}
			f := w.step()
			frames++
			if len(f.lines) == 1 && f.lines[0] == mark {
				break
			}
		}
		deadline.Stop()
		i++
	}
	b.ReportMetric(float64(frames)/float64(b.N), "frames/op")
	require.Empty(b, w.errs)
}

// TestHotReloadByteOrderMark: a save that starts with a UTF-8 byte order
// mark is reloaded as the same file loads at start: the mark is left out.
func TestHotReloadByteOrderMark(t *testing.T) {
	w, counter := hrCounterWorld(t, "counter")
	w.write("counter.lua", append([]byte(byteOrderMark), hrFixture(t, "counter_v2.lua")...))
	hrSwitched(t, w.awaitReload("counter.lua"), counter, "v1", "v2")
	assert.Empty(t, w.errs)
}
