package luabind

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHotReloadThreeReloads carries a counter and a table through three
// successive reloads; each version's onReload adds to the table.
func TestHotReloadThreeReloads(t *testing.T) {
	w := hrStart(t, map[string]string{"chain.lua": "chain_v1.lua"})
	w.spawn("chain", nil)
	history := []string{"v1"}
	chain := func(f hrFrame, version string) {
		want := strings.Join([]string{version, strconv.Itoa(f.n), strconv.Itoa(f.n), strings.Join(history, ",")}, "\t")
		assert.Equal(t, []string{want}, f.lines, "frame %d", f.n)
	}
	chain(w.step(), "v1")
	for i, next := range []string{"v2", "v3", "v4"} {
		w.write("chain.lua", hrFixture(t, "chain_"+next+".lua"))
		frames := w.awaitReload("chain.lua")
		for _, f := range frames[:len(frames)-1] {
			chain(f, history[len(history)-1])
		}
		history = append(history, next)
		chain(frames[len(frames)-1], next)
		chain(w.step(), next)
		assert.Equal(t, i+1, w.reloads("chain.lua"))
	}
	assert.Empty(t, w.errs)
}

// TestHotReloadRenameField moves a field in onReload (old.x -> self.y).
func TestHotReloadRenameField(t *testing.T) {
	w := hrStart(t, map[string]string{"rename.lua": "rename_v1.lua"})
	w.spawn("rename", nil)
	for range 3 {
		f := w.step()
		assert.Equal(t, []string{fmt.Sprintf("x\t%d\t%d", f.n, f.n)}, f.lines)
	}
	w.write("rename.lua", hrFixture(t, "rename_v2.lua"))
	frames := w.awaitReload("rename.lua")
	frames = append(frames, w.step())
	last := frames[len(frames)-2]
	for _, f := range frames {
		if f.n < last.n {
			assert.Equal(t, []string{fmt.Sprintf("x\t%d\t%d", f.n, f.n)}, f.lines)
		} else {
			assert.Equal(t, []string{fmt.Sprintf("y\t%d\t%d\tnil", f.n, f.n)}, f.lines)
		}
	}
	assert.Empty(t, w.errs)
}

// TestHotReloadRollback fails one instance's onReload among three: the
// whole reload is rolled back, every instance keeps the old code and its
// untouched state, the error is reported, and a later good save applies
// to all of them.
func TestHotReloadRollback(t *testing.T) {
	w := hrStart(t, map[string]string{"rollback.lua": "rollback_v1.lua"})
	for id := 1; id <= 3; id++ {
		w.spawn("rollback", map[string]any{"id": id})
	}
	rollback := func(f hrFrame, version string) {
		touched := map[string]string{"v1": "nil", "v2": "true"}[version]
		var want []string
		for id := 1; id <= 3; id++ {
			want = append(want, fmt.Sprintf("%s\t%d\t%d\t%d\t%s", version, id, f.n, f.n, touched))
		}
		assert.Equal(t, want, f.lines, "frame %d", f.n)
	}
	rollback(w.step(), "v1")
	rollback(w.step(), "v1")

	w.write("rollback.lua", hrFixture(t, "rollback_bad.lua"))
	frames, err := w.awaitRefused("rollback.lua")
	hrRefused(t, err, w.file("rollback.lua")+":9:", "cannot migrate instance 2")
	for _, f := range frames {
		rollback(f, "v1")
	}
	rollback(w.step(), "v1")
	assert.Zero(t, w.reloads("rollback.lua"))

	w.write("rollback.lua", hrFixture(t, "rollback_v2.lua"))
	hrSwitched(t, w.awaitReload("rollback.lua"), rollback, "v1", "v2")
	rollback(w.step(), "v2")
	assert.Contains(t, w.log.String(), "reloaded "+w.file("rollback.lua")+": 3 instances migrated in ")
	assert.Len(t, w.errs, 1)
}

