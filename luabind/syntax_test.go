package luabind

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestDeepChunksRefused: chunks that nest far past the limits, as a
// script file or through loadstring, are refused by the check with Lua
// 5.1's message, before gopher-lua parses them. A script file of 6 MB
// of "f()()()..." used to overflow the Go stack in gopher-lua's compiler
// and kill the process; 1 MiB chunks took seconds and gigabytes.
func TestDeepChunksRefused(t *testing.T) {
	const levels = "chunk has too many syntax levels"
	tests := []struct {
		name, src string
	}{
		{"calls in a file", "local x = f" + strings.Repeat("()", 3_000_000) + "\nreturn {}\n"},
		{"parentheses", "return " + strings.Repeat("(", 500_000) + "1" + strings.Repeat(")", 500_000)},
		{"unary operators", "return " + strings.Repeat("- ", 500_000) + "1"},
		{"concatenations", "return a" + strings.Repeat("..a", 330_000)},
		{"additions", "return 1" + strings.Repeat("+1", 500_000)},
		{"fields", "return a" + strings.Repeat(".b", 500_000)},
		{"blocks", strings.Repeat("do ", 250_000) + strings.Repeat("end ", 250_000)},
		{"elseif branches", "if x then" + strings.Repeat(" elseif x then", 100_000) + " end"},
		{"tables", "return " + strings.Repeat("{", 300_000) + strings.Repeat("}", 300_000)},
		{"functions", strings.Repeat("return function() ", 100_000) + strings.Repeat("end ", 100_000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(filepath.Join(dir, "deep.lua"), []byte(tt.src), 0o644))
			rt := runtime.New(runtime.Options{})
			h, err := New(rt, Options{Dir: dir, Stdout: io.Discard, Log: io.Discard})
			require.NoError(t, err)
			defer func() { _ = h.Close() }()
			_, err = h.Load("deep")
			var le *LoadError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, 1, le.Line)
			assert.Contains(t, le.Message, filepath.Join(dir, "deep.lua")+":1: "+levels)
		})
	}
}
