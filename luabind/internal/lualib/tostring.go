package lualib

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/laux"
)

// luaToString is the sandbox's tostring(v).
func luaToString(L *lua.LState) int {
	v := L.CheckAny(1)
	if n, ok := v.(lua.LNumber); ok {
		L.Push(lua.LString(laux.FormatNumber(n)))
		return 1
	}
	L.Push(L.ToStringMeta(v))
	return 1
}
