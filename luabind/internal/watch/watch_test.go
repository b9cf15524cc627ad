package watch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewRejectsBadDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "a.lua")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	for name, opts := range map[string]Options{
		"empty":         {},
		"missing":       {Dir: filepath.Join(dir, "missing")},
		"not directory": {Dir: file},
	} {
		t.Run(name, func(t *testing.T) {
			w, err := New(opts)
			require.Error(t, err)
			require.Nil(t, w)
		})
	}
}

func TestOptionsDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		opts      Options
		wantQuiet time.Duration
		wantExt   string
	}{
		{"zero", Options{}, DefaultQuiet, DefaultExt},
		{"negative quiet", Options{Quiet: -time.Second}, DefaultQuiet, DefaultExt},
		{"set", Options{Quiet: time.Second, Ext: ".tl"}, time.Second, ".tl"},
		{"ext without dot", Options{Ext: "tl"}, DefaultQuiet, ".tl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Dir = t.TempDir()
			w, err := New(tt.opts)
			require.NoError(t, err)
			defer func() { require.NoError(t, w.Close()) }()
			assert.Equal(t, tt.wantQuiet, w.quiet)
			assert.Equal(t, tt.wantExt, w.ext)
		})
	}
}

func TestIgnored(t *testing.T) {
	t.Parallel()
	tests := []struct {
		rel  string
		want bool
	}{
		{"patrol.lua", false},
		{"ai/patrol.lua", false},
		{"ai/boss/patrol.lua", false},
		{"4913.lua", false},
		{".patrol.lua", true},
		{".patrol.lua.swp", true},
		{"patrol.lua.swp", true},
		{"patrol.lua.swx", true},
		{"patrol.lua~", true},
		{"4913", true},
		{"ai/4913", true},
		{"patrol.lua___jb_tmp___", true},
		{"patrol.lua___jb_old___", true},
		{".git/patrol.lua", true},
		{"ai/.cache/deep/patrol.lua", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, ignored(tt.rel), tt.rel)
	}
	assert.False(t, ignored("."), "the root")
}

func TestIgnoredFilesProduceNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "patrol.lua", "return {}\n")
	writeFile(t, dir, ".git/existing.lua", "return {}\n")
	w := newWatcher(t, dir)

	for _, rel := range []string{
		".patrol.lua.swp",
		".patrol.lua.swx",
		"patrol.lua.swp",
		"patrol.lua~",
		"4913",
		"patrol.lua___jb_tmp___",
		"patrol.lua___jb_old___",
		".hidden.lua",
		"notes.txt",
		"ai/notes.md",
		".git/existing.lua",
		".git/objects/new.lua",
		".cache/deep/new.lua",
	} {
		writeFile(t, dir, rel, "return { ignored = true }\n")
	}
	require.NoError(t, os.Remove(filepath.Join(dir, "4913")))
	expectNothing(t, w)

	// The watcher still works afterwards.
	writeFile(t, dir, "patrol.lua", "return { v = 1 }\n")
	require.Equal(t, []Change{changed("patrol.lua", "return { v = 1 }\n")}, nextChanges(t, w))
}

func TestOtherExtension(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w, err := New(Options{Dir: dir, Quiet: testQuiet, Ext: "tl"})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, w.Close()) })

	writeFile(t, dir, "a.lua", "return {}\n")
	writeFile(t, dir, "a.tl", "return {}\n")
	require.Equal(t, []Change{changed("a.tl", "return {}\n")}, nextChanges(t, w))
}

func TestNewSubdirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := newWatcher(t, dir)

	// Created in one go, before the watcher can watch the new directories:
	// the file is found by listing them.
	writeFile(t, dir, "ai/boss/deep/phase.lua", "return { phase = 1 }\n")
	require.Equal(t, []Change{changed("ai/boss/deep/phase.lua", "return { phase = 1 }\n")}, nextChanges(t, w))

	// The new directories are watched from now on.
	writeFile(t, dir, "ai/boss/deep/phase.lua", "return { phase = 2 }\n")
	require.Equal(t, []Change{changed("ai/boss/deep/phase.lua", "return { phase = 2 }\n")}, nextChanges(t, w))
	writeFile(t, dir, "ai/boss/extra.lua", "return {}\n")
	require.Equal(t, []Change{changed("ai/boss/extra.lua", "return {}\n")}, nextChanges(t, w))
}

