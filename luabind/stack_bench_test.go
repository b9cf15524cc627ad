package luabind

import (
	"testing"

	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/compile"
)

// BenchmarkDeepStack measures what grows a sandboxed state's stacks: a
// 10,000-deep Lua recursion, a call with 5,000 arguments through unpack
// and varargs, and a 400-cell flood fill. Each iteration uses a fresh
// state, as a script's first call would.
func BenchmarkDeepStack(b *testing.B) {
	for _, bc := range []struct{ name, src string }{
		{"recursion10000", `local function d(n) if n == 0 then return 0 end return 1 + d(n - 1) end return d(10000)`},
		{"varargs5000", `local t = {} for i = 1, 5000 do t[i] = i end local function n(...) return select("#", ...) end return n(unpack(t))`},
		{"floodfill400", `local g = {} for y = 1, 20 do g[y] = {} for x = 1, 20 do g[y][x] = 0 end end
local function fill(x, y)
  if x < 1 or y < 1 or x > 20 or y > 20 or g[y][x] ~= 0 then return 0 end
  g[y][x] = 1
  return 1 + fill(x + 1, y) + fill(x - 1, y) + fill(x, y + 1) + fill(x, y - 1)
end
return fill(1, 1)`},
	} {
		b.Run(bc.name, func(b *testing.B) {
			w := newWorld(b, withBudget(-1, 0))
			proto, err := compile.Compile(bc.src, "bench", 1<<20)
			require.NoError(b, err)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				L := w.h.newSandbox()
				b.StartTimer()
				L.Push(L.NewFunctionFromProto(proto))
				L.Call(0, 1)
				if L.Get(-1) == lua.LNil {
					b.Fatal("no result")
				}
				b.StopTimer()
				L.Close()
				b.StartTimer()
			}
		})
	}
}

// BenchmarkYield measures a resume and yield pair of a sandboxed
// coroutine: the yield checks the goroutine's stack for Go calls between
// it and the resume.
func BenchmarkYield(b *testing.B) {
	w := newWorld(b, withBudget(-1, 0))
	L := w.h.newSandbox()
	b.Cleanup(L.Close)
	require.NoError(b, L.DoString(`
local co = coroutine.wrap(function() while true do coroutine.yield(1) end end)
function step(n) for i = 1, n do co() end end`))
	step := L.GetGlobal("step")
	b.ReportAllocs()
	for b.Loop() {
		L.Push(step)
		L.Push(lua.LNumber(100))
		L.Call(1, 0)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*100), "ns/yield")
}
