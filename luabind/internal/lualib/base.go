package lualib

import (
	"math"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/luabind/internal/laux"
)

// The sandbox's own base functions, where gopher-lua's differ from
// reference Lua 5.1: tonumber, error, assert, setmetatable and
// the refusals of coroutine.resume.

// installBase replaces gopher-lua's versions in the global table g and
// its coroutine and math tables.
func installBase(L *lua.LState, g *lua.LTable) {
	co := g.RawGetString(lua.CoroutineLibName).(*lua.LTable)
	g.RawSetString("tonumber", L.NewFunction(luaToNumber))
	g.RawSetString("error", L.NewFunction(luaError))
	g.RawSetString("assert", L.NewFunction(luaAssert))
	g.RawSetString("setmetatable", L.NewFunction(luaSetMetatable))
	g.RawSetString("select", L.NewFunction(luaSelect))
	g.RawSetString("rawset", L.NewFunction(luaRawset))
	g.RawSetString("next", L.NewFunction(luaNext))
	// pairs returns a next of its own, another function than the
	// global, as in Lua 5.1.
	next := L.NewFunction(luaNext)
	g.RawSetString("pairs", L.NewFunction(func(L *lua.LState) int {
		t := laux.CheckTable(L, 1)
		L.Push(next)
		L.Push(t)
		L.Push(lua.LNil)
		return 3
	}))
	resume := co.RawGetString("resume").(*lua.LFunction)
	co.RawSetString("status", L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LString(L.Status(CheckThread(L, 1))))
		return 1
	}))
	co.RawSetString("resume", L.NewFunction(func(L *lua.LState) int {
		th := CheckThread(L, 1)
		if st := L.Status(th); st != "suspended" {
			L.Push(lua.LFalse)
			L.Push(lua.LString("cannot resume " + st + " coroutine"))
			return 2
		}
		top := L.GetTop()
		L.Push(resume)
		for i := 1; i <= top; i++ {
			L.Push(L.Get(i))
		}
		L.Call(top, lua.MultRet)
		return L.GetTop() - top
	}))
	m := g.RawGetString(lua.MathLibName).(*lua.LTable)
	m.RawSetString("huge", lua.LNumber(math.Inf(1)))
}

// CheckLuaFunction returns argument n as a function written in Lua, or
// raises Lua 5.1's "bad argument #n to 'f' (Lua function expected)",
// which coroutine.create and coroutine.wrap say of anything else.
func CheckLuaFunction(L *lua.LState, n int) *lua.LFunction {
	fn, ok := L.Get(n).(*lua.LFunction)
	if !ok || fn.IsG {
		L.ArgError(n, "Lua function expected")
	}
	return fn
}

// CheckThread returns argument n as a coroutine, or raises Lua 5.1's
// "bad argument #n to 'f' (coroutine expected)".
func CheckThread(L *lua.LState, n int) *lua.LState {
	th, ok := L.Get(n).(*lua.LState)
	if !ok {
		L.ArgError(n, "coroutine expected")
	}
	return th
}

// WrapCoroutine returns coroutine.wrap over the sandbox's create and
// resume: coroutine.wrap(f) returns a function that resumes a new
// coroutine of f with its arguments and returns what it yields or
// returns. An error inside the coroutine is raised again, a string one
// with the position of the function calling the wrapper (when that is Lua
// code), as Lua 5.1 does.
func WrapCoroutine(create, resume *lua.LFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		fn := CheckLuaFunction(L, 1)
		L.Push(create)
		L.Push(fn)
		L.Call(1, 1)
		th := L.Get(-1)
		L.Pop(1)
		L.Push(L.NewClosure(resumeWrapped, resume, th))
		return 1
	}
}

// resumeWrapped is a function coroutine.wrap returns: it resumes its
// coroutine (upvalue 2) with resume (upvalue 1), and raises an error
// of the coroutine again with the position luaL_error gives.
func resumeWrapped(L *lua.LState) int {
	top := L.GetTop()
	L.Push(L.Get(lua.UpvalueIndex(1)))
	L.Push(L.Get(lua.UpvalueIndex(2)))
	for i := 1; i <= top; i++ {
		L.Push(L.Get(i))
	}
	L.Call(top+1, lua.MultRet)
	if L.Get(top+1) == lua.LFalse {
		if msg, ok := L.Get(top + 2).(lua.LString); ok {
			laux.Raise(L, string(msg))
		}
		L.Error(L.Get(top+2), 0)
	}
	return L.GetTop() - top - 1
}

func init() { laux.OwnPosition(resumeWrapped) }

// tonumber(e [, base]) converts e to a number as Lua 5.1 does: in base 10
// a number, or a string that C's strtod reads whole (decimal, hexadecimal
// "0x1F", exponents "1e5", "inf", "nan", surrounding spaces); in bases 2
// to 36 an unsigned integer in that base (letters either case, "0x"
// allowed in base 16). Anything else is nil; a base outside 2..36 is an
// error.
func luaToNumber(L *lua.LState) int {
	base := laux.OptInt(L, 2, 10)
	if base == 10 {
		switch v := L.CheckAny(1).(type) {
		case lua.LNumber:
			L.Push(v)
			return 1
		case lua.LString:
			if n, ok := laux.ToNumber(string(v)); ok {
				L.Push(lua.LNumber(n))
				return 1
			}
		}
		L.Push(lua.LNil)
		return 1
	}
	s := laux.CheckString(L, 1)
	if base < 2 || base > 36 {
		L.ArgError(2, "base out of range")
	}
	if n, ok := laux.ToUnsigned(s, base); ok {
		L.Push(lua.LNumber(n))
		return 1
	}
	L.Push(lua.LNil)
	return 1
}

