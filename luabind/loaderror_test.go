package luabind

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind/internal/lstring"
	"github.com/luahost/luahost/runtime"
)

// TestLoadErrorCause: a LoadError says why with its Err, so that a
// missing script and a broken one differ to errors.Is and errors.As: a
// script whose file does not exist matches fs.ErrNotExist (from a folder
// and from an FS, through Load and Check), one that does not compile has
// a *SyntaxError with its line, and one whose chunk fails has neither.
func TestLoadErrorCause(t *testing.T) {
	mapFS := func(_ *runtime.Options, o *Options) {
		o.FS = fstest.MapFS{"ok.lua": {Data: []byte("return {}\n")}}
	}
	tests := []struct {
		name, script string
		fs           bool
		missing      bool
		syntaxLine   int // 0: no *SyntaxError
	}{
		{"missing", "nope", false, true, 0},
		{"missing in an FS", "nope", true, true, 0},
		{"syntax", "bad/syntax", false, false, 3},
		{"unexpected end", "bad/eof", false, false, -1},
		{"chunk error", "bad/chunk_error", false, false, 0},
		{"not a table", "bad/returns_string", false, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w *world
			if tt.fs {
				w = newWorld(t, mapFS)
			} else {
				w = newWorld(t)
			}
			for what, err := range map[string]error{"Load": loadErr(w, tt.script), "Check": w.h.Check(tt.script)} {
				var le *LoadError
				require.ErrorAs(t, err, &le, what)
				assert.Equal(t, tt.missing, errors.Is(err, fs.ErrNotExist), "%s: %v", what, err)
				var se *SyntaxError
				if tt.syntaxLine == 0 {
					assert.False(t, errors.As(err, &se), "%s: %v", what, err)
					continue
				}
				require.ErrorAs(t, err, &se, what)
				assert.Equal(t, le.Line, se.Line, what)
				assert.Equal(t, le.File, se.File, what)
				assert.Equal(t, le.Message, se.Error(), "%s: the syntax error's message is the load error's", what)
				if tt.syntaxLine > 0 {
					assert.Equal(t, tt.syntaxLine, se.Line, what)
				}
			}
		})
	}
}

func loadErr(w *world, name string) error {
	_, err := w.h.Load(name)
	return err
}

// TestPrecompile: Precompile warms the cache that hosts sharing it load
// from, and reports a syntax error as Load does.
func TestPrecompile(t *testing.T) {
	chunks := NewChunks()
	src := []byte("return { priority = 4 }\n")
	require.NoError(t, chunks.Precompile("x", "dir/x.lua", src))
	proto, err := chunks.compile("x", "dir/x.lua", src, lstring.DefaultMaxSize)
	require.NoError(t, err)
	again, err := chunks.compile("x", "dir/x.lua", src, lstring.DefaultMaxSize)
	require.NoError(t, err)
	assert.Same(t, proto, again, "a cache hit")

	err = chunks.Precompile("x", "dir/x.lua", []byte("return {\n  x = = 1 }\n"))
	var se *SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, 2, se.Line)
	var le *LoadError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "x", le.Script)
}
