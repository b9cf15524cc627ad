package lstring

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestScripts runs each testdata/*.lua script in a state with this
// package's string functions and a MaxSize of 1 MiB. A script fails by
// raising an error, with assert.
func TestScripts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.lua"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".lua"), func(t *testing.T) {
			L := newBounded(t, Limits{MaxSize: 1 << 20})
			require.NoError(t, L.DoFile(file))
		})
	}
}
