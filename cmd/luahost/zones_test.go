package main

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/luahost/luahost/internal/scene"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSceneLayout(t *testing.T) {
	at := func(x float64) scene.Entity { return scene.Entity{Position: &[3]float64{x, 5, 5}} }
	tests := []struct {
		name    string
		scene   scene.Scene
		n       int
		edges   []float64
		axis    int
		wantErr string
	}{
		{"field", scene.Scene{Zones: &scene.Zones{Axis: "z", Edges: []float64{0, 100}}}, 3, []float64{0, 100}, 2, ""},
		{"field with another count", scene.Scene{Zones: &scene.Zones{Axis: "z", Edges: []float64{0, 100}}, Entities: []scene.Entity{{Position: &[3]float64{1, 2, -10}}, {Position: &[3]float64{1, 2, 30}}}}, 2, []float64{10}, 2, ""},
		{"bounding box", scene.Scene{Entities: []scene.Entity{at(-10), at(30), at(10)}}, 4, []float64{0, 10, 20}, 0, ""},
		{"no position is the origin", scene.Scene{Entities: []scene.Entity{{}, at(100)}}, 2, []float64{50}, 0, ""},
		{"one zone", scene.Scene{Entities: []scene.Entity{at(1), at(2)}}, 1, []float64{}, 0, ""},
		{"flat box", scene.Scene{Entities: []scene.Entity{at(7), at(7)}}, 2, []float64{7}, 0, ""},
		{"no entities", scene.Scene{}, 2, []float64{0}, 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, err := sceneLayout(&tc.scene, tc.n)
			if tc.wantErr != "" {
				assert.EqualError(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.edges, l.Edges)
			assert.Equal(t, tc.axis, l.Axis)
			assert.Equal(t, tc.n, l.Zones())
		})
	}
}

// sortedLines returns the lines of s, sorted.
func sortedLines(s string) []string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	slices.Sort(lines)
	return lines
}

// TestRunZonesSameLines runs walkers that look at nothing but themselves
// (and cross the edges many times, with their timers) through the binary
// with one zone and with several: the lines printed, once sorted, are the
// same.
func TestRunZonesSameLines(t *testing.T) {
	base := luahostRun(t, "run", "testdata/zones/walk.json", "--frames", "40", "--strict")
	require.Equal(t, 0, base.code, base.stderr)
	want := sortedLines(base.stdout)
	require.Len(t, want, 24*41, "a line per walker and frame, and one at shutdown")
	tests := []struct {
		name string
		args []string
	}{
		{"one zone", []string{"testdata/zones/walk.json", "--zones", "1"}},
		{"two zones", []string{"testdata/zones/walk.json", "--zones", "2"}},
		{"four zones", []string{"testdata/zones/walk.json", "--zones", "4"}},
		{"the scene's zones", []string{"testdata/zones/field.json", "--zones", "2"}},
		{"another count than the scene's zones", []string{"testdata/zones/field.json", "--zones", "3"}},
		{"the scene's zones ignored without --zones", []string{"testdata/zones/field.json"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := luahostRun(t, append([]string{"run", "--frames", "40", "--strict"}, tc.args...)...)
			require.Equal(t, 0, res.code, res.stderr)
			assert.Empty(t, res.stderr)
			assert.Equal(t, want, sortedLines(res.stdout))
		})
	}
}

func TestRunZonesBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"zero zones", []string{"testdata/zones/walk.json", "--zones", "0"}, "luahost run: --zones must be 1 or more\n"},
		{"with debug", []string{"testdata/zones/walk.json", "--zones", "2", "--debug", "127.0.0.1:0"}, "luahost run: --zones cannot be combined with --debug\n"},
		{"overlapping edges", []string{"testdata/zones/overlap.json", "--zones", "3"}, "luahost run: testdata/zones/overlap.json:2:44: zones.edges[2]: 100 is not above edges[1], 100 (edges must increase strictly: strips may not overlap)\n"},
		{"overlapping edges without --zones", []string{"testdata/zones/overlap.json"}, "luahost run: testdata/zones/overlap.json:2:44: zones.edges[2]: 100 is not above edges[1], 100 (edges must increase strictly: strips may not overlap)\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := luahostRun(t, append([]string{"run"}, tc.args...)...)
			assert.Equal(t, exitUsage, res.code)
			assert.True(t, strings.HasPrefix(res.stderr, tc.want), res.stderr)
			assert.Empty(t, res.stdout)
		})
	}
}

