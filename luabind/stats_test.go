package luabind

import (
	"bytes"
	"os"
	"regexp"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// scriptStats returns the timing of script from the host's Stats.
func (w *world) scriptStats(script string) ScriptStats {
	w.t.Helper()
	for _, s := range w.h.Stats().Timing {
		if s.Script == script {
			return s
		}
	}
	w.t.Fatalf("no timing for %s", script)
	return ScriptStats{}
}

// byKind returns the figures of each callback kind, by name.
func byKind(s ScriptStats) map[string]CallbackStats {
	m := make(map[string]CallbackStats)
	for _, c := range s.Callbacks {
		m[c.Callback] = c
	}
	return m
}

// calls returns the calls of each callback kind, by name.
func calls(s ScriptStats) map[string]int64 {
	m := make(map[string]int64)
	for _, c := range s.Callbacks {
		m[c.Callback] = c.Calls
	}
	return m
}

// TestStatsCounts runs every kind of callback on two entities and
// checks the exact counts per kind, in both timing modes, and that the
// figures add up.
func TestStatsCounts(t *testing.T) {
	src, err := os.ReadFile(scriptDir + "/stats/every.lua")
	require.NoError(t, err)
	for _, exact := range []bool{false, true} {
		t.Run(map[bool]string{false: "sampled", true: "exact"}[exact], func(t *testing.T) {
			w := newWorld(t, func(_ *runtime.Options, o *Options) {
				o.Timing = map[bool]Timing{false: TimingSampled, true: TimingExact}[exact]
			})
			var ents []runtime.Handle
			for range 2 {
				ents = append(ents, w.spawn("", "stats/every"))
			}
			w.step(4, 1)
			require.NoError(t, w.h.Reload("stats/every", src))
			w.step(1, 1)
			_, err = w.rt.Kill(ents[0])
			require.NoError(t, err)
			w.step(1, 1)
			w.requireNoErrors()

			s := w.scriptStats("stats/every")
			// 2 entities × 5 frames and 1 × 1: a kill from Go between
			// frames settles at once.
			assert.Equal(t, map[string]int64{
				"onCreate": 2, "onUpdate": 11, "events": 11, "timers": 11,
				"onDestroy": 1, "onReload": 2,
			}, calls(s))
			var sum CallbackStats
			for _, c := range s.Callbacks {
				sum.Calls += c.Calls
				sum.Total += c.Total
				sum.Max = max(sum.Max, c.Max)
				assert.LessOrEqual(t, c.Timed, c.Calls, c.Callback)
				assert.LessOrEqual(t, c.Max, c.Total, c.Callback)
			}
			assert.Equal(t, sum.Calls, s.Calls)
			assert.Equal(t, sum.Total, s.Total)
			assert.Equal(t, sum.Max, s.Max)
			assert.Zero(t, s.Errors)
			assert.True(t, s.Exact, "under 16 calls a kind, every call is timed")
			assert.Positive(t, s.Total)
			// The last frame: an onUpdate, a handler and a timer.
			assert.Equal(t, uint64(6), w.h.Stats().Frame)
			assert.Equal(t, int64(3), s.Frame.Calls)
		})
	}
}

// TestStatsErrors counts failed callbacks as the script's errors.
func TestStatsErrors(t *testing.T) {
	w := newWorld(t)
	for range 4 {
		w.spawn("", "stats/fails")
	}
	w.step(3, 1)
	s := w.scriptStats("stats/fails")
	assert.Equal(t, int64(4), s.Errors, "each instance fails once, then is faulted")
	assert.Equal(t, int64(8), s.Calls, "frames 1 and 2; faulted instances are not called")
	assert.Len(t, w.errs, 4)
}

// TestStatsSampled checks the default mode: every call counted, a random
// part of cheap calls timed, every call of a slow kind timed, and totals
// estimated from the timed calls.
func TestStatsSampled(t *testing.T) {
	w := newWorld(t)
	// However slow the machine (a race build), the spinner stays cheap.
	w.h.clock.every = time.Hour
	for range 1000 {
		w.spawn("", "spinner")
	}
	w.step(2, 1.0/60)
	s := w.scriptStats("spinner")
	up := byKind(s)["onUpdate"]
	assert.Equal(t, int64(2000), up.Calls)
	assert.Greater(t, up.Timed, int64(warmUp), "the first 16 calls, then one in 16")
	assert.Less(t, up.Timed, up.Calls/4, "cheap calls are sampled")
	assert.Positive(t, up.Total)
	assert.False(t, s.Exact)
	assert.Equal(t, int64(1000), s.Frame.Calls)
	assert.Positive(t, s.Frame.Total)

	// A slow callback kind (over everyTime a call) is timed every time
	// once it was seen to be slow.
	w.h.clock.every = everyTime
	require.NoError(t, w.h.Register("wait", waitMillis))
	for range 2 * warmUp {
		w.spawn("", "stats/inner")
	}
	inner := w.scriptStats("stats/inner")
	create := byKind(inner)["onCreate"]
	assert.Equal(t, int64(2*warmUp), create.Calls)
	assert.Equal(t, create.Calls, create.Timed)
	assert.True(t, inner.Exact)
	assert.GreaterOrEqual(t, create.Max, 20*time.Millisecond)
}

// waitMillis is the registered wait(ms): it sleeps.
func waitMillis(_ *runtime.Instance, args []any) (any, error) {
	time.Sleep(time.Duration(args[0].(float64)) * time.Millisecond)
	return nil, nil
}

// TestStatsNested checks that a callback's time leaves out the callbacks
// it ran nested inside it, which count for their own script.
func TestStatsNested(t *testing.T) {
	w := newWorld(t, withBudget(-1, 0), func(_ *runtime.Options, o *Options) { o.Timing = TimingExact })
	require.NoError(t, w.h.Register("wait", waitMillis))
	w.spawn("", "stats/outer")
	w.step(1, 1)
	w.requireNoErrors()
	inner, outer := w.scriptStats("stats/inner"), w.scriptStats("stats/outer")
	assert.Equal(t, int64(1), inner.Calls)
	assert.GreaterOrEqual(t, inner.Total, 20*time.Millisecond)
	// Counted in, the nested time would make the outer's at least the
	// inner's, however loaded the machine.
	assert.Less(t, outer.Total, inner.Total, "the nested onCreate's 20 ms are not the onUpdate's")
}

// TestOnCallback checks the hook: one call per callback with the script,
// entity, callback name, times and error.
func TestOnCallback(t *testing.T) {
	var got []CallbackTiming
	w := newWorld(t, func(_ *runtime.Options, o *Options) {
		o.OnCallback = func(c CallbackTiming) { got = append(got, c) }
	})
	e := w.spawn("", "stats/every")
	f := w.spawn("", "stats/fails")
	got = nil
	w.step(2, 1)
	names := make(map[runtime.Handle][]string)
	for _, c := range got {
		names[c.Entity] = append(names[c.Entity], c.Script+" "+c.Callback)
		assert.LessOrEqual(t, c.Self, c.Duration)
		assert.Positive(t, c.Duration)
	}
	assert.Equal(t, []string{
		"stats/every timer tick", "stats/every events.hit", "stats/every onUpdate",
		"stats/every timer tick", "stats/every events.hit", "stats/every onUpdate",
	}, names[e])
	assert.Equal(t, []string{"stats/fails onUpdate", "stats/fails onUpdate"}, names[f])
	last := got[len(got)-1]
	require.Equal(t, f, last.Entity)
	var se *runtime.ScriptError
	require.ErrorAs(t, last.Err, &se)
	assert.Contains(t, se.Message, "even frame")
}

// TestProfileLabels checks that with ProfileLabels a callback runs under
// the pprof labels script and callback, and that they are cleared after.
func TestProfileLabels(t *testing.T) {
	labels := func(*runtime.Instance, []any) (any, error) { return goroutineLabels(t), nil }
	for _, on := range []bool{false, true} {
		w := newWorld(t, func(_ *runtime.Options, o *Options) { o.ProfileLabels = on })
		require.NoError(t, w.h.Register("labels", labels))
		w.spawn("", "stats/probe")
		w.step(1, 1)
		w.requireNoErrors()
		want := ""
		if on {
			want = `{"callback":"onUpdate", "script":"stats/probe"}`
		}
		assert.Equal(t, []string{"labels: " + want}, w.takeLines(), "ProfileLabels %v", on)
		assert.Empty(t, goroutineLabels(t), "no labels outside callbacks")
	}
}

// labelLine finds the label sets in a goroutine profile (debug=1).
var labelLine = regexp.MustCompile(`(?m)^# labels: (\{.*"script".*\})$`)

// goroutineLabels returns the label set with a "script" label found in
// the goroutine profile, or "": only the goroutine running the test sets
// such labels.
func goroutineLabels(t *testing.T) string {
	var b bytes.Buffer
	require.NoError(t, pprof.Lookup("goroutine").WriteTo(&b, 1))
	m := labelLine.FindStringSubmatch(b.String())
	if m == nil {
		return ""
	}
	return m[1]
}

// TestStatsOff checks TimingOff: nothing counted, nothing timed.
func TestStatsOff(t *testing.T) {
	w := newWorld(t, func(_ *runtime.Options, o *Options) { o.Timing = TimingOff })
	w.spawn("", "stats/every")
	w.step(2, 1)
	s := w.scriptStats("stats/every")
	assert.Zero(t, s.Calls)
	assert.Empty(t, s.Callbacks)
}
