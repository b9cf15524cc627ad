package luabind

import (
	goruntime "runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// BenchmarkDebuggerIdle measures what a debugger that no client uses
// costs a frame (what --debug does before an editor attaches, and what
// --inspect does for its panel): the 10,000-spinner world with a
// debugger made before its scripts load, no breakpoint, no step and no
// pause asked, against the same world without one, alternated frame by
// frame on one OS thread and timed by its CPU clock. x-plain is the
// debugged world's time over the plain one's.
func BenchmarkDebuggerIdle(b *testing.B) {
	for _, bc := range []struct {
		name   string
		budget time.Duration
	}{{"budget=on", DefaultBudget}, {"budget=off", -1}} {
		b.Run(bc.name, func(b *testing.B) {
			goruntime.LockOSThread()
			defer goruntime.UnlockOSThread()
			plainRT, plain := newBenchWorld(b, benchEntities, bc.budget)
			defer plain.Close()
			rt := runtime.New(runtime.Options{OnError: runtime.Discard})
			h, err := New(rt, benchOptions(bc.budget))
			require.NoError(b, err)
			defer h.Close()
			h.Debugger()
			for range benchEntities {
				e := rt.Spawn()
				_, err := h.Attach(e, "spinner", nil)
				require.NoError(b, err)
				require.NoError(b, rt.Activate(e))
			}
			require.NoError(b, plainRT.Step(1.0/60))
			require.NoError(b, rt.Step(1.0/60))
			var plainTime, debugTime time.Duration
			for b.Loop() {
				t0 := threadCPU()
				_ = plainRT.Step(1.0 / 60)
				t1 := threadCPU()
				_ = rt.Step(1.0 / 60)
				plainTime += t1 - t0
				debugTime += threadCPU() - t1
			}
			b.ReportMetric(float64(debugTime)/float64(plainTime), "x-plain")
			b.ReportMetric(float64(debugTime.Nanoseconds())/float64(b.N), "debug-ns/frame")
			b.ReportMetric(float64(plainTime.Nanoseconds())/float64(b.N), "plain-ns/frame")
		})
	}
}
