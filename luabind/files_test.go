//go:build unix

package luabind

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// escapeDir builds a script directory whose lib/ holds a module and every
// kind of file that require must refuse, beside a secret outside it.
func escapeDir(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	dir := filepath.Join(base, "scripts")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "lib", "dir.lua"), 0o755))
	write := func(path, src string) {
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
	}
	write(filepath.Join(base, "secret.lua"), "return 'the secret'")
	write(filepath.Join(dir, "lib", "ok.lua"), "return 'ok'")
	write(filepath.Join(dir, "probe.lua"), `-- Prints what require(self.mod) gave or raised.
return {
  properties = { mod = "" },
  onCreate = function(self, ctx) print(pcall(require, self.mod)) end,
}`)
	for link, target := range map[string]string{
		"lib/alias.lua":  "ok.lua",
		"lib/escape.lua": "../../secret.lua",
		"lib/zero.lua":   "/dev/zero",
		"escape.lua":     "../secret.lua",
	} {
		require.NoError(t, os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))))
	}
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "lib", "pipe.lua"), 0o644))
	return dir
}

func TestRequireStaysInside(t *testing.T) {
	dir := escapeDir(t)
	tests := []struct {
		mod  string
		want string
	}{
		{"lib.ok", "true\tok"},
		{"lib.alias", "true\tok"},
		{"lib.escape", `module "lib.escape" refused: ` + dir + `/lib/escape.lua resolves outside the script folder`},
		{"lib.zero", `module "lib.zero" refused: ` + dir + `/lib/zero.lua resolves outside the script folder`},
		{"lib.pipe", `module "lib.pipe" refused: ` + dir + `/lib/pipe.lua is not a regular file`},
		{"lib.dir", `module "lib.dir" refused: ` + dir + `/lib/dir.lua is not a regular file`},
		{"lib.none", `module "lib.none" not found: no file ` + dir + `/lib/none.lua, no file ` + dir + `/lib/none/init.lua`},
	}
	for _, tc := range tests {
		t.Run(tc.mod, func(t *testing.T) {
			w := newWorld(t, func(_ *runtime.Options, o *Options) { o.Dir = dir })
			e := w.rt.Spawn()
			_, err := w.h.Attach(e, "probe", map[string]any{"mod": tc.mod})
			require.NoError(t, err)
			require.NoError(t, w.rt.Activate(e))
			require.NoError(t, w.rt.Step(1.0/60))
			w.requireNoErrors()
			want := tc.want
			if !strings.HasPrefix(want, "true") {
				// pcall(require, mod): as in Lua 5.1, no Lua code runs
				// below require, so its message has no position.
				want = "false\t" + want
			}
			assert.Equal(t, want+"\n", w.out.String())
		})
	}
}

func TestLoadStaysInside(t *testing.T) {
	dir := escapeDir(t)
	w := newWorld(t, func(_ *runtime.Options, o *Options) { o.Dir = dir })
	_, err := w.h.Load("escape")
	var le *LoadError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, dir+`/escape.lua: script "escape" refused: the file resolves outside the script folder`, le.Message)
	assert.ErrorContains(t, w.h.Check("escape"), "resolves outside the script folder")
	assert.ErrorContains(t, w.h.CheckModule("lib/pipe"), "is not a regular file")
}
