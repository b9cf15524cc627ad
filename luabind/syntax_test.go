package luabind

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/gopher-lua/parse"

	"github.com/luahost/luahost/runtime"
)

// TestCheckSyntaxAgreesWithParser: over every Lua file of the repository,
// the syntax pre-check finds an error exactly where gopher-lua's parser
// refuses the file, so that it never reports an error in a valid script
// and never misses one. Only nesting past the check's limits is refused
// by the check alone.
func TestCheckSyntaxAgreesWithParser(t *testing.T) {
	var files []string
	require.NoError(t, filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != ".." {
			return filepath.SkipDir
		}
		// Regular files only: the hostile corpus holds links to /dev/zero.
		if d.Type().IsRegular() && strings.HasSuffix(path, ".lua") {
			files = append(files, path)
		}
		return nil
	}))
	require.Greater(t, len(files), 100)
	for _, path := range files {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		_, perr := parse.Parse(strings.NewReader(string(src)), path)
		se := checkSyntax(string(src))
		if perr == nil && se != nil && strings.HasPrefix(se.msg, "chunk has too many syntax levels") {
			// Nesting past the limits gopher-lua's parser takes.
			continue
		}
		if perr == nil {
			assert.Nil(t, se, "%s parses, but the check says %v", path, se)
		} else {
			assert.NotNil(t, se, "%s does not parse (%v), but the check finds nothing", path, perr)
		}
	}
}

// FuzzCheckSyntax: the syntax pre-check never panics or loops, and an
// error it finds is on a line of the source (or the line after its last
// newline, where <eof> is). Which chunks are errors cannot be checked
// against gopher-lua's parser here: it accepts some that reference Lua
// refuses ("(f())" as a statement, "0e"), which the check refuses too.
func FuzzCheckSyntax(f *testing.F) {
	for _, seed := range []string{
		"local x = 1\nprint(x)\n",
		"return { onUpdate = function(self, ctx, dt) self.x = self.x + dt end }",
		"if a then b() elseif c then d() else e() end",
		"for i = 1, 10, 2 do end for k, v in pairs(t) do end",
		"repeat local x = f() until x",
		"local t = {1, 2; x = 3, [4] = 5, f = function(...) return ... end}",
		"a.b.c:d(e)[f] = g",
		"x += 1",
		"if a != b then end // no",
		"print([==[long\n]==]) --[[ comment ]] s = 'a\\'b' .. \"c\\\"d\"",
		"local s = \"unfinished",
		"goto continue ::continue::",
		"return 0x1F + 1e-3 + .5 + 3.",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if se := checkSyntax(src); se != nil {
			assert.True(t, se.line >= 1 && se.line <= strings.Count(src, "\n")+1, "%q: line %d: %s", src, se.line, se.msg)
		}
	})
}

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
