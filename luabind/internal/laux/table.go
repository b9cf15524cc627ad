package laux

import (
	lua "github.com/yuin/gopher-lua"
)

// ArrayPart is the longest array gopher-lua keeps in a table's slice.
const ArrayPart = 1 << 18

// TableLen returns a border of t (#t in Lua 5.1): an n with t[n] ~= nil
// and t[n+1] == nil, or 0, the one Lua 5.1 finds in the common cases.
// gopher-lua keeps every integer key below lua.MaxArrayIndex in its slice,
// however far (t[178634] = 1 on {1, 2} made a slice of 178634 with a
// hole), where Lua 5.1 keeps a key in its array part only while more than
// half of the slots up to it are used, and bisects the array part, a
// power of two, for a border. TableLen bisects 1 to the power of two at
// or above the slice's last element; a border short of that element
// means holes, and then the slice's end is the answer when the slice is
// more than half full (a constructor with a nil, {1, nil, 3}, is 3 as in
// Lua 5.1), and the border found when it is not (the far key). When the
// slice is full, the border is searched for among the hash keys past it,
// by doubling then bisecting, as Lua 5.1 searches its hash part.
func TableLen(t *lua.LTable) int {
	n := t.Len()
	if n < lua.MaxArrayIndex-1 {
		size := 1
		for size < n {
			size <<= 1
		}
		if size == n || RawGetInt(t, size) != lua.LNil {
			return n
		}
		i, j := 0, size
		for j-i > 1 {
			m := (i + j) / 2
			if t.RawGetInt(m) == lua.LNil {
				j = m
			} else {
				i = m
			}
		}
		if i == n || mostlyUsed(t, i, n) {
			return n
		}
		return i
	}
	if t.RawGetH(lua.LNumber(n+1)) == lua.LNil {
		return n
	}
	i, j := n+1, 2*(n+1)
	for t.RawGetH(lua.LNumber(j)) != lua.LNil {
		i, j = j, 2*j
		if j > 1<<53 {
			// A table made to defeat the search: walk it.
			for k := i + 1; ; k++ {
				if t.RawGetH(lua.LNumber(k)) == lua.LNil {
					return k - 1
				}
			}
		}
	}
	for j-i > 1 {
		m := (i + j) / 2
		if t.RawGetH(lua.LNumber(m)) == lua.LNil {
			j = m
		} else {
			i = m
		}
	}
	return i
}

// densitySamples is how many slots mostlyUsed looks at in a long gap.
const densitySamples = 64

// mostlyUsed reports whether more than half of t[1..n] hold a value,
// taking t[1..b] as full: the slots past b are counted, or, in a gap of
// more than densitySamples slots, sampled at even steps.
func mostlyUsed(t *lua.LTable, b, n int) bool {
	gap := n - b
	used := 0
	if gap <= densitySamples {
		for k := b + 1; k <= n; k++ {
			if t.RawGetInt(k) != lua.LNil {
				used++
			}
		}
	} else {
		hits := 0
		for s := 1; s <= densitySamples; s++ {
			if t.RawGetInt(b+gap*s/densitySamples) != lua.LNil {
				hits++
			}
		}
		used = gap * hits / densitySamples
	}
	return 2*(b+used) > n
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
