package compile

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// Must compiles src, the source of one of luahost's own Lua helpers,
// under the chunk name name, with gopher-lua's compiler alone (no
// rewrite: the helpers are written to need none); it panics on an error.
func Must(name, src string) *lua.FunctionProto {
	chunk, err := parse.Parse(strings.NewReader(src), name)
	if err != nil {
		panic(err)
	}
	proto, err := lua.Compile(chunk, name)
	if err != nil {
		panic(err)
	}
	return proto
}
