package luabind

import (
	"testing"

	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// vecLoops are the same movement step, pos += vel * dt, a thousand times:
// with vectors, with vectors updated in place through their fields, and
// with plain numbers.
var vecLoops = []struct{ name, src string }{
	{"Vec3", `return function()
  local pos, vel = vec3(0, 0, 0), vec3(1, 2, 3)
  for i = 1, 1000 do pos = pos + vel * 0.016 end
  return pos.x end`},
	{"Vec3Fields", `return function()
  local pos, vel = vec3(0, 0, 0), vec3(1, 2, 3)
  for i = 1, 1000 do
    pos.x, pos.y, pos.z = pos.x + vel.x * 0.016, pos.y + vel.y * 0.016, pos.z + vel.z * 0.016
  end
  return pos.x end`},
	{"Numbers", `return function()
  local x, y, z, vx, vy, vz = 0, 0, 0, 1, 2, 3
  for i = 1, 1000 do x, y, z = x + vx * 0.016, y + vy * 0.016, z + vz * 0.016 end
  return x end`},
}

// BenchmarkVec3Move1000 measures a thousand movement steps written with
// vectors and with plain numbers, in a script's state.
func BenchmarkVec3Move1000(b *testing.B) {
	for _, c := range vecLoops {
		b.Run(c.name, func(b *testing.B) {
			st, _ := boundState(b, newWorld(b))
			L := st.L
			require.NoError(b, L.DoString(c.src))
			fn := L.Get(-1).(*lua.LFunction)
			L.Pop(1)
			b.ReportAllocs()
			for b.Loop() {
				L.Push(fn)
				L.Call(0, 1)
				L.Pop(1)
			}
		})
	}
}
