package luabind

import (
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// BenchmarkTiming10000 measures what per-script timing costs on the
// 10,000-spinner frame (at most 5 %): every iteration runs a
// frame of a host with the timing mode and one of a host with
// TimingOff, back to back (in turn first and second), and "x-off" is the
// first's time over the second's. Budgets are off, so that the timing is the only difference
// and the largest share.
func BenchmarkTiming10000(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts Options
	}{
		{"timing=sampled", Options{Timing: TimingSampled}},
		{"timing=exact", Options{Timing: TimingExact}},
		{"timing=labels", Options{ProfileLabels: true}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			rtOff := newTimingWorld(b, Options{Timing: TimingOff})
			rt := newTimingWorld(b, bc.opts)
			var on, off time.Duration
			first := true
			b.ReportAllocs()
			for b.Loop() {
				// Which runs first alternates, so that neither gets
				// the caches the other warmed.
				on += timeStep(rt, first)
				off += timeStep(rtOff, true)
				on += timeStep(rt, !first)
				first = !first
			}
			b.ReportMetric(float64(on)/float64(off), "x-off")
			b.ReportMetric(float64(on.Nanoseconds())/float64(b.N), "ns/frame")
		})
	}
}

// timeStep runs a frame of rt when run is set and returns how long it
// took.
func timeStep(rt *runtime.Runtime, run bool) time.Duration {
	if !run {
		return 0
	}
	start := time.Now()
	_ = rt.Step(1.0 / 60)
	return time.Since(start)
}

// newTimingWorld returns a runtime with 10,000 spinners, budgets off,
// the host configured by opts, after one frame.
func newTimingWorld(b *testing.B, opts Options) *runtime.Runtime {
	rt := runtime.New(runtime.Options{OnError: runtime.Discard})
	opts.Dir, opts.Stdout, opts.Log, opts.Budget = "testdata/scripts", io.Discard, io.Discard, -1
	h, err := New(rt, opts)
	require.NoError(b, err)
	b.Cleanup(func() { _ = h.Close() })
	for range benchEntities {
		e := rt.Spawn()
		_, err := h.Attach(e, "spinner", nil)
		require.NoError(b, err)
		require.NoError(b, rt.Activate(e))
	}
	require.NoError(b, rt.Step(1.0/60))
	return rt
}

// BenchmarkTimingCall measures what sampled timing adds to one spinner
// callback (Script.Update), in blocks of 256 calls alternated with a
// TimingOff host's: "x-off" is the ratio, "extra-ns" the cost per call.
// Interleaved so finely, it holds on a noisy machine, where the few
// percent between whole frames (BenchmarkTiming10000) drown.
func BenchmarkTimingCall(b *testing.B) {
	update := func(timing Timing) func() time.Duration {
		rt := runtime.New(runtime.Options{OnError: runtime.Discard})
		h, err := New(rt, Options{Dir: "testdata/scripts", Stdout: io.Discard, Log: io.Discard, Budget: -1, Timing: timing})
		require.NoError(b, err)
		b.Cleanup(func() { _ = h.Close() })
		inst, err := h.Attach(rt.Spawn(), "spinner", nil)
		require.NoError(b, err)
		s := h.Script("spinner")
		return func() time.Duration {
			start := time.Now()
			for range 256 {
				_ = s.Update(inst, 1.0/60)
			}
			return time.Since(start)
		}
	}
	sampled, off := update(TimingSampled), update(TimingOff)
	var on, base time.Duration
	for b.Loop() {
		on += sampled()
		base += off()
		base += off()
		on += sampled()
	}
	b.ReportMetric(float64(on)/float64(base), "x-off")
	b.ReportMetric(float64(on-base)/float64(512*b.N), "extra-ns")
}
