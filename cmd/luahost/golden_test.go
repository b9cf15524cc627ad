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

// goldenScenes are whole runs whose stdout is compared with
// testdata/golden/NAME.out (go test -update rewrites them). Each scene has
// its own scripts under testdata/NAME/scripts; the comments in the scripts
// say which rule each line of output shows.
var goldenScenes = []struct {
	name string
	args []string
}{
	// The example world of scripts/: a story told in 240 frames.
	{"demo", []string{"run", "../../scripts/demo.json", "--frames", "240"}},
	// Priorities, ties broken by attach order across entities, an attach
	// during the update joining the next frame.
	{"order", []string{"run", "testdata/order/scene.json", "--frames", "2"}},
	// Spawn during update, kill and settlement in kill order, revive, kill
	// of a pending entity, detach, stale handles.
	{"lifecycle", []string{"run", "testdata/lifecycle/scene.json", "--frames", "6"}},
	// Emit order, ev.last, ev:stop(), masks, e:send, nested dispatch.
	{"events", []string{"run", "testdata/events/scene.json", "--frames", "6"}},
	// Committed reads, last write wins, commit at the flush.
	{"transforms", []string{"run", "testdata/transforms/scene.json", "--frames", "4"}},
	// Copies in and out, tables, entity values, values that are not plain.
	{"blackboard", []string{"run", "testdata/blackboard/scene.json", "--frames", "2"}},
	// Shutdown: every remaining instance's onDestroy in schedule order,
	// ctx.frame the last frame's number.
	{"shutdown", []string{"run", "testdata/shutdown/scene.json", "--frames", "3", "--dt", "0.25"}},
	{"shutdown_no_frames", []string{"run", "testdata/shutdown/scene.json", "--frames", "0"}},
	// What scripts do during setup is world behaviour: an onCreate that
	// kills its own entity (its later scripts are not attached), one that
	// spawns; the start goes on.
	{"setup", []string{"run", "testdata/setup/scene.json", "--frames", "2"}},
	// A faulted instance stops, the others run on, its onDestroy still
	// runs; the reports go to stderr only.
	{"errors", []string{"run", "testdata/errors/scene.json", "--frames", "3"}},
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenScenes {
		t.Run(tc.name, func(t *testing.T) {
			res := luahostRun(t, tc.args...)
			require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
			checkGolden(t, tc.name, res.stdout)
		})
	}
}

// checkGolden compares got with testdata/golden/NAME.out, or rewrites the
// file with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name+".out")
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create it")
	assert.Equal(t, string(want), got, "stdout differs from %s", path)
}

func TestDemoIsDeterministic(t *testing.T) {
	args := []string{"run", "../../scripts/demo.json", "--frames", "240"}
	first := luahostRun(t, args...)
	second := luahostRun(t, args...)
	require.Equal(t, 0, first.code)
	assert.Equal(t, first.stdout, second.stdout)
	assert.NotEmpty(t, first.stdout)
	// A readable story of modest size.
	lines := strings.Count(first.stdout, "\n")
	assert.Greater(t, lines, 10)
	assert.Less(t, lines, 100)
}

func TestSeed(t *testing.T) {
	const scene = "testdata/random/scene.json" // "seed": 5
	run := func(extra ...string) string {
		res := luahostRun(t, append([]string{"run", scene, "--frames", "3"}, extra...)...)
		require.Equal(t, 0, res.code, res.stderr)
		require.Equal(t, 3, strings.Count(res.stdout, "\n"))
		return res.stdout
	}
	sceneSeed := run()
	assert.Equal(t, sceneSeed, run(), "same scene, same seed: same numbers")
	assert.Equal(t, sceneSeed, run("--seed", "5"), "the scene's seed is the default")
	other := run("--seed", "6")
	assert.NotEqual(t, sceneSeed, other, "--seed changes math.random")
	assert.Equal(t, other, run("--seed", "6"))
}

func TestScriptErrorReport(t *testing.T) {
	const scene = "testdata/errors/scene.json"
	res := luahostRun(t, "run", scene, "--frames", "3")
	assert.Equal(t, 0, res.code, "script errors are reported, not fatal")

	// stdout is what the scripts printed and nothing else.
	want, err := os.ReadFile("testdata/golden/errors.out")
	require.NoError(t, err)
	assert.Equal(t, string(want), res.stdout)
	assert.NotContains(t, res.stdout, "bad.lua")

	// The onUpdate error: file:line and message, then script, entity,
	// callback and frame, then a traceback; reported once.
	assert.Contains(t, res.stderr, "testdata/errors/scripts/bad.lua:8: ")
	assert.Regexp(t, regexp.MustCompile(`(?m)^\s*in script bad, broken \(entity \d+:\d+\), onUpdate, frame 2$`), res.stderr)
	assert.Equal(t, 1, strings.Count(res.stderr, "in script bad,"), "reported once:\n%s", res.stderr)
	assert.Contains(t, res.stderr, "traceback")
	// The onCreate error, during setup.
	assert.Contains(t, res.stderr, "testdata/errors/scripts/badcreate.lua:4: no luck at creation")
	assert.Regexp(t, `in script badcreate, nocreate \(entity \d+:\d+\), onCreate, frame 0`, res.stderr)
	// The onDestroy error at shutdown, with an error value that is not a
	// string.
	assert.Regexp(t, `in script baddestroy, crumbly \(entity \d+:\d+\), onDestroy, frame 3`, res.stderr)

	strict := luahostRun(t, "run", scene, "--frames", "3", "--strict")
	assert.Equal(t, 1, strict.code)
	assert.Equal(t, res.stdout, strict.stdout)
}

func TestStdoutCarriesOnlyPrints(t *testing.T) {
	const scene = "testdata/order/scene.json"
	plain := luahostRun(t, "run", scene, "--frames", "2")
	require.Equal(t, 0, plain.code)
	assert.Empty(t, plain.stderr)

	stats := luahostRun(t, "run", scene, "--frames", "2", "--stats")
	require.Equal(t, 0, stats.code)
	assert.Equal(t, plain.stdout, stats.stdout, "--stats goes to stderr")
	for _, field := range []string{"frames", "entities", "instances", "errors", "reloads", "min", "median", "p99", "max"} {
		assert.Regexp(t, `(?m)^`+field+`\s+\d`, stats.stderr, "field %s", field)
	}
	assert.Regexp(t, `(?m)^frames\s+2$`, stats.stderr)
	assert.Regexp(t, `(?m)^entities\s+4$`, stats.stderr)
	assert.Regexp(t, `(?m)^instances\s+9$`, stats.stderr)
	assert.Regexp(t, `(?m)^errors\s+0$`, stats.stderr)

	// ctx.log goes to the host log, not to stdout.
	demo := luahostRun(t, "run", "../../scripts/demo.json", "--frames", "1")
	require.Equal(t, 0, demo.code)
	assert.Contains(t, demo.stderr, "spawning a minion every 0.67 seconds")
	assert.NotContains(t, demo.stdout, "spawning a minion")
}
