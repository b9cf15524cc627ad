package promstats_test

import (
	"io"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/metrics/promstats"
	"github.com/luahost/luahost/runtime"
)

// world is a host on a folder of testdata scripts with two spinners and
// a script that fails in every update.
func world(t *testing.T) (*runtime.Runtime, *luabind.Host) {
	t.Helper()
	rt := runtime.New(runtime.Options{Seed: 1, OnError: runtime.Discard})
	h, err := luabind.New(rt, luabind.Options{Dir: "testdata", Stdout: io.Discard, Log: io.Discard})
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() })
	for _, script := range []string{"spinner", "spinner", "fails"} {
		e := rt.Spawn()
		_, err := h.Attach(e, script, nil)
		require.NoError(t, err)
		require.NoError(t, rt.Activate(e))
	}
	return rt, h
}

// TestCollector registers a collector with a real registry and reads the
// text exposition: per-script calls, errors, time, faults and reloads,
// the world's counts, the frame histogram and the memory gauge, with the
// constant labels given.
func TestCollector(t *testing.T) {
	rt, h := world(t)
	for range 3 {
		require.NoError(t, rt.Step(1.0/60))
	}
	h.MeasureMemory()
	reg := prometheus.NewPedanticRegistry()
	require.NoError(t, reg.Register(promstats.New(h, promstats.Options{Labels: prometheus.Labels{"zone": "north"}})))

	want := `
# HELP luahost_entities Live entities.
# TYPE luahost_entities gauge
luahost_entities{zone="north"} 3
# HELP luahost_frames_total Frames run.
# TYPE luahost_frames_total counter
luahost_frames_total{zone="north"} 3
# HELP luahost_script_calls_total Callbacks run, by script and callback kind.
# TYPE luahost_script_calls_total counter
luahost_script_calls_total{callback="onUpdate",script="fails",zone="north"} 1
luahost_script_calls_total{callback="onUpdate",script="spinner",zone="north"} 6
# HELP luahost_script_errors_total Callbacks that failed, by script and callback kind.
# TYPE luahost_script_errors_total counter
luahost_script_errors_total{callback="onUpdate",script="fails",zone="north"} 1
luahost_script_errors_total{callback="onUpdate",script="spinner",zone="north"} 0
# HELP luahost_script_faults_total Instances faulted, by script.
# TYPE luahost_script_faults_total counter
luahost_script_faults_total{script="fails",zone="north"} 1
luahost_script_faults_total{script="spinner",zone="north"} 0
`
	require.NoError(t, testutil.GatherAndCompare(reg, strings.NewReader(want),
		"luahost_entities", "luahost_frames_total", "luahost_script_calls_total", "luahost_script_errors_total", "luahost_script_faults_total"))

	n, err := testutil.GatherAndCount(reg)
	require.NoError(t, err)
	assert.Positive(t, n)
	families, err := reg.Gather()
	require.NoError(t, err)
	byName := make(map[string]int)
	for _, f := range families {
		byName[f.GetName()] = len(f.GetMetric())
		if f.GetName() == "luahost_frame_seconds" {
			hist := f.GetMetric()[0].GetHistogram()
			assert.Equal(t, uint64(3), hist.GetSampleCount())
			assert.Len(t, hist.GetBucket(), len(luabind.FrameBounds()))
			assert.Positive(t, hist.GetSampleSum())
		}
		if f.GetName() == "luahost_lua_memory_bytes" {
			assert.Positive(t, f.GetMetric()[0].GetGauge().GetValue())
		}
	}
	for _, name := range []string{"luahost_script_seconds_total", "luahost_script_reloads_total", "luahost_scripts", "luahost_reloads_total",
		"luahost_instances", "luahost_runtime_errors_total", "luahost_spawns_total", "luahost_kills_total", "luahost_frame_seconds", "luahost_lua_memory_bytes"} {
		assert.Contains(t, byName, name)
	}
}

// TestCollectorScrapesWhileRunning scrapes from another goroutine while
// the world runs: the race detector finds nothing.
func TestCollectorScrapesWhileRunning(t *testing.T) {
	rt, h := world(t)
	reg := prometheus.NewRegistry()
	require.NoError(t, reg.Register(promstats.New(h, promstats.Options{})))
	done := make(chan error)
	go func() {
		for range 20 {
			if _, err := reg.Gather(); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	for range 50 {
		require.NoError(t, rt.Step(1.0/60))
	}
	require.NoError(t, <-done)
}
