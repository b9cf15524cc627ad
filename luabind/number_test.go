package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNumbersInOutput: print, tostring, .. and a vector's tostring format
// numbers the same way.
func TestNumbersInOutput(t *testing.T) {
	w := newWorld(t)
	out, msg := runSource(t, w, `print(1/3, tostring(-1/0), 2^63 .. "", tostring(vec3(1/0, 0.5, 1/3)))`)
	assert.Empty(t, msg)
	assert.Equal(t, "0.33333333333333\t-inf\t9.2233720368548e+18\tvec3(inf, 0.5, 0.33333333333333)\n", out)
}
