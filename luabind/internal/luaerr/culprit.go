package luaerr

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/luabind/internal/laux"
)

// The error mapper proper: it runs while gopher-lua raises an error, with
// the failing frame still on the stack, and rewrites the message in the
// words of reference Lua 5.4, naming the culprit.

// luaFrame is a Lua function's frame on the stack: its prototype, the
// instruction it is executing and the Debug to read its registers with.
type luaFrame struct {
	dbg   *lua.Debug
	proto *lua.FunctionProto
	pc    int
	where string
}

// frameAt returns the frame at stack level, or ok false when it is not a
// Lua function's.
func frameAt(L *lua.LState, level int) (f luaFrame, isLua bool, ok bool) {
	dbg, ok := L.GetStack(level)
	if !ok {
		return f, false, false
	}
	fv, err := L.GetInfo("fSl", dbg, lua.LNil)
	if err != nil {
		return f, false, false
	}
	fn, _ := fv.(*lua.LFunction)
	if fn == nil || fn.IsG {
		return f, false, true
	}
	pc, ok := gopherx.FramePC(dbg)
	if !ok || pc < 0 || pc >= len(fn.Proto.Code) {
		return f, false, false
	}
	return luaFrame{dbg: dbg, proto: fn.Proto, pc: pc, where: fmt.Sprintf("%s:%d: ", dbg.Source, dbg.CurrentLine)}, true, true
}

// reg returns the value of register r of the frame.
func (f luaFrame) reg(L *lua.LState, r int) lua.LValue {
	_, v := L.GetLocal(f.dbg, r+1)
	return v
}

// rk returns operand RK(x) of the frame's instruction: a constant or a
// register, and the register (-1 for a constant).
func (f luaFrame) rk(L *lua.LState, x int) (lua.LValue, int) {
	if x&gopherx.RKConstant != 0 {
		return f.proto.Constants[x&^gopherx.RKConstant], -1
	}
	return f.reg(L, x), x
}

// name names register r at the frame's instruction, checking that it
// holds a value of type typ, as the raw message said.
func (f luaFrame) name(L *lua.LState, r int, typ string) string {
	if r < 0 || f.reg(L, r).Type().String() != typ {
		return ""
	}
	return objName(f.proto, f.pc, r).String()
}

// Raw messages of gopher-lua that the mapper rewrites.
var (
	rawIndex   = regexp.MustCompile(`^attempt to index a non-table object\((\w+)\) with key '.*'$`)
	rawArith   = regexp.MustCompile(`^cannot perform (?:add|sub|mul|div|mod|pow) operation between \w+ and \w+$`)
	rawCompare = regexp.MustCompile(`^attempt to compare (\w+) with (\w+)$`)
	rawArg     = regexp.MustCompile(`^bad argument #(\d+) to (.*?) \((.*)\)$`)
	// rawFor maps each numeric for error to what failed and its register
	// after the loop's base.
	rawFor = map[string]struct {
		what string
		reg  int
	}{
		"for statement init must be a number":  {"initial value", 0},
		"for statement limit must be a number": {"limit", 1},
		"for statement step must be a number":  {"step", 2},
	}
)

// RewriteError returns msg, being raised now, in reference Lua's words
// with its culprit named; msg itself when it is not one of gopher-lua's
// runtime errors.
func RewriteError(L *lua.LState, msg string) string {
	f, isLua, ok := frameAt(L, 0)
	if !ok {
		return msg
	}
	if !isLua {
		// An error raised by a Go function: an argument error is counted
		// and named from the call site.
		msg = noValue(L, msg)
		caller, isLua, _ := frameAt(L, 1)
		if !isLua {
			return nameCallee(L, msg)
		}
		body, found := strings.CutPrefix(msg, caller.where)
		if !found {
			return msg
		}
		if isArith(caller) {
			// The strings' arithmetic metamethods raise gopher-lua's own
			// words: the culprit is named from the operation that called
			// them, as for an error the VM raised.
			if m := vmError(L, caller, body); m != "" {
				return caller.where + m
			}
		}
		return caller.where + argError(caller, body)
	}
	body, found := strings.CutPrefix(msg, f.where)
	if !found {
		return msg
	}
	if m := vmError(L, f, body); m != "" {
		return f.where + m
	}
	return msg
}

