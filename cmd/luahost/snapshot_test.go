package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hashLine finds the line --hash prints.
var hashLine = regexp.MustCompile(`(?m)^snapshot sha256 [0-9a-f]{64}$`)

// TestContinueInNewProcess: running 200 frames cannot be told from
// running 100, saving, continuing the snapshot in a new process and
// running 100 more: stdout from frame 101 on, the final snapshot and its
// hash are byte-identical. On the demo world and on a scene with spawns,
// kills, timers, random numbers and queries.
func TestContinueInNewProcess(t *testing.T) {
	for _, scene := range []string{"../../scripts/demo.json", "testdata/snapshot/scene.json"} {
		t.Run(scene, func(t *testing.T) {
			dir := t.TempDir()
			// Budgets off: a callback stopped by a loaded machine would
			// be a fault of that run alone (README, Determinism).
			full := luahostRun(t, "run", scene, "--frames", "200", "--budget", "0", "--save", filepath.Join(dir, "full.json"), "--hash")
			require.Equal(t, 0, full.code, full.stderr)
			first := luahostRun(t, "run", scene, "--frames", "100", "--budget", "0", "--save", filepath.Join(dir, "half.json"))
			require.Equal(t, 0, first.code, first.stderr)
			second := luahostRun(t, "run", filepath.Join(dir, "half.json"), "--frames", "100", "--budget", "0", "--save", filepath.Join(dir, "cont.json"), "--hash")
			require.Equal(t, 0, second.code, second.stderr)

			require.NotEmpty(t, second.stdout)
			require.True(t, strings.HasSuffix(full.stdout, second.stdout), "stdout from frame 101 on:\nfull:\n%s\ncontinued:\n%s", full.stdout, second.stdout)
			before := full.stdout[:len(full.stdout)-len(second.stdout)]
			assert.True(t, strings.HasPrefix(first.stdout, before), "the first half printed frames 1-100, then its shutdown")
			assert.Equal(t, hashLine.FindString(full.stderr), hashLine.FindString(second.stderr))
			assert.NotEmpty(t, hashLine.FindString(full.stderr))
			a, err := os.ReadFile(filepath.Join(dir, "full.json"))
			require.NoError(t, err)
			b, err := os.ReadFile(filepath.Join(dir, "cont.json"))
			require.NoError(t, err)
			assert.Equal(t, string(a), string(b))
		})
	}
	t.Run("spawns, kills and timers happen after the save", func(t *testing.T) {
		res := luahostRun(t, "run", "testdata/snapshot/scene.json", "--frames", "200")
		require.Equal(t, 0, res.code, res.stderr)
		late := res.stdout[strings.Index(res.stdout, "\n101\t"):]
		for _, want := range []string{"kill", "tick", "bye", "wake up"} {
			assert.Contains(t, late, want)
		}
	})
}

// TestSameSeedSameHash: the same scene and seed give the same output and
// snapshot; another seed gives another.
func TestSameSeedSameHash(t *testing.T) {
	a := luahostRun(t, "run", "testdata/snapshot/scene.json", "--frames", "60", "--budget", "0", "--hash")
	b := luahostRun(t, "run", "testdata/snapshot/scene.json", "--frames", "60", "--budget", "0", "--hash")
	c := luahostRun(t, "run", "testdata/snapshot/scene.json", "--frames", "60", "--budget", "0", "--hash", "--seed", "6")
	require.Equal(t, 0, a.code, a.stderr)
	assert.Equal(t, a.stdout, b.stdout)
	assert.Equal(t, a.stderr, b.stderr)
	assert.NotEqual(t, hashLine.FindString(a.stderr), hashLine.FindString(c.stderr))
}

// TestSnapshotScriptsFolder: a snapshot finds its scripts relative to
// itself, also when moved with them; --scripts overrides.
func TestSnapshotScriptsFolder(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "w.json")
	res := luahostRun(t, "run", "testdata/snapshot/scene.json", "--frames", "30", "--save", saved)
	require.Equal(t, 0, res.code, res.stderr)
	data, err := os.ReadFile(saved)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"scripts_dir":"`)

	res = luahostRunIn(t, dir, "run", "w.json", "--frames", "5")
	assert.Equal(t, 0, res.code, "found from another working directory: %s", res.stderr)

	moved := filepath.Join(t.TempDir(), "deeper", "still")
	require.NoError(t, os.MkdirAll(moved, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(moved, "w.json"), data, 0o644))
	res = luahostRun(t, "run", filepath.Join(moved, "w.json"), "--frames", "5")
	assert.Equal(t, 2, res.code)
	assert.Contains(t, res.stderr, "script directory")
	scripts, err := filepath.Abs("testdata/snapshot/scripts")
	require.NoError(t, err)
	res = luahostRun(t, "run", filepath.Join(moved, "w.json"), "--frames", "5", "--scripts", scripts)
	assert.Equal(t, 0, res.code, res.stderr)
}