// error(message [, level]) raises message. A string (or number) message
// gets the position of the function at level (1, the default, is the
// function that called error; 0 adds nothing), and only when that
// function is Lua code, as in Lua 5.1: pcall(error, "x") fails with "x".
func luaError(L *lua.LState) int {
	v := L.Get(1)
	level := laux.OptInt(L, 2, 1)
	switch msg := v.(type) {
	case lua.LString:
		L.Error(lua.LString(laux.Where(L, level)+string(msg)), 0)
	case lua.LNumber:
		if pos := laux.Where(L, level); pos != "" {
			L.Error(lua.LString(pos+laux.FormatNumber(msg)), 0)
		}
	}
	L.Error(v, 0)
	return 0
}

// assert(v [, message]) returns all its arguments when v is true;
// otherwise it raises message (default "assertion failed!"; a number
// becomes a string) with the position of its caller when that is Lua
// code, as Lua 5.1 does.
func luaAssert(L *lua.LState) int {
	if L.ToBool(1) {
		return L.GetTop()
	}
	L.CheckAny(1)
	msg := "assertion failed!"
	switch v := L.Get(2).(type) {
	case *lua.LNilType:
	case lua.LString:
		msg = string(v)
	case lua.LNumber:
		msg = laux.FormatNumber(v)
	default:
		L.TypeError(2, lua.LTString)
	}
	laux.Raise(L, msg)
	return 0
}

// select(n, ...) returns the arguments after the n-th, or their count for
// "#": as in Lua 5.1, n may be a numeric string ("2"), a negative n counts
// from the end, and any string starting with "#" counts.
func luaSelect(L *lua.LState) int {
	n := L.GetTop()
	if s, ok := L.Get(1).(lua.LString); ok && len(s) > 0 && s[0] == '#' {
		L.Push(laux.BoxInt(n - 1))
		return 1
	}
	i := laux.CheckInt(L, 1)
	if i < 0 {
		i += n
	} else if i > n {
		i = n
	}
	if i < 1 {
		L.ArgError(1, "index out of range")
	}
	return n - i
}

// setmetatable(t, mt) sets table t's metatable to mt (a table or nil) and
// returns t. Only tables take a metatable, and a metatable with a
// __metatable field cannot be changed.
func luaSetMetatable(L *lua.LState) int {
	t := laux.CheckTable(L, 1)
	mt := L.Get(2)
	if L.GetTop() < 2 || mt.Type() != lua.LTNil && mt.Type() != lua.LTTable {
		// setmetatable(t) without a second argument is an error in Lua
		// 5.1, as a non-table is.
		L.ArgError(2, "nil or table expected")
	}
	if L.GetMetaField(t, "__metatable") != lua.LNil {
		laux.Raise(L, "cannot change a protected metatable")
	}
	L.SetMetatable(t, mt)
	L.SetTop(1)
	return 1
}

// idSize is Lua 5.1's LUA_IDSIZE: chunk names in runtime errors are cut
// to fit it; syntaxIDSize is its MAXSRC, the size of names in syntax
// errors.
const (
	idSize       = 60
	syntaxIDSize = 80
)

// ChunkID returns the name that runtime errors show for a chunk named
// name, as Lua 5.1's luaO_chunkid does: "=name" and "@file" show as name
// and file (a long file name keeps its end, after "..."); any other name
// is source text and shows as [string "first line..."].
func ChunkID(name string) string { return chunkID(name, idSize) }

// SyntaxChunkID is ChunkID for syntax errors, which Lua 5.1 gives names
// of up to 80 bytes.
func SyntaxChunkID(name string) string { return chunkID(name, syntaxIDSize) }

func chunkID(name string, idSize int) string {
	switch {
	case strings.HasPrefix(name, "="):
		return name[1:min(len(name), idSize)]
	case strings.HasPrefix(name, "@"):
		name = name[1:]
		if limit := idSize - len(" '...' ") - 1; len(name) > limit {
			return "..." + name[len(name)-limit:]
		}
		return name
	}
	limit := idSize - len(` [string "..."] `) - 1
	line, _, cut := strings.Cut(strings.ReplaceAll(name, "\r", "\n"), "\n")
	if len(line) > limit {
		line, cut = line[:limit], true
	}
	if cut {
		return `[string "` + line + `..."]`
	}
	return `[string "` + line + `"]`
}

// next(t [, k]) returns the key after k in t and its value, or nil. A
// key t does not hold is Lua 5.1's "invalid key to 'next'", raised from
// inside next, without a position: gopher-lua went on from t's second
// key, a silently wrong answer.
func luaNext(L *lua.LState) int {
	key, value, ok := gopherx.TableNext(laux.CheckTable(L, 1), L.Get(2))
	if !ok {
		L.Error(lua.LString("invalid key to 'next'"), 0)
	}
	if key == lua.LNil {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(key)
	L.Push(value)
	return 2
}

// rawset(t, k, v) sets t[k] = v without metamethods and returns t.
func luaRawset(L *lua.LState) int {
	t := L.CheckTable(1)
	k := L.CheckAny(2)
	L.CheckAny(3)
	if laux.IsCtx(t) {
		// ctx is read-only, also to rawset.
		L.RaiseError("cannot set ctx.%s: ctx is read-only", lua.LVAsString(L.ToStringMeta(k)))
	}
	// Lua 5.1 raises these from inside rawset, as the VM raises them for
	// t[k] = v, so without a position.
	if n, ok := k.(lua.LNumber); ok && math.IsNaN(float64(n)) {
		L.Error(lua.LString("table index is NaN"), 0)
	}
	if k == lua.LNil {
		L.Error(lua.LString("table index is nil"), 0)
	}
	t.RawSet(k, L.Get(3))
	L.SetTop(1)
	return 1
}
