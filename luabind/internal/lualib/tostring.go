package lualib

import (
	"reflect"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/laux"
)

// luaToString is the sandbox's tostring(v).
func luaToString(L *lua.LState) int {
	L.Push(laux.ToString(L, L.CheckAny(1)))
	return 1
}

// IsToString reports whether v is the sandbox's own tostring: print then
// converts its arguments without calling it.
func IsToString(v lua.LValue) bool {
	fn, ok := v.(*lua.LFunction)
	return ok && fn.IsG && reflect.ValueOf(fn.GFunction).Pointer() == toStringCode
}

// toStringCode is the address of luaToString's code: every state's
// tostring is a function of it.
var toStringCode = reflect.ValueOf(lua.LGFunction(luaToString)).Pointer()