func TestDirectoryMovedInRenamedAndOut(t *testing.T) {
	t.Parallel()
	dir, outside := t.TempDir(), t.TempDir()
	w := newWatcher(t, dir)

	writeFile(t, outside, "pack/a.lua", "return { a = 1 }\n")
	writeFile(t, outside, "pack/sub/b.lua", "return { b = 1 }\n")
	require.NoError(t, os.Rename(filepath.Join(outside, "pack"), filepath.Join(dir, "pack")))
	require.Equal(t, []Change{
		changed("pack/a.lua", "return { a = 1 }\n"),
		changed("pack/sub/b.lua", "return { b = 1 }\n"),
	}, nextChanges(t, w), "moved in")

	require.NoError(t, os.Rename(filepath.Join(dir, "pack"), filepath.Join(dir, "kit")))
	// Removals and arrivals may settle in separate batches.
	require.ElementsMatch(t, []Change{
		changed("kit/a.lua", "return { a = 1 }\n"),
		changed("kit/sub/b.lua", "return { b = 1 }\n"),
		removed("pack/a.lua"),
		removed("pack/sub/b.lua"),
	}, nextChanges(t, w), "renamed")

	// Events below the renamed directory carry the new path.
	writeFile(t, dir, "kit/sub/b.lua", "return { b = 2 }\n")
	require.Equal(t, []Change{changed("kit/sub/b.lua", "return { b = 2 }\n")}, nextChanges(t, w), "edited after rename")

	require.NoError(t, os.Rename(filepath.Join(dir, "kit"), filepath.Join(outside, "kit")))
	require.Equal(t, []Change{removed("kit/a.lua"), removed("kit/sub/b.lua")}, nextChanges(t, w), "moved out")

	// Edits in the moved-out directory are no longer reported.
	writeFile(t, outside, "kit/sub/b.lua", "return { b = 3 }\n")
	expectNothing(t, w)
}

func TestRemovedDirectory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "ai/a.lua", "return {}\n")
	writeFile(t, dir, "ai/sub/b.lua", "return {}\n")
	w := newWatcher(t, dir)

	require.NoError(t, os.RemoveAll(filepath.Join(dir, "ai")))
	require.Equal(t, []Change{removed("ai/a.lua"), removed("ai/sub/b.lua")}, nextChanges(t, w))
}

func TestRemovedFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "ai/patrol.lua", "return { v = 0 }\n")
	w := newWatcher(t, dir)
	name := filepath.Join(dir, "ai", "patrol.lua")

	require.NoError(t, os.Remove(name))
	require.Equal(t, []Change{removed("ai/patrol.lua")}, nextChanges(t, w), "removed")

	// Reappearing later, even with the old content, is a normal change.
	writeFile(t, dir, "ai/patrol.lua", "return { v = 0 }\n")
	require.Equal(t, []Change{changed("ai/patrol.lua", "return { v = 0 }\n")}, nextChanges(t, w), "recreated")

	// And it can be removed again.
	require.NoError(t, os.Remove(name))
	require.Equal(t, []Change{removed("ai/patrol.lua")}, nextChanges(t, w), "removed again")
}

func TestRemovedUnreportedFileProducesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := newWatcher(t, dir)

	// Created and deleted within one quiet period: nothing to report.
	writeFile(t, dir, "blink.lua", "return {}\n")
	pause()
	require.NoError(t, os.Remove(filepath.Join(dir, "blink.lua")))
	expectNothing(t, w)
}

