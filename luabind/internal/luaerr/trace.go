package luaerr

import (
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/gopherx"
)

// Tracebacks of deep stacks. When an error reaches a protected call
// without a handler, gopher-lua formats a traceback of the whole call
// stack, and finding each frame walks the stack from the top: the cost is
// quadratic in its depth. With recursion allowed 12,000 deep,
// a runaway recursion would spend most of its budget there. DeepTrace
// makes the same traceback gopher-lua keeps (the innermost and outermost
// frames around a "..." line) by visiting only those frames.

// shallowStack is the depth up to which gopher-lua's own traceback is
// cheap enough.
const shallowStack = 64

// TraceEnds is how many frames a deep traceback shows at each end, as
// gopher-lua's.
const TraceEnds = 7

// DeepTrace returns the traceback of L's call stack in gopher-lua's
// format when it is deeper than shallowStack frames, or "" (gopher-lua's
// own traceback then costs little).
func DeepTrace(L *lua.LState) string {
	if _, ok := L.GetStack(shallowStack); !ok {
		return ""
	}
	// The deepest level, by doubling then bisecting: O(depth log depth).
	lo, hi := shallowStack, 2*shallowStack
	for {
		if _, ok := L.GetStack(hi); !ok {
			break
		}
		lo, hi = hi, 2*hi
	}
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if _, ok := L.GetStack(mid); ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	lines := []string{"stack traceback:"}
	for level := range TraceEnds {
		lines = append(lines, traceLine(L, level))
	}
	lines = append(lines, "\t...")
	for level := lo - TraceEnds + 2; level <= lo; level++ {
		lines = append(lines, traceLine(L, level))
	}
	lines = append(lines, "\t[G]: ?")
	return strings.Join(lines, "\n")
}

// traceLine is the traceback line of the function at level, as gopher-lua
// writes it: "\tfile:line: in function 'name'".
func traceLine(L *lua.LState, level int) string {
	dbg, ok := L.GetStack(level)
	if !ok {
		return "\t?"
	}
	name := "?"
	if _, err := L.GetInfo("n", dbg, lua.LNil); err == nil && dbg.Name != "" {
		name = dbg.Name
	}
	switch {
	case name == "main chunk" || name == "corountine":
	case name[0] != '(' && name[0] != '<':
		name = "function '" + name + "'"
	default:
		name = "function " + name
	}
	return fmt.Sprintf("\t%s in %s", L.Where(level), name)
}

// RaiseTraced hands the error on top of L's stack to next, gopher-lua's
// panic hook, or, on a deep stack, raises it with its traceback already
// made (DeepTrace), so that gopher-lua does not make it.
func RaiseTraced(L *lua.LState, next func(*lua.LState)) {
	if trace := DeepTrace(L); trace != "" {
		panic(&lua.ApiError{Type: lua.ApiErrorRun, Object: L.Get(-1), StackTrace: trace})
	}
	next(L)
}

// OverflowAsError, deferred, turns the Go panic gopher-lua raises when a
// call does not fit on its call stack into Lua 5.1's "stack overflow"
// error, raised (through L's panic hook) while the stack is still there
// to locate and trace it.
func OverflowAsError(L *lua.LState) {
	if r := recover(); r != nil {
		if r == gopherx.CallStackOverflow {
			L.RaiseError("stack overflow")
		}
		panic(r)
	}
}
