package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/luahost/luahost/internal/lint"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheck runs "luahost check" on scripts, folders, scenes and project
// folders (testdata/check, testdata/bad, the example world) and compares
// the whole report, "path:line:col: severity: message" per line, and the
// exit status: 1 on an error, 1 on a warning with --strict, 2 on bad
// usage, else 0.
func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		dir  string // where to run ("": the package folder)
		args []string
		code int
		want []string
	}{
		{"the example world, as a folder", "", []string{"check", "../../scripts"}, 0, nil},
		{"the example world, as a project folder from inside", "../../scripts", []string{"check", "."}, 0, nil},
		{"the example world's scene", "", []string{"check", "../../scripts/demo.json"}, 0, nil},
		{"folders of good scripts", "", []string{"check", "testdata/order/scripts", "testdata/lifecycle/scripts"}, 0, nil},
		{"single files", "", []string{"check", "testdata/bad/scripts/ok.lua", "../../scripts/spinner.lua"}, 0, nil},
		{"modules need not return a table", "", []string{"check", "testdata/modules"}, 0, nil},
		{"a module checked alone is a script", "", []string{"check", "testdata/modules/lib/greet.lua"}, 1, []string{
			"testdata/modules/lib/greet.lua:1:1: error: the script must return a table, not function",
		}},
		{"a script's modules resolve from its own script folder", "", []string{"check", "testdata/blackboard"}, 0, nil},
		{"broken scripts", "", []string{"check", "testdata/bad/scripts"}, 1, []string{
			"testdata/bad/scripts/chunkerr.lua:3:1: error: attempt to perform arithmetic on a nil value",
			"testdata/bad/scripts/notable.lua:1:1: error: the script must return a table, not number",
			"testdata/bad/scripts/unfinished.lua:5:1: error: 'end' expected (to close 'if' at line 4) near <eof>",
			"testdata/bad/scripts/x.lua:3:1: error: unexpected symbol near '='",
		}},
		{"one broken file of two", "", []string{"check", "testdata/bad/scripts/x.lua", "testdata/bad/scripts/ok.lua"}, 1, []string{
			"testdata/bad/scripts/x.lua:3:1: error: unexpected symbol near '='",
		}},
		{"misspelt fields", "", []string{"check", "testdata/check/scripts/typos.lua", "testdata/check/scripts/module_style.lua"}, 0, []string{
			"testdata/check/scripts/module_style.lua:6:12: warning: onDestory: unknown field; did you mean onDestroy?",
			"testdata/check/scripts/typos.lua:4:3: warning: priorty: unknown field; did you mean priority?",
			"testdata/check/scripts/typos.lua:5:3: warning: propertes: unknown field; did you mean properties?",
			"testdata/check/scripts/typos.lua:6:3: warning: onUpdte: unknown field; did you mean onUpdate?",
			"testdata/check/scripts/typos.lua:7:3: warning: event: unknown field; did you mean events?",
		}},
		{"warnings fail with --strict", "", []string{"check", "--strict", "testdata/check/scripts/typos.lua"}, 1, []string{
			"testdata/check/scripts/typos.lua:4:3: warning: priorty: unknown field; did you mean priority?",
			"testdata/check/scripts/typos.lua:5:3: warning: propertes: unknown field; did you mean properties?",
			"testdata/check/scripts/typos.lua:6:3: warning: onUpdte: unknown field; did you mean onUpdate?",
			"testdata/check/scripts/typos.lua:7:3: warning: event: unknown field; did you mean events?",
		}},
		{"globals", "", []string{"check", "testdata/check/scripts/globals.lua"}, 0, []string{
			"testdata/check/scripts/globals.lua:8:5: warning: global 'count' assigned inside a function (a missing 'local'? keep instance state in self)",
			"testdata/check/scripts/globals.lua:9:11: warning: undefined global 'GameState'",
			"testdata/check/scripts/globals.lua:9:28: warning: undefined global 'prnt'; did you mean print?",
		}},
		{"timers", "", []string{"check", "testdata/check/scripts/timers.lua"}, 1, []string{
			`testdata/check/scripts/timers.lua:5:20: error: timer names "explod", which is not a function of the script table; did you mean explode?`,
		}},
		{"a project folder: its scene and its scripts", "", []string{"check", "testdata/check/project"}, 1, []string{
			"testdata/check/project/scene.json:4:37: error: entity 1 (runner): position must be three numbers [x, y, z], not 2",
			`testdata/check/project/scene.json:5:52: warning: entity 1 (runner): prop "sped" is not a property of runner; did you mean speed?`,
			`testdata/check/project/scene.json:5:63: warning: entity 1 (runner): prop "label" of runner is a number, but its default is a string`,
			"testdata/check/project/scene.json:6:36: error: entity 2 (ghost): rotation must be three numbers [x, y, z], not 4",
			"testdata/check/project/scene.json:6:69: error: entity 2 (ghost): tags: a tag must be a non-empty string",
			`testdata/check/project/scene.json:6:86: error: entity 2 (ghost): testdata/check/project/scripts/nobody.lua: script "nobody" not found`,
		}},
		{"a scene that does not parse", "", []string{"check", "testdata/bad/unknown.json"}, 1, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := luahostRunIn(t, tt.dir, tt.args...)
			assert.Equal(t, tt.code, res.code, "stdout:\n%s\nstderr:\n%s", res.stdout, res.stderr)
			if tt.want == nil && tt.code == 1 {
				assert.Regexp(t, `^\S+:\d+:\d+: error: `, res.stdout)
				return
			}
			var got []string
			if out := strings.TrimSuffix(res.stdout, "\n"); out != "" {
				got = strings.Split(out, "\n")
			}
			assert.Equal(t, tt.want, got)
			assert.Regexp(t, `checked \d+ scripts? and \d+ scenes?: \d+ errors?, \d+ warnings?\n$`, res.stderr)
		})
	}
}

