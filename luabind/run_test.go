package luabind

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestUpdateRun: the onUpdates of a run of instances of one script each
// run as alone: in schedule order, each with its own entity in ctx, its
// own budget and its own error, a due timer first. Timing off (every
// onUpdate in one protected run), exact (every one through Update) and
// sampled (some of each) print, report and count the same, and
// OnCallback hears of each failure with its entity.
func TestUpdateRun(t *testing.T) {
	type outcome struct {
		lines, errs  []string
		calls, fails int64
		// failed names the entities OnCallback was told failed.
		failed []string
	}
	play := func(timing Timing) outcome {
		var o outcome
		var w *world
		w = newWorld(t, func(_ *runtime.Options, opts *Options) {
			opts.Timing, opts.Work = timing, 100_000
			if timing == TimingExact {
				opts.OnCallback = func(ct CallbackTiming) {
					if ct.Err != nil {
						name, _ := w.rt.Name(ct.Entity)
						o.failed = append(o.failed, name+" "+ct.Callback)
					}
				}
			}
		})
		// Sampled: every call past the first ones is sampled, however
		// slow the test's machine.
		w.h.clock.every = time.Hour
		for i, kind := range []string{"ok", "fail", "loop", "timer", "ok"} {
			e := w.rt.Spawn()
			require.NoError(t, w.rt.SetName(e, fmt.Sprintf("e%d", i+1)))
			w.attach(e, "run/mixed", map[string]any{"kind": kind})
			require.NoError(t, w.rt.Activate(e))
		}
		w.step(40, 1.0/60)
		for _, se := range w.scriptErrors() {
			o.errs = append(o.errs, se.Error())
			assert.Equal(t, "onUpdate", se.Callback)
		}
		require.Len(t, w.errs, 3)
		assert.ErrorIs(t, w.errs[1], ErrBudget)
		o.lines = w.lines()
		for _, s := range w.h.Stats().Timing {
			for _, cb := range s.Callbacks {
				if cb.Callback == "onUpdate" {
					o.calls, o.fails = cb.Calls, cb.Errors
				}
			}
		}
		return o
	}
	off := play(TimingOff)
	assert.Equal(t, []string{
		"e1\tok\t1", "e2\tfail\t1", "e3\tloop\t1", "e4\ttimer\t1", "e5\tok\t1",
		"e1\tok\t2", "e2\tfail\t2", "e3\tloop\t2", "e4\ttick", "e4\ttimer\t2", "e5\tok\t2",
	}, off.lines[:11])
	assert.Equal(t, []string{
		"e1\tok\t12", "e2\tfail\t12", "e3\tloop\t12", "e4\ttick", "e4\ttimer\t12", "e5\tok\t12",
		"e1\tok\t13", "e4\ttimer\t13", "e5\tok\t13",
	}, off.lines[5*11+5:5*11+5+9])
	assert.Len(t, off.lines, 5*12+3*8+2*20+10)
	assert.Contains(t, off.errs[0], "failed on purpose")
	assert.Contains(t, off.errs[2], "failed after its tick")
	exact := play(TimingExact)
	assert.Equal(t, off.lines, exact.lines)
	assert.Equal(t, off.errs, exact.errs)
	assert.Equal(t, int64(5*12+3*8+2*20), exact.calls)
	assert.Equal(t, int64(3), exact.fails)
	assert.Equal(t, []string{"e2 onUpdate", "e3 onUpdate", "e4 onUpdate"}, exact.failed)
	sampled := play(TimingSampled)
	assert.Equal(t, off.lines, sampled.lines)
	assert.Equal(t, off.errs, sampled.errs)
	assert.Equal(t, exact.calls, sampled.calls)
	assert.Equal(t, exact.fails, sampled.fails)
}