func TestNoOpSave(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "patrol.lua", "return { v = 0 }\n")
	w := newWatcher(t, dir)
	name := filepath.Join(dir, "patrol.lua")

	// Same content as the snapshot at New, written several ways.
	saveInPlace(t, name, "return { v = 0 }\n")
	saveTempRename(t, name, "return { v = 0 }\n")
	now := time.Now()
	require.NoError(t, os.Chtimes(name, now, now))
	expectNothing(t, w)

	// Same content as the last reported change.
	saveInPlace(t, name, "return { v = 1 }\n")
	require.Equal(t, []Change{changed("patrol.lua", "return { v = 1 }\n")}, nextChanges(t, w))
	saveVim(t, name, "return { v = 1 }\n")
	expectNothing(t, w)

	// Changed and changed back within one quiet period.
	saveInPlace(t, name, "return { v = 2 }\n")
	pause()
	saveInPlace(t, name, "return { v = 1 }\n")
	expectNothing(t, w)
}

func TestKeepsWritingUntilQuiet(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir, "log.lua", "")
	w := newWatcher(t, dir)

	// Appends more often than the quiet period: only the final content is
	// read.
	f, err := os.OpenFile(filepath.Join(dir, "log.lua"), os.O_WRONLY|os.O_APPEND, 0o644)
	require.NoError(t, err)
	want := ""
	for i := range 10 {
		line := fmt.Sprintf("-- %d\n", i)
		_, err := f.WriteString(line)
		require.NoError(t, err)
		want += line
		time.Sleep(testQuiet / 4)
	}
	require.NoError(t, f.Close())
	require.Equal(t, []Change{changed("log.lua", want)}, nextChanges(t, w))
}

func TestDrainSortedAndOncePerPath(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := newWatcher(t, dir)

	var want []Change
	for i := range 30 {
		rel := fmt.Sprintf("s%02d.lua", 29-i) // written in reverse order
		writeFile(t, dir, rel, "return { first = true }\n")
		writeFile(t, dir, rel, rel)
	}
	for i := range 30 {
		rel := fmt.Sprintf("s%02d.lua", i)
		want = append(want, changed(rel, rel))
	}
	var got []Change
	deadline := time.After(waitTimeout)
	for len(got) < len(want) {
		select {
		case <-w.Ready():
			batch := w.Drain()
			// The burst may settle in more than one batch; each is sorted.
			require.True(t, slices.IsSortedFunc(batch, func(a, b Change) int {
				return strings.Compare(a.Path, b.Path)
			}), "batch not sorted: %v", batch)
			got = append(got, batch...)
		case <-deadline:
			require.FailNow(t, "changes missing", "got %d of %d", len(got), len(want))
		}
	}
	got = append(got, collectFor(w, settleWindow)...)
	// Every path appears once overall, with its final content.
	require.ElementsMatch(t, want, got)
	require.Nil(t, w.Drain())
}

func TestRescan(t *testing.T) {
	t.Parallel()
	for _, trigger := range []string{"direct", "overflow"} {
		t.Run(trigger, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFile(t, dir, "edited.lua", "return { v = 0 }\n")
			writeFile(t, dir, "gone.lua", "return {}\n")
			writeFile(t, dir, "same.lua", "return {}\n")
			writeFile(t, dir, "ai/kept.lua", "return {}\n")
			w := newWatcher(t, dir)

			// Blind the watcher, as a lost event queue would.
			for _, d := range []string{".", "ai"} {
				require.NoError(t, w.fs.Remove(w.abs(d)))
			}
			writeFile(t, dir, "edited.lua", "return { v = 1 }\n")
			require.NoError(t, os.Remove(filepath.Join(dir, "gone.lua")))
			writeFile(t, dir, "same.lua", "return {}\n")
			writeFile(t, dir, "appeared.lua", "return { new = true }\n")
			writeFile(t, dir, "fresh/dir/deep.lua", "return { deep = true }\n")
			writeFile(t, dir, "ai/kept.lua", "return { kept = 2 }\n")
			require.Empty(t, collectFor(w, 2*testQuiet), "the watcher should be blind")

			switch trigger {
			case "direct":
				w.rescan()
			case "overflow":
				w.fs.Errors <- fsnotify.ErrEventOverflow
			}
			require.ElementsMatch(t, []Change{
				changed("ai/kept.lua", "return { kept = 2 }\n"),
				changed("appeared.lua", "return { new = true }\n"),
				changed("edited.lua", "return { v = 1 }\n"),
				changed("fresh/dir/deep.lua", "return { deep = true }\n"),
				removed("gone.lua"),
			}, nextChanges(t, w))
			select {
			case err := <-w.Errors():
				require.FailNow(t, "overflow must not be reported", "%v", err)
			default:
			}

			// The watches are back, including the new directories.
			writeFile(t, dir, "fresh/dir/deep.lua", "return { deep = 2 }\n")
			writeFile(t, dir, "ai/kept.lua", "return { kept = 3 }\n")
			require.ElementsMatch(t, []Change{
				changed("ai/kept.lua", "return { kept = 3 }\n"),
				changed("fresh/dir/deep.lua", "return { deep = 2 }\n"),
			}, nextChanges(t, w))
		})
	}
}