// TestCheckRefusesLinks: scripts/lib/zero.lua links to /dev/zero, two
// others lead out of the folder; they are refused, never read.
func TestCheckRefusesLinks(t *testing.T) {
	res := luahostRunIn(t, "../../testdata/hostile", "check", "scripts")
	assert.Equal(t, 1, res.code)
	for _, want := range []string{
		`scripts/lib/outside.lua:1:1: error: script "lib/outside" refused: the file resolves outside the script folder`,
		`scripts/lib/zero.lua:1:1: error: script "lib/zero" refused: the file resolves outside the script folder`,
		`scripts/linked_outside.lua:1:1: error: script "linked_outside" refused: the file resolves outside the script folder`,
	} {
		assert.Contains(t, res.stdout, want+"\n")
	}

	// The whole corpus as a project: zero_scene.json links to /dev/zero
	// and is not read as a scene.
	res = luahostRunIn(t, "../../testdata/hostile", "check", ".")
	assert.Equal(t, 1, res.code, res.stderr)
	assert.Contains(t, res.stdout, "scripts/lib/zero.lua:1:1: error:")
	direct := luahostRunIn(t, "../../testdata/hostile", "check", "zero_scene.json")
	assert.Equal(t, 2, direct.code)
	assert.Contains(t, direct.stderr, "zero_scene.json: ")
	assert.Contains(t, direct.stderr, "not a regular file")
}

// TestCheckDeepScript: a 16 MB script of one chain of calls, nested past
// the loader's limits, is one error of check, not walked by the linter
// (whose walk overflowed the Go stack and killed the process).
func TestCheckDeepScript(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "scripts"), 0o755))
	src := "local x = f" + strings.Repeat("()", 8_000_000) + "\nreturn {}\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scripts", "deep.lua"), []byte(src), 0o644))
	res := luahostRunIn(t, dir, "check", ".")
	assert.Equal(t, 1, res.code, res.stderr)
	assert.Contains(t, res.stdout, "scripts/deep.lua:1:1: error: chunk has too many syntax levels")
	assert.NotContains(t, res.stderr, "goroutine ", "no Go crash")
}

// TestCheckJSON: --format json writes one array of problems with path,
// line, col, severity and message; an empty array when all is well.
func TestCheckJSON(t *testing.T) {
	res := luahostRun(t, "check", "--format", "json", "testdata/check/scripts/timers.lua", "testdata/check/scripts/typos.lua")
	require.Equal(t, 1, res.code, res.stderr)
	var got []lint.Problem
	require.NoError(t, json.Unmarshal([]byte(res.stdout), &got), res.stdout)
	require.Len(t, got, 5)
	assert.Equal(t, lint.Problem{Path: "testdata/check/scripts/timers.lua", Line: 5, Col: 20, Severity: "error",
		Message: `timer names "explod", which is not a function of the script table; did you mean explode?`}, got[0])
	assert.Equal(t, "warning", got[1].Severity)

	clean := luahostRun(t, "check", "--format", "json", "../../scripts/spinner.lua")
	require.Equal(t, 0, clean.code, clean.stderr)
	assert.JSONEq(t, "[]", clean.stdout)
}

// TestCheckUsage: bad usage exits 2 and prints nothing on stdout.
func TestCheckUsage(t *testing.T) {
	for _, args := range [][]string{
		{"check"},
		{"check", "testdata/no-such-dir"},
		{"check", "--format", "xml", "../../scripts"},
	} {
		res := luahostRun(t, args...)
		assert.Equal(t, 2, res.code, "%v", args)
		assert.Empty(t, res.stdout, "%v", args)
	}
}

// TestSceneTags: a scene's "tags" reach the entities (ctx.query finds
// them), and an empty tag stops the start.
func TestSceneTags(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "scripts"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scripts", "census.lua"), []byte(`return {
  onUpdate = function(self, ctx)
    for _, e in ipairs(ctx.query({ tag = "enemy" })) do print(e:name(), table.concat(e:tags(), ",")) end
  end,
}`), 0o644))
	write := func(name, scene string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(scene), 0o644))
		return path
	}
	good := write("good.json", `{"entities": [
  {"name": "orc", "tags": ["enemy", "green"]},
  {"name": "elf", "tags": ["friend"]},
  {"name": "census", "scripts": ["census"]}]}`)
	res := luahostRun(t, "run", good, "--frames", "1")
	require.Equal(t, 0, res.code, res.stderr)
	assert.Equal(t, "orc\tenemy,green\n", res.stdout)

	bad := write("bad.json", `{"entities": [{"name": "orc", "tags": [""]}]}`)
	res = luahostRun(t, "run", bad, "--frames", "1")
	assert.Equal(t, 2, res.code)
	assert.Contains(t, res.stderr, "entity 1 (orc): tags: a tag must be a non-empty string")
}
