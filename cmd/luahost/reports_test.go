package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReportsCoalesce: the same error from 27 instances in one frame is
// written once, naming the entity by its name and handle, with a count of
// the others; --stats lists it with its count and frames.
func TestReportsCoalesce(t *testing.T) {
	res := luahostRun(t, "run", "testdata/reports/grunts.json", "--frames", "3", "--stats")
	require.Equal(t, 0, res.code, res.stderr)
	assert.Equal(t, 1, strings.Count(res.stderr, "enemy.lua:5: out of ammo\n\tin script"), res.stderr)
	assert.Contains(t, res.stderr, "\tin script enemy, grunt 1 (entity 1:1), onUpdate, frame 2\n")
	assert.Contains(t, res.stderr, "\t... and 26 more instances of enemy\n")
	assert.Regexp(t, regexp.MustCompile(`(?m)^\s+27\s+2\s+2\s+enemy\s+testdata/reports/scripts/enemy\.lua:5: out of ammo$`), res.stderr)
}

// TestLenientStart: with --watch, a script that does not load at start is
// reported and its instances wait while the rest of the scene runs;
// saving a fixed file attaches them (their onCreate runs). Without
// --watch the same scene does not start.
func TestLenientStart(t *testing.T) {
	dir := t.TempDir()
	scene := `{"entities": [{"name": "a", "scripts": ["ticker"]}, {"name": "b", "scripts": ["broken"]}]}`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scene.json"), []byte(scene), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "scripts"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scripts", "ticker.lua"), []byte(`return { onUpdate = function(self, ctx) print("tick", ctx.frame) end }`), 0o644))
	broken := filepath.Join(dir, "scripts", "broken.lua")
	require.NoError(t, os.WriteFile(broken, []byte("return {\n  onCreate = function(self, ctx)\n    print(\"fixed\" \n  end,\n}\n"), 0o644))

	strict := luahostRunIn(t, dir, "run", "scene.json", "--frames", "2")
	assert.Equal(t, 2, strict.code)
	assert.Contains(t, strict.stderr, "broken.lua:4:")

	l := startLive(t, dir, "run", "scene.json", "--watch", "--fps", "60")
	l.waitFor(t, "the rest of the scene running", 10*time.Second, func(s string) bool { return strings.HasPrefix(s, "tick\t") })
	assert.Contains(t, l.errText(), "broken.lua:4:")
	require.NoError(t, os.WriteFile(broken, []byte("return {\n  onCreate = function(self, ctx)\n    print(\"fixed\", ctx.entity:name())\n  end,\n}\n"), 0o644))
	l.waitFor(t, "the waiting instance's onCreate", 10*time.Second, func(s string) bool { return s == "fixed\tb" })
	require.NoError(t, l.cmd.Process.Signal(os.Interrupt))
	l.rest(t, 5*time.Second)
	require.NoError(t, l.cmd.Wait(), l.errText())
	assert.Contains(t, l.errText(), "broken loads now: 1 waiting instances attached")
}