// TestHotReloadModule edits a module two scripts require: both scripts
// are reloaded (one notice each), both see the new value, and both keep
// their state.
func TestHotReloadModule(t *testing.T) {
	w := hrStart(t, map[string]string{
		"user_a.lua":  "user_a.lua",
		"user_b.lua":  "user_b.lua",
		"lib/mod.lua": "lib/mod_v1.lua",
	})
	w.spawn("user_a", nil)
	w.spawn("user_b", nil)
	users := func(f hrFrame, value string) {
		want := []string{
			fmt.Sprintf("a\t%s\t%d\t%d", value, f.n, f.n),
			fmt.Sprintf("b\t%s\t%d\t%d", value, f.n, f.n),
		}
		assert.Equal(t, want, f.lines, "frame %d", f.n)
	}
	users(w.step(), "1")

	w.write("lib/mod.lua", hrFixture(t, "lib/mod_v2.lua"))
	frames := w.await("reload of both users", func() bool {
		return w.reloads("user_a.lua") == 1 && w.reloads("user_b.lua") == 1
	})
	hrSwitched(t, frames, users, "1", "2")
	users(w.step(), "2")
	log := w.log.String()
	assert.Contains(t, log, "reloaded "+w.file("user_a.lua")+": 1 instances migrated in ")
	assert.Contains(t, log, "reloaded "+w.file("user_b.lua")+": 1 instances migrated in ")
	assert.NotContains(t, log, "lib/mod.lua:", "a module is not a script")
	assert.Equal(t, 2, w.h.Stats().Reloads)
	assert.Empty(t, w.errs)
}

// TestHotReloadPriority changes priorities by saving: the schedule is
// re-sorted at once, and equal priorities run in attach order.
func TestHotReloadPriority(t *testing.T) {
	w := hrStart(t, map[string]string{"a.lua": "order_p0.lua", "b.lua": "order_p0.lua"})
	w.spawn("a", map[string]any{"label": "a"})
	w.spawn("b", map[string]any{"label": "b"})
	assert.Equal(t, []string{"a", "b"}, w.step().lines)

	for _, tc := range []struct {
		rel, fixture string
		want         []string
	}{
		{"b.lua", "order_pm1.lua", []string{"b", "a"}},
		{"b.lua", "order_p0.lua", []string{"a", "b"}}, // a tie again: attach order
		{"a.lua", "order_p5.lua", []string{"b", "a"}},
		{"b.lua", "order_p5.lua", []string{"a", "b"}}, // a tie at 5: attach order
	} {
		w.write(tc.rel, hrFixture(t, tc.fixture))
		frames := w.awaitReload(tc.rel)
		assert.Equal(t, tc.want, frames[len(frames)-1].lines, "after %s became %s", tc.rel, tc.fixture)
		assert.Equal(t, tc.want, w.step().lines)
	}
	assert.Empty(t, w.errs)
}

// TestHotReloadDeleted deletes a running script: it keeps running with a
// warning in the log, and when the file reappears it is reloaded like any
// save, state carried over.
func TestHotReloadDeleted(t *testing.T) {
	w, counter := hrCounterWorld(t, "counter")

	require.NoError(t, os.Remove(w.path("counter.lua")))
	warning := "warning: " + w.file("counter.lua") + " was deleted; its last good version keeps running"
	for _, f := range w.awaitLog(warning) {
		counter(f, "v1")
	}
	for range 3 {
		counter(w.step(), "v1")
	}
	assert.Equal(t, 1, strings.Count(w.log.String(), warning))

	w.write("counter.lua", hrFixture(t, "counter_v2.lua"))
	hrSwitched(t, w.awaitReload("counter.lua"), counter, "v1", "v2")
	counter(w.step(), "v2")
	assert.Equal(t, 1, w.reloads("counter.lua"))
	assert.Empty(t, w.errs)
}

