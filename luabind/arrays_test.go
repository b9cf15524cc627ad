package luabind

import (
	goruntime "runtime"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSparseWrites: a write far past the end of an array costs one hash
// entry, and one inside gopher-lua's array slice fills at most the slice
// (2^18 slots of 16 bytes, with the slice's growth: well under 32 MiB).
func TestSparseWrites(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		maxBytes  uint64
	}{
		{"far", "local t = {} t[67108863] = true t[2^40] = true", 1 << 20},
		{"at 2^24", "local t = {} t[2^24] = true", 1 << 20},
		{"inside the slice", "local t = {} t[2^18] = true", 32 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, withBudget(-1, 0))
			var before, after goruntime.MemStats
			goruntime.ReadMemStats(&before)
			_, msg := runSource(t, w, tc.src)
			goruntime.ReadMemStats(&after)
			assert.Empty(t, msg)
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, tc.maxBytes)
		})
	}
}

// TestLength: # is Lua 5.1's: a string's length, a table's border
// (ignoring __len, also past the array slice), __len for other values,
// and a named error otherwise.
func TestLength(t *testing.T) {
	for _, tc := range []struct {
		name, src, out, msg string
	}{
		{"string", `print(#"abc", #"")`, "3\t0\n", ""},
		{"table", `print(#{1, 2, 3}, #{})`, "3\t0\n", ""},
		{"__len ignored on tables", `print(#setmetatable({1}, {__len = function() return 9 end}))`, "1\n", ""},
		{"past the slice", "local t = {} for i = 1, 2^18 + 5 do t[i] = i end\nprint(#t)", "262149\n", ""},
		{"shrunk past the slice", "local t = {} for i = 1, 2^18 + 5 do t[i] = i end\nt[#t] = nil\nt[#t] = nil\nprint(#t)", "262147\n", ""},
		{"call result", `local function f() return "ab", "cde" end print(#f())`, "2\n", ""},
		{"nil local", "local items\nreturn #items", "", "prog.lua:2: attempt to get length of a nil value (local 'items')"},
		{"nil field", "local self = {}\nreturn #self.items", "", "prog.lua:2: attempt to get length of a nil value (field 'items')"},
		{"number", "return #5", "", "prog.lua:1: attempt to get length of a number value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, withBudget(-1, 0))
			out, msg := runSource(t, w, tc.src)
			assert.Equal(t, tc.out, out)
			assert.Equal(t, tc.msg, msg)
		})
	}
}
