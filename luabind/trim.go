package luabind

import (
	"slices"

	lua "github.com/yuin/gopher-lua"
)

// trimProto gives every function of a compiled chunk slices of its own
// size. gopher-lua's compiler hands each function the 1,024-entry buffers
// it wrote the code and line numbers into (12 KiB), and oversized
// constant and debug lists: kept by the chunk cache and by every state
// that loaded the chunk, they were most of a small script's memory.
func trimProto(p *lua.FunctionProto) {
	p.Code = slices.Clone(p.Code)
	p.DbgSourcePositions = slices.Clone(p.DbgSourcePositions)
	p.Constants = slices.Clone(p.Constants)
	p.FunctionPrototypes = slices.Clone(p.FunctionPrototypes)
	p.DbgLocals = slices.Clone(p.DbgLocals)
	p.DbgCalls = slices.Clone(p.DbgCalls)
	p.DbgUpvalues = slices.Clone(p.DbgUpvalues)
	for _, child := range p.FunctionPrototypes {
		trimProto(child)
	}
}