// TestHotReloadFaulted saves a fix for a faulted instance: it gets a
// fresh chance and runs the new code with the state it had.
func TestHotReloadFaulted(t *testing.T) {
	w := hrStart(t, map[string]string{"fault.lua": "fault_v1.lua"})
	w.spawn("fault", nil)
	assert.Equal(t, []string{"v1\t1\t1"}, w.step().lines)
	assert.Empty(t, w.step().lines, "the error faults the instance")
	require.Len(t, w.errs, 1)
	assert.Contains(t, w.errs[0].Error(), w.file("fault.lua")+":9: broken on the second frame")
	assert.Empty(t, w.step().lines, "a faulted instance gets no update")

	w.write("fault.lua", hrFixture(t, "fault_v2.lua"))
	frames := w.awaitReload("fault.lua")
	for _, f := range frames[:len(frames)-1] {
		assert.Empty(t, f.lines)
	}
	last := frames[len(frames)-1]
	assert.Equal(t, []string{fmt.Sprintf("v2\t3\t%d", last.n)}, last.lines)
	f := w.step()
	assert.Equal(t, []string{fmt.Sprintf("v2\t4\t%d", f.n)}, f.lines)
	assert.Len(t, w.errs, 1)
}

// TestHotReloadIgnoresTemporaries writes editor temporaries and dotfiles
// into the script directory, some of them broken Lua under a script's
// name, and saves a script without changing it, then saves a real
// change: that save is the only change the watcher settles, and only it
// is applied.
func TestHotReloadIgnoresTemporaries(t *testing.T) {
	w := hrStart(t, map[string]string{"counter.lua": "counter_v1.lua", "still.lua": "counter_v1.lua"})
	w.spawn("counter", map[string]any{"tag": "A"})
	w.spawn("still", map[string]any{"tag": "S"})
	counter := func(f hrFrame, version string) {
		require.Len(t, f.lines, 2)
		hrCounter(t, hrFrame{n: f.n, lines: f.lines[:1]}, version, "A")
		hrCounter(t, hrFrame{n: f.n, lines: f.lines[1:]}, "v1", "S")
	}
	counter(w.step(), "v1")

	// A save that changes nothing, and a touch, are no change either.
	w.write("still.lua", hrFixture(t, "counter_v1.lua"))
	now := time.Now()
	require.NoError(t, os.Chtimes(w.path("still.lua"), now, now))

	broken := hrFixture(t, "counter_broken.lua")
	for _, rel := range []string{
		"counter.lua~",
		".counter.lua.swp",
		".counter.lua.swx",
		"counter.lua.swp",
		"4913",
		"counter.lua___jb_tmp___",
		"counter.lua___jb_old___",
		".counter.lua",
		".hidden.lua",
		".git/counter.lua",
		".cache/lib/mod.lua",
		"sub/.counter.lua",
		"sub/counter.lua~",
		"notes.txt",
	} {
		w.write(rel, broken)
	}
	require.NoError(t, os.Rename(w.path("counter.lua~"), w.path(".counter.lua.swp")))
	require.NoError(t, os.Remove(w.path("4913")))
	require.NoError(t, os.Remove(w.path(".git/counter.lua")))

	// The save comes after every temporary, so its quiet period ends last:
	// whatever the temporaries had caused would be settled by then. The
	// changes are drained here, to see exactly what the watcher settled,
	// and then applied as the next Step would.
	w.write("counter.lua", hrFixture(t, "counter_v2.lua"))
	changes := w.drain("counter.lua")
	paths := make([]string, len(changes))
	for i, c := range changes {
		paths[i] = c.Path
	}
	assert.Equal(t, []string{"counter.lua"}, paths)
	w.apply(changes)
	counter(w.step(), "v2")
	assert.Equal(t, 1, w.reloads("counter.lua"))
	assert.Equal(t, 1, strings.Count(w.log.String(), "\n"), "the notice and nothing else:\n%s", w.log.String())
	assert.Empty(t, w.errs)
}

