package laux

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	lua "github.com/yuin/gopher-lua"
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
		assert.Equal(t, tc.want, FormatNumber(lua.LNumber(tc.n)), "%v", tc.n)
	}
}

// TestTableLen: the border of arrays inside and past the array part, as
// Lua 5.1 finds it.
func TestTableLen(t *testing.T) {
	small := &lua.LTable{}
	for i := 1; i <= 10; i++ {
		small.RawSetInt(i, lua.LTrue)
	}
	assert.Equal(t, 10, TableLen(small))
	assert.Equal(t, lua.LTrue, RawGetInt(small, 10))
	assert.Equal(t, lua.LNil, RawGetInt(small, 11))
	assert.Equal(t, lua.LValue(lua.LNumber(7)), BoxInt(7))
}
