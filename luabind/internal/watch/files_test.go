//go:build unix

package watch

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRefusesWhatIsNotAScript: symbolic links that resolve outside the
// folder, devices and pipes are never read. Each is reported as what it is,
// once per settle, and produces no change; a regular save beside them is
// still reported.
func TestRefusesWhatIsNotAScript(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "scripts")
	require.NoError(t, os.Mkdir(dir, 0o755))
	writeFile(t, base, "secret.lua", "return 'the secret'")
	w := newWatcher(t, dir)

	require.NoError(t, os.Symlink("../secret.lua", filepath.Join(dir, "escape.lua")))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.lua")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "pipe.lua"), 0o644))
	writeFile(t, dir, "ok.lua", "return {}")

	assert.Equal(t, []Change{changed("ok.lua", "return {}")}, nextChanges(t, w))
	assert.ElementsMatch(t, []string{
		"watch: escape.lua resolves outside the script folder; not read",
		"watch: pipe.lua is a named pipe, not a regular file; not read",
		"watch: zero.lua resolves outside the script folder; not read",
	}, nextErrors(t, w, 3))
}

// TestPipeSavedOverAScript: a named pipe put in a script's place is
// reported as what it is, not as the script's deletion: the last version
// stands.
func TestPipeSavedOverAScript(t *testing.T) {
	dir := t.TempDir()
	w := newWatcher(t, dir)
	writeFile(t, dir, "a.lua", "return 1")
	require.Equal(t, []Change{changed("a.lua", "return 1")}, nextChanges(t, w))
	require.NoError(t, os.Remove(filepath.Join(dir, "a.lua")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "a.lua"), 0o644))
	assert.Equal(t, []string{"watch: a.lua is a named pipe, not a regular file; not read"}, nextErrors(t, w, 1))
	writeFile(t, dir, "b.lua", "return 2")
	assert.Equal(t, []Change{changed("b.lua", "return 2")}, nextChanges(t, w), "no removal of a.lua")
}

// nextErrors returns the next n errors of w, as strings.
func nextErrors(t *testing.T, w *Watcher, n int) []string {
	t.Helper()
	var got []string
	for range n {
		select {
		case err := <-w.Errors():
			got = append(got, err.Error())
		case <-time.After(waitTimeout):
			t.Fatalf("%d errors of %d", len(got), n)
		}
	}
	return got
}

func TestRefusesTooLarge(t *testing.T) {
	dir := t.TempDir()
	w, err := New(Options{Dir: dir, Quiet: testQuiet, MaxSize: 8})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, w.Close()) })
	writeFile(t, dir, "big.lua", "return {} -- longer than eight bytes")
	writeFile(t, dir, "ok.lua", "return 1")
	assert.Equal(t, []Change{changed("ok.lua", "return 1")}, nextChanges(t, w))
	select {
	case err := <-w.Errors():
		assert.ErrorContains(t, err, "big.lua is too large")
	case <-time.After(waitTimeout):
		t.Fatal("no error for the file over the limit")
	}
}
