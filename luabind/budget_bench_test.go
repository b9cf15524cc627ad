package luabind

import (
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// BenchmarkTightLoop measures one call of a tight Lua loop (100,000
// iterations, about 500,000 instructions) with every budget off (no
// context: gopher-lua skips its check) and under the default work budget,
// memory limit and backstop: the budget's whole per-instruction price.
func BenchmarkTightLoop(b *testing.B) {
	for _, bc := range []struct {
		name string
		opts Options
	}{
		{"budget=off", Options{Budget: -1, MemoryLimit: -1, WallClock: -1}},
		{"budget=on", Options{}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			rt := runtime.New(runtime.Options{OnError: runtime.Discard})
			o := bc.opts
			o.Dir, o.Stdout, o.Log = "testdata/scripts", io.Discard, io.Discard
			h, err := New(rt, o)
			require.NoError(b, err)
			defer h.Close()
			e := rt.Spawn()
			_, err = h.Attach(e, "bench/tight", nil)
			require.NoError(b, err)
			require.NoError(b, rt.Activate(e))
			require.NoError(b, rt.Step(1.0/60))
			b.ReportAllocs()
			for b.Loop() {
				if err := rt.Step(1.0 / 60); err != nil {
					b.Fatal(err)
				}
			}
			require.Zero(b, rt.Stats().Errors)
		})
	}
}