// TestHotReloadWhileRunning saves a script again and again while frames
// run back to back, as in a real-time loop, so that the watcher works
// while Lua runs; under -race this shows that the watcher never touches
// Lua or the host.
func TestHotReloadWhileRunning(t *testing.T) {
	w := hrStart(t, map[string]string{"counter.lua": "counter_v1.lua"})
	w.spawn("counter", map[string]any{"tag": "A"})
	w.spawn("counter", map[string]any{"tag": "B"})
	versions := []string{"v2", "v3"}
	for i := range 6 {
		next := versions[i%2]
		hrSaves[i%len(hrSaves)].save(t, w.path("counter.lua"), hrFixture(t, "counter_"+next+".lua"))
		n := w.reloads("counter.lua")
		deadline := time.Now().Add(hrTimeout)
		for w.reloads("counter.lua") == n {
			require.True(t, time.Now().Before(deadline), "no reload within %s", hrTimeout)
			select {
			case <-w.h.WatchReady():
			case <-time.After(time.Millisecond): // the next frame of a 1 kHz loop
			}
			f := w.step()
			require.Len(t, f.lines, 2)
			for _, l := range f.lines {
				fields := strings.Split(l, "\t")
				require.Len(t, fields, 4)
				assert.Equal(t, []string{strconv.Itoa(f.n), strconv.Itoa(f.n)}, fields[2:], "frame %d", f.n)
			}
		}
		hrCounter(t, w.step(), next, "A", "B")
	}
	assert.Equal(t, 6, w.reloads("counter.lua"))
	w.onlyRefusedEmpty(t)
}

// TestHotReloadSubdirectories saves scripts below the script directory
// while their directories change under them: a directory renamed away and
// replaced (as a checkout does), removed and created again, and created
// after watching began. Each new version is reloaded once, and what
// happens in the renamed-away copy concerns no script.
func TestHotReloadSubdirectories(t *testing.T) {
	w, counter := hrCounterWorld(t, "ai/counter")

	require.NoError(t, os.Rename(w.path("ai"), w.path("ai.bak")))
	w.write("ai/counter.lua", hrFixture(t, "counter_v2.lua"))
	hrSwitched(t, w.awaitReload("ai/counter.lua"), counter, "v1", "v2")

	w.write("ai.bak/counter.lua", hrFixture(t, "counter_broken.lua"))
	w.write("ai/counter.lua", hrFixture(t, "counter_v3.lua"))
	hrSwitched(t, w.awaitReload("ai/counter.lua"), counter, "v2", "v3")
	assert.Equal(t, 2, w.reloads("ai/counter.lua"))

	require.NoError(t, os.RemoveAll(w.path("ai")))
	w.write("ai/counter.lua", hrFixture(t, "counter_v1.lua"))
	hrSwitched(t, w.awaitReload("ai/counter.lua"), counter, "v3", "v1")
	w.write("ai/counter.lua", hrFixture(t, "counter_v2.lua"))
	hrSwitched(t, w.awaitReload("ai/counter.lua"), counter, "v1", "v2")
	assert.Equal(t, 4, w.reloads("ai/counter.lua"))

	// A directory made while watching: its new file is settled (and,
	// not being loaded, applies to nothing), then the script is attached
	// and saved.
	w.write("npc/guard.lua", hrFixture(t, "counter_v1.lua"))
	for _, f := range w.await("the new file settled", func() bool { return true }) {
		counter(f, "v2")
	}
	w.spawn("npc/guard", map[string]any{"tag": "G"})
	both := func(f hrFrame, version string) {
		require.Len(t, f.lines, 2, "frame %d", f.n)
		assert.Equal(t, fmt.Sprintf("v2\tA\t%d\t%d", f.n, f.n), f.lines[0])
		assert.True(t, strings.HasPrefix(f.lines[1], version+"\tG\t"), "frame %d: %q", f.n, f.lines[1])
	}
	both(w.step(), "v1")
	w.write("npc/guard.lua", hrFixture(t, "counter_v3.lua"))
	hrSwitched(t, w.awaitReload("npc/guard.lua"), both, "v1", "v3")

	assert.NotContains(t, w.log.String(), "warning")
	assert.Empty(t, w.errs)
}

// TestHotReloadPendingEntity reloads a script with an instance on a
// Pending entity (created, not yet in play): it is migrated with the
// others and runs the new code, with its state, once it is activated.
func TestHotReloadPendingEntity(t *testing.T) {
	w := hrStart(t, map[string]string{"counter.lua": "counter_v1.lua"})
	w.spawn("counter", map[string]any{"tag": "A"})
	pending := w.rt.Spawn()
	_, err := w.h.Attach(pending, "counter", map[string]any{"tag": "P"})
	require.NoError(t, err)
	hrCounter(t, w.step(), "v1", "A")

	w.write("counter.lua", hrFixture(t, "counter_v2.lua"))
	hrSwitched(t, w.awaitReload("counter.lua"), func(f hrFrame, version string) { hrCounter(t, f, version, "A") }, "v1", "v2")
	assert.Contains(t, w.log.String(), "reloaded "+w.file("counter.lua")+": 2 instances migrated in ")

	require.NoError(t, w.rt.Activate(pending))
	f := w.step()
	assert.Equal(t, []string{fmt.Sprintf("v2\tA\t%d\t%d", f.n, f.n), fmt.Sprintf("v2\tP\t1\t%d", f.n)}, f.lines)
	assert.Empty(t, w.errs)
}

