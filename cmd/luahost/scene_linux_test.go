//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/luahost/luahost/internal/scene"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSceneNotAFile(t *testing.T) {
	// A scene must be a regular file: a device, a pipe (that nobody
	// writes to) or a directory is refused unread, with exit 2.
	dir := t.TempDir()
	fifo := filepath.Join(dir, "scene.json")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	big := filepath.Join(dir, "big.json")
	require.NoError(t, os.WriteFile(big, []byte(`{"blackboard": {"pad": "`+strings.Repeat("x", scene.MaxSize)+`"}}`), 0o644))
	tests := []struct{ path, want string }{
		{"/dev/zero", "/dev/zero: the scene is not a regular file"},
		{fifo, fifo + ": the scene is not a regular file"},
		{dir, dir + ": the scene is not a regular file"},
		{big, big + ": the scene is too large ("},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			res := luahostMeasured(t, "", "run", tc.path)
			assert.Equal(t, 2, res.code)
			assert.Empty(t, res.stdout)
			assert.Contains(t, res.stderr, tc.want)
			assert.Less(t, res.maxRSS, int64(256<<20))
		})
	}
}
