package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBadScene(t *testing.T) {
	// Every failure to start: exit 2, nothing on stdout (nothing ran), a
	// message on stderr that names the scene.
	tests := []struct {
		name  string
		scene string
		want  []string // regular expressions the message must match
	}{
		{"bad JSON", "badjson.json", []string{`testdata/bad/badjson\.json:4:3: invalid character ']'`}},
		{"truncated JSON", "truncated.json", []string{`testdata/bad/truncated\.json:\d+:\d+: unexpected end of JSON input`}},
		{"unknown field", "unknown.json", []string{`testdata/bad/unknown\.json:3:39: entities\[0\]: unknown field "colour"`}},
		{"missing script", "missing.json", []string{`testdata/bad/missing\.json: `, `nowhere`, `not found`}},
		{"duplicate entity name", "duplicate.json", []string{`testdata/bad/duplicate\.json: `, `"twin"`}},
		{"script does not compile", "syntax.json", []string{`testdata/bad/syntax\.json: `, `testdata/bad/scripts/x\.lua:3: unexpected symbol near '='`}},
		{"chunk fails", "chunkerr.json", []string{`testdata/bad/chunkerr\.json: `, `testdata/bad/scripts/chunkerr\.lua:3: `}},
		{"script returns no table", "notable.json", []string{`testdata/bad/notable\.json: `, `testdata/bad/scripts/notable\.lua`, `must return a table`}},
		{"no script directory", "nodir.json", []string{`testdata/bad/nodir\.json: `, `nothing-here`}},
		{"no scene file", "absent.json", []string{`testdata/bad/absent\.json`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := luahostRun(t, "run", "testdata/bad/"+tc.scene)
			assert.Equal(t, 2, res.code)
			assert.Empty(t, res.stdout)
			for _, re := range tc.want {
				assert.Regexp(t, re, res.stderr)
			}
			assert.Equal(t, 1, strings.Count(res.stderr, "\n"), "one line:\n%s", res.stderr)
		})
	}
}

func TestGoodSceneOfBadDirectory(t *testing.T) {
	// The broken scripts beside it are never loaded.
	res := luahostRun(t, "run", "testdata/bad/good.json", "--frames", "2")
	assert.Equal(t, 0, res.code, res.stderr)
	assert.Equal(t, "ok\t1\nok\t2\n", res.stdout)
}

func TestUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string // in the usage on stderr
	}{
		{"no command", nil, "luahost run SCENE"},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`},
		{"run without scene", []string{"run"}, "usage: luahost run SCENE"},
		{"run with two scenes", []string{"run", "a.json", "b.json"}, "usage: luahost run SCENE"},
		{"run unknown flag", []string{"run", "testdata/order/scene.json", "--bogus"}, "flag provided but not defined: -bogus"},
		{"run bad flag value", []string{"run", "testdata/order/scene.json", "--frames", "many"}, "usage: luahost run SCENE"},
		{"run negative frames", []string{"run", "testdata/order/scene.json", "--frames", "-1"}, "usage: luahost run SCENE"},
		{"bench without scene", []string{"bench"}, "usage: luahost bench SCENE"},
		{"bench watch", []string{"bench", "testdata/order/scene.json", "--watch"}, "flag provided but not defined: -watch"},
		{"check without path", []string{"check"}, "usage: luahost check PATH"},
		{"zone without zone", []string{"zone", "testdata/order/scene.json", "--nats", "nats://127.0.0.1:1", "--world", "w"}, "--zone I is required"},
		{"version with argument", []string{"version", "now"}, "unexpected argument"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := luahostRun(t, tc.args...)
			assert.Equal(t, 2, res.code)
			assert.Empty(t, res.stdout)
			assert.Contains(t, res.stderr, tc.want)
			assert.Contains(t, res.stderr, "usage")
		})
	}
}

func TestHelp(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-h"}, "luahost run SCENE"},
		{[]string{"help"}, "luahost run SCENE"},
		{[]string{"run", "-h"}, "usage: luahost run SCENE"},
		{[]string{"run", "testdata/order/scene.json", "--help"}, "usage: luahost run SCENE"},
		{[]string{"bench", "-h"}, "usage: luahost bench SCENE"},
		{[]string{"check", "-h"}, "usage: luahost check PATH"},
		{[]string{"zone", "-h"}, "usage: luahost zone SCENE"},
		{[]string{"version", "-h"}, "usage: luahost version"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			res := luahostRun(t, tc.args...)
			assert.Equal(t, 0, res.code)
			assert.Contains(t, res.stdout, tc.want)
			assert.Empty(t, res.stderr, "help goes to stdout only")
		})
	}
	// Each command lists its own flags.
	run := luahostRun(t, "run", "-h")
	for _, fl := range []string{"-frames", "-dt", "-fps", "-watch", "-seed", "-budget", "-strict", "-stats"} {
		assert.Contains(t, run.stdout, fl)
	}
	bench := luahostRun(t, "bench", "-h")
	for _, fl := range []string{"-frames", "-json", "-dt", "-seed", "-budget"} {
		assert.Contains(t, bench.stdout, fl)
	}
	assert.NotContains(t, bench.stdout, "-watch")
	zone := luahostRun(t, "zone", "-h")
	for _, fl := range []string{"-nats", "-world", "-zone", "-checkpoint", "-lockstep", "-peer-timeout", "-hash"} {
		assert.Contains(t, zone.stdout, fl)
	}
	assert.NotContains(t, zone.stdout, "default -1", "--zone is required, it has no default")
}

func TestVersion(t *testing.T) {
	res := luahostRun(t, "version")
	assert.Equal(t, 0, res.code)
	assert.True(t, strings.HasPrefix(res.stdout, "luahost "), res.stdout)
	assert.Equal(t, 1, strings.Count(res.stdout, "\n"))
	assert.Empty(t, res.stderr)
}

func TestBench(t *testing.T) {
	// The order scene prints on every frame; bench discards script output.
	const scene = "testdata/order/scene.json"

	t.Run("json", func(t *testing.T) {
		res := luahostRun(t, "bench", scene, "--frames", "7", "--json")
		require.Equal(t, 0, res.code, res.stderr)
		assert.Equal(t, 1, strings.Count(res.stdout, "\n"), "one JSON object and nothing else:\n%s", res.stdout)
		var got map[string]any
		require.NoError(t, json.Unmarshal([]byte(res.stdout), &got), res.stdout)
		for _, field := range []string{"frames", "entities", "instances", "min_ms", "median_ms", "p99_ms", "max_ms"} {
			require.Contains(t, got, field)
			assert.IsType(t, float64(0), got[field], field)
		}
		assert.EqualValues(t, 7, got["frames"])
		assert.EqualValues(t, 4, got["entities"])
		assert.EqualValues(t, 9, got["instances"])
		minMS, medianMS, p99MS, maxMS := got["min_ms"].(float64), got["median_ms"].(float64), got["p99_ms"].(float64), got["max_ms"].(float64)
		assert.True(t, 0 <= minMS && minMS <= medianMS && medianMS <= p99MS && p99MS <= maxMS, "%v", got)
	})

	t.Run("the crowd", func(t *testing.T) {
		// The scene the README's performance figures are measured on.
		for _, budget := range []string{"10s", "0"} { // budgets on and off; a generous one, as a race build is slow
			res := luahostRun(t, "bench", "../../testdata/bench/scene.json", "--frames", "2", "--budget", budget)
			require.Equal(t, 0, res.code, res.stderr)
			assert.Regexp(t, `(?m)^entities\s+10010$`, res.stdout)
			assert.Regexp(t, `(?m)^instances\s+10010$`, res.stdout)
		}
	})

	t.Run("the realistic scene", func(t *testing.T) {
		// Wanderers using positions, vectors, timers, queries and events;
		// by frame 31 the first of them have turned round and queried.
		res := luahostRun(t, "bench", "../../testdata/bench/realistic.json", "--frames", "31", "--budget", "10s")
		require.Equal(t, 0, res.code, res.stderr)
		assert.Empty(t, res.stderr)
		assert.Regexp(t, `(?m)^entities\s+10010$`, res.stdout)
	})

	t.Run("plain", func(t *testing.T) {
		res := luahostRun(t, "bench", scene, "--frames", "7")
		require.Equal(t, 0, res.code, res.stderr)
		assert.NotContains(t, res.stdout, "update")
		for _, re := range []string{`frames\s+7`, `entities\s+4`, `instances\s+9`, `min\s+[0-9.]+ ms`, `median\s+[0-9.]+ ms`, `p99\s+[0-9.]+ ms`, `max\s+[0-9.]+ ms`} {
			assert.Regexp(t, `(?m)^`+re+`$`, res.stdout)
		}
	})

	t.Run("default frames", func(t *testing.T) {
		res := luahostRun(t, "bench", scene, "--json")
		require.Equal(t, 0, res.code, res.stderr)
		assert.Contains(t, res.stdout, `"frames":100`)
	})

	t.Run("ctx.log is script output too", func(t *testing.T) {
		// The demo's spawner writes a ctx.log line in its onCreate.
		const demo, line = "../../scripts/demo.json", "spawning a minion"
		run := luahostRun(t, "run", demo, "--frames", "2")
		require.Equal(t, 0, run.code, run.stderr)
		require.Contains(t, run.stderr, line, "run shows ctx.log on stderr")
		res := luahostRun(t, "bench", demo, "--frames", "2")
		require.Equal(t, 0, res.code, res.stderr)
		assert.NotContains(t, res.stderr, line)
		assert.NotContains(t, res.stdout, line)
	})

	t.Run("flags of run", func(t *testing.T) {
		res := luahostRun(t, "bench", "testdata/errors/scene.json", "--frames", "3", "--strict", "--seed", "2", "--budget", "0", "--dt", "0.5")
		assert.Equal(t, 1, res.code, "the errors scene has script errors")
		assert.NotContains(t, res.stdout, "update")
	})
}
