package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
)

// readProfile runs the binary with args and --profile, and returns the
// profile's events.
func readProfile(t *testing.T, args ...string) []traceEvent {
	t.Helper()
	path := filepath.Join(t.TempDir(), "profile.json")
	res := luahostRun(t, append(args, "--profile", path)...)
	require.Equal(t, 0, res.code, "stderr:\n%s", res.stderr)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var trace struct {
		TraceEvents []traceEvent `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(data, &trace), "the profile is one JSON object")
	return trace.TraceEvents
}

// framesOf returns the frame events and, for each, the events inside its
// time span that are not frames.
func framesOf(events []traceEvent) (frames []traceEvent, inside [][]traceEvent) {
	for _, ev := range events {
		if ev.Cat == "frame" {
			frames = append(frames, ev)
		}
	}
	inside = make([][]traceEvent, len(frames))
	for _, ev := range events {
		if ev.Cat == "frame" || ev.Ph == "M" {
			continue
		}
		for i, f := range frames {
			if ev.Ts >= f.Ts && ev.Ts <= f.Ts+*f.Dur {
				inside[i] = append(inside[i], ev)
			}
		}
	}
	return frames, inside
}

// TestProfile checks the shape of a profile: a complete event per frame,
// in it one per script that ran (its calls as an argument, the scripts'
// times adding up to at most the frame's), and an instant event per
// script and frame with errors, with the first message.
func TestProfile(t *testing.T) {
	events := readProfile(t, "run", "testdata/errors/scene.json", "--frames", "3")
	frames, inside := framesOf(events)
	require.Len(t, frames, 3)
	for i, f := range frames {
		assert.Equal(t, fmt.Sprintf("frame %d", i+1), f.Name)
		assert.Equal(t, "X", f.Ph)
		assert.EqualValues(t, i+1, f.Args["frame"])
		assert.EqualValues(t, 4, f.Args["entities"])
	}
	scripts := func(evs []traceEvent) map[string]float64 {
		m := make(map[string]float64)
		for _, ev := range evs {
			if ev.Cat == "script" {
				require.Equal(t, "X", ev.Ph)
				m[ev.Name] = ev.Args["calls"].(float64)
			}
		}
		return m
	}
	// Frame 1: both bad and good instances run; bad fails in frame 2 (its
	// instance is faulted), so frame 3 runs only good.
	assert.Equal(t, map[string]float64{"bad": 2, "good": 2}, scripts(inside[0]))
	assert.Equal(t, map[string]float64{"bad": 1, "good": 2}, scripts(inside[1]))
	assert.Equal(t, map[string]float64{"good": 2}, scripts(inside[2]))
	for i, f := range frames {
		var sum float64
		for _, ev := range inside[i] {
			if ev.Cat == "script" {
				sum += *ev.Dur
			}
		}
		assert.LessOrEqual(t, sum, *f.Dur, "frame %d: scripts' own times fit in the frame", i+1)
	}

	var errs []traceEvent
	for _, ev := range events {
		if ev.Name == "error" {
			errs = append(errs, ev)
		}
	}
	require.Len(t, errs, 2, "bad's failure in frame 2, baddestroy's at shutdown")
	assert.Equal(t, "i", errs[0].Ph)
	assert.Equal(t, "bad", errs[0].Args["script"])
	assert.Regexp(t, `^testdata/errors/scripts/bad\.lua:\d+: `, errs[0].Args["message"])
	assert.Equal(t, "baddestroy", errs[1].Args["script"])
	assert.Contains(t, inside[1], errs[0], "the error is inside the frame it happened in")
}

// TestProfileBursts checks the instant events of a burst of spawns and
// of kills, and the spawned entities' script as one event of 20 calls.
func TestProfileBursts(t *testing.T) {
	events := readProfile(t, "run", "testdata/profile/scene.json", "--frames", "5")
	frames, inside := framesOf(events)
	require.Len(t, frames, 5)
	find := func(evs []traceEvent, name string) *traceEvent {
		for i := range evs {
			if evs[i].Name == name {
				return &evs[i]
			}
		}
		return nil
	}
	spawns, kills := find(inside[1], "spawns"), find(inside[3], "kills")
	require.NotNil(t, spawns, "frame 2 spawned 20")
	require.NotNil(t, kills, "frame 4 killed 20")
	assert.EqualValues(t, 20, spawns.Args["count"])
	assert.EqualValues(t, 20, kills.Args["count"])
	minion := find(inside[2], "minion")
	require.NotNil(t, minion)
	assert.EqualValues(t, 20, minion.Args["calls"])
	assert.EqualValues(t, 20, frames[1].Args["spawns"])
	for _, i := range []int{0, 2, 4} {
		assert.Nil(t, find(inside[i], "spawns"), "frame %d", i+1)
		assert.Nil(t, find(inside[i], "kills"), "frame %d", i+1)
	}
}

// TestProfileSize checks that a profile grows with frames and scripts,
// not with entities: 10 and 1,000 spinners make as many events.
func TestProfileSize(t *testing.T) {
	scripts, err := filepath.Abs("../../testdata/bench/scripts")
	require.NoError(t, err)
	count := func(n int) int {
		var ents []string
		for range n {
			ents = append(ents, `{"scripts": ["spinner"]}`)
		}
		scene := filepath.Join(t.TempDir(), "scene.json")
		require.NoError(t, os.WriteFile(scene, []byte(`{"scripts": `+strconv.Quote(scripts)+`, "entities": [`+strings.Join(ents, ",")+`]}`), 0o644))
		return len(readProfile(t, "run", scene, "--frames", "20"))
	}
	small, large := count(10), count(1000)
	assert.Equal(t, small, large)
	assert.Equal(t, 2+20*3, small, "metadata, then a frame, a script and a counter a frame")
}

// TestProfileReload records a hot reload as an instant event.
func TestProfileReload(t *testing.T) {
	var p *profiler
	w, err := loadScene("testdata/errors/scene.json", loadConfig{budget: luabind.DefaultBudget, stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}, tune: profileOptions(&p)})
	require.NoError(t, err)
	var out closingBuffer
	p = newProfiler(w, &out, "test")
	require.NoError(t, w.rt.Step(0.1))
	src, err := os.ReadFile("testdata/errors/scripts/good.lua")
	require.NoError(t, err)
	require.NoError(t, w.host.Reload("good", src))
	require.NoError(t, w.rt.Step(0.1))
	require.NoError(t, w.close())
	require.NoError(t, p.close())
	assert.True(t, out.closed)
	var trace struct {
		TraceEvents []traceEvent `json:"traceEvents"`
	}
	require.NoError(t, json.Unmarshal(out.Bytes(), &trace))
	i := slices.IndexFunc(trace.TraceEvents, func(ev traceEvent) bool { return ev.Name == "reload" })
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, "good", trace.TraceEvents[i].Args["script"])
	assert.EqualValues(t, 2, trace.TraceEvents[i].Args["instances"])
}

// closingBuffer is a bytes.Buffer that records being closed.
type closingBuffer struct {
	bytes.Buffer
	closed bool
}

func (b *closingBuffer) Close() error { b.closed = true; return nil }

// TestStatsScriptTable checks --stats' per-script table against
// testdata/golden/stats.out: times (which vary) are replaced by T and
// the rows sorted by name, after checking that they come sorted by
// total time, the largest first.
func TestStatsScriptTable(t *testing.T) {
	res := luahostRun(t, "run", "testdata/order/scene.json", "--frames", "2", "--stats")
	require.Equal(t, 0, res.code)
	head, table, ok := strings.Cut(res.stderr, "\nscript ")
	require.True(t, ok, "a script table after the frame figures:\n%s", res.stderr)
	lines := strings.Split(strings.TrimSuffix("script "+table, "\n"), "\n")
	rows := lines[1:]
	var totals []float64
	for _, r := range rows {
		f := strings.Fields(r)
		require.Len(t, f, 6, "row %q", r)
		v, err := strconv.ParseFloat(strings.TrimPrefix(f[3], "~"), 64)
		require.NoError(t, err)
		totals = append(totals, v)
	}
	assert.True(t, slices.IsSortedFunc(totals, func(a, b float64) int { return cmp.Compare(b, a) }), "sorted by total: %v", totals)
	slices.Sort(rows)
	times := regexp.MustCompile(` +~?\d+\.\d+`)
	got := times.ReplaceAllString(head+"\n"+strings.Join(append(lines[:1], rows...), "\n")+"\n", " T")
	checkGolden(t, "stats", got)
}
