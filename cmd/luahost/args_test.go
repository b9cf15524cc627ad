package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAbsurdClockFlags(t *testing.T) {
	// Each value is refused before the scene loads (exit 2, usage, nothing
	// run), with the bound it broke; --fps out of bounds used to panic in
	// time.NewTicker once the world ran in real time.
	scene := "testdata/order/scene.json"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"fps huge with watch", []string{"run", scene, "--watch", "--fps", "1e308", "--frames", "1"}, "--fps must be from 0.001 to 10000, got 1e+308"},
		{"fps NaN with inspect", []string{"run", scene, "--inspect", "127.0.0.1:0", "--fps", "NaN", "--frames", "1"}, "--fps must be from 0.001 to 10000, got NaN"},
		{"fps tiny", []string{"run", scene, "--watch", "--fps", "1e-300", "--frames", "1"}, "--fps must be from 0.001 to 10000, got 1e-300"},
		{"fps infinite in bench", []string{"bench", scene, "--fps", "Inf"}, "--fps must be from 0.001 to 10000, got +Inf"},
		{"fps zero", []string{"run", scene, "--fps", "0"}, "--fps must be from 0.001 to 10000, got 0"},
		{"dt NaN", []string{"run", scene, "--dt", "NaN"}, "--dt must be from 0 to 86400 seconds, got NaN"},
		{"dt infinite", []string{"run", scene, "--dt", "+Inf"}, "--dt must be from 0 to 86400 seconds, got +Inf"},
		{"dt huge", []string{"run", scene, "--dt", "1e308"}, "--dt must be from 0 to 86400 seconds, got 1e+308"},
		{"dt negative", []string{"run", scene, "--dt", "-1"}, "--dt must be from 0 to 86400 seconds, got -1"},
		{"ceiling past int64 bytes", []string{"run", scene, "--memory-ceiling", "99999999999999"}, "--memory-ceiling must be at most 8796093022207 MiB"},
		{"rewind negative", []string{"run", scene, "--inspect", "127.0.0.1:0", "--rewind", "-1"}, "--rewind must not be negative"},
		{"rewind without the inspector or an editor", []string{"run", scene, "--watch", "--rewind", "60"}, "--rewind needs --inspect or --debug"},
		{"rewind-every alone", []string{"run", scene, "--rewind-every", "5"}, "--rewind-every and --rewind-memory go with --rewind"},
		{"rewind-every zero", []string{"run", scene, "--inspect", "127.0.0.1:0", "--rewind", "60", "--rewind-every", "0"}, "--rewind-every must be 1 or more"},
		{"rewind-memory zero", []string{"run", scene, "--inspect", "127.0.0.1:0", "--rewind", "60", "--rewind-memory", "0"}, "--rewind-memory must be from 1 to"},
		{"zone fps huge", []string{"zone", scene, "--nats", "nats://127.0.0.1:1", "--world", "w", "--zone", "0", "--fps", "1e12"}, "--fps must be from 0.001 to 10000, got 1e+12"},
		{"zone dt NaN", []string{"zone", scene, "--nats", "nats://127.0.0.1:1", "--world", "w", "--zone", "0", "--dt", "NaN"}, "--dt must be from 0 to 86400 seconds, got NaN"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := luahostRun(t, tc.args...)
			assert.Equal(t, 2, res.code, res.stderr)
			assert.Empty(t, res.stdout)
			assert.Contains(t, res.stderr, tc.want)
			assert.Contains(t, res.stderr, "usage")
			assert.NotContains(t, res.stderr, "panic")
		})
	}
}

func TestOutputFilesCheckedFirst(t *testing.T) {
	// A --save that could not be written is refused before any frame runs
	// (nothing printed, exit 2), never after a long run; the scene being
	// run is never overwritten, while a snapshot being continued may be by
	// --save, never by --profile's trace.
	dir := t.TempDir()
	require.NoError(t, os.CopyFS(dir, os.DirFS("testdata/order")))
	scene := filepath.Join(dir, "scene.json")
	original, err := os.ReadFile(scene)
	require.NoError(t, err)
	tests := []struct {
		name, save, want string
	}{
		{"over the scene", scene, "--save " + scene + ": is the scene being run, which the snapshot would overwrite; save to another file"},
		{"over the scene by another path", filepath.Join(dir, ".", "scene.json"), "is the scene being run"},
		{"a folder", dir, "--save " + dir + ": is a folder"},
		{"in a missing folder", filepath.Join(dir, "none", "w.json"), "--save " + filepath.Join(dir, "none", "w.json") + ": cannot write in " + filepath.Join(dir, "none") + ": "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := luahostRun(t, "run", scene, "--frames", "3", "--save", tc.save)
			assert.Equal(t, 2, res.code, res.stderr)
			assert.Empty(t, res.stdout, "no frame ran")
			assert.Contains(t, res.stderr, tc.want)
			got, err := os.ReadFile(scene)
			require.NoError(t, err)
			assert.Equal(t, original, got)
		})
	}
	// A trace never overwrites the world being run, nor the snapshot saved.
	for _, args := range [][]string{
		{"--profile", scene},
		{"--profile", filepath.Join(dir, "w.json"), "--save", filepath.Join(dir, "w.json")},
	} {
		res := luahostRun(t, append([]string{"run", scene, "--frames", "3"}, args...)...)
		assert.Equal(t, 2, res.code, res.stderr)
		assert.Empty(t, res.stdout, "no frame ran")
		assert.Contains(t, res.stderr, "usage")
	}
	res := luahostRun(t, "run", scene, "--profile", scene)
	assert.Contains(t, res.stderr, "--profile "+scene+": is the world being run, which the trace would overwrite; write it to another file")
	got, err := os.ReadFile(scene)
	require.NoError(t, err)
	assert.Equal(t, original, got)
	// A snapshot continued and saved over itself is the usual workflow.
	world := filepath.Join(dir, "world.json")
	res = luahostRun(t, "run", scene, "--frames", "1", "--save", world)
	require.Equal(t, 0, res.code, res.stderr)
	res = luahostRun(t, "run", world, "--frames", "1", "--save", world)
	assert.Equal(t, 0, res.code, res.stderr)
	res = luahostRun(t, "run", world, "--frames", "1", "--profile", world)
	assert.Equal(t, 2, res.code, res.stderr)
	assert.Contains(t, res.stderr, "is the world being run")
}