// vmError rewrites body, raised by the frame's instruction, or returns "".
func vmError(L *lua.LState, f luaFrame, body string) string {
	i := gopherx.Inst(f.proto.Code[f.pc])
	switch op := i.Op(); op {
	case lua.OP_GETTABLE, lua.OP_GETTABLEKS, lua.OP_SELF, lua.OP_SETTABLE, lua.OP_SETTABLEKS:
		m := rawIndex.FindStringSubmatch(body)
		if m == nil {
			return ""
		}
		obj := i.B()
		if op == lua.OP_SETTABLE || op == lua.OP_SETTABLEKS {
			obj = i.A()
		}
		return "attempt to index a " + m[1] + " value" + f.name(L, obj, m[1])
	case lua.OP_ADD, lua.OP_SUB, lua.OP_MUL, lua.OP_DIV, lua.OP_MOD, lua.OP_POW:
		if !rawArith.MatchString(body) {
			return ""
		}
		v, r := f.rk(L, i.B())
		if isNumeric(v) {
			v, r = f.rk(L, i.C())
		}
		return arithError(L, f, v, r)
	case lua.OP_UNM:
		if body != "__unm undefined" {
			return ""
		}
		return arithError(L, f, f.reg(L, i.B()), i.B())
	case lua.OP_LEN:
		if body != "__len undefined" {
			return ""
		}
		typ := f.reg(L, i.B()).Type().String()
		return "attempt to get length of a " + typ + " value" + f.name(L, i.B(), typ)
	case lua.OP_EQ, lua.OP_LT, lua.OP_LE:
		m := rawCompare.FindStringSubmatch(body)
		if m == nil || m[1] != m[2] {
			return ""
		}
		return "attempt to compare two " + m[1] + " values"
	case lua.OP_CALL, lua.OP_TAILCALL, lua.OP_TFORLOOP:
		if body != "attempt to call a non-function object" {
			return ""
		}
		typ := f.reg(L, i.A()).Type().String()
		if op == lua.OP_TFORLOOP {
			return "attempt to call a " + typ + " value"
		}
		return "attempt to call a " + typ + " value" + f.name(L, i.A(), typ)
	case lua.OP_FORPREP, lua.OP_FORLOOP:
		bad, ok := rawFor[body]
		if !ok {
			return ""
		}
		return fmt.Sprintf("bad 'for' %s (number expected, got %s)", bad.what, f.reg(L, i.A()+bad.reg).Type())

	}
	return ""
}

// arithError words a failed arithmetic on v, held in register r (-1 for a
// constant).
func arithError(L *lua.LState, f luaFrame, v lua.LValue, r int) string {
	typ := v.Type().String()
	return "attempt to perform arithmetic on a " + typ + " value" + f.name(L, r, typ)
}

// isNumeric reports whether arithmetic accepts v: a number, or a string
// that reads as one.
func isNumeric(v lua.LValue) bool {
	switch x := v.(type) {
	case lua.LNumber:
		return true
	case lua.LString:
		return laux.ReadsAsNumber(string(x))
	}
	return false
}

// argError renumbers and renames "bad argument #n to f (...)" raised by a
// Go function that the frame's instruction called: a method call does
// not count self, as in reference Lua, and the function is named as the
// call site names it.
func argError(caller luaFrame, body string) string {
	if !strings.HasPrefix(body, "bad argument #") {
		return body
	}
	m := rawArg.FindStringSubmatch(body)
	if m == nil {
		return body
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return body
	}
	name := m[2]
	i := gopherx.Inst(caller.proto.Code[caller.pc])
	if i.Op() == lua.OP_CALL || i.Op() == lua.OP_TAILCALL {
		if c := objName(caller.proto, caller.pc, i.A()); c.kind != "" && c.kind != "constant" {
			name = "'" + c.name + "'"
		}
		if isMethodCall(caller.proto, caller.pc) {
			n--
		}
	}
	if n == 0 {
		return fmt.Sprintf("calling %s on bad self (%s)", name, m[3])
	}
	return fmt.Sprintf("bad argument #%d to %s (%s)", n, name, m[3])
}

// namesKey is the registry field of a state's function names: first the
// tables they are found in (NameFunctions), then, from the first error
// that needs a name, the names themselves (nameOf).
const namesKey = "luahost.names"

// functionNames maps a state's functions to the names argument errors
// give them.
type functionNames map[*lua.LFunction]string

// NameFunctions records where to find the names argument errors give
// functions when no call site names them (a function called by pcall,
// xpcall or a coroutine's resume): the methods of entity values
// (methods) by their names, ctx's functions as "ctx.emit", the global
// functions of the state by their names ("tonumber"), a library's by its
// qualified name ("string.rep"), as reference Lua 5.4 names them. The
// names are made at the first error that needs one: most states never
// need one, and a state's table of names would cost it 40 KiB.
func NameFunctions(L *lua.LState, ctx, methods *lua.LTable) {
	where := L.CreateTable(2, 0)
	where.RawSetInt(1, methods)
	where.RawSetInt(2, ctx)
	L.SetField(L.Get(lua.RegistryIndex), namesKey, where)
}

