package luabind

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// BenchmarkCtxQuery is a frame whose one script asks ctx.query for the
// entities tagged "enemy" within 8 units (about 20 of them), in worlds of
// 200 and 100,000 entities at the same density: the cost of the Lua path
// (arguments, the query, the array of entity values) must not grow with
// the world.
func BenchmarkCtxQuery(b *testing.B) {
	const src = `return {
  onUpdate = function(self, ctx)
    self.found = #ctx.query({ tag = "enemy", near = self.at, radius = 8 })
  end,
}`
	for _, n := range []int{200, 100_000} {
		b.Run(fmt.Sprintf("entities=%d", n), func(b *testing.B) {
			w := newWorld(b, withBudget(-1, 0))
			side := math.Sqrt(float64(n) * 10)
			rng := rand.New(rand.NewPCG(5, 6))
			for range n {
				h := w.rt.SpawnAt(runtime.Transform{Position: runtime.Vec3{X: rng.Float64() * side, Z: rng.Float64() * side}})
				require.NoError(b, w.rt.Tag(h, "enemy"))
				require.NoError(b, w.rt.Activate(h))
			}
			require.NoError(b, w.h.Reload("querier", []byte(src)))
			e := w.rt.Spawn()
			w.attach(e, "querier", map[string]any{"at": runtime.Vec3{X: side / 2, Z: side / 2}})
			require.NoError(b, w.rt.Activate(e))
			require.NoError(b, w.rt.Step(1.0/60))
			b.ReportAllocs()
			for b.Loop() {
				_ = w.rt.Step(1.0 / 60)
			}
		})
	}
}
