package luabind

import (
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// BenchmarkTightLoop measures one call of a tight Lua loop (100,000
// iterations, about 500,000 instructions) under the default work budget,
// memory limit and backstop against the same call with every bound off
// (no context: gopher-lua skips its check). Every iteration runs both,
// back to back, so that they see the same machine: "x-off" is the
// budget's whole per-instruction price.
func BenchmarkTightLoop(b *testing.B) {
	off := newTightLoop(b, Options{Budget: -1, MemoryLimit: -1, WallClock: -1, MemoryCeiling: -1})
	on := newTightLoop(b, Options{})
	var offTime, onTime time.Duration
	b.ReportAllocs()
	for b.Loop() {
		start := time.Now()
		off()
		mid := time.Now()
		on()
		offTime += mid.Sub(start)
		onTime += time.Since(mid)
	}
	b.ReportMetric(float64(onTime)/float64(b.N), "on-ns/call")
	b.ReportMetric(float64(offTime)/float64(b.N), "off-ns/call")
	b.ReportMetric(float64(onTime)/float64(offTime), "x-off")
}

// newTightLoop returns a function that runs one frame of a host with o
// whose one instance runs bench/tight.
func newTightLoop(b *testing.B, o Options) func() {
	b.Helper()
	rt := runtime.New(runtime.Options{OnError: runtime.Discard})
	o.Dir, o.Stdout, o.Log = "testdata/scripts", io.Discard, io.Discard
	h, err := New(rt, o)
	require.NoError(b, err)
	b.Cleanup(func() { _ = h.Close() })
	e := rt.Spawn()
	_, err = h.Attach(e, "bench/tight", nil)
	require.NoError(b, err)
	require.NoError(b, rt.Activate(e))
	return func() {
		if err := rt.Step(1.0 / 60); err != nil || rt.Stats().Errors > 0 {
			b.Fatal("the loop failed", err)
		}
	}
}