// TestCheckZones: check warns about the callbacks that run only when an
// entity changes zones (onExport, onImport), for a scene with a zones
// field only; entity values kept in self are not warned about.
func TestCheckZones(t *testing.T) {
	warning := ": warning: %s runs only when an entity moves to another zone: in a zoned world what it does (prints, effects, random draws) depends on the number of zones"
	res := luahostRun(t, "check", "testdata/zones/check/zoned.json")
	assert.Equal(t, 0, res.code, res.stderr)
	file := "testdata/zones/check/scripts/chaser.lua:"
	assert.Equal(t, file+"16:3"+fmt.Sprintf(warning, "onExport")+"\n"+
		file+"17:3"+fmt.Sprintf(warning, "onImport")+"\n", res.stdout)
	res = luahostRun(t, "check", "testdata/zones/check/plain.json")
	assert.Equal(t, 0, res.code, res.stderr)
	assert.Empty(t, res.stdout, "without zones, nothing moves away")
}

// TestRunZonesTransparent: the tower-defence scene of the zones' tests,
// whose scripts act across edges, prints byte for byte the same and
// ends with the same hash on 1, 2 and 4 zones.
func TestRunZonesTransparent(t *testing.T) {
	const scene = "../../zones/testdata/td.json"
	play := func(t *testing.T, zones string) result {
		t.Helper()
		res := luahostRun(t, "run", scene, "--frames", "200", "--strict", "--hash", "--zones", zones)
		require.Equal(t, 0, res.code, res.stderr)
		require.Regexp(t, `^world sha256 [0-9a-f]{64}\n$`, res.stderr)
		return res
	}
	want := play(t, "1")
	require.Contains(t, want.stdout, "final score")
	for _, n := range []string{"2", "4"} {
		t.Run(n+" zones", func(t *testing.T) {
			got := play(t, n)
			assert.Equal(t, want.stdout, got.stdout)
			assert.Equal(t, want.stderr, got.stderr)
		})
	}
}

// TestRunZonesSaveContinue: the tower-defence scene run 200 frames on 2
// zones cannot be told from 100 frames on 2 zones, saved, and the
// snapshot continued in a new process for 100 frames, on the zones it
// was saved on or on another number: stdout from frame 101 on and the
// hash are the same, and so is the final snapshot on the same zones.
func TestRunZonesSaveContinue(t *testing.T) {
	const scene = "../../zones/testdata/td.json"
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	// Budgets off: a callback stopped by a loaded machine would be a
	// fault of that run alone.
	full := luahostRun(t, "run", scene, "--zones", "2", "--frames", "200", "--budget", "0", "--hash", "--save", at("full.json"))
	require.Equal(t, 0, full.code, full.stderr)
	first := luahostRun(t, "run", scene, "--zones", "2", "--frames", "100", "--budget", "0", "--save", at("half.json"))
	require.Equal(t, 0, first.code, first.stderr)
	half, err := os.ReadFile(at("half.json"))
	require.NoError(t, err)
	require.Contains(t, string(half), `{"kind":"send","to":`, "the towers' damage of frame 100 waits for frame 101")
	for _, zones := range []string{"", "1", "4"} {
		t.Run("on "+cmp.Or(zones, "the saved")+" zones", func(t *testing.T) {
			args := []string{"run", at("half.json"), "--frames", "100", "--budget", "0", "--hash", "--save", at("cont" + zones + ".json")}
			if zones != "" {
				args = append(args, "--zones", zones)
			}
			second := luahostRun(t, args...)
			require.Equal(t, 0, second.code, second.stderr)
			require.Contains(t, second.stdout, "final score")
			require.True(t, strings.HasSuffix(full.stdout, second.stdout), "stdout from frame 101 on:\nfull:\n%s\ncontinued:\n%s", full.stdout, second.stdout)
			before := full.stdout[:len(full.stdout)-len(second.stdout)]
			assert.True(t, strings.HasPrefix(first.stdout, before), "the first half printed frames 1-100, then its shutdown")
			assert.Equal(t, full.stderr, second.stderr, "the hash")
			if zones == "" {
				a, err := os.ReadFile(at("full.json"))
				require.NoError(t, err)
				b, err := os.ReadFile(at("cont.json"))
				require.NoError(t, err)
				assert.Equal(t, string(a), string(b))
			}
		})
	}
	t.Run("a world saved without zones", func(t *testing.T) {
		res := luahostRun(t, "run", scene, "--frames", "10", "--save", at("one.json"))
		require.Equal(t, 0, res.code, res.stderr)
		res = luahostRun(t, "run", at("one.json"), "--zones", "2")
		assert.Equal(t, exitUsage, res.code)
		assert.Equal(t, "luahost run: "+at("one.json")+": the snapshot of a world run without --zones continues as one world, not with --zones\n", res.stderr)
	})
}

