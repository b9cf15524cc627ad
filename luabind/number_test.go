package luabind

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/laux"
)

// TestFormatNumber: numbers print as Lua 5.1 prints them on Linux (the
// expected strings are lua5.1's).
func TestFormatNumber(t *testing.T) {
	for _, tc := range []struct {
		n    float64
		want string
	}{
		{1.0 / 3, "0.33333333333333"},
		{3, "3"},
		{-7, "-7"},
		{12.5, "12.5"},
		{1e15, "1e+15"},
		{1e14, "1e+14"},
		{99999999999999, "99999999999999"},
		{123456789012345678, "1.2345678901235e+17"},
		{math.Pow(2, 53), "9.007199254741e+15"},
		{math.Pow(2, 63), "9.2233720368548e+18"},
		{1e-5, "1e-05"},
		{math.Inf(1), "inf"},
		{math.Inf(-1), "-inf"},
		{math.NaN(), "nan"},
		{-math.NaN(), "-nan"},
		{math.Copysign(0, -1), "-0"},
		{0, "0"},
	} {
		assert.Equal(t, tc.want, laux.FormatNumber(lua.LNumber(tc.n)), "%v", tc.n)
	}
}

// TestNumbersInOutput: print, tostring, .. and a vector's tostring format
// numbers the same way.
func TestNumbersInOutput(t *testing.T) {
	w := newWorld(t)
	out, msg := runSource(t, w, `print(1/3, tostring(-1/0), 2^63 .. "", tostring(vec3(1/0, 0.5, 1/3)))`)
	assert.Empty(t, msg)
	assert.Equal(t, "0.33333333333333\t-inf\t9.2233720368548e+18\tvec3(inf, 0.5, 0.33333333333333)\n", out)
}