// nameOf returns the name of fn in L (see NameFunctions).
func nameOf(L *lua.LState, fn *lua.LFunction) (string, bool) {
	reg := L.Get(lua.RegistryIndex).(*lua.LTable)
	var names functionNames
	switch x := reg.RawGetString(namesKey).(type) {
	case *lua.LUserData:
		names, _ = x.Value.(functionNames)
	case *lua.LTable:
		names = functionNames{}
		add := func(prefix string, t lua.LValue) {
			tb, ok := t.(*lua.LTable)
			if !ok {
				return
			}
			for k, v := tb.Next(lua.LNil); k != lua.LNil; k, v = tb.Next(k) {
				if name, ok := k.(lua.LString); ok {
					if f, ok := v.(*lua.LFunction); ok {
						names[f] = prefix + string(name)
					}
				}
			}
		}
		add("", x.RawGetInt(1))
		add("ctx.", x.RawGetInt(2))
		g := L.G.Global
		add("", g)
		for _, lib := range standardLibs {
			add(lib+".", g.RawGetString(lib))
		}
		reg.RawSetString(namesKey, &lua.LUserData{Value: names})
	}
	name, ok := names[fn]
	return name, ok
}

// noValue words "bad argument #n to 'f' (table expected, got nil)",
// raised by a Go function called with fewer than n arguments, as Lua 5.1
// does: "got no value". The message is on top of the function's stack,
// above its arguments.
func noValue(L *lua.LState, msg string) string {
	const gotNil = ", got nil)"
	if !strings.HasSuffix(msg, gotNil) {
		return msg
	}
	i := strings.Index(msg, "bad argument #")
	if i < 0 {
		return msg
	}
	m := rawArg.FindStringSubmatch(msg[i:])
	if m == nil {
		return msg
	}
	if n, err := strconv.Atoi(m[1]); err != nil || n < L.GetTop() {
		return msg
	}
	return strings.TrimSuffix(msg, gotNil) + ", got no value)"
}

// nameCallee words an error that a Go function called by another one
// (pcall, xpcall, a coroutine's resume) raises. A function of Lua 5.1's
// library is as Lua 5.1 has it: no code of the caller is running, so the
// message has no position, and an argument error names the function '?'.
// luahost's own functions (ctx.emit, entity methods) keep the position
// of the Lua code below and are named as reference Lua 5.4 names them.
func nameCallee(L *lua.LState, msg string) string {
	dbg, ok := L.GetStack(0)
	if !ok {
		return msg
	}
	v, err := L.GetInfo("f", dbg, lua.LNil)
	fn, isFn := v.(*lua.LFunction)
	if err != nil || !isFn {
		return msg
	}
	const anonymous = " to (anonymous) ("
	name, known := nameOf(L, fn)
	if known && !isStandard(name) {
		return strings.Replace(msg, anonymous, " to '"+name+"' (", 1)
	}
	if known && name == "error" || laux.HasOwnPosition(fn) {
		// error words its own position (error(msg, 2) through pcall
		// blames the code calling pcall, as in Lua 5.1), as do the
		// functions that raise with laux.Raise's.
		return msg
	}
	if where := luaWhere(L); where != "" {
		msg = strings.TrimPrefix(msg, where)
	}
	if strings.HasPrefix(msg, "bad argument #") {
		if m := rawArg.FindStringSubmatch(msg); m != nil {
			msg = "bad argument #" + m[1] + " to '?' (" + m[3] + ")"
		}
	}
	return msg
}

// luaWhere returns the position gopher-lua gives an error a Go function
// raises: that of the nearest Lua function down the stack.
func luaWhere(L *lua.LState) string {
	for level := 1; ; level++ {
		f, isLua, ok := frameAt(L, level)
		if !ok {
			return ""
		}
		if isLua {
			return f.where
		}
	}
}

// isStandard reports whether name (as nameOf gives it) is a function of
// Lua 5.1's own library.
func isStandard(name string) bool {
	if lib, _, found := strings.Cut(name, "."); found {
		return slices.Contains(standardLibs, lib)
	}
	return slices.Contains(standardGlobals, name)
}

// standardLibs and standardGlobals are Lua 5.1's libraries and global
// functions.
var (
	standardLibs    = []string{lua.CoroutineLibName, lua.MathLibName, lua.OsLibName, lua.StringLibName, lua.TabLibName, "debug"}
	standardGlobals = []string{
		"assert", "collectgarbage", "dofile", "error", "gcinfo", "getfenv", "getmetatable",
		"ipairs", "load", "loadfile", "loadstring", "module", "next", "pairs", "pcall", "print",
		"rawequal", "rawget", "rawset", "require", "select", "setfenv", "setmetatable",
		"tonumber", "tostring", "type", "unpack", "xpcall",
	}
)

// isArith reports whether the frame's instruction is an arithmetic one.
func isArith(f luaFrame) bool {
	switch gopherx.Inst(f.proto.Code[f.pc]).Op() {
	case lua.OP_ADD, lua.OP_SUB, lua.OP_MUL, lua.OP_DIV, lua.OP_MOD, lua.OP_POW, lua.OP_UNM:
		return true
	}
	return false
}
