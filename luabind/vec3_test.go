package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestVectorsArePlainData: a vector crosses to Go as runtime.Vec3 and
// back as a vector, and a hot reload keeps the vectors in self.
func TestVectorsArePlainData(t *testing.T) {
	const v1 = `return {
  onCreate = function(self, ctx)
    self.at = vec3(1, 2, 3)
    self.path = { vec3(0, 0, 1) }
    ctx.blackboard.fromLua = vec3(4, 5, 6)
    local g = ctx.blackboard.fromGo
    print(getmetatable(g), g + vec3(1, 1, 1))
  end,
}`
	const v2 = `return {
  onUpdate = function(self, ctx)
    print(getmetatable(self.at), self.at, getmetatable(self.path[1]), self.path[1]:length())
  end,
}`
	w := newWorld(t)
	require.NoError(t, w.rt.Blackboard().Set("fromGo", runtime.Vec3{X: 1, Y: 0, Z: -1}))
	require.NoError(t, w.h.Reload("vecdata", []byte(v1)))
	w.spawn("", "vecdata")
	w.h.Flush()
	assert.Equal(t, []string{"vec3\tvec3(2, 1, 0)"}, w.takeLines())
	got, ok := w.rt.Blackboard().Get("fromLua")
	require.True(t, ok)
	assert.Equal(t, runtime.Vec3{X: 4, Y: 5, Z: 6}, got)

	require.NoError(t, w.h.Reload("vecdata", []byte(v2)))
	w.step(1, 0.1)
	assert.Equal(t, []string{"vec3\tvec3(1, 2, 3)\tvec3\t1"}, w.takeLines())
	w.requireNoErrors()
}