func TestErrorsForwarded(t *testing.T) {
	t.Parallel()
	w := newWatcher(t, t.TempDir())
	boom := errors.New("boom")
	w.fs.Errors <- boom
	select {
	case err := <-w.Errors():
		require.ErrorIs(t, err, boom)
	case <-time.After(waitTimeout):
		require.FailNow(t, "error not forwarded")
	}

	// A reader that never reads does not block the watcher.
	for range 2 * errBuffer {
		w.fs.Errors <- boom
	}
	writeFile(t, w.root, "still.lua", "return {}\n")
	require.Equal(t, []Change{changed("still.lua", "return {}\n")}, nextChanges(t, w))
}

// TestCloseStops is not parallel: it counts goroutines.
func TestCloseStops(t *testing.T) {
	base := runtime.NumGoroutine()
	dir := t.TempDir()
	w, err := New(Options{Dir: dir, Quiet: testQuiet})
	require.NoError(t, err)

	writeFile(t, dir, "a.lua", "return {}\n")
	require.Equal(t, []Change{changed("a.lua", "return {}\n")}, nextChanges(t, w))

	// A save still in its quiet period when Close is called is dropped.
	writeFile(t, dir, "a.lua", "return { late = true }\n")
	require.NoError(t, w.Close())
	require.NoError(t, w.Close(), "Close is idempotent")

	writeFile(t, dir, "a.lua", "return { after = true }\n")
	writeFile(t, dir, "b.lua", "return {}\n")
	select {
	case <-w.Ready():
		require.FailNow(t, "Ready signalled after Close")
	case <-time.After(settleWindow):
	}
	require.Empty(t, w.Drain())
	w.rescan() // a no-op once closed
	require.Empty(t, collectFor(w, settleWindow))

	// Retried by hand: require.Eventually runs its condition in a goroutine
	// of its own, which would be counted.
	now := runtime.NumGoroutine()
	for deadline := time.Now().Add(waitTimeout); now > base && time.Now().Before(deadline); now = runtime.NumGoroutine() {
		time.Sleep(10 * time.Millisecond)
	}
	require.LessOrEqual(t, now, base, "goroutines left behind")
}

func TestConcurrentDrain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	w := newWatcher(t, dir)

	stop := make(chan struct{})
	drained := make(chan []Change)
	go func() {
		var all []Change
		for {
			select {
			case <-stop:
				drained <- append(all, w.Drain()...)
				return
			default:
				all = append(all, w.Drain()...)
				time.Sleep(time.Millisecond)
			}
		}
	}()
	for i := range 5 {
		writeFile(t, dir, fmt.Sprintf("c%d.lua", i), "return {}\n")
	}
	require.Eventually(t, func() bool {
		w.mu.Lock()
		defer w.mu.Unlock()
		return len(w.known) == 5 && len(w.pending) == 0
	}, waitTimeout, 5*time.Millisecond)
	close(stop)
	require.Len(t, <-drained, 5)
}
