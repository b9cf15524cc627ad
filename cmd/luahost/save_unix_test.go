//go:build unix

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSaveRefusesWhatIsNotAFile: a --save naming a named pipe, or a
// symbolic link to one or to a device, is refused before any frame runs,
// and the target is left as it was: a save renamed over it would replace
// it (run as root, /dev/null itself).
func TestSaveRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("testdata/order")))
	scene := filepath.Join(dir, "scene.json")
	fifo := filepath.Join(dir, "pipe")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	toFifo, toNull := filepath.Join(dir, "to-pipe"), filepath.Join(dir, "to-null")
	require.NoError(t, os.Symlink(fifo, toFifo))
	require.NoError(t, os.Symlink(os.DevNull, toNull))
	for _, tc := range []struct {
		name, save, want string
	}{
		{"a named pipe", fifo, "--save " + fifo + ": is a named pipe, not a regular file"},
		{"a link to a named pipe", toFifo, "--save " + toFifo + ": is a symbolic link to a named pipe, not a regular file"},
		{"a link to a device", toNull, "--save " + toNull + ": is a symbolic link to a device, not a regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := luahostRun(t, "run", scene, "--frames", "3", "--save", tc.save)
			assert.Equal(t, 2, res.code, res.stderr)
			assert.Empty(t, res.stdout, "no frame ran")
			assert.Contains(t, res.stderr, tc.want)
			info, err := os.Lstat(tc.save)
			require.NoError(t, err)
			assert.False(t, info.Mode().IsRegular(), "left as it was")
		})
	}
	info, err := os.Stat(os.DevNull)
	require.NoError(t, err)
	assert.NotZero(t, info.Mode()&os.ModeDevice, "the device is still one")
}
