package lstring

import (
	"github.com/luahost/luahost/luabind/internal/laux"

	lua "github.com/yuin/gopher-lua"
)

// string.sub(s, i [, j]), string.len(s) and string.reverse(s), as Lua
// 5.1 has them: positions may be numeric strings ("hello"):sub("2", "3")
// (gopher-lua refused them) and a number s is the text Lua 5.1 prints
// for it (gopher-lua's had 17 digits: string.len(1/3) was 18).

func sub(L *lua.LState) int {
	s := laux.CheckString(L, 1)
	i := posrelat(laux.CheckInteger(L, 2), len(s))
	j := posrelat(laux.OptInteger(L, 3, -1), len(s))
	i = max(i, 1)
	j = min(j, len(s))
	if i > j {
		L.Push(lua.LString(""))
		return 1
	}
	L.Push(lua.LString(s[i-1 : j]))
	return 1
}

func length(L *lua.LState) int {
	L.Push(laux.BoxInt(len(laux.CheckString(L, 1))))
	return 1
}

func reverse(L *lua.LState) int {
	b := []byte(laux.CheckString(L, 1))
	charge(L, len(b))
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	L.Push(lua.LString(b))
	return 1
}