// TestBadSnapshotFile: a snapshot that cannot be continued stops the start
// with exit 2 and one line naming the file and what is wrong.
func TestBadSnapshotFile(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "w.json")
	res := luahostRun(t, "run", "testdata/snapshot/scene.json", "--frames", "10", "--save", saved)
	require.Equal(t, 0, res.code, res.stderr)
	data, err := os.ReadFile(saved)
	require.NoError(t, err)
	cases := []struct {
		name string
		data string
		args []string
		want string
	}{
		{"truncated", string(data[:len(data)/2]), nil, "unexpected end of the snapshot"},
		{"newer format", strings.Replace(string(data), "luahost-snapshot/1", "luahost-snapshot/2", 1), nil, "a newer luahost wrote it"},
		{"unknown script", strings.Replace(string(data), `"script":"clock"`, `"script":"clack"`, 1), nil, `unknown script "clack"`},
		{"seed", string(data), []string{"--seed", "3"}, "--seed cannot change the seed of a saved world"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bad := filepath.Join(dir, c.name+".json")
			require.NoError(t, os.WriteFile(bad, []byte(c.data), 0o644))
			res := luahostRun(t, append([]string{"run", bad}, c.args...)...)
			assert.Equal(t, 2, res.code)
			assert.Empty(t, res.stdout)
			assert.Contains(t, res.stderr, bad)
			assert.Contains(t, res.stderr, c.want)
			assert.Equal(t, 1, strings.Count(res.stderr, "\n"), res.stderr)
		})
	}
	t.Run("--scripts with a scene", func(t *testing.T) {
		res := luahostRun(t, "run", "testdata/snapshot/scene.json", "--scripts", dir)
		assert.Equal(t, 2, res.code)
		assert.Contains(t, res.stderr, "--scripts is for continuing a snapshot")
	})
}

// TestCheckSnapshot: check leaves a project folder's saved worlds alone
// (they are not scenes), and checks one it is given: that it reads, and
// the scripts of its folder.
func TestCheckSnapshot(t *testing.T) {
	dir := t.TempDir()
	scripts := filepath.Join(dir, "scripts")
	require.NoError(t, os.MkdirAll(scripts, 0o755))
	for _, name := range []string{"scene.json", "scripts/clock.lua", "scripts/critter.lua", "scripts/ledger.lua", "scripts/life.lua"} {
		data, err := os.ReadFile(filepath.Join("testdata/snapshot", name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	res := luahostRunIn(t, dir, "run", "scene.json", "--frames", "5", "--save", "world.json")
	require.Equal(t, 0, res.code, res.stderr)

	res = luahostRunIn(t, dir, "check", ".")
	assert.Equal(t, 0, res.code, res.stdout)
	assert.Contains(t, res.stderr, "checked 4 scripts and 1 scene")
	res = luahostRunIn(t, dir, "check", "world.json")
	assert.Equal(t, 0, res.code, res.stdout)
	assert.Contains(t, res.stderr, "checked 4 scripts")

	require.NoError(t, os.WriteFile(filepath.Join(dir, "scripts", "clock.lua"), []byte("return {"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"format":"luahost-snapshot/7"}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "cut.json"), []byte("{\"format\": \"luahost-snapshot/1\",\n  \"frame\": tru"), 0o644))
	res = luahostRunIn(t, dir, "check", "world.json", "bad.json", "cut.json")
	assert.Equal(t, 1, res.code)
	assert.Contains(t, res.stdout, "scripts/clock.lua:1:")
	assert.Contains(t, res.stdout, `bad.json:1:1: error: bad snapshot: format "luahost-snapshot/7"`)
	assert.Contains(t, res.stdout, "cut.json:2:15: error: bad snapshot: unexpected end of the snapshot (truncated?)", "the place in the text, not 1:1")
}

// TestSaveRefused: a world that cannot be saved runs, shuts down, and
// exits 1 with the reason; no file is left behind.
func TestSaveRefused(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "co.lua"), []byte(`return {
  onCreate = function(self) self.co = coroutine.create(function() end) end,
  onDestroy = function() print("destroyed") end,
}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scene.json"), []byte(`{"scripts": ".", "entities": [{"name": "c", "scripts": ["co"]}]}`), 0o644))
	res := luahostRunIn(t, dir, "run", "scene.json", "--save", "world.json")
	assert.Equal(t, 1, res.code)
	assert.Equal(t, "destroyed\n", res.stdout, "the world shut down as usual")
	assert.Contains(t, res.stderr, "self.co: cannot store a thread")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "no snapshot and no temporary file")
}

// TestCheckModuleState: check warns about module-level tables that
// functions change, in scripts and in the modules they require: snapshots
// do not save them.
func TestCheckModuleState(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "lib"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "lib", "counter.lua"), []byte(`local M = {}
local counts = {}
function M.bump(k)
  counts[k] = (counts[k] or 0) + 1
  return counts[k]
end
return M
`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "user.lua"), []byte(`local counter = require("lib.counter")
return { onUpdate = function(self, ctx) self.n = counter.bump("frames") end }
`), 0o644))
	res := luahostRun(t, "check", dir)
	assert.Equal(t, 0, res.code, "warnings only")
	assert.Equal(t, filepath.ToSlash(filepath.Join(dir, "lib", "counter.lua"))+":4:3: warning: module-level table 'counts' is changed inside a function: snapshots do not save it (keep state in self or the blackboard)\n", res.stdout)
}
