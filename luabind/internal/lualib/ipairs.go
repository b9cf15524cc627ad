package lualib

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/laux"
)

// Arrays. gopher-lua keeps a table's integer keys 1 to
// lua.MaxArrayIndex-1 in a Go slice and fills any gap before a write with
// nils, in one VM instruction that no budget interrupts: with its default
// (2^26), t[67108863] = true allocates a gigabyte, and t[2^24] = true
// takes seconds and over a gigabyte. Past lua.MaxArrayIndex, keys are
// hash entries, which t[k] finds but gopher-lua's #, ipairs and table
// functions do not see.
//
// luabind sets lua.MaxArrayIndex to laux.ArrayPart+1 (2^18): a sparse write
// fills at most 4 MiB, in a few tens of milliseconds. Longer arrays go on
// in the hash part, and everything that walks an array finds them there:
// # (rewritten at compile time into a call of lenSite), ipairs, unpack,
// table.insert, remove, concat, sort and getn. So arrays of any length
// (2^24 elements and more, within the memory limit) behave as in Lua 5.1,
// and a sparse write anywhere costs at most one 4 MiB fill.

// ipairs(t) iterates t[1], t[2], ... up to the first nil, without
// metamethods, wherever the table keeps them.
func luaIpairs(L *lua.LState) int {
	t := L.CheckTable(1)
	L.Push(ipairsNextFn)
	L.Push(t)
	L.Push(lua.LNumber(0))
	return 3
}

var ipairsNextFn = &lua.LFunction{IsG: true, GFunction: ipairsNext}

func ipairsNext(L *lua.LState) int {
	t := L.CheckTable(1)
	i := L.CheckInt(2) + 1
	v := laux.RawGetInt(t, i)
	if v == lua.LNil {
		return 0
	}
	L.Push(lua.LNumber(i))
	L.Push(v)
	return 2
}

// table.getn(t) is #t for a table.
func tableGetn(L *lua.LState) int {
	L.Push(lua.LNumber(laux.TableLen(L.CheckTable(1))))
	return 1
}
