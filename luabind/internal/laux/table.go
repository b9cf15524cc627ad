package laux

import (
	lua "github.com/yuin/gopher-lua"
)

// ArrayPart is the longest array gopher-lua keeps in a table's slice.
const ArrayPart = 1 << 18

// TableLen returns a border of t (#t in Lua 5.1): an n with t[n] ~= nil
// and t[n+1] == nil, or 0, the one Lua 5.1 finds. gopher-lua keeps every
// integer key below lua.MaxArrayIndex in its slice, however far (t[178634]
// = 1 on {1, 2} made a slice of 178634 with a hole), where Lua 5.1 keeps
// keys that would leave its array part less than half full in its hash
// part and bisects its array part, a power of two, for a border. So does
// TableLen: it bisects 1 to the power of two at or above the slice's last
// element, which gives the slice's end when the slice has no holes and
// the end of the dense part when a far key made them. When the slice is
// full, the border is searched for among the hash keys past it, by
// doubling then bisecting, as Lua 5.1 searches its hash part.
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
