package compile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/gopher-lua/parse"
)

// TestCheckSyntaxAgreesWithParser: over every Lua file of the repository,
// the syntax pre-check finds an error exactly where gopher-lua's parser
// refuses the file (as Compile hands it over, hex exponents respelled),
// so that it never reports an error in a valid script and never misses
// one. Only nesting past the check's limits is refused by the check
// alone.
func TestCheckSyntaxAgreesWithParser(t *testing.T) {
	const root = "../../.."
	var files []string
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != root {
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
		_, perr := parse.Parse(strings.NewReader(respellHexExponents(string(src))), path)
		se := CheckSyntax(string(src))
		if perr == nil && se != nil && strings.HasPrefix(se.Msg, "chunk has too many syntax levels") {
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
		if se := CheckSyntax(src); se != nil {
			assert.True(t, se.Line >= 1 && se.Line <= strings.Count(src, "\n")+1, "%q: line %d: %s", src, se.Line, se.Msg)
		}
	})
}
