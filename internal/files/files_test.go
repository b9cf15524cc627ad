//go:build unix

package files

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadIn(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "scripts")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "lib"), 0o755))
	write := func(path, data string) {
		require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
	}
	write(filepath.Join(root, "ok.lua"), "return {}")
	write(filepath.Join(root, "big.lua"), "-- twelve ch")
	write(filepath.Join(base, "secret.lua"), "return 'secret'")
	require.NoError(t, os.Symlink("../ok.lua", filepath.Join(root, "lib", "alias.lua")))
	require.NoError(t, os.Symlink("../secret.lua", filepath.Join(root, "escape.lua")))
	require.NoError(t, os.Symlink("/dev/zero", filepath.Join(root, "zero.lua")))
	require.NoError(t, os.Symlink("nowhere.lua", filepath.Join(root, "dangling.lua")))
	require.NoError(t, syscall.Mkfifo(filepath.Join(root, "pipe.lua"), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(root, "dir.lua"), 0o755))

	tests := []struct {
		name string
		want string // content, when err is nil
		err  error
	}{
		{"ok.lua", "return {}", nil},
		{"lib/alias.lua", "return {}", nil},
		{"escape.lua", "", ErrOutside},
		{"zero.lua", "", ErrOutside},
		{"pipe.lua", "", ErrNotRegular},
		{"dir.lua", "", ErrNotRegular},
		{"big.lua", "", ErrTooLarge},
		{"missing.lua", "", fs.ErrNotExist},
		{"dangling.lua", "", fs.ErrNotExist},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadIn(root, filepath.Join(root, tc.name), 10)
			if tc.err != nil {
				assert.ErrorIs(t, err, tc.err)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
		})
	}
}

func TestReadRegular(t *testing.T) {
	// Devices and pipes are refused without a read: /dev/zero would never
	// end, and a pipe nobody writes to would block.
	pipe := filepath.Join(t.TempDir(), "fifo")
	require.NoError(t, syscall.Mkfifo(pipe, 0o644))
	for _, path := range []string{"/dev/zero", "/dev/null", pipe, t.TempDir()} {
		_, err := ReadRegular(path, 1<<20)
		assert.ErrorIs(t, err, ErrNotRegular, path)
	}
	file := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(file, []byte("12345"), 0o644))
	got, err := ReadRegular(file, 5)
	require.NoError(t, err)
	assert.Equal(t, "12345", string(got))
	_, err = ReadRegular(file, 4)
	assert.ErrorIs(t, err, ErrTooLarge)
}

// TestReadFS: a regular file of a file system is read; a directory, a
// missing file and a file over the limit are refused.
func TestReadFS(t *testing.T) {
	fsys := fstest.MapFS{
		"a.lua":     {Data: []byte("return {}")},
		"big.lua":   {Data: make([]byte, 11)},
		"dir.lua/x": {Data: []byte("x")},
	}
	data, err := ReadFS(fsys, "a.lua", 10)
	require.NoError(t, err)
	assert.Equal(t, "return {}", string(data))
	_, err = ReadFS(fsys, "dir.lua", 10)
	assert.ErrorIs(t, err, ErrNotRegular)
	_, err = ReadFS(fsys, "big.lua", 10)
	assert.ErrorIs(t, err, ErrTooLarge)
	_, err = ReadFS(fsys, "none.lua", 10)
	assert.ErrorIs(t, err, fs.ErrNotExist)
}
