//go:build linux

package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileDir is the hostile corpus: one attack a scene (see its README).
const hostileDir = "../../testdata/hostile"

// maxRSS is the most resident memory any hostile run may reach.
const maxRSS = 1 << 30

// hostileCase is one scene of the corpus with what its NAME.want expects.
type hostileCase struct {
	name     string
	args     []string
	exit     int
	faults   []*regexp.Regexp
	survivor int
	within   time.Duration
	api      bool
}

// readHostileCase reads NAME.want beside the scene NAME.json.
func readHostileCase(t *testing.T, name string) hostileCase {
	t.Helper()
	c := hostileCase{name: name, args: []string{"--frames", "3", "--budget", "30ms"}, survivor: -1, within: 3 * time.Second, api: true}
	f, err := os.Open(filepath.Join(hostileDir, name+".want"))
	require.NoError(t, err, "every scene needs its .want")
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		require.True(t, ok, "%s.want:%d: want key: value", name, n)
		val = strings.TrimSpace(val)
		switch key {
		case "args":
			c.args = strings.Fields(val)
		case "exit":
			c.exit, err = strconv.Atoi(val)
		case "fault":
			var re *regexp.Regexp
			re, err = regexp.Compile("(?m)" + val)
			c.faults = append(c.faults, re)
		case "survivor":
			c.survivor, err = strconv.Atoi(val)
		case "within":
			c.within, err = time.ParseDuration(val)
		case "api":
			c.api = !strings.HasPrefix(val, "no")
		default:
			err = fmt.Errorf("unknown key %q", key)
		}
		require.NoError(t, err, "%s.want:%d", name, n)
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, c.faults, "%s.want: no fault: what proves that the attack was stopped?", name)
	if c.survivor < 0 {
		c.survivor = 0
		if c.exit == 0 {
			c.survivor = c.runFlags(t).frames
		}
	}
	return c
}

// runFlags parses the case's args as run would.
func (c hostileCase) runFlags(t *testing.T) runFlags {
	t.Helper()
	f := runFlags{frames: 1, dt: 1.0 / 60}
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.IntVar(&f.frames, "frames", f.frames, "")
	fs.Float64Var(&f.dt, "dt", f.dt, "")
	budgetVar(fs, &f.budget, "")
	fs.Int64Var(&f.ceiling, "memory-ceiling", 0, "")
	fs.Int64Var(&f.seed, "seed", 0, "")
	require.NoError(t, fs.Parse(c.args), "%s.want: args the Go API run understands", c.name)
	require.Empty(t, fs.Args(), "%s.want: args", c.name)
	return f
}

// hostileCases lists the corpus, one case per scene.
func hostileCases(t *testing.T) []hostileCase {
	t.Helper()
	scenes, err := filepath.Glob(filepath.Join(hostileDir, "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, scenes)
	var cases []hostileCase
	for _, s := range scenes {
		cases = append(cases, readHostileCase(t, strings.TrimSuffix(filepath.Base(s), ".json")))
	}
	return cases
}

// checkHostile checks what every hostile run must show: the expected
// faults, the survivor never blamed, and the survivor's every frame (and
// its shutdown when the scene started).
func (c hostileCase) checkHostile(t *testing.T, stdout, stderr string) {
	t.Helper()
	for _, re := range c.faults {
		assert.Regexp(t, re, stderr)
	}
	assert.NotContains(t, stderr, "survivor.lua", "only the offender is faulted")
	assert.NotContains(t, stderr, "goroutine ", "no Go panic or fatal error")
	var got []string
	for line := range strings.Lines(stdout) {
		if strings.HasPrefix(line, "survivor\t") {
			got = append(got, strings.TrimSuffix(line, "\n"))
		}
	}
	var want []string
	for i := range c.survivor {
		want = append(want, fmt.Sprintf("survivor\t%d", i+1))
	}
	if c.exit == 0 {
		want = append(want, "survivor\tdone")
	}
	assert.Equal(t, want, got, "the survivor prints every frame")
}

// TestHostile runs every attack of the corpus through the real binary and
// through the Go API: each ends within its time, under 1 GiB, with the
// offender alone faulted and the survivor printing every frame.
func TestHostile(t *testing.T) {
	for _, c := range hostileCases(t) {
		t.Run(c.name+"/cli", func(t *testing.T) {
			res := luahostMeasured(t, hostileDir, append([]string{"run", c.name + ".json"}, c.args...)...)
			assert.Equal(t, c.exit, res.code, "stderr:\n%s", res.stderr)
			assert.Less(t, res.wall, c.within, "the run ends within its time")
			assert.Less(t, res.maxRSS, int64(maxRSS), "peak resident memory")
			c.checkHostile(t, res.stdout, res.stderr)
		})
		t.Run(c.name+"/api", func(t *testing.T) {
			if !c.api {
				t.Skip("the case needs the binary")
			}
			f := c.runFlags(t)
			var stdout, stderr bytes.Buffer
			cfg := loadConfig{budget: cliBudget(f.budget), ceiling: cliCeiling(f.ceiling), stdout: &stdout, stderr: &stderr}
			if slices.Contains(c.args, "--seed") {
				cfg.seed = &f.seed
			}
			// From the corpus folder, as the binary runs, so that the
			// messages name the same paths.
			t.Chdir(hostileDir)
			start := time.Now()
			w, err := loadScene(c.name+".json", cfg)
			if c.exit != 0 {
				require.Error(t, err, "the scene must not start")
				assert.Nil(t, w)
				fmt.Fprintln(&stderr, err)
			} else {
				require.NoError(t, err)
				for range f.frames {
					require.NoError(t, w.rt.Step(f.dt))
				}
				require.NoError(t, w.host.Close())
			}
			assert.Less(t, time.Since(start), c.within*raceSlowdown, "the run ends within its time")
			// What the Go runtime took from the system, a high-water mark:
			// the test process's resident memory counts the race
			// detector's shadow and every other test.
			var ms goruntime.MemStats
			goruntime.ReadMemStats(&ms)
			assert.Less(t, ms.Sys, uint64(maxRSS), "memory the Go runtime holds")
			c.checkHostile(t, stdout.String(), stderr.String())
		})
	}
}