// TestRunZonesProfile: a zoned world's profile has the format of one
// world's, with every frame's figures summed over the zones: the same
// frames, entities, spawns, kills and calls per script on 1, 2 and 4
// zones (the tower-defence scene plays the same game on each).
func TestRunZonesProfile(t *testing.T) {
	const scene = "../../zones/testdata/td.json"
	// figures returns, frame by frame, the frame's arguments and the
	// calls of each script in it: the script events written after the
	// frame's (the zones run at once, so their scripts' times summed may
	// add up to more than the frame's).
	figures := func(t *testing.T, zones string) []string {
		t.Helper()
		var out []string
		var scripts []string
		flush := func() {
			if len(out) > 0 {
				slices.Sort(scripts)
				out[len(out)-1] += strings.Join(scripts, "")
			}
			scripts = nil
		}
		for _, ev := range readProfile(t, "run", scene, "--frames", "60", "--budget", "0", "--zones", zones) {
			switch ev.Cat {
			case "frame":
				flush()
				out = append(out, fmt.Sprintf("%s entities %v instances %v spawns %v kills %v:", ev.Name, ev.Args["entities"], ev.Args["instances"], ev.Args["spawns"], ev.Args["kills"]))
			case "script":
				scripts = append(scripts, fmt.Sprintf(" %s %v", ev.Name, ev.Args["calls"]))
			}
		}
		flush()
		require.Len(t, out, 60)
		return out
	}
	want := figures(t, "1")
	require.Contains(t, want[59], "td/tower 5", "five towers update in a frame")
	require.Contains(t, strings.Join(want, "\n"), "kills 1", "enemies die")
	for _, n := range []string{"2", "4"} {
		t.Run(n+" zones", func(t *testing.T) {
			assert.Equal(t, want, figures(t, n))
		})
	}
}

