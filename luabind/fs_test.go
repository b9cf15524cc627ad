package luabind

import (
	"context"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestFS: with Options.FS, scripts and the modules they require are read
// from the file system, file names in messages start with Dir, what is
// not a regular script file is refused, and Watch is refused.
func TestFS(t *testing.T) {
	fsys := fstest.MapFS{
		"ai/guard.lua": {Data: []byte(`local greet = require("lib.greet")
return { onCreate = function(self) print(greet(self.name)) end }`)},
		"lib/greet.lua": {Data: []byte(`return function(who) return "hello " .. who end`)},
		"bad.lua":       {Data: []byte(`return {`)},
		"dir.lua/x":     {Data: []byte(`x`)},
		"big.lua":       {Data: []byte(strings.Repeat(" ", MaxScriptSize+1))},
	}
	var out strings.Builder
	rt := runtime.New(runtime.Options{})
	h, err := New(rt, Options{FS: fsys, Dir: "game", Stdout: &out})
	require.NoError(t, err, "Dir need not exist")
	defer h.Close()

	_, err = h.Attach(rt.Spawn(), "ai/guard", map[string]any{"name": "ann"})
	require.NoError(t, err)
	h.Flush()
	assert.Equal(t, "hello ann\n", out.String())
	assert.NoError(t, h.Check("ai/guard"))

	tests := []struct {
		script string
		want   string
	}{
		{"bad", "game/bad.lua:1: '}' expected near <eof>"},
		{"none", `game/none.lua: script "none" not found`},
		{"dir", `game/dir.lua: script "dir" refused: the file is not a regular file`},
		{"big", `game/big.lua: script "big" refused: the file is too large`},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			_, err := h.Load(tt.script)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	_, err = h.Watch(context.Background())
	assert.ErrorContains(t, err, "watch game: scripts are read from Options.FS, which cannot be watched")
}
