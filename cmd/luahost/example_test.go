package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copyScripts copies the example scripts of scripts/ into a new directory
// and returns it, so that a test can break them without touching the
// originals.
func copyScripts(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	require.NoError(t, os.CopyFS(dst, os.DirFS(filepath.Join("..", "..", "scripts"))))
	return dst
}

// editFile replaces the first old in dir/name with new.
func editFile(t *testing.T, dir, name, old, new string) {
	t.Helper()
	path := filepath.Join(dir, name)
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Contains(t, string(src), old)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(src), old, new, 1)), 0o644))
}

// TestReadmeBreakScript follows "Break a script on purpose" in
// scripts/README.md, so that the messages quoted there stay true.
func TestReadmeBreakScript(t *testing.T) {
	t.Run("runtime error", func(t *testing.T) {
		dir := copyScripts(t)
		editFile(t, dir, "spinner.lua", "self.angle + self.speed * dt", "self.angle + self.sped * dt")
		res := luahostRunIn(t, dir, "run", "demo.json", "--frames", "3")
		assert.Equal(t, 0, res.code)
		assert.Contains(t, res.stderr, "spinner.lua:26: attempt to perform arithmetic on a nil value (field 'sped')\n"+
			"\tin script spinner, beacon (entity 2:1), onUpdate, frame 1\n"+
			"\tstack traceback:\n"+
			"\tspinner.lua:26: in function 'onUpdate'\n")
		assert.Contains(t, res.stdout, "[frame 3] beacon: stops spinning after 0 turns\n")
		assert.NotContains(t, res.stdout, "spinner.lua")

		strict := luahostRunIn(t, dir, "run", "demo.json", "--frames", "3", "--strict")
		assert.Equal(t, 1, strict.code)
	})

	t.Run("syntax error", func(t *testing.T) {
		dir := copyScripts(t)
		editFile(t, dir, "spinner.lua", "  end,\n", "  end\n")
		res := luahostRunIn(t, dir, "run", "demo.json", "--frames", "3")
		assert.Equal(t, 2, res.code)
		assert.Empty(t, res.stdout)
		assert.Equal(t, "luahost run: demo.json: entity 2 (beacon): spinner.lua:25: '}' expected (to close '{' at line 11) near 'onUpdate'\n", res.stderr)

		check := luahostRunIn(t, dir, "check", ".")
		assert.Equal(t, 1, check.code)
		assert.Equal(t, "spinner.lua:25:1: error: '}' expected (to close '{' at line 11) near 'onUpdate'\n", check.stdout)
	})
}

// TestWatchReload edits a script while "run --watch" runs: the new code
// takes over, each instance keeps its state, and a broken save is refused
// while the last good version keeps running.
func TestWatchReload(t *testing.T) {
	dir := t.TempDir()
	scene := `{"entities": [{"name": "counter", "scripts": ["count"]}]}`
	script := `return {
  onUpdate = function(self, ctx)
    self.n = (self.n or 0) + 1
    print("v1", self.n)
  end,
}
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scene.json"), []byte(scene), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "scripts"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scripts", "count.lua"), []byte(script), 0o644))

	l := startLive(t, dir, "run", "scene.json", "--watch", "--fps", "60")
	l.waitFor(t, "the first version's output", 10*time.Second, func(s string) bool { return strings.HasPrefix(s, "v1\t") })

	editFile(t, filepath.Join(dir, "scripts"), "count.lua", `print("v1"`, `print("v2"`)
	first := l.waitFor(t, "the reloaded version's output", 10*time.Second, func(s string) bool { return strings.HasPrefix(s, "v2\t") })
	assert.NotEqual(t, "v2\t1", first, "the instance kept its state")

	// A broken save: reported, and v2 runs on.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scripts", "count.lua"), []byte("return { onUpdate = = 1 }\n"), 0o644))
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(l.errText(), "count.lua:1: ") && time.Now().Before(deadline) {
		l.waitFor(t, "v2 output", 10*time.Second, func(s string) bool { return strings.HasPrefix(s, "v2\t") })
	}
	require.Contains(t, l.errText(), "scripts/count.lua:1: ")
	l.waitFor(t, "v2 output after the broken save", 10*time.Second, func(s string) bool { return strings.HasPrefix(s, "v2\t") })

	require.NoError(t, l.cmd.Process.Signal(os.Interrupt))
	for _, line := range l.rest(t, 5*time.Second) {
		assert.True(t, strings.HasPrefix(line, "v2\t"), "%q", line)
	}
	require.NoError(t, l.cmd.Wait(), l.errText())
}

// TestReadmeStory checks that the story lines quoted in scripts/README.md
// are lines of the demo's output.
func TestReadmeStory(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "scripts", "README.md"))
	require.NoError(t, err)
	story, err := os.ReadFile(filepath.Join("testdata", "golden", "demo.out"))
	require.NoError(t, err)
	lines := strings.Split(string(story), "\n")
	quoted := 0
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.HasPrefix(l, "[frame ") {
			quoted++
			assert.Contains(t, lines, l)
		}
	}
	assert.Greater(t, quoted, 3)
}
