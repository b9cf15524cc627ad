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

// TestWatchSceneEdits saves the scene file while "run --watch" runs: an
// entity added spawns, one removed is destroyed, a changed prop reaches
// the instance that kept the previous value but not the one that changed
// it, tags and positions apply; a save that does not parse is refused with
// line:col and the world runs on unchanged.
func TestWatchSceneEdits(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "sceneedit", "scripts", "show.lua"))
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "scripts"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scripts", "show.lua"), src, 0o644))
	scene := filepath.Join(dir, "scene.json")
	write := func(s string) { require.NoError(t, os.WriteFile(scene, []byte(s), 0o644)) }
	write(`{"entities": [
  {"name": "a", "scripts": [{"script": "show", "props": {"speed": 2}}]},
  {"name": "b", "scripts": ["show"]},
  {"name": "k", "scripts": [{"script": "show", "props": {"keep": true}}]}
]}`)

	l := startLive(t, dir, "run", "scene.json", "--watch", "--fps", "60")
	l.waitFor(t, "the first state of a", 10*time.Second, func(s string) bool { return s == "state\ta\t2\t0\t" })

	write(`{"entities": [
  {"name": "a", "position": [5, 0, 0], "tags": ["hot"], "scripts": [{"script": "show", "props": {"speed": 3}}]},
  {"name": "c", "scripts": ["show"]},
  {"name": "k", "scripts": [{"script": "show", "props": {"keep": true, "speed": 7}}]}
]}`)
	seen := map[string]bool{}
	l.waitFor(t, "the edit applied", 10*time.Second, func(s string) bool {
		seen[s] = true
		return seen["destroy\tb"] && seen["create\tc\t1"] && seen["state\ta\t3\t5\thot"] && seen["state\tk\t50\t0\t"]
	})
	assert.Contains(t, l.errText(), "scene.json: applied: 1 entities spawned, 1 destroyed, 1 changed")

	write(`{"entities": [{"name": "a",, }]}`)
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(l.errText(), "not applied") && time.Now().Before(deadline) {
		l.waitFor(t, "state lines", 10*time.Second, func(s string) bool { return strings.HasPrefix(s, "state\t") })
	}
	assert.Regexp(t, `scene\.json:1:\d+: .*\n\tthe scene edit is not applied`, l.errText())
	l.waitFor(t, "c still running", 10*time.Second, func(s string) bool { return s == "state\tc\t1\t0\t" })

	require.NoError(t, l.cmd.Process.Signal(os.Interrupt))
	l.rest(t, 5*time.Second)
	require.NoError(t, l.cmd.Wait(), l.errText())
}