// TestHotReloadModuleFixRetriesRefusedScript saves a script that newly
// requires a module while the module is broken (so the script's reload is
// refused), then fixes the module: the script, whose file on disk is
// fine, should now be reloaded.
func TestHotReloadModuleFixRetriesRefusedScript(t *testing.T) {
	w := hrStart(t, map[string]string{"user_a.lua": "counter_v1.lua", "lib/mod.lua": "lib/mod_v1.lua"})
	w.spawn("user_a", map[string]any{"tag": "A"})
	hrCounter(t, w.step(), "v1", "A")

	w.write("lib/mod.lua", []byte("return {\n"))
	w.await("the broken module settled", func() bool { return true })
	w.write("user_a.lua", hrFixture(t, "user_a.lua"))
	_, err := w.awaitRefused("user_a.lua")
	hrRefused(t, err, w.file("lib/mod.lua")+":2: '}' expected (to close '{' at line 1) near <eof>")

	w.write("lib/mod.lua", hrFixture(t, "lib/mod_v2.lua"))
	frames := w.awaitReload("user_a.lua")
	last := frames[len(frames)-1]
	assert.Equal(t, []string{fmt.Sprintf("a\t2\t%d\t%d", last.n, last.n)}, last.lines)
	assert.Len(t, w.errs, 1)
}

// TestHotReloadDeletedScriptModuleChange deletes a script, then changes
// a module it requires: the deleted script keeps running its last good
// version, with a warning, and no error is reported.
func TestHotReloadDeletedScriptModuleChange(t *testing.T) {
	w := hrStart(t, map[string]string{
		"user_a.lua":  "user_a.lua",
		"user_b.lua":  "user_b.lua",
		"lib/mod.lua": "lib/mod_v1.lua",
	})
	w.spawn("user_a", nil)
	w.spawn("user_b", nil)
	w.step()

	require.NoError(t, os.Remove(w.path("user_b.lua")))
	w.awaitLog(w.file("user_b.lua") + " was deleted")
	w.write("lib/mod.lua", hrFixture(t, "lib/mod_v2.lua"))
	frames := w.awaitReload("user_a.lua")
	last := frames[len(frames)-1]
	assert.Equal(t, []string{
		fmt.Sprintf("a\t2\t%d\t%d", last.n, last.n),
		fmt.Sprintf("b\t1\t%d\t%d", last.n, last.n),
	}, last.lines, "the deleted script runs its last good version")
	assert.Empty(t, w.errs)
}

// TestHotReloadScriptAndModuleTogether saves a script and a module it
// requires within one quiet period (an editor's "save all"): one save of
// the script should be one reload of it.
func TestHotReloadScriptAndModuleTogether(t *testing.T) {
	w := hrStart(t, map[string]string{"user_a.lua": "user_a.lua", "lib/mod.lua": "lib/mod_v1.lua"})
	w.spawn("user_a", nil)
	w.step()

	w.write("user_a.lua", append(hrFixture(t, "user_a.lua"), "-- saved\n"...))
	w.write("lib/mod.lua", hrFixture(t, "lib/mod_v2.lua"))
	// Both settled in one batch, as when their quiet periods end together.
	w.apply(w.drain("user_a.lua", "lib/mod.lua"))
	f := w.step()
	assert.Equal(t, []string{fmt.Sprintf("a\t2\t%d\t%d", f.n, f.n)}, f.lines)
	assert.Equal(t, 1, w.reloads("user_a.lua"), "one save, one reload:\n%s", w.log.String())
	assert.Equal(t, 1, w.h.Stats().Reloads)
}