// TestRunZonesWatch saves a script while "run --zones 4 --watch" runs it
// in every zone: every zone reloads it between the same two frames, so
// that each frame runs one version everywhere, and the old one never
// comes back.
func TestRunZonesWatch(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"scene.json", "scripts/ver.lua"} {
		src, err := os.ReadFile(filepath.Join("testdata", "zones", "watch", name))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), src, 0o644))
	}
	l := startLive(t, dir, "run", "scene.json", "--zones", "4", "--watch", "--fps", "60")
	versions := make(map[int]map[string]int) // frame: version: entities
	seen := func(s string) (string, int) {
		var v string
		var n, frame int
		_, err := fmt.Sscanf(s, "%s\t%d\t%d", &v, &n, &frame)
		require.NoError(t, err, s)
		if versions[frame] == nil {
			versions[frame] = make(map[string]int)
		}
		versions[frame][v]++
		return v, frame
	}
	l.waitFor(t, "frame 2", 10*time.Second, func(s string) bool { _, f := seen(s); return f == 2 })
	src, err := os.ReadFile(filepath.Join(dir, "scripts", "ver.lua"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scripts", "ver.lua"), bytes.ReplaceAll(src, []byte(`"v1`), []byte(`"v2`)), 0o644))
	first := 0
	l.waitFor(t, "the new version", 10*time.Second, func(s string) bool {
		v, f := seen(s)
		if v == "v2" && first == 0 {
			first = f
		}
		return first > 0 && f == first+5
	})
	require.NoError(t, l.cmd.Process.Signal(os.Interrupt))
	for _, s := range l.rest(t, 5*time.Second) {
		seen(s)
	}
	require.NoError(t, l.cmd.Wait(), l.errText())
	assert.Equal(t, 4, strings.Count(l.errText(), "reloaded scripts/ver.lua: 1 instances migrated"), "each zone says so:\n%s", l.errText())
	for frame, vs := range versions {
		if frame < first-1 || frame > first+4 {
			continue
		}
		want := "v1"
		if frame >= first {
			want = "v2"
		}
		assert.Equal(t, map[string]int{want: 4}, vs, "frame %d: every zone's entity runs %s", frame, want)
	}
	assert.Equal(t, 4, versions[first]["v2"], "the four zones reloaded before frame %d", first)
}

// TestRunZonesInspect runs walkers on 2 zones with --inspect: / links to
// each zone's inspector, each shows the entities its zone holds (together,
// all of them), and pausing and stepping on one zone's page pauses and
// steps the world, which ends after --frames once resumed.
func TestRunZonesInspect(t *testing.T) {
	url, token, stderr, exit := startInspected(t, "testdata/zones/walk.json", "--zones", "2", "--inspect", "127.0.0.1:0", "--frames", "60", "--fps", "100")
	assert.Empty(t, token, "a token on loopback")
	resp, err := http.Get(url)
	require.NoError(t, err)
	page, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Contains(t, string(page), `href="zone/0/"`)
	assert.Contains(t, string(page), `href="zone/1/"`)
	assert.NotContains(t, string(page), `zone/2/`)

	total := 0.0
	for _, zone := range []string{"0", "1"} {
		status, world := api(t, "GET", url+"zone/"+zone+"/api/world", "")
		require.Equal(t, http.StatusOK, status, "%v", world)
		assert.Positive(t, world["entities"], "zone %s holds walkers", zone)
		total += world["entities"].(float64)
	}
	assert.Equal(t, 24.0, total, "every walker in one zone")

	status, paused := api(t, "POST", url+"zone/1/api/pause", "")
	require.Equal(t, http.StatusOK, status, "%v", paused)
	f := paused["frame"].(float64)
	_, stepped := api(t, "POST", url+"zone/1/api/step", "")
	assert.Equal(t, f+1, stepped["frame"])
	status, _ = api(t, "POST", url+"zone/1/api/resume", "")
	require.Equal(t, http.StatusOK, status)
	select {
	case code := <-exit:
		assert.Equal(t, 0, code, stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("luahost did not end after --frames")
	}
}

// TestRunZonesDemo: the example world plays the same on 1 and 2 zones,
// its hash included, without a script error (its turret once called a
// method of a victim gone by the time the zoned rules deliver the
// victim's death).
func TestRunZonesDemo(t *testing.T) {
	one := luahostRun(t, "run", "../../scripts/demo.json", "--frames", "240", "--strict", "--hash", "--zones", "1")
	require.Equal(t, 0, one.code, one.stderr)
	require.Contains(t, one.stdout, "is down, ceasing fire")
	two := luahostRun(t, "run", "../../scripts/demo.json", "--frames", "240", "--strict", "--hash", "--zones", "2")
	require.Equal(t, 0, two.code, two.stderr)
	assert.Equal(t, one.stdout, two.stdout)
	assert.Equal(t, one.stderr, two.stderr)
}
