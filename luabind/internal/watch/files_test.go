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
// folder, devices and pipes are never read. A link to a file outside is
// reported once per settle and produces no change; a link to /dev/zero or
// a pipe is absent; a regular save beside them is still reported.
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
	select {
	case err := <-w.Errors():
		assert.ErrorContains(t, err, "escape.lua resolves outside the script folder; not read")
	case <-time.After(waitTimeout):
		t.Fatal("no error for the link that leads outside")
	}
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
