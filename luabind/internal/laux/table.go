package laux

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/gopherx"
)

// ArrayPart is the longest array gopher-lua keeps in a table's slice.
const ArrayPart = 1 << 18

// TableLen returns a border of t (#t in Lua 5.1): an n with t[n] ~= nil
// and t[n+1] == nil, or 0, the one Lua 5.1 finds. Lua 5.1's border
// depends on the size of the table's array part, which the table's
// history sets: a constructor (or lua_createtable) sizes it to its
// positional items exactly, and a new key that finds the hash part full
// resizes it to the largest power of two more than half of whose slots
// 1..n hold a value (an assignment of nil changes nothing). gopher-lua
// keeps neither: it keeps every integer key below lua.MaxArrayIndex in
// one slice, however far. TableLen takes the constructor's size while
// t's slice has the length and capacity a constructor gave it (nothing
// was added since), and otherwise the size the keys t holds now would get
// (arraySize); then it searches as Lua 5.1 does: it bisects the array
// part when its last slot is empty, and else looks past it, doubling then
// bisecting. A table built by writes and then emptied in places keeps, in
// Lua 5.1, the larger array part it grew to: there the two can differ.
// O(log n) reads for an array without holes; with holes, a count of at
// most 128 reads for each power of two tried, one when the table is more
// than half full (arraySize).
func TableLen(t *lua.LTable) int {
	n := t.Len()
	if n >= lua.MaxArrayIndex-1 {
		// The slice is full to the end of gopher-lua's array part: the
		// border is searched for among the hash keys past it.
		return border(t, n)
	}
	if arr := gopherx.TableArray(t); len(arr) > 0 && cap(arr) == len(arr) {
		return border(t, len(arr))
	}
	if n == 0 {
		return 0
	}
	size := 1
	for size < n {
		size <<= 1
	}
	// An array without holes: its size is the power of two above it, and
	// the bisection finds its end.
	if t.RawGetInt(1) != lua.LNil && t.RawGetInt(max(size/2, 1)) != lua.LNil {
		if size == n || bisect(t, 0, size) == n {
			return n
		}
	}
	return border(t, arraySize(t, n))
}

// border returns the border Lua 5.1's luaH_getn finds in t with an array
// part of size slots.
func border(t *lua.LTable, size int) int {
	if size > 0 && RawGetInt(t, size) == lua.LNil {
		return bisect(t, 0, size)
	}
	i, j := size, size+1
	for RawGetInt(t, j) != lua.LNil {
		i, j = j, 2*j
		if j > 1<<53 {
			return walk(t, i)
		}
	}
	return bisect(t, i, j)
}

// bisect returns a border between i (0, or a key with a value) and j (a
// key without one), as Lua 5.1 bisects.
func bisect(t *lua.LTable, i, j int) int {
	for j-i > 1 {
		m := (i + j) / 2
		if RawGetInt(t, m) == lua.LNil {
			j = m
		} else {
			i = m
		}
	}
	return i
}

// walk returns the first border after i, key by key: for a table made to
// defeat the doubling search.
func walk(t *lua.LTable, i int) int {
	for k := i + 1; ; k++ {
		if RawGetInt(t, k) == lua.LNil {
			return k - 1
		}
	}
}

// densitySamples is how many slots arraySize looks at in a long run of
// slots.
const densitySamples = 64

// arraySize returns the array part Lua 5.1's rehash would give t's
// integer keys 1..n (computesizes): the largest power of two more than
// half of whose slots hold a value, or 0. It tries the powers of two from
// the one at or above n down, so that a table more than half full costs
// one count; a count of more than 2*densitySamples slots samples
// densitySamples of them at even steps.
func arraySize(t *lua.LTable, n int) int {
	size := 1
	for size < n {
		size <<= 1
	}
	for ; size >= 1; size >>= 1 {
		if 2*used(t, min(size, n)) > size {
			return size
		}
	}
	return 0
}

// used returns how many of t[1..n] hold a value, counted or sampled.
func used(t *lua.LTable, n int) int {
	if n <= 2*densitySamples {
		count := 0
		for k := 1; k <= n; k++ {
			if t.RawGetInt(k) != lua.LNil {
				count++
			}
		}
		return count
	}
	hits := 0
	for s := 1; s <= densitySamples; s++ {
		if t.RawGetInt(n*s/densitySamples) != lua.LNil {
			hits++
		}
	}
	return n * hits / densitySamples
}

// RawGetInt returns t[k] without metamethods, wherever gopher-lua keeps
// it: keys from lua.MaxArrayIndex on live in the hash part, which
// LTable.RawGetInt does not look at.
func RawGetInt(t *lua.LTable, k int) lua.LValue {
	if v := t.RawGetInt(k); v != lua.LNil || (k >= 1 && k < lua.MaxArrayIndex) {
		return v
	}
	return t.RawGetH(lua.LNumber(k))
}

// smallInts are the numbers 0 to 1023 as Lua values, boxed once: a
// length pushed from one of them costs no allocation.
var smallInts = func() (box [1024]lua.LValue) {
	for i := range box {
		box[i] = lua.LNumber(i)
	}
	return box
}()

func BoxInt(n int) lua.LValue {
	if n >= 0 && n < len(smallInts) {
		return smallInts[n]
	}
	return lua.LNumber(n)
}

// CtxMarker is what getmetatable returns for the host's ctx: its
// metatable's __metatable field.
const CtxMarker = lua.LString("ctx")

// IsCtx reports whether v is the host's ctx, which is read-only: the
// sandbox's rawset and the compile step's guard of t.entity = v refuse
// to write it.
func IsCtx(v lua.LValue) bool {
	t, ok := v.(*lua.LTable)
	if !ok {
		return false
	}
	mt, ok := t.Metatable.(*lua.LTable)
	return ok && mt.RawGetString("__metatable") == CtxMarker
}
